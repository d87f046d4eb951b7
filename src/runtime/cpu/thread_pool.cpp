#include "runtime/cpu/thread_pool.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

namespace tritium::runtime::cpu {

namespace {
struct StartArg {
  ThreadPool* pool;
  unsigned index;
};
}  // namespace

ThreadPool::ThreadPool(unsigned workers, size_t stack_bytes) {
  if (workers == 0) workers = 1;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (int rc = pthread_attr_setstacksize(&attr, stack_bytes); rc != 0) {
    pthread_attr_destroy(&attr);
    throw std::runtime_error(std::string("thread pool: bad stack size: ") + std::strerror(rc));
  }
  for (unsigned i = 0; i < workers; ++i) {
    auto* arg = new StartArg{this, i};
    pthread_t t;
    int rc = pthread_create(&t, &attr, &ThreadPool::thread_main, arg);
    if (rc != 0) {
      delete arg;
      if (threads_.empty()) {
        pthread_attr_destroy(&attr);
        throw std::runtime_error(std::string("thread pool: cannot start a worker: ") + std::strerror(rc));
      }
      break;  // run with the workers we have
    }
    threads_.push_back(t);
  }
  pthread_attr_destroy(&attr);
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lk(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  for (pthread_t t : threads_) pthread_join(t, nullptr);
}

void* ThreadPool::thread_main(void* p) {
  auto* arg = static_cast<StartArg*>(p);
  ThreadPool* pool = arg->pool;
  unsigned index = arg->index;
  delete arg;
  pool->worker_loop(index);
  return nullptr;
}

void ThreadPool::worker_loop(unsigned index) {
  unsigned long seen = 0;
  for (;;) {
    const std::function<void(unsigned)>* job;
    {
      std::unique_lock<std::mutex> lk(mu_);
      wake_.wait(lk, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
    }
    (*job)(index);
    {
      std::lock_guard<std::mutex> lk(mu_);
      if (--pending_ == 0) done_.notify_all();
    }
  }
}

void ThreadPool::run(const std::function<void(unsigned)>& job) {
  std::lock_guard<std::mutex> serial(run_mu_);
  std::unique_lock<std::mutex> lk(mu_);
  job_ = &job;
  pending_ = size();
  ++generation_;
  wake_.notify_all();
  done_.wait(lk, [&] { return pending_ == 0; });
  job_ = nullptr;
}

unsigned cpu_threads() {
  if (const char* s = std::getenv("TRITIUM_NUM_THREADS")) {
    const std::string v(s);
    size_t used = 0;
    long n = -1;
    try {
      n = std::stol(v, &used);
    } catch (const std::exception&) {
      n = -1;
    }
    if (used != v.size() || n < 1 || n > 4096)
      throw std::runtime_error("TRITIUM_NUM_THREADS must be a whole number from 1 to 4096, not '" + v + "'");
    return static_cast<unsigned>(n);
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

ThreadPool& ThreadPool::global() {
  // A forked child inherits the pool object but none of its threads: it gets a fresh pool
  // (the parent's copy is abandoned, never joined).
  static std::mutex mu;
  static ThreadPool* pool = nullptr;
  static pid_t owner = 0;
  std::lock_guard<std::mutex> lk(mu);
  if (!pool || owner != ::getpid()) {
    pool = new ThreadPool(cpu_threads(), kWorkerStackBytes);  // lives until the process exits
    owner = ::getpid();
  }
  return *pool;
}

}  // namespace tritium::runtime::cpu
