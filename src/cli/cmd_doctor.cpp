// `tritium doctor`: the backends of this build and whether this machine can use them.
#include <fmt/format.h>

#include "cli/commands.h"
#include "runtime/cuda/nvrtc_compile.h"
#include "runtime/opencl/opencl_api.h"
#include "runtime/registry.h"
#include "tritium/tritium.h"

namespace tritium::cli {

std::string version_text() {
#if defined(__clang__)
  std::string compiler = fmt::format("clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  std::string compiler = fmt::format("g++ {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  std::string compiler = "an unknown C++ compiler";
#endif
  return fmt::format("tritium {}\nbuilt with {} (C++ {})\n", tritium::version(), compiler, __cplusplus);
}

void declare_doctor(CLI::App& cmd, DoctorArgs& a) { cmd.add_flag("-h,--help", a.help); }

namespace {

// The OpenCL platforms and devices the ICD loader reports, indexed as TRITIUM_OPENCL_DEVICE
// names them ("P:D").
void print_opencl_platforms() {
  fmt::print("\nOpenCL platforms:");
  try {
    const std::vector<runtime::opencl::DeviceInfo> devs = runtime::opencl::list_devices();
    if (devs.empty()) {
      fmt::print(" none ({})\n", runtime::opencl::unavailable_reason());
      return;
    }
    fmt::print(" (ICD loader {})\n", runtime::opencl::api().library);
    int p = -1, d = 0;
    runtime::opencl::cl_platform_id last = nullptr;
    for (const auto& i : devs) {
      if (i.platform != last) {
        last = i.platform;
        ++p;
        d = 0;
        fmt::print("  platform {}: {} ({})\n", p, i.platform_name, i.platform_version);
      }
      // The extensions the renderer could use (sub-group shuffles in place of local-memory
      // exchanges; fp16 / fp64 arithmetic).
      std::string exts;
      for (const char* e : {"cl_khr_subgroups", "cl_khr_subgroup_shuffle", "cl_intel_subgroups",
                            "cl_intel_required_subgroup_size", "cl_khr_fp16", "cl_khr_fp64"})
        if (i.has(e)) exts += std::string(exts.empty() ? "" : " ") + e;
      fmt::print("    device {}:{}: {} [{}], {} compute units, {:.1f} GiB, {} KiB local memory, max work-group {}, {}, "
                 "driver {}; extensions: {}\n",
                 p, d++, i.name, i.is_gpu ? "GPU" : i.is_cpu ? "CPU" : "other", i.compute_units,
                 static_cast<double>(i.global_mem) / (1024.0 * 1024.0 * 1024.0), i.local_mem / 1024, i.max_work_group,
                 i.c_version, i.driver_version, exts.empty() ? "none of the sub-group or fp16 / fp64 ones" : exts);
    }
  } catch (const std::exception& e) {
    fmt::print(" none ({})\n", e.what());
  }
}

}  // namespace

int run_doctor(const DoctorArgs&) {
  fmt::print("{}", version_text());
  std::string cxx = runtime::find_cxx_compiler();
  fmt::print("C++ compiler for the cpu backend: {}\n", cxx.empty() ? "none found" : cxx);
  // NVRTC works without a GPU: offline PTX/cubin compilation for the cuda backend.
  fmt::print("CUDA compiler for the cuda backend: {}\n\nbackends:\n", runtime::cuda::nvrtc_summary());
  int status = 0;
  for (const BackendInfo& b : Device::list()) {
    std::string state = b.available ? "available" : "unavailable";
    std::string detail = b.available ? b.summary : b.reason;
    if (b.available) {
      try {
        detail = Device::get(b.name).description();
      } catch (const std::exception& e) {
        state = "FAILED";
        detail = fmt::format("reported available but did not start: {}", e.what());
        status = 1;
      }
    }
    fmt::print("  {:<8} {:<12} {}\n", b.name, state, detail);
  }
  fmt::print("\nbest backend: {}\n", Device::best_backend());
  print_opencl_platforms();
  return status;
}

}  // namespace tritium::cli
