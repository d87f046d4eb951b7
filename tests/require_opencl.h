// REQUIRE_OPENCL(): at the top of a gtest body that needs an OpenCL device. Skips the test
// where none is usable (the loader's or the platform's reason), unless
// TRITIUM_REQUIRE_OPENCL=1 (scripts/test sets it where PoCL is installed): then it fails.
#pragma once
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "runtime/opencl/opencl_api.h"

#define REQUIRE_OPENCL()                                                                        \
  do {                                                                                          \
    const std::string why_ = tritium::runtime::opencl::unavailable_reason();                    \
    if (!why_.empty()) {                                                                        \
      const char* req_ = std::getenv("TRITIUM_REQUIRE_OPENCL");                                 \
      if (req_ && std::string(req_) == "1") FAIL() << "TRITIUM_REQUIRE_OPENCL=1 but: " << why_; \
      GTEST_SKIP() << why_;                                                                     \
    }                                                                                           \
  } while (0)
