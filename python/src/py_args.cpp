// py_args.cpp - see py_args.h.
#include "py_args.h"

#include "api/api_internal.h"  // sanitize_enabled

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace tritium::python {
namespace {

// torch's dtype names (str(torch.float16) without "torch.") -> tritium's signature dtype,
// as Triton's JIT maps them (python/triton/runtime/jit.py, 3.6).
const char* torch_dtype(std::string_view s) {
  if (s.substr(0, 6) == "torch.") s.remove_prefix(6);
  struct Entry {
    std::string_view torch;
    const char* tritium;
  };
  static constexpr Entry kMap[] = {
      {"float32", "fp32"},      {"float", "fp32"},          {"float16", "fp16"},
      {"half", "fp16"},         {"bfloat16", "bf16"},       {"float64", "fp64"},
      {"double", "fp64"},       {"int8", "i8"},             {"int16", "i16"},
      {"int32", "i32"},         {"int", "i32"},             {"int64", "i64"},
      {"long", "i64"},          {"uint8", "u8"},            {"uint16", "u16"},
      {"uint32", "u32"},        {"uint64", "u64"},          {"bool", "i1"},
      {"float8_e4m3fn", "fp8e4nv"}, {"float8_e5m2", "fp8e5"},
  };
  for (const Entry& e : kMap)
    if (e.torch == s) return e.tritium;
  return nullptr;
}

// A DLPack dtype -> tritium's signature dtype, or nullptr.
const char* dlpack_dtype(const nb::dlpack::dtype& t) {
  if (t.lanes != 1) return nullptr;
  using C = nb::dlpack::dtype_code;
  switch (static_cast<C>(t.code)) {
    case C::Int:
      return t.bits == 8 ? "i8" : t.bits == 16 ? "i16" : t.bits == 32 ? "i32" : t.bits == 64 ? "i64" : nullptr;
    case C::UInt:
      return t.bits == 8 ? "u8" : t.bits == 16 ? "u16" : t.bits == 32 ? "u32" : t.bits == 64 ? "u64" : nullptr;
    case C::Float:
      return t.bits == 16 ? "fp16" : t.bits == 32 ? "fp32" : t.bits == 64 ? "fp64" : nullptr;
    case C::Bfloat:
      return t.bits == 16 ? "bf16" : nullptr;
    case C::Bool:
      return t.bits == 8 ? "i1" : nullptr;
    default:
      return nullptr;
  }
}

// "argument 'NAME' (position I)" for the I-th runtime argument (only built for messages).
std::string what(const Kernel& kernel, size_t i) {
  std::string name = "?";
  size_t r = 0;
  for (const Parameter& p : kernel.parameters())
    if (!p.is_constexpr && r++ == i) name = p.name;
  return "argument '" + name + "' (position " + std::to_string(i) + ")";
}

[[noreturn]] void type_error(const std::string& msg) { throw nb::type_error(msg.c_str()); }
[[noreturn]] void value_error(const std::string& msg) { throw nb::value_error(msg.c_str()); }

// torch's tensor types (defined in a module under "torch") that passed the torch-style
// check once: later objects of the same type skip the hasattr probes. Only torch's types
// are remembered: they live as long as torch is loaded (never unloaded), so no reference
// is kept and no address can be reused by another type.
std::unordered_set<PyTypeObject*>& torch_like_types() {
  static auto* s = new std::unordered_set<PyTypeObject*>();
  return *s;
}

bool defined_by_torch(nb::handle type) {
  if (!nb::hasattr(type, "__module__")) return false;
  nb::object m = type.attr("__module__");
  if (!nb::isinstance<nb::str>(m)) return false;
  const std::string s = nb::cast<std::string>(m);
  return s == "torch" || s.rfind("torch.", 0) == 0;
}

bool is_torch_like(nb::handle h) {
  PyTypeObject* t = Py_TYPE(h.ptr());
  auto& known = torch_like_types();
  if (known.count(t)) return true;
  if (nb::hasattr(h, "data_ptr") && nb::hasattr(h, "dtype") && nb::hasattr(h, "nbytes") &&
      nb::hasattr(h, "get_device") && nb::hasattr(h, "is_cuda")) {
    if (defined_by_torch(nb::handle(reinterpret_cast<PyObject*>(t)))) known.insert(t);
    return true;
  }
  return false;
}

bool is_tensor_like(nb::handle h, bool torch_like) {
  return torch_like || nb::hasattr(h, "data_ptr") || nb::hasattr(h, "__dlpack__") ||
         nb::hasattr(h, "__array_interface__");
}

// A tensor argument: where it is, its address, bytes from there to its end, dtype.
struct TensorView {
  MemorySpace space = MemorySpace::Other;
  int device_id = 0;
  void* ptr = nullptr;
  size_t bytes = 0;
  const char* dtype = nullptr;
  std::string dtype_text;  // for messages when dtype is unsupported
  bool read_only = false;  // numpy's flags.writeable is False (a kernel writing it is refused)
};

// Bytes from a torch tensor's data pointer to one past its last element (shape and
// stride() in elements; 0 for an empty tensor).
size_t strided_span(nb::handle h) {
  nb::object shape = h.attr("shape"), stride = h.attr("stride")();
  const size_t n = nb::len(shape);
  int64_t last = 0;
  for (size_t d = 0; d < n; ++d) {
    const int64_t extent = nb::cast<int64_t>(shape[d]), step = nb::cast<int64_t>(stride[d]);
    if (extent == 0) return 0;
    if (step > 0) last += (extent - 1) * step;
  }
  return static_cast<size_t>(last + 1) * nb::cast<size_t>(h.attr("element_size")());
}

// `torch_like`: is_torch_like(h), computed once by the caller; `sanitize`: the launch's
// kernel is compiled in sanitize mode (then extents are exact, see strided_span).
TensorView view_of(nb::handle h, bool torch_like, const Kernel& kernel, size_t i, bool sanitize) {
  TensorView v;
  if (torch_like || (nb::hasattr(h, "data_ptr") && nb::hasattr(h, "dtype"))) {  // torch (Triton's own test)
    // torch dtypes are singletons: their tritium names are looked up once per dtype.
    static std::unordered_map<PyObject*, std::pair<const char*, std::string>> dtypes;
    nb::object dt = h.attr("dtype");
    auto it = dtypes.find(dt.ptr());
    if (it == dtypes.end()) {
      std::string text = nb::cast<std::string>(nb::str(dt));
      it = dtypes.emplace(dt.inc_ref().ptr(), std::make_pair(torch_dtype(text), text)).first;
    }
    v.dtype = it->second.first;
    if (!v.dtype) v.dtype_text = it->second.second;
    v.ptr = reinterpret_cast<void*>(nb::cast<uintptr_t>(h.attr("data_ptr")()));
    if (torch_like) {  // torch: is_cuda, then the ordinal (get_device) only for CUDA tensors
      v.bytes = nb::cast<size_t>(h.attr("nbytes"));
      // A strided view (t[:, :64], t.T) spans more than nbytes: its extent, which sanitize
      // mode checks accesses against, runs from the data pointer to one past its last
      // element, as for DLPack tensors below (two more Python calls: sanitize mode only).
      if (sanitize) v.bytes = strided_span(h);
      if (nb::cast<bool>(h.attr("is_cuda"))) {
        v.space = MemorySpace::Cuda;
        v.device_id = nb::cast<int>(h.attr("get_device")());
      } else {
        // Not CUDA: host memory when get_device says so (-1), another device's otherwise
        // (e.g. torch's "meta" or "mps" tensors).
        v.space = nb::cast<int>(h.attr("get_device")()) < 0 ? MemorySpace::Host : MemorySpace::Other;
      }
    } else {
      if (nb::hasattr(h, "nbytes")) v.bytes = nb::cast<size_t>(h.attr("nbytes"));
      v.space = MemorySpace::Host;
    }
    return v;
  }
  nb::ndarray<nb::ro> a;  // read-only arrays too: a kernel that only reads them may take them
  try {
    a = nb::cast<nb::ndarray<nb::ro>>(h);
  } catch (const std::exception&) {
    type_error(what(kernel, i) + ": " + nb::cast<std::string>(nb::repr(h.type())) +
               " is not a tensor tritium can read (numpy array, DLPack tensor or an object with data_ptr() and dtype)");
  }
  v.dtype = dlpack_dtype(a.dtype());
  v.dtype_text = "DLPack code " + std::to_string(a.dtype().code) + ", " + std::to_string(a.dtype().bits) + " bits";
  v.ptr = const_cast<void*>(a.data());
  if (nb::hasattr(h, "flags")) {  // numpy: flags.writeable
    nb::object flags = h.attr("flags");
    v.read_only = nb::hasattr(flags, "writeable") && !nb::cast<bool>(flags.attr("writeable"));
  }
  // Bytes from the data pointer to one past the last element (strides in elements).
  int64_t last = 0;
  bool empty = false;
  for (size_t d = 0; d < a.ndim(); ++d) {
    if (a.shape(d) == 0) empty = true;
    else if (a.stride(d) > 0) last += (static_cast<int64_t>(a.shape(d)) - 1) * a.stride(d);
  }
  v.bytes = empty ? 0 : static_cast<size_t>(last + 1) * a.itemsize();
  const int dev = a.device_type();
  v.space = dev == nb::device::cpu::value || dev == nb::device::cuda_host::value ? MemorySpace::Host
            : dev == nb::device::cuda::value || dev == nb::device::cuda_managed::value ? MemorySpace::Cuda
                                                                                         : MemorySpace::Other;
  v.device_id = a.device_id();
  return v;
}

const char* space_name(MemorySpace s) {
  return s == MemorySpace::Host ? "host memory" : s == MemorySpace::Cuda ? "CUDA memory" : "another device's memory";
}

}  // namespace

// upstream's triton.tools.tensor_descriptor.TensorDescriptor (and tritium's): a dataclass
// with base, shape, strides, block_shape and padding.
bool is_descriptor(nb::handle h) {
  return nb::hasattr(h, "block_shape") && nb::hasattr(h, "base") && nb::hasattr(h, "strides") && nb::hasattr(h, "shape");
}

std::vector<int64_t> int_list(nb::handle seq, const std::string& what_) {
  std::vector<int64_t> out;
  try {
    for (nb::handle x : seq) {
      if (nb::isinstance<nb::bool_>(x) || nb::isinstance<nb::float_>(x)) throw nb::type_error();
      out.push_back(nb::cast<int64_t>(x.attr("__index__")()));
    }
  } catch (const std::exception&) {
    type_error(what_ + " must be a list of ints, got " + nb::cast<std::string>(nb::repr(seq)));
  }
  return out;
}

// A numpy scalar (numpy.int64(5), numpy.float32(0.5), numpy.bool_(True)): launched as the
// Python value it holds (`.item()`), not as a 0-d tensor.
bool is_numpy_scalar(nb::handle h) {
  static PyObject* generic = nullptr;  // numpy.generic, once numpy is imported (kept for the process)
  if (!generic) {
    PyObject* np = PyDict_GetItemString(PyImport_GetModuleDict(), "numpy");  // borrowed
    if (!np) return false;
    generic = PyObject_GetAttrString(np, "generic");
    if (!generic) {
      PyErr_Clear();
      return false;
    }
  }
  return PyObject_IsInstance(h.ptr(), generic) == 1;
}

bool is_python_scalar(nb::handle h) {
  return h.is_none() || nb::isinstance<nb::bool_>(h) || nb::isinstance<nb::int_>(h) || nb::isinstance<nb::float_>(h);
}

ConvertedArgs convert_args(const nb::sequence& args_in, const Kernel& kernel, const std::string& backend) {
  const size_t n = nb::len(args_in);
  nb::sequence args = args_in;
  for (size_t i = 0; i < n; ++i) {
    if (is_python_scalar(args_in[i]) || !is_numpy_scalar(args_in[i])) continue;
    nb::list items;  // a numpy scalar among the arguments: launch the values they hold
    for (size_t j = 0; j < n; ++j) {
      nb::handle h = args_in[j];
      items.append(!is_python_scalar(h) && is_numpy_scalar(h) ? h.attr("item")() : nb::borrow(h));
    }
    args = nb::borrow<nb::sequence>(items);
    break;
  }
  // One look at each tensor: where it lives (for the backend) and what to pass.
  const bool sanitize = tritium::detail::sanitize_enabled({});  // Python: TRITIUM_SANITIZE=1
  std::vector<TensorView> views(n);
  std::vector<char> is_tensor(n, 0);
  MemorySpace seen = MemorySpace::Host;
  size_t first = SIZE_MAX;
  for (size_t i = 0; i < n; ++i) {
    nb::handle h = args[i];
    if (h.is_none() || nb::isinstance<nb::bool_>(h) || nb::isinstance<nb::int_>(h) || nb::isinstance<nb::float_>(h))
      continue;
    if (is_descriptor(h)) {
      is_tensor[i] = 2;
      h = h.attr("base");
    }
    const bool torch_like = is_torch_like(h);
    if (!is_tensor_like(h, torch_like))
      type_error(what(kernel, i) + ": cannot pass " + nb::cast<std::string>(nb::repr(h.type())) +
                 " to a kernel (expected a tensor, int, float, bool or None)");
    if (!is_tensor[i]) is_tensor[i] = 1;
    views[i] = view_of(h, torch_like, kernel, i, sanitize);
    const MemorySpace s = views[i].space;
    if (s == MemorySpace::Other) value_error(what(kernel, i) + " lives in memory no tritium backend can address");
    if (first == SIZE_MAX) first = i, seen = s;
    else if (backend.empty() && s != seen)
      value_error(what(kernel, i) + " lives in " + space_name(s) + " but " + what(kernel, first) + " in " +
                  space_name(seen) + "; a launch's tensors must be on one device");
  }
  const std::string chosen = !backend.empty() ? backend : seen == MemorySpace::Cuda ? "cuda" : "cpu";
  ConvertedArgs out{Device::get(chosen), {}, {}};
  out.args.reserve(n);
  out.borrowed.reserve(n);
  const bool host_backend = chosen == "cpu" || chosen == "interp" || chosen == "msl-emu";
  for (size_t i = 0; i < n; ++i) {
    nb::handle h = args[i];
    if (is_tensor[i]) {
      const TensorView& v = views[i];
      if (!v.dtype) type_error(what(kernel, i) + ": tensors of dtype " + v.dtype_text + " are not supported");
      const bool ok = (v.space == MemorySpace::Host && host_backend) || (v.space == MemorySpace::Cuda && chosen == "cuda");
      if (!ok)
        value_error(what(kernel, i) + " lives in " + space_name(v.space) + ", which the " + chosen +
                    " backend cannot address (tritium does not copy tensors; move it, or pick the backend with "
                    "tritium.set_backend)");
      if (v.space == MemorySpace::Cuda && v.device_id != 0)
        value_error(what(kernel, i) + " is on cuda:" + std::to_string(v.device_id) +
                    "; tritium's cuda backend runs on device 0");
      out.borrowed.push_back(out.device.borrow(v.ptr, v.ptr ? v.bytes : 0));
      out.args.push_back(Arg::tensor(out.borrowed.back(), v.dtype));
      if (v.read_only) out.args.back() = out.args.back().read_only();
      if (is_tensor[i] == 2) {  // a TensorDescriptor over that tensor
        const std::string w = what(kernel, i);
        nb::object pad = nb::getattr(h, "padding", nb::str("zero"));
        try {
          out.args.back() = Arg::tensor_descriptor(out.args.back(), int_list(h.attr("shape"), w + ".shape"),
                                                   int_list(h.attr("strides"), w + ".strides"),
                                                   int_list(h.attr("block_shape"), w + ".block_shape"),
                                                   nb::cast<std::string>(nb::str(pad)));
        } catch (const Error& e) {
          value_error(w + ": " + std::string(e.what()).substr(std::string("Arg::tensor_descriptor: ").size()));
        }
      }
    } else if (h.is_none()) {
      out.args.push_back(Arg::none());
    } else if (nb::isinstance<nb::bool_>(h)) {
      out.args.push_back(Arg::boolean(nb::cast<bool>(h)));
    } else if (nb::isinstance<nb::int_>(h)) {
      int64_t v = 0;
      if (nb::try_cast<int64_t>(h, v)) {
        out.args.emplace_back(v);
      } else {
        uint64_t u = 0;
        if (!nb::try_cast<uint64_t>(h, u))
          value_error(what(kernel, i) + ": " + nb::cast<std::string>(nb::repr(h)) +
                      " does not fit a 64-bit integer (Triton's largest)");
        out.args.emplace_back(u);
      }
    } else {
      out.args.emplace_back(nb::cast<double>(h));
    }
  }
  return out;
}

ConstexprValue to_constexpr(nb::handle v, const std::string& name) {
  if (nb::hasattr(v, "_tritium_dtype")) return DType{nb::cast<std::string>(v.attr("_tritium_dtype"))};
  if (nb::hasattr(v, "_tritium_constexpr")) return to_constexpr(v.attr("value"), name);
  if (nb::isinstance<nb::bool_>(v)) return nb::cast<bool>(v);
  if (nb::isinstance<nb::int_>(v)) {
    int64_t i = 0;
    if (!nb::try_cast<int64_t>(v, i))
      throw nb::value_error(("constexpr '" + name + "': " + nb::cast<std::string>(nb::repr(v)) +
                             " does not fit a 64-bit integer").c_str());
    return i;
  }
  if (nb::isinstance<nb::float_>(v)) return nb::cast<double>(v);
  if (nb::isinstance<nb::str>(v)) return nb::cast<std::string>(v);
  throw nb::type_error(("constexpr '" + name + "': cannot use " + nb::cast<std::string>(nb::repr(v)) +
                        " (a constexpr is an int, float, bool, str or tritium.language dtype)")
                           .c_str());
}

nb::object from_constexpr(const ConstexprValue& v) {
  if (auto* i = std::get_if<int64_t>(&v)) return nb::int_(*i);
  if (auto* d = std::get_if<double>(&v)) return nb::float_(*d);
  if (auto* b = std::get_if<bool>(&v)) return nb::bool_(*b);
  if (auto* t = std::get_if<DType>(&v)) return nb::str(t->name.c_str());
  return nb::str(std::get<std::string>(v).c_str());
}

}  // namespace tritium::python
