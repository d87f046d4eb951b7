// The OpenCL backend's code generator: renders the (inlined, optimised) IR of one kernel
// specialisation as one OpenCL C 1.2 program, in one of two shapes.
//
// Both embed the OpenCL C prelude (opencl_prelude(): the scalar prelude's helpers in OpenCL
// C, generated per element type, so results are the reference interpreter's bits) and one
// kernel,
//
//   __kernel void tritium_kernel(<per parameter: __global uchar* aK_base, ulong aK_off for a
//                                 pointer (a byte offset into the buffer); the value for a
//                                 scalar, int1 as uchar, fp16 / bf16 as their ushort bits>)
//
// The work-group shape (opencl_simt.cpp; chosen where it lowers the kernel): work-groups of
// OpenCLProgram::threads = 32 x num_warps work-items (reqd_work_group_size), one per program
// (get_group_id = program_id, get_num_groups = num_programs). The body is the CUDA
// renderer's emitter in its OpenCL target (codegen/cuda, cuda::Target::OpenCL): tensors
// distributed over the work-items in the CUDA renderer's layouts, reductions in the
// canonical order with lane exchanges through local memory between barriers (OpenCL C 1.2
// has no shuffles), dots as FMA chains over operands staged in local memory (K chunks within
// 32 KB), scalar memory accesses. Portable numerics give the interpreter's bits.
//
// The serial shape (the fallback: kernels the work-group renderer refuses with
// cuda::SimtUnsupported, e.g. tl.device_print, or past the device's local memory or
// work-group size; the reason in OpenCLProgram::serial_reason): one work-group of ONE
// work-item per program; the body is the CPU renderer's loop nests (codegen/cpu,
// Dialect::OpenCL) without its CPU-only paths: tensors are private arrays in row-major
// order, reductions combine element i with i + n/2, dot is a sequential FMA chain.
//
// In both, fp32 division and sqrt need `-cl-fp32-correctly-rounded-divide-sqrt` and
// contraction is off (`#pragma OPENCL FP_CONTRACT OFF`); fp64 needs cl_khr_fp64 (the
// prelude's conversions use it). Atomics are compare-and-swap loops on the element's bits;
// tl.device_assert reports through the status word below; tl.device_print is the kernel's
// printf, in the CPU backend's format (serial shape).
// Refused (frontend::CompileError at the op, "opencl backend: <op> not supported: <why>"):
// what the CPU renderer refuses, and integers made into pointers (no device addresses in
// OpenCL C 1.2).
#pragma once
#include <string>
#include <vector>

#include "ir/ir.h"
#include "runtime/device.h"

namespace tritium::codegen {

/// Renders the kernel of `m` (as render_cpu picks it) as an OpenCL C program with entry
/// point `tritium_kernel` (`tritium compile --emit opencl`). The text depends only on the IR
/// and `opts`.
std::string render_opencl(const ir::Module& m, const runtime::CodegenOptions& opts);

/// A rendered program and what its launcher needs besides the text.
struct OpenCLProgram {
  std::string text;
  /// Run-time failure sites, by site number - 1: the complete message of a failure at each,
  /// up to the program's coordinates (the CPU backend's wording: "device_assert failed:
  /// <msg> at <file>:<line> in <kernel>" or the run-time error's text). Non-empty: the
  /// kernel takes one more argument, `__global ulong* tr_status`, set to ~0 before a launch;
  /// afterwards it holds ~0 or (linear program id << 20 | site) of the lowest failing
  /// program's first failure.
  std::vector<std::string> failures;
  /// Work-items per work-group: 1 (the serial shape) or 32 x num_warps (the work-group
  /// shape). The launcher's local size; the global size is grid[0] * threads along x.
  int threads = 1;
  /// The serial shape: bytes of the private arrays its work-item declares (its tensors,
  /// whole; cpu::Emitter::array_bytes), which a CPU device such as PoCL places on the stack
  /// of the thread running the work-group. 0 for the work-group shape.
  int64_t private_bytes = 0;
  /// The serial shape chosen for a kernel the work-group renderer does not lower: why (also
  /// the program's second comment line); "" otherwise.
  std::string serial_reason;
};

/// Which shape of program to render: Auto is the work-group shape where the work-group
/// renderer lowers the kernel within the device's limits, else the serial shape.
enum class OpenCLShape { Auto, Serial, WorkGroup };

/// What the device allows a work-group (the work-group shape needs both).
struct OpenCLLimits {
  int64_t local_mem = 32 * 1024;  ///< CL_DEVICE_LOCAL_MEM_SIZE (bytes; 32 KB: OpenCL 1.2's minimum)
  int64_t max_work_group = 256;   ///< CL_DEVICE_MAX_WORK_GROUP_SIZE
  /// Exchange lanes by cl_intel_subgroups shuffles in sub-groups of 32 (the device offers
  /// cl_intel_subgroups and cl_intel_required_subgroup_size and was checked to map lanes to
  /// work-item & 31), not through local memory between barriers.
  bool intel_subgroups = false;
};

OpenCLProgram render_opencl_program(const ir::Module& m, const runtime::CodegenOptions& opts,
                                    OpenCLShape shape = OpenCLShape::Auto, OpenCLLimits limits = {});
/// The serial shape of the kernel of `m`, `reason` (why not the work-group shape) in the
/// program's second comment line: for a kernel whose built work-group shape the device
/// cannot launch (CL_KERNEL_WORK_GROUP_SIZE below its work-group).
OpenCLProgram render_opencl_serial(const ir::Module& m, const runtime::CodegenOptions& opts, const std::string& reason);
/// The work-group shape of `fn` (opencl_simt.cpp). Throws cuda::SimtUnsupported for what it
/// does not lower yet or what passes `limits`.
OpenCLProgram render_opencl_workgroup(const ir::Function& fn, const runtime::CodegenOptions& opts,
                                      const OpenCLLimits& limits);

/// The OpenCL C prelude embedded at the top of every program.
const char* opencl_prelude();

/// The part of the OpenCL C prelude the MSL prelude shares (codegen/metal): the integer
/// helpers (tr_add_int32_t, ...; 64-bit mulhi through TR_MULHI64(a, b)) and the float
/// min / max helpers' macro TR_FLOAT_HELPERS(F, U) with its float instance. It needs the
/// int8_t..uint64_t / uchar..ulong types, TR_INLINE, as_float / as_uint, clz and popcount.
const char* cl_typed_helpers_text();

}  // namespace tritium::codegen
