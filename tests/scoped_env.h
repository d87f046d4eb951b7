// An environment variable set for the lifetime of a scope (unset after it, also when the
// scope is left by an exception): tests that steer a backend through its environment
// (TRITIUM_MSL_SHAPE, TRITIUM_OPENCL_SHAPE).
#pragma once
#include <cstdlib>
#include <string>

struct ScopedEnv {
  /// Sets `name` to `value`; an empty value leaves the variable unset.
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (!value.empty()) setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() { unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};
