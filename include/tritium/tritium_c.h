/* tritium_c.h — a C ABI over the C++ API (tritium.h), for ctypes / cffi and other
 * languages: compile a kernel file's kernel for a backend and launch it on memory the
 * caller owns (device pointers of the same CUDA context, e.g. torch's; host memory on the
 * cpu backends). Built as libtritium_c.so.
 *
 * Errors: functions returning a pointer return NULL, those returning int return nonzero;
 * tritium_c_last_error() then gives the message (the C++ Error's text: a CompileError's
 * "file:line:col: error: ...", an argument error naming the parameter, a device error
 * naming the failing driver call). The message is per thread and valid until that
 * thread's next call.
 *
 * Thread safety: as tritium.h — compiles may run concurrently; launches on one backend
 * should be serialized by the caller.
 */
#ifndef TRITIUM_C_H
#define TRITIUM_C_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define TRITIUM_C_API __attribute__((visibility("default")))
#else
#define TRITIUM_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** One launch argument, in the order of the compiled kernel's runtime parameters. */
typedef struct tritium_c_arg {
  int kind;           /**< TRITIUM_C_PTR, TRITIUM_C_INT, TRITIUM_C_FLOAT or TRITIUM_C_NONE */
  int64_t i;          /**< value of an INT argument */
  double f;           /**< value of a FLOAT argument (passed as the parameter's float type) */
  void* ptr;          /**< address of a PTR argument (borrowed, never freed) */
  uint64_t bytes;     /**< bytes addressable from ptr (recorded with the buffer; kernels'
                           accesses are not bounds-checked, as in upstream Triton, except
                           on the cpu backend under TRITIUM_SANITIZE=1) */
  const char* dtype;  /**< element dtype of a PTR argument ("fp32", "bf16", ...) or NULL */
} tritium_c_arg;

enum { TRITIUM_C_PTR = 0, TRITIUM_C_INT = 1, TRITIUM_C_FLOAT = 2, TRITIUM_C_NONE = 3 };
/** Flags of tritium_c_compile (other bits are an error). */
enum { TRITIUM_C_PORTABLE = 1, TRITIUM_C_DEBUG = 2 };

/** A compiled kernel specialization (a tritium::CompiledKernel). */
typedef struct tritium_c_kernel tritium_c_kernel;

/** The last error message of this thread ("" when none). */
TRITIUM_C_API const char* tritium_c_last_error(void);
/** tritium's version, e.g. "0.1.0". */
TRITIUM_C_API const char* tritium_c_version(void);
/** The best backend present ("cuda" where a GPU is, else "cpu"); valid for the process. */
TRITIUM_C_API const char* tritium_c_best_backend(void);

/** Compiles kernel `kernel` of the Triton-language file `path` for `backend` ("" or NULL:
 * the best backend) with the AOT `signature` (tritium.h: one entry per parameter,
 * constexpr values inline, e.g. "*fp32:16, *fp32:16, i32, 1024"), `num_warps`,
 * `num_stages` and `flags`. Parsed files and compiled specializations are cached for the
 * process. Returns NULL on error (a missing file, a compile error with file:line:col, a
 * signature that does not fit). Release with tritium_c_release. */
TRITIUM_C_API tritium_c_kernel* tritium_c_compile(const char* backend, const char* path, const char* kernel,
                                                  const char* signature, int num_warps, int num_stages, int flags);

/** Launches `k` over grid (gx, gy, gz) with `nargs` arguments. `wait` nonzero: waits for
 * completion (CompiledKernel::launch); zero: enqueues where the backend can
 * (CompiledKernel::launch_async; on cuda, the default stream). Returns 0, or nonzero with
 * the error (argument count, kind, specialization, device) in tritium_c_last_error(). */
TRITIUM_C_API int tritium_c_launch(const tritium_c_kernel* k, int64_t gx, int64_t gy, int64_t gz,
                                   const tritium_c_arg* args, int nargs, int wait);

/** Waits for every launch on `backend` ("" / NULL: the best); nonzero on an error of an
 * earlier asynchronous launch (named in the message). */
TRITIUM_C_API int tritium_c_synchronize(const char* backend);

/** The backend's generated source of `k` (CUDA C++ for cuda, C++ for cpu). */
TRITIUM_C_API const char* tritium_c_source(const tritium_c_kernel* k);
/** The canonical signature of `k`'s specialization. */
TRITIUM_C_API const char* tritium_c_signature(const tritium_c_kernel* k);
/** The number of runtime arguments `k` takes. */
TRITIUM_C_API int tritium_c_num_args(const tritium_c_kernel* k);
/** Releases a handle from tritium_c_compile (NULL is ignored). */
TRITIUM_C_API void tritium_c_release(tritium_c_kernel* k);

#ifdef __cplusplus
}
#endif

#endif /* TRITIUM_C_H */
