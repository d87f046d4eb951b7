// The backend registry: every backend tritium knows, by name, with a factory and whether it
// can run on this machine (and why not). This file and registry.cpp are the one place a new
// backend is added.
//
//   name      status now
//   cpu       available when a C++ compiler is found (generated C++ → shared object)
//   interp    always available (the reference interpreter; slow, for tests and debugging)
//   cuda      available when libcuda.so.1 loads, cuInit succeeds and a device exists
//             (kernels: codegen/cuda, compiled by NVRTC)
//   opencl    listed, unavailable for kernels until the OpenCL C renderer exists; its
//             runtime layer (runtime/opencl: ICD loader, buffers, OpenCL C kernels) is there
//   metal, msl-emu   listed, unavailable until their backends are written
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace tritium::runtime {

/// A backend and its availability on this machine.
struct BackendStatus {
  std::string name;     ///< "cpu", "interp", "cuda", ...
  bool available = false;
  std::string reason;   ///< why it is unavailable; empty when available
  std::string summary;  ///< one line saying what the backend is
};

/// Every registered backend, available or not, in registry order
/// (cpu, interp, cuda, opencl, metal, msl-emu).
std::vector<BackendStatus> list_backends();

/// The status of backend `name`; throws std::invalid_argument for an unknown name (the
/// message lists the known ones).
BackendStatus backend_status(const std::string& name);

/// Creates a device of backend `name`. Throws std::invalid_argument for an unknown name and
/// std::runtime_error for an unavailable one ("backend 'cuda' is unavailable: <reason>").
std::unique_ptr<Device> create_device(const std::string& name);

/// The first available of cuda, metal, opencl, cpu (the default backend); "interp" when
/// none of those is available.
std::string best_backend();

/// The reference-interpreter device "interp": host memory, compile keeps a copy of the IR,
/// launch runs interp::run program by program.
std::unique_ptr<Device> make_interp_device();

/// The C++ compiler command the cpu backend would use (cpu::compiler_command(), its program
/// resolved to a path), or "" when that program is not found.
std::string find_cxx_compiler();

}  // namespace tritium::runtime
