// membw.cpp - host description and measured multi-threaded memcpy bandwidth.
#include "membw.h"

#include "runtime/cpu/thread_pool.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "timing.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace tritium::bench {
namespace {

std::string read_first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  return line;
}

// "32768K" / "1M" / "512" -> bytes.
int64_t parse_size(const std::string& s) {
  if (s.empty()) return 0;
  size_t pos = 0;
  int64_t v = 0;
  try {
    v = std::stoll(s, &pos);
  } catch (...) {
    return 0;
  }
  const char unit = pos < s.size() ? s[pos] : ' ';
  if (unit == 'K' || unit == 'k') v <<= 10;
  if (unit == 'M' || unit == 'm') v <<= 20;
  if (unit == 'G' || unit == 'g') v <<= 30;
  return v;
}

int64_t llc_from_sysfs() {
  int best_level = 0;
  int64_t best_size = 0;
  for (int i = 0; i < 16; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    const std::string level = read_first_line(dir + "level");
    if (level.empty()) continue;
    const std::string type = read_first_line(dir + "type");
    if (type == "Instruction") continue;
    const int lv = std::atoi(level.c_str());
    const int64_t size = parse_size(read_first_line(dir + "size"));
    if (lv > best_level && size > 0) {
      best_level = lv;
      best_size = size;
    }
  }
  return best_size;
}

// Runs fn(t) on `threads` threads (t = 0 on the calling thread) and joins them.
template <class Fn>
void parallel(int threads, Fn fn) {
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(fn, t);
  fn(0);
  for (std::thread& th : pool) th.join();
}

}  // namespace

MachineInfo machine_info() {
  MachineInfo m;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) {
        m.cpu_model = line.substr(colon + 1);
        m.cpu_model.erase(0, m.cpu_model.find_first_not_of(" \t"));
      }
      break;
    }
  }
  if (m.cpu_model.empty()) m.cpu_model = "unknown CPU";
  m.threads = static_cast<int>(runtime::cpu::cpu_threads());  // what the CPU runtime runs on
  m.llc_bytes = llc_from_sysfs();
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (m.llc_bytes <= 0) m.llc_bytes = std::max<long>(0, sysconf(_SC_LEVEL3_CACHE_SIZE));
#endif
  return m;
}

CopyBandwidth measure_copy_bandwidth(size_t buffer_bytes, int threads, int reps) {
  const MachineInfo m = machine_info();
  if (buffer_bytes == 0)
    buffer_bytes = std::max<size_t>(size_t{256} << 20, 8 * static_cast<size_t>(std::max<int64_t>(m.llc_bytes, 0)));
  if (threads <= 0) threads = m.threads;
  reps = std::max(1, reps);
  std::unique_ptr<char[]> src(new char[buffer_bytes]), dst(new char[buffer_bytes]);
  const size_t slice = (buffer_bytes / threads + 63) / 64 * 64;  // cache-line aligned slices
  auto range = [&](int t, size_t& lo, size_t& n) {
    lo = std::min(buffer_bytes, slice * t);
    n = std::min(buffer_bytes, lo + slice) - lo;
  };
  // Touch every page from the thread that will copy it (first-touch placement), and give the
  // source non-zero content.
  parallel(threads, [&](int t) {
    size_t lo, n;
    range(t, lo, n);
    std::memset(src.get() + lo, 0x5A, n);
    std::memset(dst.get() + lo, 0, n);
  });
  auto copy = [&](bool streaming) {
    parallel(threads, [&](int t) {
      size_t lo, n;
      range(t, lo, n);
      char* d = dst.get() + lo;
      const char* s = src.get() + lo;
#if defined(__SSE2__)
      if (streaming) {
        size_t i = 0;
        const size_t head = std::min(n, (64 - reinterpret_cast<uintptr_t>(d) % 64) % 64);
        std::memcpy(d, s, head);  // ordinary stores up to the first whole line
        for (i = head; i + 64 <= n; i += 64)
          for (size_t k = 0; k < 64; k += 16)
            _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + k),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + k)));
        std::memcpy(d + i, s + i, n - i);
        _mm_sfence();  // non-temporal stores are weakly ordered
        return;
      }
#endif
      (void)streaming;
      std::memcpy(d, s, n);
    });
  };
  TimingPlan plan;
  plan.warmup = 1;
  plan.repeat = reps;
  auto rate = [&](double median) { return median > 0 ? 2.0 * static_cast<double>(buffer_bytes) / median : 0.0; };
  double memcpy_rate = 0, stream_rate = 0;
#if defined(__SSE2__)
  // stats.h's interleaved order: A = memcpy, B = the streaming copy, A2 = memcpy again.
  const InterleavedTiming t = time_interleaved([&](Arm arm, int) { copy(arm == Arm::B); }, plan);
  memcpy_rate = rate(t.a.median);
  stream_rate = rate(t.b.median);
#else
  memcpy_rate = rate(time_launches([&] { copy(false); }, [] {}, plan).median);
#endif
  CopyBandwidth bw;
  bw.buffer_bytes = buffer_bytes;
  bw.threads = threads;
  bw.reps = reps;
  bw.memcpy_bytes_per_s = memcpy_rate;
  bw.stream_bytes_per_s = stream_rate;
  bw.bytes_per_s = std::max(bw.memcpy_bytes_per_s, bw.stream_bytes_per_s);
  if (bw.stream_bytes_per_s > 0)
    bw.method = fmt::format("{}-thread copies, the faster of memcpy ({:.1f} GB/s) and a non-temporal-store copy ({:.1f} GB/s),",
                            threads, bw.memcpy_bytes_per_s / 1e9, bw.stream_bytes_per_s / 1e9);
  return bw;
}

bool host_copy_is_roofline(const std::string& backend) { return backend == "cpu" || backend == "interp"; }

}  // namespace tritium::bench
