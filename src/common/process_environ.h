// The process environment as a `char**` (for posix_spawn and os.environ). POSIX declares
// `environ` for programs, but on Apple platforms a shared library (libtritium_c.dylib, the
// Python module) cannot link against it and must ask _NSGetEnviron().
#pragma once

#if defined(__APPLE__)
#include <crt_externs.h>
namespace tritium {
inline char** process_environ() { return *_NSGetEnviron(); }
}  // namespace tritium
#else
extern char** environ;
namespace tritium {
inline char** process_environ() { return environ; }
}  // namespace tritium
#endif
