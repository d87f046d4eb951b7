// stack_room.h — how much of the current thread's stack is left, for the compiler's
// recursive walks (expression evaluation, host-code evaluation, helper inlining). Bounds
// on nesting (400 expression levels, 64 calls) multiply one another; this check bounds
// their product by what the thread actually has, so deep input is a located CompileError
// instead of a stack overflow (issue 8).
#pragma once
#include <cstddef>

namespace tritium {

/// True when fewer than the reserve's bytes of the calling thread's stack are left below
/// the caller's frame. The reserve is 512 KiB, or a quarter of the stack where that is
/// less (room for the error path, the C library and uninstrumented recursion). The
/// thread's stack bounds are read once per thread (pthread_getattr_np; on macOS
/// pthread_get_stackaddr_np); where they cannot be read, the answer is always false.
bool stack_nearly_exhausted();

}  // namespace tritium
