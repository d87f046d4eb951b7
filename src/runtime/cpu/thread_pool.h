// A persistent pool of worker threads with large stacks, used by the CPU runtime to run
// a grid's programs in parallel. Generated kernels keep tiles in local arrays (a 128x128
// fp32 accumulator is 64 KB), so workers get big stacks (default 256 MiB of address
// space; only touched pages are committed) instead of the 8 MiB of an ordinary thread.
//
// Usage:
//   ThreadPool& pool = ThreadPool::global();
//   pool.run([&](unsigned worker) { ... });   // runs on every worker, returns when all finish
#pragma once
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <vector>

#include <pthread.h>

namespace tritium::runtime::cpu {

/// The number of threads the CPU runtime runs programs on: $TRITIUM_NUM_THREADS when set (a
/// whole number from 1 to 4096; anything else throws std::runtime_error naming the
/// variable and the value), else std::thread::hardware_concurrency() (at least 1).
unsigned cpu_threads();

/// The stack of each worker of the global pool (address space, committed as touched).
constexpr size_t kWorkerStackBytes = size_t{256} << 20;
/// What one program's code may use of it (the cpu backend and the serial MSL shape on
/// msl-emu refuse kernels needing more): the rest holds the pool's and the launcher's
/// frames and the C library's (formatting a failed device_assert's message, printf).
constexpr size_t kProgramStackBytes = kWorkerStackBytes - (size_t{1} << 20);

class ThreadPool {
 public:
  /// Starts `workers` threads (at least one), each with a stack of `stack_bytes`.
  ThreadPool(unsigned workers, size_t stack_bytes);
  /// Stops and joins the workers.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  /// Number of worker threads.
  unsigned size() const { return static_cast<unsigned>(threads_.size()); }

  /// Calls `job(worker_index)` once on every worker and waits until all calls return.
  /// Calls from several threads are serialized. `job` must not throw.
  void run(const std::function<void(unsigned)>& job);

  /// The process-wide pool: cpu_threads() workers, 256 MiB stacks; created on first use,
  /// and again in a forked child (which inherits no worker threads). Never destroyed.
  static ThreadPool& global();

 private:
  static void* thread_main(void* arg);
  void worker_loop(unsigned index);

  std::vector<pthread_t> threads_;
  std::mutex run_mu_;  // serializes run()
  std::mutex mu_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(unsigned)>* job_ = nullptr;
  unsigned long generation_ = 0;
  unsigned pending_ = 0;
  bool stop_ = false;
};

}  // namespace tritium::runtime::cpu
