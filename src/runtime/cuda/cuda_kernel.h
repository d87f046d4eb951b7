// Compiling tritium kernels for NVIDIA GPUs: the CUDA renderer (codegen/cuda/cuda_codegen.h)
// then NVRTC (nvrtc_compile.h), and the loaded kernel the cuda device launches.
//
// CudaDevice::compile renders the kernel, compiles it to a cubin for the present GPU's arch
// (through the disk cache) and loads it; launches are synchronous (LoadedKernel's contract)
// and report a failed device_assert or a non-positive loop step as std::runtime_error with
// the CPU backend's text: "device_assert failed: <msg> at <file>:<line> in <kernel>, program
// (x, y, z)" — the lowest failing program's first failing site.
//
// The compile-only device (make_nvrtc_check_device) needs NVRTC but no GPU: buffers live in
// host memory and compile() renders and compiles the kernel to PTX for compute_90 and to an
// sm_90 cubin (with sm_90's shared-memory, register and local-memory limits), then returns a
// kernel whose launch throws and whose usage() is ptxas' figures for the cubin. The
// conformance and corpus harnesses use it in CI, so every kernel they run is also compiled
// for the GPU there.
#pragma once
#include <memory>
#include <string>

#include "codegen/cuda/cuda_codegen.h"
#include "runtime/cuda/nvrtc_compile.h"
#include "runtime/cuda/ptxas_info.h"
#include "runtime/device.h"

namespace tritium::runtime::cuda {

/// A rendered and compiled kernel.
struct CudaCompiled {
  codegen::CudaKernelSource src;
  NvrtcOutput image;  ///< PTX text or cubin bytes
  PtxasInfo ptxas;    ///< a cubin's registers, local memory and spills (unknown for PTX)
};

/// The opt-in shared memory per block of sm_90 (H100 / H200): 227 KB.
inline constexpr int64_t kSm90SharedLimit = 232448;

/// NVRTC's options for a rendered kernel and `arch` ("sm_90" / "compute_90"; "a" is added
/// when the kernel uses sm_90a instructions); cubins with ptxas' statistics.
NvrtcOptions nvrtc_options(const codegen::CudaKernelSource& src, const std::string& arch);

/// The PTX of a rendered kernel for the compute capability of `arch` ("sm_90" -> compute_90),
/// with the options the cubin was built with. Throws NvrtcCompileError.
std::string ptx_of(const codegen::CudaKernelSource& src, const std::string& arch);

/// Renders the kernel of `m` and compiles it with NVRTC for `target` / `arch` (contraction
/// off: --fmad=false). Throws frontend::CompileError, at the kernel's location with the
/// figures, for refused constructs and for a program that cannot launch under `limits`:
/// more shared memory than limits.shared_per_block (checked before NVRTC runs), and for a
/// cubin, what ptxas reports against the registers and local memory a program may have
/// (ptxas_info.h; a PTX image is not checked: the driver's JIT allocates its registers).
/// Throws NvrtcCompileError when the generated source does not compile (an internal error:
/// the log is in the message).
CudaCompiled compile_cuda(const ir::Module& m, const CodegenOptions& opts, NvrtcTarget target, const std::string& arch,
                          const CudaLimits& limits = {});

/// The compile-only device (see the file comment). Throws std::runtime_error when NVRTC is
/// unavailable.
std::shared_ptr<Device> make_nvrtc_check_device();

/// The failure text for key `key` read back from a kernel's failure word (see cuda_codegen.h).
std::string failure_message(const codegen::CudaKernelSource& src, const std::string& kernel, uint64_t key,
                            const std::array<int32_t, 3>& grid);

}  // namespace tritium::runtime::cuda
