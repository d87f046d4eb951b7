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
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstdlib>
#include <map>
#include <string>

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

Grid grid_of(nb::handle g) {
  if (nb::isinstance<nb::int_>(g)) return Grid(nb::cast<int64_t>(g));
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
    if (!nb::isinstance<nb::int_>(x))
      throw nb::type_error(("grid entry " + std::to_string(i) + " must be an int, got " +
                            nb::cast<std::string>(nb::repr(x)))
                               .c_str());
    e[i] = nb::cast<int64_t>(x);
  }
  return Grid(e[0], e[1], e[2]);
}

nb::dict meta_dict(const Meta& m) {
  nb::dict d;
  for (const auto& [k, v] : m) d[k.c_str()] = from_constexpr(v);
  return d;
}

// One `kernel[grid](*args, **meta)`: see python/tritium/jit.py (JITFunction.run).
struct LaunchResult {
  CompiledKernel kernel;
  Meta meta;  // converted to a dict only when asked for
  std::array<int64_t, 3> grid;
};

LaunchResult launch(const Kernel& kernel, const std::string& backend, nb::sequence args, nb::object grid,
                    nb::dict meta, int num_warps, int num_stages, bool debug, bool portable,
                    const std::vector<std::string>& do_not_specialize,
                    const std::vector<std::string>& do_not_specialize_on_alignment, bool run) {
  std::vector<std::string> names;
  for (const Parameter& p : kernel.parameters())
    if (!p.is_constexpr) names.push_back(p.name);
  if (nb::len(args) != names.size()) {
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    throw nb::type_error((kernel.name() + "() takes " + std::to_string(names.size()) + " runtime argument" +
                          (names.size() == 1 ? "" : "s") + " (" + list + "), got " + std::to_string(nb::len(args)))
                             .c_str());
  }
  ConvertedArgs conv = convert_args(args, names, backend);
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
  const GridFn fn = [g](const Meta&) { return g; };
  Kernel::RunResult r = kernel.run_jit(device, fn, conv.args, m, o, do_not_specialize, do_not_specialize_on_alignment, run);
  return LaunchResult{r.kernel, std::move(r.meta), {r.grid.x, r.grid.y, r.grid.z}};
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
  m.def("synchronize", [](const std::string& b) { Device::get(b).synchronize(); }, "backend"_a,
        "Waits until all work launched on backend `backend` has finished; raises its errors.");

  nb::class_<Parameter>(m, "Parameter")
      .def_ro("name", &Parameter::name)
      .def_ro("is_constexpr", &Parameter::is_constexpr)
      .def_ro("has_default", &Parameter::has_default)
      .def_ro("default_text", &Parameter::default_text);

  nb::class_<CompiledKernel>(m, "CompiledKernel")
      .def_prop_ro("name", &CompiledKernel::name)
      .def_prop_ro("signature", &CompiledKernel::signature)
      .def_prop_ro("backend", &CompiledKernel::backend)
      .def_prop_ro("ir", &CompiledKernel::ir)
      .def_prop_ro("source", &CompiledKernel::source);

  nb::class_<Kernel>(m, "Kernel")
      .def_prop_ro("name", &Kernel::name)
      .def_prop_ro("parameters", &Kernel::parameters);

  nb::class_<Module>(m, "Module")
      .def_static("from_file", &Module::from_file, "path"_a, "Parses the Python file `path` (its jit functions).")
      .def_static("from_string", &Module::from_string, "text"_a, "name"_a = "<string>",
                  "Parses `text` as a Python file named `name` in diagnostics.")
      .def_prop_ro("name", &Module::name)
      .def("kernel_names", &Module::kernel_names)
      .def("kernel", &Module::kernel, "name"_a);

  nb::class_<LaunchResult>(m, "LaunchResult")
      .def_ro("kernel", &LaunchResult::kernel)
      .def_prop_ro("backend", [](const LaunchResult& r) { return r.kernel.backend(); })
      .def_prop_ro("meta", [](const LaunchResult& r) { return meta_dict(r.meta); })
      .def_prop_ro("grid", [](const LaunchResult& r) { return nb::make_tuple(r.grid[0], r.grid[1], r.grid[2]); });

  m.def("launch", &launch, "kernel"_a, "backend"_a, "args"_a, "grid"_a, "meta"_a, "num_warps"_a, "num_stages"_a,
        "debug"_a, "portable"_a, "do_not_specialize"_a, "do_not_specialize_on_alignment"_a, "run"_a,
        "Specializes `kernel` on `args` (one per runtime parameter) and the constexprs in `meta`, compiles it "
        "(cached) for `backend` ('' picks it from where the tensors live) and, when `run`, launches it over `grid` "
        "(a tuple of 1 to 3 ints) without waiting where the backend allows it.");
}
