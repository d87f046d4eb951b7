// The NVRTC opt-out switch (tests/nvrtc_opt_out.h): only TRITIUM_NO_NVRTC=1 skips the
// CUDA compile checks; any other value keeps them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "nvrtc_opt_out.h"

TEST(NvrtcOptOut, OnlyTheValueOneSkips) {
  const char* old = std::getenv("TRITIUM_NO_NVRTC");
  const std::string saved = old ? old : "";
  for (const char* v : {"0", "", "yes", "true", "10"}) {
    setenv("TRITIUM_NO_NVRTC", v, 1);
    EXPECT_FALSE(tritium_no_nvrtc()) << "TRITIUM_NO_NVRTC=" << v;
  }
  setenv("TRITIUM_NO_NVRTC", "1", 1);
  EXPECT_TRUE(tritium_no_nvrtc());
  unsetenv("TRITIUM_NO_NVRTC");
  EXPECT_FALSE(tritium_no_nvrtc());
  if (old) setenv("TRITIUM_NO_NVRTC", saved.c_str(), 1);
}
