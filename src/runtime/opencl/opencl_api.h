// The OpenCL 1.2 entry points tritium uses, loaded at run time from the ICD loader
// (libOpenCL.so.1) with dlopen, so a build needs no OpenCL SDK and a machine without OpenCL
// reports the backend unavailable with the reason. Types and constants are the few of the
// Khronos headers (CL/cl.h) this needs, declared here with the same values.
//
// Library search: $TRITIUM_OPENCL_LIBRARY when set, else libOpenCL.so.1, libOpenCL.so.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tritium::runtime::opencl {

using cl_int = int32_t;
using cl_uint = uint32_t;
using cl_ulong = uint64_t;
using cl_bitfield = uint64_t;
using cl_bool = cl_uint;
struct _cl_platform_id;
struct _cl_device_id;
struct _cl_context;
struct _cl_command_queue;
struct _cl_mem;
struct _cl_program;
struct _cl_kernel;
struct _cl_event;
using cl_platform_id = _cl_platform_id*;
using cl_device_id = _cl_device_id*;
using cl_context = _cl_context*;
using cl_command_queue = _cl_command_queue*;
using cl_mem = _cl_mem*;
using cl_program = _cl_program*;
using cl_kernel = _cl_kernel*;
using cl_event = _cl_event*;

constexpr cl_int CL_SUCCESS = 0;
constexpr cl_int CL_DEVICE_NOT_FOUND = -1;
constexpr cl_int CL_BUILD_PROGRAM_FAILURE = -11;
constexpr cl_int CL_PLATFORM_NOT_FOUND_KHR = -1001;
constexpr cl_bool CL_TRUE = 1;
// cl_platform_info
constexpr cl_uint CL_PLATFORM_VERSION = 0x0901;
constexpr cl_uint CL_PLATFORM_NAME = 0x0902;
constexpr cl_uint CL_PLATFORM_VENDOR = 0x0903;
// cl_device_type
constexpr cl_bitfield CL_DEVICE_TYPE_CPU = 1 << 1;
constexpr cl_bitfield CL_DEVICE_TYPE_GPU = 1 << 2;
constexpr cl_bitfield CL_DEVICE_TYPE_ALL = 0xFFFFFFFF;
// cl_device_info
constexpr cl_uint CL_DEVICE_TYPE = 0x1000;
constexpr cl_uint CL_DEVICE_MAX_COMPUTE_UNITS = 0x1002;
constexpr cl_uint CL_DEVICE_MAX_WORK_GROUP_SIZE = 0x1004;
constexpr cl_uint CL_DEVICE_MAX_CLOCK_FREQUENCY = 0x100C;
constexpr cl_uint CL_DEVICE_GLOBAL_MEM_SIZE = 0x101F;
constexpr cl_uint CL_DEVICE_LOCAL_MEM_SIZE = 0x1023;
constexpr cl_uint CL_DEVICE_NAME = 0x102B;
constexpr cl_uint CL_DEVICE_VENDOR = 0x102C;
constexpr cl_uint CL_DRIVER_VERSION = 0x102D;
constexpr cl_uint CL_DEVICE_VERSION = 0x102F;
constexpr cl_uint CL_DEVICE_EXTENSIONS = 0x1030;
constexpr cl_uint CL_DEVICE_OPENCL_C_VERSION = 0x103D;
// cl_mem_flags
constexpr cl_bitfield CL_MEM_READ_WRITE = 1 << 0;
// cl_program_build_info
constexpr cl_uint CL_PROGRAM_BUILD_LOG = 0x1183;
// cl_kernel_work_group_info
constexpr cl_uint CL_KERNEL_WORK_GROUP_SIZE = 0x11B0;
// cl_intel_required_subgroup_size: the sub-group sizes a device supports (size_t[])
constexpr cl_uint CL_DEVICE_SUB_GROUP_SIZES_INTEL = 0x4108;

