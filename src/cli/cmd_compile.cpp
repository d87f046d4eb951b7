// `tritium compile`: AOT compilation of one kernel specialization to IR or generated source.
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
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
  cmd.add_flag("--list-kernels", a.list_kernels);
}

int run_compile(const CompileArgs& a) {
  if (a.file.empty()) return usage("no input file (tritium compile FILE.py --kernel NAME --signature SIG)");
  if (a.emit != "ir" && a.emit != "cpp") {
    if (a.emit == "cuda" || a.emit == "ptx" || a.emit == "opencl" || a.emit == "msl")
      return usage(fmt::format("--emit {} is not available yet: its backend is not built (see tritium doctor)", a.emit));
    return usage(fmt::format("unknown --emit value '{}' (expected ir or cpp)", a.emit));
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

    CompileOptions options;
    options.num_warps = a.num_warps;
    options.num_stages = a.num_stages;
    options.portable_numerics = a.numerics == "portable";
    options.debug = a.debug;
    options.dump_after = a.dump_after;
    options.dump = [](const std::string& pass, const std::string& ir) {
      fmt::print(stderr, "// ----- IR after {} -----\n{}", pass, ir);
      if (!ir.empty() && ir.back() != '\n') fmt::print(stderr, "\n");
    };

    std::string text;
    if (a.emit == "ir") {
      text = kernel.ir(a.signature, options);
    } else {
      Device cpu = Device::get("cpu");
      text = kernel.compile(cpu, a.signature, options).source();
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
