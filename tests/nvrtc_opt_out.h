// nvrtc_opt_out.h - the one switch that lets a machine without NVRTC skip the CUDA compile
// checks: TRITIUM_NO_NVRTC=1 exactly (any other value, "0" included, keeps them, so a
// stray setting cannot turn the checks into silent passes).
#pragma once
#include <cstdlib>
#include <cstring>

inline bool tritium_no_nvrtc() {
  const char* v = std::getenv("TRITIUM_NO_NVRTC");
  return v != nullptr && std::strcmp(v, "1") == 0;
}