/// The entry points (names as the ICD loader exports them).
struct Api {
  std::string library;  ///< path of the loaded library
  cl_int (*clGetPlatformIDs)(cl_uint n, cl_platform_id* platforms, cl_uint* count);
  cl_int (*clGetPlatformInfo)(cl_platform_id p, cl_uint what, size_t size, void* value, size_t* size_ret);
  cl_int (*clGetDeviceIDs)(cl_platform_id p, cl_bitfield type, cl_uint n, cl_device_id* devices, cl_uint* count);
  cl_int (*clGetDeviceInfo)(cl_device_id d, cl_uint what, size_t size, void* value, size_t* size_ret);
  cl_context (*clCreateContext)(const intptr_t* props, cl_uint n, const cl_device_id* devices,
                                void (*notify)(const char*, const void*, size_t, void*), void* user, cl_int* err);
  cl_int (*clReleaseContext)(cl_context c);
  cl_command_queue (*clCreateCommandQueue)(cl_context c, cl_device_id d, cl_bitfield props, cl_int* err);
  cl_int (*clReleaseCommandQueue)(cl_command_queue q);
  cl_mem (*clCreateBuffer)(cl_context c, cl_bitfield flags, size_t size, void* host, cl_int* err);
  cl_int (*clReleaseMemObject)(cl_mem m);
  cl_int (*clEnqueueWriteBuffer)(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset, size_t size,
                                 const void* src, cl_uint n_wait, const cl_event* wait, cl_event* ev);
  cl_int (*clEnqueueReadBuffer)(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset, size_t size, void* dst,
                                cl_uint n_wait, const cl_event* wait, cl_event* ev);
  cl_program (*clCreateProgramWithSource)(cl_context c, cl_uint n, const char** strings, const size_t* lengths,
                                          cl_int* err);
  cl_int (*clBuildProgram)(cl_program p, cl_uint n, const cl_device_id* devices, const char* options,
                           void (*notify)(cl_program, void*), void* user);
  cl_int (*clGetProgramBuildInfo)(cl_program p, cl_device_id d, cl_uint what, size_t size, void* value,
                                  size_t* size_ret);
  cl_int (*clReleaseProgram)(cl_program p);
  cl_kernel (*clCreateKernel)(cl_program p, const char* name, cl_int* err);
  cl_int (*clGetKernelWorkGroupInfo)(cl_kernel k, cl_device_id d, cl_uint what, size_t size, void* value,
                                     size_t* size_ret);
  cl_int (*clReleaseKernel)(cl_kernel k);
  cl_int (*clSetKernelArg)(cl_kernel k, cl_uint index, size_t size, const void* value);
  cl_int (*clEnqueueNDRangeKernel)(cl_command_queue q, cl_kernel k, cl_uint dims, const size_t* offset,
                                   const size_t* global, const size_t* local, cl_uint n_wait, const cl_event* wait,
                                   cl_event* ev);
  cl_int (*clFinish)(cl_command_queue q);
};

/// The loaded entry points; throws std::runtime_error ("opencl: <reason>") when the ICD
/// loader cannot be loaded or lacks an entry point.
const Api& api();

/// "CL_NAME (code)" for an OpenCL error code.
std::string error_name(cl_int code);

/// One OpenCL device, as a platform lists it.
struct DeviceInfo {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string platform_name, platform_version;
  std::string name, vendor, version, driver_version, c_version;  ///< c_version: "OpenCL C 1.2 ..."
  std::string extensions;
  bool is_gpu = false, is_cpu = false;
  cl_uint compute_units = 0, clock_mhz = 0;
  size_t max_work_group = 0;
  cl_ulong global_mem = 0, local_mem = 0;
  /// True when the device's extensions include `ext` (e.g. "cl_khr_subgroups").
  bool has(const std::string& ext) const;
};

/// Every device of every platform the ICD loader reports (empty when there is none).
/// Throws std::runtime_error when the loader itself is missing.
std::vector<DeviceInfo> list_devices();

/// Whether the OpenCL runtime layer can run here: the loader loads and at least one device
/// exists ("" then), else the reason.
std::string unavailable_reason();

}  // namespace tritium::runtime::opencl
