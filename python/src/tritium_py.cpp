// tritium_py.cpp - the `tritium._C` extension module: tritium's C++ compiler and runtimes
// (include/tritium/tritium.h) for the Python package in python/tritium/. The package's
// JIT launcher (python/tritium/jit.py) calls `launch` here once per `kernel[grid](...)`;
// everything else is for inspection (devices, kernels, generated sources).
//
// Errors: tritium::CompileError becomes tritium.CompilationError; tritium::Error of kind
// Argument or Signature becomes tritium.ArgumentError (a TypeError); NotFound, Device and
// Usage errors become tritium.TritiumError (a RuntimeError) or its subclasses registered by
// python/tritium/errors.py through `_set_error_types`.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstdlib>
#include <map>
#include <string>

#include "launch_cache.h"
#include "py_args.h"
#include "tritium/tritium.h"

namespace nb = nanobind;
using namespace nb::literals;

namespace tritium::python {
namespace {

// Python exception types by error kind, set by python/tritium/errors.py at import.
nb::dict& error_types() {
  static nb::dict* d = new nb::dict();  // never freed: outlives the interpreter's teardown order
  return *d;
}

void raise_as_python(const tritium::Error& e) {
  const char* key = "TritiumError";
  switch (e.kind()) {
    case ErrorKind::Compile: key = "CompilationError"; break;
    case ErrorKind::Argument:
    case ErrorKind::Signature: key = "ArgumentError"; break;
    case ErrorKind::NotFound: key = "NotFoundError"; break;
    case ErrorKind::Device: key = "DeviceError"; break;
    default: break;
  }
  nb::dict& d = error_types();
  if (d.contains(key)) {
    nb::object t = d[key];
    PyErr_SetString(t.ptr(), e.what());
    return;
  }
  PyErr_SetString(PyExc_RuntimeError, e.what());
}

// A grid extent: a Python int or an integer-like object (numpy / torch integer scalars,
// through __index__); bools and floats are refused.
bool grid_int(nb::handle x, int64_t& out) {
  if (nb::isinstance<nb::bool_>(x)) return false;
  if (nb::isinstance<nb::int_>(x)) {
    out = nb::cast<int64_t>(x);
    return true;
  }
  if (nb::isinstance<nb::float_>(x) || !nb::hasattr(x, "__index__")) return false;
  PyObject* i = PyNumber_Index(x.ptr());
  if (!i) {
    PyErr_Clear();
    return false;
  }
  out = nb::cast<int64_t>(nb::steal(i));
  return true;
}

Grid grid_of(nb::handle g) {
  if (int64_t v = 0; grid_int(g, v)) return Grid(v);
  if (!nb::isinstance<nb::sequence>(g) || nb::isinstance<nb::str>(g))
    throw nb::type_error(("grid must be a tuple of 1 to 3 ints (or a callable returning one), got " +
                          nb::cast<std::string>(nb::repr(g)))
                             .c_str());
  nb::sequence s = nb::borrow<nb::sequence>(g);
  const size_t n = nb::len(s);
  if (n < 1 || n > 3)
    throw nb::value_error(("grid must have 1 to 3 dimensions, got " + std::to_string(n)).c_str());
  std::array<int64_t, 3> e{1, 1, 1};
  for (size_t i = 0; i < n; ++i) {
    nb::handle x = s[i];
    if (!grid_int(x, e[i]))
      throw nb::type_error(("grid entry " + std::to_string(i) + " must be an int, got " +
                            nb::cast<std::string>(nb::repr(x)))
                               .c_str());
  }
  return Grid(e[0], e[1], e[2]);
}

nb::dict meta_dict(const Meta& m) {
  nb::dict d;
  for (const auto& [k, v] : m) d[k.c_str()] = from_constexpr(v);
  return d;
}


// The backend for a launch: `backend` when given (tritium.set_backend), else
// $TRITIUM_BACKEND, else "" (chosen from the tensors). Read per launch through getenv (a
// Python-side os.environ change reaches it: os.environ calls putenv).
std::string backend_for(const std::string& backend) {
  if (!backend.empty()) return backend;
  const char* e = std::getenv("TRITIUM_BACKEND");
  return e ? std::string(e) : std::string();
}

// Portable numerics: `numerics` when given (tritium.set_numerics), else $TRITIUM_NUMERICS
// ("native" when unset). Any other value is an error naming the variable.
bool portable_for(const std::string& numerics) {
  std::string mode = numerics;
  const char* source = "set_numerics";
  if (mode.empty()) {
    const char* e = std::getenv("TRITIUM_NUMERICS");
    mode = e && *e ? e : "native";
    source = "TRITIUM_NUMERICS";
  }
  if (mode == "portable") return true;
  if (mode == "native") return false;
  throw nb::value_error((std::string(source) + "='" + mode + "': numerics must be 'native' or 'portable'").c_str());
}

// The stream a cuda launch goes on: torch's current stream for device 0 when torch is
// imported (as upstream launches on torch.cuda.current_stream(), so kernels stay ordered
// with the torch work around them), else the default stream (null).
void* launch_stream(const Device& device) {
  if (device.name() != "cuda") return nullptr;
  static PyObject* get_stream = nullptr;  // torch._C._cuda_getCurrentRawStream (kept for the process)
  if (!get_stream) {
    PyObject* torch = PyDict_GetItemString(PyImport_GetModuleDict(), "torch");  // borrowed
    if (!torch) return nullptr;
    nb::handle t(torch);
    if (!nb::hasattr(t, "_C") || !nb::hasattr(t.attr("_C"), "_cuda_getCurrentRawStream")) return nullptr;
    get_stream = t.attr("_C").attr("_cuda_getCurrentRawStream").inc_ref().ptr();
  }
  nb::object s = nb::steal(PyObject_CallFunction(get_stream, "i", 0));
  if (!s.is_valid()) throw nb::python_error();
  return reinterpret_cast<void*>(nb::cast<uintptr_t>(s));
}

// One `kernel[grid](*args, **meta)`: see python/tritium/jit.py (JITFunction.run). A
// specialization already in `cache` launches without going through Kernel::run_jit.
LaunchResult launch(LaunchCache& cache, const Kernel& kernel, const std::string& backend_choice, nb::sequence args, nb::object grid,
                    nb::dict meta, int num_warps, int num_stages, bool debug, const std::string& numerics,
                    const std::vector<std::string>& do_not_specialize,
                    const std::vector<std::string>& do_not_specialize_on_alignment, bool run,
                    const std::string& expect_signature) {
  // CompiledKernel[grid](...) (jit.py): the launch must be of the specialization that object
  // holds; arguments that specialize otherwise raise before anything runs.
  auto check_expected = [&](const CompiledKernel& k) {
    if (!expect_signature.empty() && k.signature() != expect_signature)
      throw nb::value_error(("these arguments specialize the kernel as [" + k.signature() +
                             "], but this CompiledKernel was compiled as [" + expect_signature +
                             "] (values specialized as 1 or as multiples of 16 must keep that property); launch "
                             "the jit function instead")
                                .c_str());
  };
  size_t n_runtime = 0;
  for (const Parameter& p : kernel.parameters()) n_runtime += p.is_constexpr ? 0 : 1;
  if (nb::len(args) != n_runtime) {
    std::string list;
    for (const Parameter& p : kernel.parameters())
      if (!p.is_constexpr) list += (list.empty() ? "" : ", ") + p.name;
    throw nb::type_error((kernel.name() + "() takes " + std::to_string(n_runtime) + " runtime argument" +
                          (n_runtime == 1 ? "" : "s") + " (" + list + "), got " + std::to_string(nb::len(args)))
                             .c_str());
  }
  const std::string backend = backend_for(backend_choice);
  const bool portable = portable_for(numerics);
  ConvertedArgs conv = convert_args(args, kernel, backend);
  if (kernel.has_pointer_annotations())
    conv.args = kernel.typed_arguments(conv.args);  // `x: "*fp32"` views any tensor as fp32
  const Device& device = conv.device;
  Meta m;
  for (auto [k, v] : meta) {
    const std::string key = nb::cast<std::string>(k);
    m[key] = to_constexpr(v, key);
  }
  CompileOptions o;
  o.num_warps = num_warps;
  o.num_stages = num_stages;
  o.debug = debug;
  o.portable_numerics = portable;
  // A grid callable is evaluated by the caller (jit.py), which has the tensors its META holds.
  const Grid g = grid_of(grid);
  if (!cache.dns_set) {
    cache.dns = do_not_specialize;
    cache.dns_align = do_not_specialize_on_alignment;
    auto names = std::make_shared<std::vector<std::string>>();
    for (const Parameter& p : kernel.parameters())
      if (!p.is_constexpr) names->push_back(p.name);
    cache.runtime_names = std::move(names);
    cache.dns_set = true;
  }
  const bool cacheable = cache.dns == do_not_specialize && cache.dns_align == do_not_specialize_on_alignment;
  std::string key;
  if (cacheable) {
    key = launch_key(device.name(), conv.args, m, o);
    if (auto it = cache.entries.find(key); it != cache.entries.end()) {
      const LaunchEntry& e = it->second;
      check_expected(e.kernel);
      if (run) e.kernel.launch_async(g, launch_arguments(conv.args), launch_stream(device));
      return LaunchResult{e.kernel, e.meta, cache.runtime_names, std::move(conv.args), {g.x, g.y, g.z}};
    }
  }
  const GridFn fn = [g](const Meta&) { return g; };
  Kernel::RunResult r = kernel.run_jit(device, fn, conv.args, m, o, do_not_specialize, do_not_specialize_on_alignment,
                                       /*launch=*/false);
  check_expected(r.kernel);
  if (run) r.kernel.launch_async(r.grid, launch_arguments(conv.args), launch_stream(device));
  auto base = std::make_shared<const Meta>(std::move(r.meta));
  if (cacheable) cache.entries.emplace(std::move(key), LaunchEntry{r.kernel, base});
  return LaunchResult{r.kernel, base, nullptr, {}, {r.grid.x, r.grid.y, r.grid.z}};
}

}  // namespace
}  // namespace tritium::python

