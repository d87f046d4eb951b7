// stack_room.cpp - see stack_room.h.
#include "common/stack_room.h"

#include <pthread.h>

#include <algorithm>
#include <cstdint>

namespace tritium {
namespace {

// What is kept below the checked frame: 512 KiB, or a quarter of a smaller stack.
size_t reserve_of(size_t stack_bytes) { return std::min<size_t>(size_t{512} << 10, stack_bytes / 4); }

struct StackLimit {
  uintptr_t low = 0;  // the lowest usable address plus the reserve; 0: unknown
};

StackLimit read_limit() {
  StackLimit l;
#if defined(__APPLE__)
  // macOS: the stack's highest address and its size.
  const auto top = reinterpret_cast<uintptr_t>(pthread_get_stackaddr_np(pthread_self()));
  const size_t size = pthread_get_stacksize_np(pthread_self());
  if (top && size) l.low = top - size + reserve_of(size);
  return l;
#else
  pthread_attr_t a;
  if (pthread_getattr_np(pthread_self(), &a) != 0) return l;
  void* addr = nullptr;
  size_t size = 0;
  if (pthread_attr_getstack(&a, &addr, &size) == 0 && addr && size) {
    l.low = reinterpret_cast<uintptr_t>(addr) + reserve_of(size);  // stacks grow down on every target here
  }
  pthread_attr_destroy(&a);
  return l;
#endif
}

}  // namespace

bool stack_nearly_exhausted() {
  thread_local const StackLimit limit = read_limit();
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  return limit.low != 0 && here < limit.low;
}

}  // namespace tritium
