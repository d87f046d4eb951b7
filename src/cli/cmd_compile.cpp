// `tritium compile`: AOT compilation of one kernel specialization to IR or generated source.
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "runtime/cuda/cuda_kernel.h"
#include "tritium/tritium.h"

namespace tritium::cli {
namespace {

int fail(const std::string& msg) {
  fmt::print(stderr, "tritium compile: error: {}\n", msg);
  return 1;
}

int usage(const std::string& msg) {
  fmt::print(stderr, "tritium compile: error: {}\nTry 'tritium help compile' for more information.\n", msg);
  return 2;
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// "n=4096" / "eps=1e-5" / "flag=True" → (name, value); throws Error(Usage).
std::pair<std::string, ConstexprValue> parse_arg_value(const std::string& text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error(ErrorKind::Usage, fmt::format("--arg expects NAME=VALUE, got '{}'", text));
  std::string name = text.substr(0, eq), v = text.substr(eq + 1);
  if (v == "True" || v == "true") return {name, true};
  if (v == "False" || v == "false") return {name, false};
  try {
    size_t used = 0;
    long long i = std::stoll(v, &used, 0);
    if (used == v.size()) return {name, static_cast<int64_t>(i)};
    double d = std::stod(v, &used);
    if (used == v.size()) return {name, d};
  } catch (const std::exception&) {
  }
  throw Error(ErrorKind::Usage, fmt::format("--arg {}: '{}' is not an integer, float or bool", name, v));
}

void print_configs(const Kernel& kernel) {
  KernelDecorators d = kernel.decorators();
  if (d.configs.empty()) fmt::print("{}: no @triton.autotune configs\n", kernel.name());
  for (size_t i = 0; i < d.configs.size(); ++i) fmt::print("{}: {}\n", i, d.configs[i].str());
  if (!d.autotune_key.empty()) fmt::print("key: {}\n", join(d.autotune_key));
  if (!d.heuristics.empty()) fmt::print("heuristics: {}\n", join(d.heuristics));
  if (!d.do_not_specialize.empty()) fmt::print("do_not_specialize: {}\n", join(d.do_not_specialize));
  if (!d.do_not_specialize_on_alignment.empty())
    fmt::print("do_not_specialize_on_alignment: {}\n", join(d.do_not_specialize_on_alignment));
}

}  // namespace

void declare_compile(CLI::App& cmd, CompileArgs& a) {
  cmd.add_flag("-h,--help", a.help);
  cmd.add_option("file", a.file);
  cmd.add_option("-k,--kernel", a.kernel);
  cmd.add_option("-s,--signature", a.signature);
  cmd.add_option("--emit", a.emit);
  cmd.add_option("-o,--output", a.output);
  cmd.add_option("--num-warps", a.num_warps);
  cmd.add_option("--num-stages", a.num_stages);
  cmd.add_option("--numerics", a.numerics);
  cmd.add_option("--dump-after", a.dump_after)->delimiter(',')->allow_extra_args(false);
  cmd.add_flag("--debug", a.debug);
  cmd.add_flag("--sanitize", a.sanitize);
  cmd.add_flag("--list-kernels", a.list_kernels);
  cmd.add_option("--config", a.config);
  cmd.add_option("--arg", a.arg_values)->allow_extra_args(false);
  cmd.add_flag("--list-configs", a.list_configs);
}

int run_compile(const CompileArgs& a) {
  if (a.file.empty()) return usage("no input file (tritium compile FILE.py --kernel NAME --signature SIG)");
  if (a.emit != "ir" && a.emit != "cpp" && a.emit != "cuda" && a.emit != "opencl" && a.emit != "msl") {
    if (a.emit == "ptx")
      return usage(fmt::format("--emit {} is not available yet: its backend is not built (see tritium doctor)", a.emit));
    return usage(fmt::format("unknown --emit value '{}' (expected ir, cpp, cuda, opencl or msl)", a.emit));
  }
  if (a.numerics != "native" && a.numerics != "portable")
    return usage(fmt::format("unknown --numerics value '{}' (expected native or portable)", a.numerics));

  try {
    Module module = Module::from_file(a.file);
    if (a.list_kernels) {
      for (const std::string& n : module.kernel_names()) fmt::print("{}\n", n);
      return 0;
    }
    if (a.kernel.empty()) {
      std::vector<std::string> names = module.kernel_names();
      return usage(fmt::format("no --kernel given; kernels in {}: {}", a.file, names.empty() ? "none" : join(names)));
    }
    Kernel kernel = module.kernel(a.kernel);
    if (a.list_configs) {
      print_configs(kernel);
      return 0;
    }

    CompileOptions options;
    Meta known;
    for (const std::string& t : a.arg_values) {
      auto kv = parse_arg_value(t);
      bool is_param = false;
      for (const Parameter& p : kernel.parameters()) is_param = is_param || p.name == kv.first;
      if (!is_param) return usage(fmt::format("--arg {}: kernel '{}' has no parameter named '{}'", t, a.kernel, kv.first));
      known.insert(kv);
    }
    Meta constexprs;
    try {
      constexprs = kernel.resolve_meta(a.signature, a.config, {}, known, &options);
    } catch (const CompileError& e) {
      // Decorators that compute their arguments with host code (device queries, environment
      // variables) cannot be evaluated; a signature that gives every value does not need them.
      if (a.config >= 0 || !a.arg_values.empty()) throw;
      std::string first = e.what();
      first = first.substr(0, first.find('\n'));
      fmt::print(stderr, "tritium compile: note: the decorators of '{}' are not used: {}\n", a.kernel, first);
    }
    if (a.config >= 0 && ((a.num_warps >= 0 && a.num_warps != options.num_warps) ||
                          (a.num_stages >= 0 && a.num_stages != options.num_stages)))
      return usage(fmt::format("--num-warps / --num-stages conflict with --config {} (it sets num_warps={}, "
                               "num_stages={})",
                               a.config, options.num_warps, options.num_stages));
    if (a.num_warps >= 0) options.num_warps = a.num_warps;
    if (a.num_stages >= 0) options.num_stages = a.num_stages;
    options.portable_numerics = a.numerics == "portable";
    options.debug = a.debug;
    options.sanitize = a.sanitize;
    options.dump_after = a.dump_after;
    options.dump = [](const std::string& pass, const std::string& ir) {
      fmt::print(stderr, "// ----- IR after {} -----\n{}", pass, ir);
      if (!ir.empty() && ir.back() != '\n') fmt::print(stderr, "\n");
    };

    std::string text;
    if (a.emit == "ir") {
      text = kernel.ir(a.signature, options, constexprs);
    } else if (a.emit == "cuda") {  // rendered, and checked by NVRTC (no GPU needed)
      Device nvrtc(runtime::cuda::make_nvrtc_check_device());
      const CompiledKernel k = kernel.compile(nvrtc, a.signature, options, constexprs);
      text = k.source();
      // A kernel that fits only by spilling runs, more slowly: reported, as ptxas
      // --warn-on-spills would (any spill; kernels that cannot launch were refused).
      if (const KernelResources r = k.resources(); r.spill_bytes > 0)
        fmt::print(stderr,
                   "tritium compile: warning: kernel '{}' spills {} bytes of registers per thread to local memory "
                   "on sm_90 ({} registers per thread x {} threads, {} bytes of local memory per thread); it runs, "
                   "more slowly — smaller blocks reduce it\n",
                   a.kernel, r.spill_bytes, r.registers, r.threads, r.local_bytes);
    } else if (a.emit == "opencl") {  // rendered and built by the OpenCL device
      text = kernel.compile(Device::get("opencl"), a.signature, options, constexprs).source();
    } else if (a.emit == "msl") {  // rendered, and compiled and loaded by msl-emu (no Apple hardware needed)
      text = kernel.compile(Device::get("msl-emu"), a.signature, options, constexprs).source();
    } else {
      Device cpu = Device::get("cpu");
      text = kernel.compile(cpu, a.signature, options, constexprs).source();
    }
    if (!text.empty() && text.back() != '\n') text += '\n';

    if (a.output.empty()) {
      std::cout << text << std::flush;
      return 0;
    }
    std::ofstream out(a.output, std::ios::binary);
    out << text;
    out.close();
    if (!out) return fail(fmt::format("cannot write '{}'", a.output));
    return 0;
  } catch (const CompileError& e) {
    // The diagnostic already has FILE:LINE:COL, the source line and the caret.
    std::string d = e.what();
    fmt::print(stderr, "{}{}", d, d.empty() || d.back() != '\n' ? "\n" : "");
    return 1;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Usage) return usage(e.what());
    return fail(e.what());
  } catch (const std::exception& e) {
    return fail(fmt::format("internal error: {}", e.what()));
  }
}

}  // namespace tritium::cli
