#include "runtime/cpu/stream_policy.h"

#include "runtime/cpu/thread_pool.h"

#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace tritium::runtime::cpu {

int64_t stream_min_bytes_for(const std::string& value, int64_t l2_bytes, int64_t threads) {
  if (value == "never" || value == "0") return -1;
  if (value == "always" || value == "1") return 0;
  if (value.empty() || value == "auto") {
    if (l2_bytes <= 0 || threads <= 0) return int64_t{8} << 20;
    return 2 * l2_bytes * threads;
  }
  size_t used = 0;
  long long n = -1;
  try {
    if (value[0] >= '0' && value[0] <= '9') n = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || n < 0)
    throw std::runtime_error("TRITIUM_CPU_STREAM_STORES must be never, always, auto or a byte count, not '" +
                                value + "'");
  return n;
}

int64_t stream_min_bytes() {
  static const int64_t l2 = [] {
#ifdef _SC_LEVEL2_CACHE_SIZE
    long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
    return v > 0 ? int64_t{v} : int64_t{0};
#else
    return int64_t{0};
#endif
  }();
  static const int64_t threads = cpu_threads();  // the threads that stream at once
  const char* s = std::getenv("TRITIUM_CPU_STREAM_STORES");
  return stream_min_bytes_for(s ? s : "", l2, threads);
}

}  // namespace tritium::runtime::cpu
