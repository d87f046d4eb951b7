// The C ABI (include/tritium/tritium_c.h) over the C++ API.
#include "tritium/tritium_c.h"

#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "tritium/tritium.h"

struct tritium_c_kernel {
  tritium::CompiledKernel kernel;
  tritium::Device device;
};

namespace {

thread_local std::string g_error;

int fail(const std::exception& e) {
  g_error = e.what();
  return 1;
}

// (snprintf rather than std::to_string, whose libstdc++ helper table would be exported as a
// unique symbol.)
std::string decimal(int v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%d", v);
  return buf;
}

std::string backend_name(const char* b) { return b && *b ? std::string(b) : tritium::Device::best_backend(); }

/// Parsed files, shared by every compile of the process (a Module's compile cache lives in it).
tritium::Module module_of(const std::string& path) {
  static std::mutex mu;
  static std::map<std::string, tritium::Module> modules;
  std::lock_guard<std::mutex> lock(mu);
  auto it = modules.find(path);
  if (it == modules.end()) it = modules.emplace(path, tritium::Module::from_file(path)).first;
  return it->second;
}

}  // namespace

extern "C" {

const char* tritium_c_last_error(void) { return g_error.c_str(); }

const char* tritium_c_version(void) {
  static const std::string v = tritium::version();
  return v.c_str();
}

const char* tritium_c_best_backend(void) {
  static const std::string b = tritium::Device::best_backend();
  return b.c_str();
}

tritium_c_kernel* tritium_c_compile(const char* backend, const char* path, const char* kernel, const char* signature,
                                    int num_warps, int num_stages, int flags) {
  g_error.clear();
  try {
    if (!path || !kernel || !signature) throw tritium::Error(tritium::ErrorKind::Usage, "tritium_c_compile: null argument");
    if (flags & ~(TRITIUM_C_PORTABLE | TRITIUM_C_DEBUG))
      throw tritium::Error(tritium::ErrorKind::Usage, "tritium_c_compile: unknown flag bits " + decimal(flags));
    tritium::Device dev = tritium::Device::get(backend_name(backend));
    tritium::CompileOptions o;
    o.num_warps = num_warps;
    o.num_stages = num_stages;
    o.portable_numerics = (flags & TRITIUM_C_PORTABLE) != 0;
    o.debug = (flags & TRITIUM_C_DEBUG) != 0;
    tritium::CompiledKernel k = module_of(path).kernel(kernel).compile(dev, signature, o);
    return new tritium_c_kernel{std::move(k), dev};
  } catch (const std::exception& e) {
    fail(e);
    return nullptr;
  }
}

int tritium_c_launch(const tritium_c_kernel* k, int64_t gx, int64_t gy, int64_t gz, const tritium_c_arg* args,
                     int nargs, int wait) {
  g_error.clear();
  try {
    if (!k) throw tritium::Error(tritium::ErrorKind::Usage, "tritium_c_launch: null kernel");
    if (nargs < 0 || (nargs > 0 && !args))
      throw tritium::Error(tritium::ErrorKind::Usage, "tritium_c_launch: bad argument array");
    std::vector<tritium::Arg> av;
    av.reserve(static_cast<size_t>(nargs));
    for (int i = 0; i < nargs; ++i) {
      const tritium_c_arg& a = args[i];
      switch (a.kind) {
        case TRITIUM_C_PTR: {
          tritium::Buffer b = k->device.borrow(a.ptr, a.bytes);  // borrowed: nothing freed
          av.push_back(a.dtype && *a.dtype ? tritium::Arg::tensor(b, a.dtype) : tritium::Arg(b));
          break;
        }
        case TRITIUM_C_INT: av.emplace_back(a.i); break;
        case TRITIUM_C_FLOAT: av.emplace_back(a.f); break;
        case TRITIUM_C_NONE: av.push_back(tritium::Arg::none()); break;
        default:
          throw tritium::Error(tritium::ErrorKind::Usage,
                               "tritium_c_launch: argument " + decimal(i) + " has an unknown kind " + decimal(a.kind));
      }
    }
    const tritium::Grid grid{gx, gy, gz};
    if (wait) k->kernel.launch(grid, av);
    else k->kernel.launch_async(grid, av);
    return 0;
  } catch (const std::exception& e) {
    return fail(e);
  }
}

int tritium_c_synchronize(const char* backend) {
  g_error.clear();
  try {
    tritium::Device::get(backend_name(backend)).synchronize();
    return 0;
  } catch (const std::exception& e) {
    return fail(e);
  }
}

const char* tritium_c_source(const tritium_c_kernel* k) { return k ? k->kernel.source().c_str() : ""; }

const char* tritium_c_signature(const tritium_c_kernel* k) { return k ? k->kernel.signature().c_str() : ""; }

int tritium_c_num_args(const tritium_c_kernel* k) { return k ? static_cast<int>(k->kernel.arguments().size()) : 0; }

void tritium_c_release(tritium_c_kernel* k) { delete k; }

}  // extern "C"
