// Loading the OpenCL ICD loader with dlopen, and device discovery (see opencl_api.h).
#include "runtime/opencl/opencl_api.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>

namespace tritium::runtime::opencl {
namespace {

struct State {
  Api api{};
  std::string error;  // why the loader is unusable ("" when loaded)
};

template <typename Fn>
void resolve(void* h, const char* name, Fn& slot, std::string& missing) {
  slot = reinterpret_cast<Fn>(dlsym(h, name));
  if (!slot && missing.empty()) missing = name;
}

const State& state() {
  static State s;
  static std::once_flag once;
  std::call_once(once, [] {
    std::vector<std::string> names;
    if (const char* e = std::getenv("TRITIUM_OPENCL_LIBRARY"); e && *e) names.push_back(e);
#if defined(__APPLE__)
    names.push_back("/System/Library/Frameworks/OpenCL.framework/OpenCL");
#else
    names.push_back("libOpenCL.so.1");
    names.push_back("libOpenCL.so");
#endif
    void* h = nullptr;
    std::string tried;
    for (const std::string& n : names) {
      h = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (h) {
        s.api.library = n;
        break;
      }
      const char* err = dlerror();
      tried += fmt::format("{}{} ({})", tried.empty() ? "" : ", ", n, err ? err : "not found");
    }
    if (!h) {
      s.error = "the OpenCL ICD loader was not found: " + tried +
                " (Debian: apt-get install ocl-icd-libopencl1, and a driver such as pocl-opencl-icd)";
      return;
    }
    Api& a = s.api;
    std::string missing;
    resolve(h, "clGetPlatformIDs", a.clGetPlatformIDs, missing);
    resolve(h, "clGetPlatformInfo", a.clGetPlatformInfo, missing);
    resolve(h, "clGetDeviceIDs", a.clGetDeviceIDs, missing);
    resolve(h, "clGetDeviceInfo", a.clGetDeviceInfo, missing);
    resolve(h, "clCreateContext", a.clCreateContext, missing);
    resolve(h, "clReleaseContext", a.clReleaseContext, missing);
    resolve(h, "clCreateCommandQueue", a.clCreateCommandQueue, missing);
    resolve(h, "clReleaseCommandQueue", a.clReleaseCommandQueue, missing);
    resolve(h, "clCreateBuffer", a.clCreateBuffer, missing);
    resolve(h, "clReleaseMemObject", a.clReleaseMemObject, missing);
    resolve(h, "clEnqueueWriteBuffer", a.clEnqueueWriteBuffer, missing);
    resolve(h, "clEnqueueReadBuffer", a.clEnqueueReadBuffer, missing);
    resolve(h, "clCreateProgramWithSource", a.clCreateProgramWithSource, missing);
    resolve(h, "clBuildProgram", a.clBuildProgram, missing);
    resolve(h, "clGetProgramBuildInfo", a.clGetProgramBuildInfo, missing);
    resolve(h, "clReleaseProgram", a.clReleaseProgram, missing);
    resolve(h, "clCreateKernel", a.clCreateKernel, missing);
    resolve(h, "clGetKernelWorkGroupInfo", a.clGetKernelWorkGroupInfo, missing);
    resolve(h, "clReleaseKernel", a.clReleaseKernel, missing);
    resolve(h, "clSetKernelArg", a.clSetKernelArg, missing);
    resolve(h, "clEnqueueNDRangeKernel", a.clEnqueueNDRangeKernel, missing);
    resolve(h, "clFinish", a.clFinish, missing);
    if (!missing.empty()) s.error = fmt::format("{} lacks the OpenCL 1.2 entry point {}", a.library, missing);
  });
  return s;
}

std::string platform_string(const Api& a, cl_platform_id p, cl_uint what) {
  size_t n = 0;
  if (a.clGetPlatformInfo(p, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "";
  std::string s(n, '\0');
  if (a.clGetPlatformInfo(p, what, n, s.data(), nullptr) != CL_SUCCESS) return "";
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string device_string(const Api& a, cl_device_id d, cl_uint what) {
  size_t n = 0;
  if (a.clGetDeviceInfo(d, what, 0, nullptr, &n) != CL_SUCCESS || n == 0) return "";
  std::string s(n, '\0');
  if (a.clGetDeviceInfo(d, what, n, s.data(), nullptr) != CL_SUCCESS) return "";
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <typename T>
T device_value(const Api& a, cl_device_id d, cl_uint what) {
  T v{};
  if (a.clGetDeviceInfo(d, what, sizeof v, &v, nullptr) != CL_SUCCESS) return T{};
  return v;
}

}  // namespace

const Api& api() {
  const State& s = state();
  if (!s.error.empty()) throw std::runtime_error("opencl: " + s.error);
  return s.api;
}

std::string error_name(cl_int code) {
  switch (code) {
    case 0: return "CL_SUCCESS";
    case -1: return "CL_DEVICE_NOT_FOUND (-1)";
    case -2: return "CL_DEVICE_NOT_AVAILABLE (-2)";
    case -3: return "CL_COMPILER_NOT_AVAILABLE (-3)";
    case -4: return "CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)";
    case -5: return "CL_OUT_OF_RESOURCES (-5)";
    case -6: return "CL_OUT_OF_HOST_MEMORY (-6)";
    case -11: return "CL_BUILD_PROGRAM_FAILURE (-11)";
    case -30: return "CL_INVALID_VALUE (-30)";
    case -33: return "CL_INVALID_DEVICE (-33)";
    case -34: return "CL_INVALID_CONTEXT (-34)";
    case -36: return "CL_INVALID_COMMAND_QUEUE (-36)";
    case -38: return "CL_INVALID_MEM_OBJECT (-38)";
    case -44: return "CL_INVALID_PROGRAM (-44)";
    case -45: return "CL_INVALID_PROGRAM_EXECUTABLE (-45)";
    case -46: return "CL_INVALID_KERNEL_NAME (-46)";
    case -48: return "CL_INVALID_KERNEL (-48)";
    case -49: return "CL_INVALID_ARG_INDEX (-49)";
    case -50: return "CL_INVALID_ARG_VALUE (-50)";
    case -51: return "CL_INVALID_ARG_SIZE (-51)";
    case -52: return "CL_INVALID_KERNEL_ARGS (-52)";
    case -53: return "CL_INVALID_WORK_DIMENSION (-53)";
    case -54: return "CL_INVALID_WORK_GROUP_SIZE (-54)";
    case -55: return "CL_INVALID_WORK_ITEM_SIZE (-55)";
    case -61: return "CL_INVALID_BUFFER_SIZE (-61)";
    case -63: return "CL_INVALID_GLOBAL_WORK_SIZE (-63)";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (-1001)";
    default: return fmt::format("OpenCL error {}", code);
  }
}

bool DeviceInfo::has(const std::string& ext) const {
  size_t pos = 0;
  while ((pos = extensions.find(ext, pos)) != std::string::npos) {
    const bool start = pos == 0 || extensions[pos - 1] == ' ';
    const size_t end = pos + ext.size();
    if (start && (end == extensions.size() || extensions[end] == ' ')) return true;
    pos = end;
  }
  return false;
}

std::vector<DeviceInfo> list_devices() {
  const Api& a = api();
  cl_uint np = 0;
  cl_int r = a.clGetPlatformIDs(0, nullptr, &np);
  if (r == CL_PLATFORM_NOT_FOUND_KHR || np == 0) return {};
  if (r != CL_SUCCESS) throw std::runtime_error("opencl: clGetPlatformIDs: " + error_name(r));
  std::vector<cl_platform_id> ps(np);
  a.clGetPlatformIDs(np, ps.data(), nullptr);
  std::vector<DeviceInfo> out;
  for (cl_platform_id p : ps) {
    cl_uint nd = 0;
    if (a.clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
    std::vector<cl_device_id> ds(nd);
    a.clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, ds.data(), nullptr);
    for (cl_device_id d : ds) {
      DeviceInfo i;
      i.platform = p;
      i.device = d;
      i.platform_name = platform_string(a, p, CL_PLATFORM_NAME);
      i.platform_version = platform_string(a, p, CL_PLATFORM_VERSION);
      i.name = device_string(a, d, CL_DEVICE_NAME);
      i.vendor = device_string(a, d, CL_DEVICE_VENDOR);
      i.version = device_string(a, d, CL_DEVICE_VERSION);
      i.driver_version = device_string(a, d, CL_DRIVER_VERSION);
      i.c_version = device_string(a, d, CL_DEVICE_OPENCL_C_VERSION);
      i.extensions = device_string(a, d, CL_DEVICE_EXTENSIONS);
      const cl_bitfield type = device_value<cl_bitfield>(a, d, CL_DEVICE_TYPE);
      i.is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
      i.is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
      i.compute_units = device_value<cl_uint>(a, d, CL_DEVICE_MAX_COMPUTE_UNITS);
      i.clock_mhz = device_value<cl_uint>(a, d, CL_DEVICE_MAX_CLOCK_FREQUENCY);
      i.max_work_group = device_value<size_t>(a, d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
      i.global_mem = device_value<cl_ulong>(a, d, CL_DEVICE_GLOBAL_MEM_SIZE);
      i.local_mem = device_value<cl_ulong>(a, d, CL_DEVICE_LOCAL_MEM_SIZE);
      out.push_back(std::move(i));
    }
  }
  return out;
}

std::string unavailable_reason() {
  const State& s = state();
  if (!s.error.empty()) return s.error;
  try {
    if (list_devices().empty())
      return "the OpenCL ICD loader (" + s.api.library + ") reports no platform with a device (install a driver, "
             "e.g. pocl-opencl-icd)";
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

}  // namespace tritium::runtime::opencl
