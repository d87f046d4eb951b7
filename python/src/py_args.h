// py_args.h - Python launch arguments to tritium::Arg and meta-parameters to tritium::Meta,
// for the Python package's launcher (tritium_py.cpp).
//
// A launch argument is one of:
//   * None                      -> Arg::none() (Triton specializes the parameter as None);
//   * bool                      -> Arg::boolean (i1 in the signature, as Triton);
//   * int                       -> an integer; ints outside [-2^63, 2^64) raise;
//   * float                     -> a float (fp32 in the signature, as Triton);
//   * a tensor: an object with `data_ptr()` and `dtype` (torch tensors, as Triton's JIT reads
//     them) or any object numpy / DLPack can describe (numpy arrays, CuPy, JAX, ...). Its
//     memory is used where it lives, never copied: host memory for the cpu / interp
//     backends, CUDA memory for cuda. Element types: fp16, bf16, fp32, fp64, int8-64,
//     uint8-64, bool (as int1 / u8 storage), fp8 e4m3fn / e5m2 (torch).
// Errors name the argument: "argument 'x' (position 0): ...".
#pragma once

#include <nanobind/nanobind.h>

#include <string>
#include <vector>

#include "tritium/tritium.h"

namespace tritium::python {

namespace nb = nanobind;

/// Where a tensor argument's memory lives.
enum class MemorySpace { Host, Cuda, Other };

/// The converted arguments, the device they run on, and what must stay valid meanwhile.
struct ConvertedArgs {
  Device device;
  std::vector<Arg> args;
  std::vector<Buffer> borrowed;  ///< views of the tensors' memory (nothing is freed)
};

/// Converts the runtime arguments `args` (one per non-constexpr parameter of `kernel`, in
/// order; messages name them) for a launch on `backend`; an empty `backend` picks "cuda" when a tensor lives
/// in CUDA memory, else "cpu" (then tensors in different memory spaces are an error).
/// Raises TypeError / ValueError naming the argument; tritium::Error for a backend that
/// is unavailable.
ConvertedArgs convert_args(const nb::sequence& args, const Kernel& kernel, const std::string& backend);

/// Converts a constexpr value: bool, int, float, str, a tritium.language dtype (its
/// `_tritium_dtype` attribute names it), a `constexpr` wrapper (its `.value`). Raises
/// TypeError naming the parameter otherwise.
ConstexprValue to_constexpr(nb::handle v, const std::string& name);

/// A constexpr value as a Python object (dtypes as their names, e.g. "fp16").
nb::object from_constexpr(const ConstexprValue& v);

}  // namespace tritium::python
