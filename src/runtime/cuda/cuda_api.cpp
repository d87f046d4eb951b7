// Loading the CUDA driver and NVRTC with dlopen (see cuda_api.h for the search order).
#include "runtime/cuda/cuda_api.h"

#include <dlfcn.h>
#include <glob.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

namespace tritium::runtime::cuda {
namespace {
namespace fs = std::filesystem;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::string last_dlerror() {
  const char* e = dlerror();
  return e ? std::string(e) : std::string("unknown dlopen error");
}

/// The file a loaded symbol comes from (dladdr), or `fallback`.
std::string library_of(void* sym, const std::string& fallback) {
  Dl_info info{};
  if (sym && dladdr(sym, &info) != 0 && info.dli_fname) {
    std::error_code ec;
    fs::path p = fs::canonical(info.dli_fname, ec);
    return ec ? std::string(info.dli_fname) : p.string();
  }
  return fallback;
}

/// Resolves `name` from `handle` into `slot`; returns false (and records the name) if absent.
template <typename Fn>
bool resolve(void* handle, const char* name, Fn& slot, std::string& missing) {
  slot = reinterpret_cast<Fn>(dlsym(handle, name));
  if (!slot && missing.empty()) missing = name;
  return slot != nullptr;
}

/// Names of the common CUresult values (cuda.h), for when the driver cannot name one (no
/// driver, or the toolkit's stub libcuda, whose every entry fails).
const char* known_error_name(CUresult r) {
  switch (r) {
    case 1: return "CUDA_ERROR_INVALID_VALUE";
    case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
    case 3: return "CUDA_ERROR_NOT_INITIALIZED";
    case 4: return "CUDA_ERROR_DEINITIALIZED";
    case 34: return "CUDA_ERROR_STUB_LIBRARY";
    case 100: return "CUDA_ERROR_NO_DEVICE";
    case 101: return "CUDA_ERROR_INVALID_DEVICE";
    case 200: return "CUDA_ERROR_INVALID_IMAGE";
    case 201: return "CUDA_ERROR_INVALID_CONTEXT";
    case 209: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
    case 218: return "CUDA_ERROR_INVALID_PTX";
    case 222: return "CUDA_ERROR_UNSUPPORTED_PTX_VERSION";
    case 400: return "CUDA_ERROR_INVALID_HANDLE";
    case 500: return "CUDA_ERROR_NOT_FOUND";
    case 700: return "CUDA_ERROR_ILLEGAL_ADDRESS";
    case 701: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    case 710: return "CUDA_ERROR_ASSERT";
    case 715: return "CUDA_ERROR_ILLEGAL_INSTRUCTION";
    case 719: return "CUDA_ERROR_LAUNCH_FAILED";
    case 803: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
    case 999: return "CUDA_ERROR_UNKNOWN";
    default: return nullptr;
  }
}

/// error_text() for a table being loaded (no call into driver_state(): no recursion into
/// its call_once).
std::string error_text_of(const DriverApi& a, CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (a.cuGetErrorName && a.cuGetErrorName(r, &name) != CUDA_SUCCESS) name = nullptr;
  if (a.cuGetErrorString && a.cuGetErrorString(r, &text) != CUDA_SUCCESS) text = nullptr;
  if (!name) name = known_error_name(r);
  if (!name) return fmt::format("CUresult {}", r);
  return text ? fmt::format("{} ({})", name, text) : std::string(name);
}

struct DriverState {
  DriverApi api{};
  Availability library;  // dlopen + dlsym
  Availability full;     // + cuInit + device count
};

void load_driver(DriverState& s) {
  dlerror();
  void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    s.library.reason = "libcuda.so.1 not found (no NVIDIA driver): " + last_dlerror();
    s.full.reason = s.library.reason;
    return;
  }
  DriverApi& a = s.api;
  std::string missing;
#define TR_CU_SYM(name) resolve(h, #name, a.name, missing)
  TR_CU_SYM(cuInit), TR_CU_SYM(cuDriverGetVersion), TR_CU_SYM(cuGetErrorName), TR_CU_SYM(cuGetErrorString),
      TR_CU_SYM(cuDeviceGetCount), TR_CU_SYM(cuDeviceGet), TR_CU_SYM(cuDeviceGetName),
      TR_CU_SYM(cuDeviceGetAttribute), TR_CU_SYM(cuDeviceTotalMem_v2), TR_CU_SYM(cuDevicePrimaryCtxRetain),
      TR_CU_SYM(cuDevicePrimaryCtxRelease_v2), TR_CU_SYM(cuCtxSetCurrent), TR_CU_SYM(cuCtxSynchronize),
      TR_CU_SYM(cuMemAlloc_v2), TR_CU_SYM(cuMemFree_v2), TR_CU_SYM(cuMemcpyHtoD_v2), TR_CU_SYM(cuMemcpyDtoH_v2),
      TR_CU_SYM(cuMemsetD32Async), TR_CU_SYM(cuMemcpyDtoHAsync_v2), TR_CU_SYM(cuStreamSynchronize),
      TR_CU_SYM(cuModuleLoadDataEx), TR_CU_SYM(cuModuleUnload), TR_CU_SYM(cuModuleGetFunction),
      TR_CU_SYM(cuFuncGetAttribute), TR_CU_SYM(cuFuncSetAttribute), TR_CU_SYM(cuLaunchKernel),
      TR_CU_SYM(cuEventCreate), TR_CU_SYM(cuEventDestroy_v2), TR_CU_SYM(cuEventRecord),
      TR_CU_SYM(cuEventSynchronize), TR_CU_SYM(cuEventElapsedTime), TR_CU_SYM(cuMemcpyDtoD_v2);
#undef TR_CU_SYM
  a.library = library_of(reinterpret_cast<void*>(a.cuInit), "libcuda.so.1");
  if (!missing.empty()) {
    s.library.reason = fmt::format("{} lacks {} (driver too old?)", a.library, missing);
    s.full.reason = s.library.reason;
    return;  // the handle stays open: harmless, and dlclose of a driver is not worth the risk
  }
  s.library.available = true;
  if (CUresult r = a.cuInit(0); r != CUDA_SUCCESS) {
    s.full.reason = "cuInit failed: " + error_text_of(a, r);
    if (r == 34) s.full.reason += fmt::format(" ({} is the toolkit's stub, not a driver)", a.library);
    return;
  }
  int count = 0;
  if (CUresult r = a.cuDeviceGetCount(&count); r != CUDA_SUCCESS) {
    s.full.reason = "cuDeviceGetCount failed: " + error_text_of(a, r);
    return;
  }
  if (count <= 0) {
    s.full.reason = "no CUDA device (cuDeviceGetCount returned 0)";
    return;
  }
  s.full.available = true;
}

DriverState& driver_state() {
  static DriverState s;
  static std::once_flag once;
  std::call_once(once, [] { load_driver(s); });
  return s;
}

struct NvrtcState {
  NvrtcApi api{};
  Availability status;
};

const char* const kNvrtcNames[] = {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"};

std::vector<std::string> glob_dirs(const std::string& pattern) {
  std::vector<std::string> out;
  glob_t g{};
#ifdef GLOB_ONLYDIR  // a GNU extension
  if (::glob(pattern.c_str(), GLOB_ONLYDIR, nullptr, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc; ++i) out.emplace_back(g.gl_pathv[i]);
#else  // GLOB_MARK appends '/' to directories: keep those
  if (::glob(pattern.c_str(), GLOB_MARK, nullptr, &g) == 0)
    for (size_t i = 0; i < g.gl_pathc; ++i) {
      std::string p = g.gl_pathv[i];
      if (!p.empty() && p.back() == '/') out.push_back(p.substr(0, p.size() - 1));
    }
#endif
  globfree(&g);
  return out;
}

bool load_nvrtc_from(void* h, NvrtcState& s, std::string& why) {
  NvrtcApi& a = s.api;
  std::string missing;
#define TR_NV_SYM(name) resolve(h, #name, a.name, missing)
  TR_NV_SYM(nvrtcGetErrorString), TR_NV_SYM(nvrtcVersion), TR_NV_SYM(nvrtcCreateProgram),
      TR_NV_SYM(nvrtcDestroyProgram), TR_NV_SYM(nvrtcCompileProgram), TR_NV_SYM(nvrtcGetPTXSize),
      TR_NV_SYM(nvrtcGetPTX), TR_NV_SYM(nvrtcGetCUBINSize), TR_NV_SYM(nvrtcGetCUBIN),
      TR_NV_SYM(nvrtcGetProgramLogSize), TR_NV_SYM(nvrtcGetProgramLog);
#undef TR_NV_SYM
  a.library = library_of(reinterpret_cast<void*>(a.nvrtcVersion), "libnvrtc");
  if (!missing.empty()) {
    why = fmt::format("{} lacks {}", a.library, missing);
    return false;
  }
  if (nvrtcResult r = a.nvrtcVersion(&a.major, &a.minor); r != NVRTC_SUCCESS) {
    why = fmt::format("nvrtcVersion failed in {} (error {})", a.library, r);
    return false;
  }
  return true;
}

void load_nvrtc(NvrtcState& s) {
  std::vector<std::string> candidates;
  if (std::string explicit_path = env("TRITIUM_NVRTC"); !explicit_path.empty()) {
    candidates.push_back(explicit_path);
  } else {
    for (const char* n : kNvrtcNames) candidates.emplace_back(n);
    for (const std::string& dir : nvrtc_search_dirs())
      for (const char* n : kNvrtcNames) candidates.push_back(dir + "/" + n);
  }
  std::string last_error;
  for (const std::string& c : candidates) {
    if (c.find('/') != std::string::npos && !fs::exists(c)) continue;
    dlerror();
    void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      last_error = last_dlerror();
      continue;
    }
    std::string why;
    if (load_nvrtc_from(h, s, why)) {
      s.status.available = true;
      return;
    }
    last_error = why;
    s.api = NvrtcApi{};
    dlclose(h);
  }
  std::string tried;
  if (env("TRITIUM_NVRTC").empty()) {
    tried = "libnvrtc.so.{13,12,} via the loader";
    for (const std::string& d : nvrtc_search_dirs()) tried += ", " + d;
  } else {
    tried = "$TRITIUM_NVRTC=" + env("TRITIUM_NVRTC");
  }
  s.status.reason = fmt::format("NVRTC not found: tried {}: {}", tried, last_error.empty() ? "no such file" : last_error);
}

NvrtcState& nvrtc_state() {
  static NvrtcState s;
  static std::once_flag once;
  std::call_once(once, [] { load_nvrtc(s); });
  return s;
}

}  // namespace

std::vector<std::string> nvrtc_search_dirs() {
  std::vector<std::string> dirs;
  auto add = [&](const std::string& d) {
    std::error_code ec;
    if (d.empty() || !fs::is_directory(d, ec)) return;
    for (const std::string& x : dirs)
      if (x == d) return;
    dirs.push_back(d);
  };
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (std::string root = env(var); !root.empty()) add(root + "/lib64");
  add("/usr/local/cuda/lib64");
  add("/usr/local/cuda/targets/x86_64-linux/lib");
  // pip wheels: nvidia-cuda-nvrtc (CUDA 13) and nvidia-cuda-nvrtc-cu12.
  std::vector<std::string> prefixes;
  for (const char* var : {"VIRTUAL_ENV", "CONDA_PREFIX"})
    if (std::string p = env(var); !p.empty()) prefixes.push_back(p);
  prefixes.emplace_back("/opt/torch/.venv");
  if (std::string home = env("HOME"); !home.empty()) prefixes.push_back(home + "/.local");
  prefixes.emplace_back("/usr/local");
  prefixes.emplace_back("/usr");
  for (const std::string& p : prefixes)
    for (const char* pkgs : {"site-packages", "dist-packages"})
      for (const char* sub : {"nvidia/cu13/lib", "nvidia/cuda_nvrtc/lib"})
        for (const std::string& d : glob_dirs(p + "/lib/python3*/" + pkgs + "/" + sub)) add(d);
  for (const std::string& d : glob_dirs("/usr/lib/python3/dist-packages/nvidia/cu13/lib")) add(d);
  return dirs;
}

Availability driver_library_status() { return driver_state().library; }

Availability driver_status() { return driver_state().full; }

const DriverApi& driver() {
  DriverState& s = driver_state();
  if (!s.full.available) throw std::runtime_error("cuda: " + s.full.reason);
  return s.api;
}

Availability nvrtc_status() { return nvrtc_state().status; }

const NvrtcApi& nvrtc() {
  NvrtcState& s = nvrtc_state();
  if (!s.status.available) throw std::runtime_error("nvrtc: " + s.status.reason);
  return s.api;
}

std::string error_text(CUresult r) { return error_text_of(driver_state().api, r); }

void check(CUresult r, std::string_view call, std::string_view context) {
  if (r == CUDA_SUCCESS) return;
  std::string msg = fmt::format("cuda: {} failed: {}", call, error_text(r));
  if (!context.empty()) msg += fmt::format("; {}", context);
  throw std::runtime_error(msg);
}

void check_nvrtc(nvrtcResult r, std::string_view call) {
  if (r == NVRTC_SUCCESS) return;
  const NvrtcState& s = nvrtc_state();
  const char* text = s.status.available ? s.api.nvrtcGetErrorString(r) : nullptr;
  throw std::runtime_error(fmt::format("nvrtc: {} failed: {}", call, text ? text : fmt::format("error {}", r)));
}

}  // namespace tritium::runtime::cuda
