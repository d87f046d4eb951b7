// The CUDA driver API and NVRTC, loaded with dlopen at first use, so tritium builds and runs
// where no CUDA toolkit or NVIDIA driver is installed (cuda.h is never included: the few
// types and constants below are declared here, with the values of CUDA 13's cuda.h).
//
// Libraries searched (first that loads wins):
//   driver   libcuda.so.1 through the dynamic loader (LD_LIBRARY_PATH, the ldconfig cache);
//            never the toolkit's lib64/stubs/libcuda.so, which only fails.
//   NVRTC    $TRITIUM_NVRTC (a full path to the library) when set, else, for each of the
//            names libnvrtc.so.13, libnvrtc.so.12, libnvrtc.so:
//              1. the dynamic loader (LD_LIBRARY_PATH, the ldconfig cache);
//              2. $CUDA_HOME/lib64, $CUDA_PATH/lib64, /usr/local/cuda/lib64,
//                 /usr/local/cuda/targets/x86_64-linux/lib;
//              3. the pip wheels nvidia-cuda-nvrtc (CUDA 13: site-packages/nvidia/cu13/lib)
//                 and nvidia-cuda-nvrtc-cu12 (site-packages/nvidia/cuda_nvrtc/lib), under
//                 $VIRTUAL_ENV, $CONDA_PREFIX, /opt/torch/.venv, ~/.local, /usr/local and
//                 /usr (lib/python3.*/site-packages and dist-packages).
// NVRTC is usable without a driver (offline PTX / cubin compilation in CI).
//
// Every call goes through check() / check_nvrtc(), which throw std::runtime_error naming the
// call and the error, e.g.
//   "cuda: cuMemAlloc_v2(1048576 bytes) failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory)".
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace tritium::runtime::cuda {

// ---- driver API types (opaque handles and the few enum values used) ----
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
struct CUctx_st;
using CUcontext = CUctx_st*;
struct CUmod_st;
using CUmodule = CUmod_st*;
struct CUfunc_st;
using CUfunction = CUfunc_st*;
struct CUstream_st;
using CUstream = CUstream_st*;
struct CUevent_st;
using CUevent = CUevent_st*;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
// CUdevice_attribute
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
constexpr int CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12;
constexpr int CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13;
constexpr int CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36;
constexpr int CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37;
constexpr int CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82;
constexpr int CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
// CUfunction_attribute
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3;
constexpr int CU_FUNC_ATTRIBUTE_NUM_REGS = 4;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
// CUjit_option
constexpr int CU_JIT_ERROR_LOG_BUFFER = 5;
constexpr int CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6;

// ---- NVRTC types ----
using nvrtcResult = int;
struct _nvrtcProgram;
using nvrtcProgram = _nvrtcProgram*;
constexpr nvrtcResult NVRTC_SUCCESS = 0;

/// The driver entry points tritium uses (names as exported by libcuda.so.1).
struct DriverApi {
  std::string library;  ///< path of the loaded library (from dladdr)
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int* version);
  CUresult (*cuGetErrorName)(CUresult error, const char** name);
  CUresult (*cuGetErrorString)(CUresult error, const char** text);
  CUresult (*cuDeviceGetCount)(int* count);
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal);
  CUresult (*cuDeviceGetName)(char* name, int len, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device);
  CUresult (*cuDeviceTotalMem_v2)(size_t* bytes, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* ctx, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease_v2)(CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext ctx);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemAlloc_v2)(CUdeviceptr* ptr, size_t bytes);
  CUresult (*cuMemFree_v2)(CUdeviceptr ptr);
  CUresult (*cuMemcpyHtoD_v2)(CUdeviceptr dst, const void* src, size_t bytes);
  CUresult (*cuMemcpyDtoH_v2)(void* dst, CUdeviceptr src, size_t bytes);
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count, CUstream stream);
  CUresult (*cuMemcpyDtoHAsync_v2)(void* dst, CUdeviceptr src, size_t bytes, CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuModuleLoadDataEx)(CUmodule* module, const void* image, unsigned num_options, int* options,
                                 void** option_values);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction* fn, CUmodule module, const char* name);
  CUresult (*cuFuncGetAttribute)(int* value, int attribute, CUfunction fn);
  CUresult (*cuFuncSetAttribute)(CUfunction fn, int attribute, int value);
  CUresult (*cuLaunchKernel)(CUfunction fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned shared_bytes, CUstream stream, void** params, void** extra);
  // Timing (the bench's device clock) and device-to-device copies (its copy bandwidth).
  CUresult (*cuEventCreate)(CUevent* event, unsigned flags);
  CUresult (*cuEventDestroy_v2)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float* ms, CUevent start, CUevent end);
  CUresult (*cuMemcpyDtoD_v2)(CUdeviceptr dst, CUdeviceptr src, size_t bytes);
};