NB_MODULE(_C, m) {
  using namespace tritium;
  using namespace tritium::python;
  m.doc() = "tritium's C++ compiler and runtimes (include/tritium/tritium.h); used by the tritium package";

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const tritium::Error& e) {
      raise_as_python(e);
    }
  });
  m.def("_set_error_types", [](nb::dict d) { error_types().update(d); }, "types"_a,
        "Registers the Python exception types (by name) that C++ errors become.");
  m.def("version", [] { return tritium::version(); }, "tritium's version string.");

  nb::class_<BackendInfo>(m, "BackendInfo")
      .def_ro("name", &BackendInfo::name)
      .def_ro("available", &BackendInfo::available)
      .def_ro("summary", &BackendInfo::summary)
      .def_ro("reason", &BackendInfo::reason)
      .def("__repr__", [](const BackendInfo& b) {
        return "BackendInfo(" + b.name + (b.available ? ", available" : ", unavailable: " + b.reason) + ")";
      });
  m.def("backends", &Device::list, "Every backend of this build, available or not.");
  m.def("best_backend", &Device::best_backend, "The first available of cuda, metal, opencl, cpu.");
  m.def("device_description", [](const std::string& b) { return Device::get(b).description(); }, "backend"_a,
        "Human-readable description of backend `backend`'s device.");
  m.def("device_properties", [](const std::string& b) { return Device::get(b).properties(); }, "backend"_a,
        "Hardware figures of a backend's device by upstream Triton's names (tritium::Device::properties).");
  m.def("synchronize", [](const std::string& b) { Device::get(b).synchronize(); }, "backend"_a,
        "Waits until all work launched on backend `backend` has finished; raises its errors.");

  nb::class_<Parameter>(m, "Parameter")
      .def_ro("name", &Parameter::name)
      .def_ro("is_constexpr", &Parameter::is_constexpr)
      .def_ro("has_default", &Parameter::has_default)
      .def_ro("default_text", &Parameter::default_text)
      .def_ro("annotation_type", &Parameter::annotation_type);

  nb::class_<CompiledKernel>(m, "CompiledKernel")
      .def_prop_ro("name", &CompiledKernel::name)
      .def_prop_ro("signature", &CompiledKernel::signature)
      .def_prop_ro("backend", &CompiledKernel::backend)
      .def_prop_ro("ir", &CompiledKernel::ir)
      .def_prop_ro("source", &CompiledKernel::source)
      .def_prop_ro("assembly_kinds", &CompiledKernel::assembly_kinds)
      .def("assembly", &CompiledKernel::assembly, "kind"_a, "The kernel's assembly of `kind` (\"ptx\" on cuda).")
      .def_prop_ro("resources", [](const CompiledKernel& k) {
        const KernelResources r = k.resources();
        nb::dict d;
        d["registers"] = r.registers;
        d["local_bytes"] = r.local_bytes;
        d["shared_bytes"] = r.shared_bytes;
        d["max_threads"] = r.max_threads;
        d["threads"] = r.threads;
        d["spill_bytes"] = r.spill_bytes;
        return d;
      }, "What one program uses (tritium::KernelResources) as a dict.");

  nb::class_<Kernel>(m, "Kernel")
      .def_prop_ro("name", &Kernel::name)
      .def_prop_ro("parameters", &Kernel::parameters)
      .def("set_annotation_types", &Kernel::set_annotation_types, "types"_a,
           "Sets the annotation types of runtime parameters (tritium::Kernel::set_annotation_types).");

  nb::class_<Module>(m, "Module")
      .def_static("from_file", &Module::from_file, "path"_a, "Parses the Python file `path` (its jit functions).")
      .def_static("from_string", &Module::from_string, "text"_a, "name"_a = "<string>",
                  "Parses `text` as a Python file named `name` in diagnostics.")
      .def_prop_ro("name", &Module::name)
      .def("kernel_names", &Module::kernel_names)
      .def("global_value_key", &Module::global_value_key, "path"_a,
           "The frontend's value of a module-level name as a comparison key (tritium::Module::global_value_key).")
      .def("function_location", &Module::function_location, "path"_a,
           "Where the frontend finds the jit function a module-level name resolves to: (file, first line, "
           "def line), or None (tritium::Module::function_location).")
      .def("default_value_key", &Module::default_value_key, "path"_a, "param"_a,
           "The frontend's value of a jit function's parameter default as a comparison key "
           "(tritium::Module::default_value_key).")
      .def("kernel", &Module::kernel, "name"_a)
      .def(
          "set_host_globals",
          [](Module& m, nb::dict d) {
            std::map<std::string, ConstexprValue> values;
            for (auto [k, v] : d) {
              const std::string name = nb::cast<std::string>(k);
              values[name] = to_constexpr(v, name);
            }
            m.set_host_globals(values);
          },
          "values"_a, "Module-level names' values as Python computed them (tritium::Module::set_host_globals).");

  nb::class_<LaunchResult>(m, "LaunchResult")
      .def_ro("kernel", &LaunchResult::kernel)
      .def_prop_ro("backend", [](const LaunchResult& r) { return r.kernel.backend(); })
      .def_prop_ro("meta", [](const LaunchResult& r) { return meta_dict(launch_meta(r)); })
      .def_prop_ro("grid", [](const LaunchResult& r) { return nb::make_tuple(r.grid[0], r.grid[1], r.grid[2]); });

  nb::class_<LaunchCache>(m, "LaunchCache", "The specializations one tritium.jit function launched (see launch).")
      .def(nb::init<>())
      .def("__len__", [](const LaunchCache& c) { return c.entries.size(); });

  m.def("launch", &launch, "cache"_a, "kernel"_a, "backend"_a, "args"_a, "grid"_a, "meta"_a, "num_warps"_a, "num_stages"_a,
        "debug"_a, "numerics"_a, "do_not_specialize"_a, "do_not_specialize_on_alignment"_a, "run"_a,
        "expect_signature"_a = "",
        "Specializes `kernel` on `args` (one per runtime parameter) and the constexprs in `meta`, compiles it "
        "(cached) for `backend` ('': $TRITIUM_BACKEND, else from where the tensors live) with `numerics` ('': "
        "$TRITIUM_NUMERICS, else native) and, when `run`, launches it over `grid` "
        "(a tuple of 1 to 3 ints) without waiting where the backend allows it. A non-empty `expect_signature` "
        "raises ValueError, before launching, when the arguments specialize the kernel otherwise.");
}
