// NVRTC compilation through the on-disk cache (see nvrtc_compile.h).
#include "runtime/cuda/nvrtc_compile.h"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include <fmt/format.h>

#include "runtime/cuda/cuda_api.h"

#ifndef TRITIUM_VERSION
#define TRITIUM_VERSION "unknown"
#endif

namespace tritium::runtime::cuda {
namespace {
namespace fs = std::filesystem;

std::atomic<uint64_t> g_cache_hits{0};
std::atomic<uint64_t> g_compiles{0};

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// Destroys an NVRTC program on scope exit.
struct ProgramGuard {
  const NvrtcApi& api;
  nvrtcProgram prog = nullptr;
  ~ProgramGuard() {
    if (prog) api.nvrtcDestroyProgram(&prog);
  }
};

std::string program_log(const NvrtcApi& api, nvrtcProgram prog) {
  size_t size = 0;
  check_nvrtc(api.nvrtcGetProgramLogSize(prog, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  if (size > 0) check_nvrtc(api.nvrtcGetProgramLog(prog, log.data()), "nvrtcGetProgramLog");
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

std::string join(const std::vector<std::string>& v, char sep) {
  std::string s;
  for (const std::string& x : v) {
    if (!s.empty()) s += sep;
    s += x;
  }
  return s;
}

}  // namespace

NvrtcCompileError::NvrtcCompileError(std::string source_name, std::string arch, std::string log)
    : std::runtime_error(fmt::format("nvrtc: compiling {} for {} failed:\n{}", source_name, arch, log)),
      source_name_(std::move(source_name)),
      log_(std::move(log)) {}

std::vector<std::string> nvrtc_include_dirs() {
  std::vector<std::string> dirs;
  std::vector<std::string> seen;  // canonical forms
  auto add = [&](const fs::path& d) {
    std::error_code ec;
    if (!fs::is_directory(d, ec)) return;
    fs::path canon = fs::canonical(d, ec);
    std::string key = ec ? d.string() : canon.string();
    for (const std::string& s : seen)
      if (s == key) return;
    seen.push_back(key);
    dirs.push_back(d.lexically_normal().string());
  };
  auto add_with_cccl = [&](const fs::path& d) {
    add(d);
    add(d / "cccl");
  };
  if (Availability st = nvrtc_status(); st.available)
    add_with_cccl(fs::path(nvrtc().library).parent_path().parent_path() / "include");
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* root = std::getenv(var); root && *root) add_with_cccl(fs::path(root) / "include");
  add_with_cccl("/usr/local/cuda/include");
  return dirs;
}

std::vector<std::string> nvrtc_option_list(const NvrtcOptions& opts, NvrtcTarget target) {
  if (target == NvrtcTarget::Ptx && !starts_with(opts.arch, "compute_"))
    throw std::invalid_argument(fmt::format("nvrtc: PTX needs a virtual arch (compute_XY), not '{}'", opts.arch));
  if (target == NvrtcTarget::Cubin && !starts_with(opts.arch, "sm_"))
    throw std::invalid_argument(fmt::format("nvrtc: a cubin needs a real arch (sm_XY), not '{}'", opts.arch));
  std::vector<std::string> o = {"--gpu-architecture=" + opts.arch, "-std=c++17",
                                std::string("--fmad=") + (opts.fmad ? "true" : "false"), "-default-device"};
  if (opts.lineinfo) o.emplace_back("-lineinfo");
  for (const std::string& d : nvrtc_include_dirs()) o.push_back("-I" + d);
  o.insert(o.end(), opts.extra.begin(), opts.extra.end());
  if (opts.ptxas_verbose && target == NvrtcTarget::Cubin) o.emplace_back("--ptxas-options=-v");
  return o;
}

NvrtcOutput nvrtc_compile(std::string_view source, std::string_view name, NvrtcTarget target,
                          const NvrtcOptions& opts, const DiskCache* cache) {
  const std::vector<std::string> options = nvrtc_option_list(opts, target);
  const NvrtcApi& api = nvrtc();  // throws "nvrtc: NVRTC not found: ..."
  const char* kind = target == NvrtcTarget::Ptx ? "ptx" : "cubin";
  const std::string version = fmt::format("{}.{}", api.major, api.minor);
  const std::string key = content_hash(
      {"tritium-nvrtc", TRITIUM_VERSION, kind, name, source, join(options, '\n'), version, opts.arch});
  // With ptxas' statistics the log is part of the result: a hit needs both entries.
  const bool keep_log = opts.ptxas_verbose && target == NvrtcTarget::Cubin;
  if (cache) {
    if (auto hit = cache->read(key, kind)) {
      std::optional<std::string> log = keep_log ? cache->read(key, "log") : std::optional<std::string>(std::string());
      if (log) {
        g_cache_hits.fetch_add(1);
        return NvrtcOutput{std::move(*hit), std::move(*log), true};
      }
    }
  }

  g_compiles.fetch_add(1);
  const std::string src(source);
  const std::string src_name(name);
  ProgramGuard guard{api};
  check_nvrtc(api.nvrtcCreateProgram(&guard.prog, src.c_str(), src_name.c_str(), 0, nullptr, nullptr),
              "nvrtcCreateProgram(" + src_name + ")");
  std::vector<const char*> argv;
  for (const std::string& o : options) argv.push_back(o.c_str());
  nvrtcResult r = api.nvrtcCompileProgram(guard.prog, static_cast<int>(argv.size()), argv.data());
  std::string log = program_log(api, guard.prog);
  if (r != NVRTC_SUCCESS) {
    if (log.empty()) log = api.nvrtcGetErrorString(r);
    throw NvrtcCompileError(src_name, opts.arch, log);
  }

  NvrtcOutput out;
  out.log = std::move(log);
  size_t size = 0;
  if (target == NvrtcTarget::Ptx) {
    check_nvrtc(api.nvrtcGetPTXSize(guard.prog, &size), "nvrtcGetPTXSize");
    out.bytes.assign(size, '\0');
    check_nvrtc(api.nvrtcGetPTX(guard.prog, out.bytes.data()), "nvrtcGetPTX");
    while (!out.bytes.empty() && out.bytes.back() == '\0') out.bytes.pop_back();
  } else {
    check_nvrtc(api.nvrtcGetCUBINSize(guard.prog, &size), "nvrtcGetCUBINSize");
    out.bytes.assign(size, '\0');
    check_nvrtc(api.nvrtcGetCUBIN(guard.prog, out.bytes.data()), "nvrtcGetCUBIN");
  }
  if (cache) {
    try {  // the cache only saves time: a read-only cache directory is not an error
      cache->write(key, "cu", source);
      if (keep_log) cache->write(key, "log", out.log);  // before the cubin: a reader finding it finds the log
      cache->write(key, kind, out.bytes);
    } catch (const std::runtime_error&) {
    }
  }
  return out;
}

std::string nvrtc_version() {
  const NvrtcApi& api = nvrtc();
  return fmt::format("{}.{}", api.major, api.minor);
}

std::string present_gpu_arch(int ordinal) {
  if (!driver_status().available) return kDefaultCubinArch;
  const DriverApi& d = driver();
  CUdevice dev = 0;
  int major = 0, minor = 0;
  // A failing call is named in the result rather than hidden behind the default.
  auto failed = [&](CUresult r, const std::string& call) {
    return fmt::format("{} (default: {} failed: {})", kDefaultCubinArch, call, error_text(r));
  };
  if (CUresult r = d.cuDeviceGet(&dev, ordinal); r != CUDA_SUCCESS) return failed(r, fmt::format("cuDeviceGet({})", ordinal));
  if (CUresult r = d.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev); r != CUDA_SUCCESS)
    return failed(r, "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)");
  if (CUresult r = d.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev); r != CUDA_SUCCESS)
    return failed(r, "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MINOR)");
  return fmt::format("sm_{}{}", major, minor);
}

std::string nvrtc_summary() {
  Availability st = nvrtc_status();
  if (!st.available) return "NVRTC unavailable: " + st.reason;
  const NvrtcApi& api = nvrtc();
  return fmt::format("NVRTC {}.{} ({}): offline PTX ({}) and cubin ({}) compilation available", api.major,
                     api.minor, api.library, kDefaultPtxArch, present_gpu_arch());
}

NvrtcCounters nvrtc_counters() { return NvrtcCounters{g_cache_hits.load(), g_compiles.load()}; }

}  // namespace tritium::runtime::cuda
