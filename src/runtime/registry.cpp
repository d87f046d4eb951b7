// The backend table (see registry.h).
#include "runtime/registry.h"

#include "runtime/cpu/compiler.h"
#include "runtime/cuda/cuda_device.h"
#include "runtime/opencl/opencl_api.h"
#include "runtime/opencl/opencl_device.h"
#include "runtime/metal/metal_device.h"
#include "runtime/msl_emu/msl_emu_device.h"

#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <stdexcept>
#include <string>
#include <sys/stat.h>

namespace tritium::runtime {
namespace {

bool is_executable(const std::string& path) {
  struct stat st {};
  return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// Resolves a command name through $PATH (a name containing '/' is taken as a path).
std::string which(const std::string& name) {
  if (name.find('/') != std::string::npos) return is_executable(name) ? name : "";
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::string p = path;
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::string cand = end > start ? p.substr(start, end - start) : std::string(".");
    cand.append("/").append(name);
    if (is_executable(cand)) return cand;
    start = end + 1;
  }
  return "";
}

struct Backend {
  const char* name;
  const char* summary;
  // Returns "" when available, else the reason.
  std::function<std::string()> unavailable_reason;
  std::function<std::unique_ptr<Device>()> factory;  // null until the backend exists
};

const std::vector<Backend>& table() {
  static const std::vector<Backend> backends = {
      {"cpu", "generated C++ compiled by the system compiler, programs spread over the cores",
       [] { return find_cxx_compiler().empty() ? std::string("no C++ compiler found ($CXX, the build compiler, or c++ on PATH)") : ""; },
       [] { return make_cpu_device(); }},
      {"interp", "the reference IR interpreter (slow; the executable specification)", [] { return std::string(); },
       [] { return make_interp_device(); }},
      {"cuda", "NVIDIA GPUs: CUDA C++ generated from the kernel, compiled by NVRTC, launched through the driver API",
       [] {
         cuda::Availability a = cuda::driver_status();
         return a.available ? std::string() : a.reason;
       },
       [] { return cuda::make_cuda_device(0); }},
      {"opencl", "OpenCL C generated from the kernel (one work-item per program), built by the device's "
                 "OpenCL compiler through the ICD loader",
       [] { return opencl::unavailable_reason(); }, [] { return opencl::make_opencl_device(); }},
      {"metal", "Apple GPUs: Metal shading language generated from the kernel, compiled by the Metal toolchain, "
                "dispatched through metal-cpp",
       [] { return metal::metal_unavailable_reason(); }, [] { return metal::make_metal_device(); }},
      {"msl-emu", "the Metal shading language tritium emits, compiled as C++ against an emulated <metal_stdlib> "
                  "and run on the CPU, one thread per threadgroup (tests the Metal path without Apple hardware)",
       [] { return find_cxx_compiler().empty() ? std::string("no C++ compiler found ($CXX, the build compiler, or c++ on PATH)") : ""; },
       [] { return msl_emu::make_msl_emu_device(); }},
  };
  return backends;
}

const Backend& lookup(const std::string& name) {
  for (const Backend& b : table())
    if (name == b.name) return b;
  std::string known;
  for (const Backend& b : table()) known += (known.empty() ? "" : ", ") + std::string(b.name);
  throw std::invalid_argument("unknown backend '" + name + "' (known: " + known + ")");
}

BackendStatus status_of(const Backend& b) {
  BackendStatus s;
  s.name = b.name;
  s.summary = b.summary;
  s.reason = b.unavailable_reason();
  if (!b.factory && s.reason.empty()) s.reason = "not built";
  s.available = s.reason.empty();
  return s;
}

}  // namespace

std::string find_cxx_compiler() {
  std::vector<std::string> cmd = cpu::compiler_command();
  if (cmd.empty()) return "";
  std::string path = which(cmd.front());
  if (path.empty()) return "";
  std::string out = path;
  for (size_t i = 1; i < cmd.size(); ++i) out += " " + cmd[i];
  return out;
}

std::vector<BackendStatus> list_backends() {
  std::vector<BackendStatus> out;
  for (const Backend& b : table()) out.push_back(status_of(b));
  return out;
}

BackendStatus backend_status(const std::string& name) { return status_of(lookup(name)); }

std::unique_ptr<Device> create_device(const std::string& name) {
  const Backend& b = lookup(name);
  BackendStatus s = status_of(b);
  if (!s.available) throw std::runtime_error("backend '" + name + "' is unavailable: " + s.reason);
  return b.factory();
}

std::string best_backend() {
  // A GPU first (the CUDA code generator runs the whole built-in suite and the conformance
  // suite: docs/perf/2026-12-01-h200-cuda-first.md), then the CPU. OpenCL only where its
  // device is a GPU: its renderer runs one work-item per program, slower than the cpu
  // backend on a CPU device (PoCL).
  for (const char* name : {"cuda", "metal"})
    if (backend_status(name).available) return name;
  if (backend_status("opencl").available && opencl::chosen_device_is_gpu()) return "opencl";
  if (backend_status("cpu").available) return "cpu";
  return "interp";
}

}  // namespace tritium::runtime