/// The NVRTC entry points tritium uses.
struct NvrtcApi {
  std::string library;  ///< path of the loaded library
  int major = 0, minor = 0;  ///< nvrtcVersion()
  const char* (*nvrtcGetErrorString)(nvrtcResult result);
  nvrtcResult (*nvrtcVersion)(int* major, int* minor);
  nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram* prog, const char* src, const char* name, int num_headers,
                                    const char* const* headers, const char* const* include_names);
  nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram* prog);
  nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram prog, int num_options, const char* const* options);
  nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram prog, size_t* size);
  nvrtcResult (*nvrtcGetPTX)(nvrtcProgram prog, char* ptx);
  nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram prog, size_t* size);
  nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram prog, char* cubin);
  nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram prog, size_t* size);
  nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram prog, char* log);
};

/// Whether a library (or the whole backend) is usable here, and why not.
struct Availability {
  bool available = false;
  std::string reason;  ///< empty when available
};

/// Loads libcuda.so.1 and resolves every DriverApi entry, once per process (thread-safe),
/// without calling cuInit. Available unless the library is missing ("libcuda.so.1 not found
/// (no NVIDIA driver): <dlerror>") or lacks an entry ("libcuda.so.1 lacks cuXxx: ...").
Availability driver_library_status();

/// The driver status for the "cuda" backend: library loaded, cuInit(0) succeeded (called
/// once per process) and at least one device exists. Reasons: those of
/// driver_library_status(), "cuInit failed: CUDA_ERROR_NO_DEVICE (no CUDA-capable device is
/// detected)", "no CUDA device (cuDeviceGetCount returned 0)".
Availability driver_status();

/// The driver table after a successful driver_status(). Throws std::runtime_error
/// ("cuda: <reason>") when the driver is unavailable.
const DriverApi& driver();

/// Loads NVRTC (search order in the file comment) once per process and calls nvrtcVersion.
/// Reason when missing: "NVRTC not found: tried <names and dirs>: <last dlerror>".
Availability nvrtc_status();

/// The NVRTC table. Throws std::runtime_error ("nvrtc: <reason>") when NVRTC is unavailable.
const NvrtcApi& nvrtc();

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" for a driver result (cuGetErrorName /
/// cuGetErrorString). Without a driver that can name it: the name from a table of common
/// results ("CUDA_ERROR_OUT_OF_MEMORY"), else "CUresult <n>".
std::string error_text(CUresult r);

/// Does nothing when `r` is CUDA_SUCCESS; else throws std::runtime_error
/// "cuda: <call> failed: <error_text(r)>" (`call` names the entry and its arguments, e.g.
/// "cuMemAlloc_v2(1048576 bytes)"), plus "; <context>" when `context` is not empty.
void check(CUresult r, std::string_view call, std::string_view context = {});

/// Does nothing when `r` is NVRTC_SUCCESS; else throws std::runtime_error
/// "nvrtc: <call> failed: <nvrtcGetErrorString(r)>".
void check_nvrtc(nvrtcResult r, std::string_view call);

/// The NVRTC library names and directories nvrtc_status() searches, in order (for messages
/// and tests). Directories that do not exist are left out.
std::vector<std::string> nvrtc_search_dirs();

}  // namespace tritium::runtime::cuda
