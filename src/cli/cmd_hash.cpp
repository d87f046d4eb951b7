// `tritium hash`: parses the options and hands them to the benchmark library's hash run
// (bench/hash.h), which compares the built-in suite's outputs across backends.
#include <fmt/format.h>

#include "cli/commands.h"

namespace tritium::cli {

void declare_hash(CLI::App& cmd, HashArgs& a) {
  bench::HashOptions& o = a.options;
  cmd.add_flag("-h,--help", a.help);
  cmd.add_option("--backends", a.backends);
  cmd.add_option("--filter", o.filter);
  cmd.add_flag("--full", o.full);
  cmd.add_option("--numerics", a.numerics);
  cmd.add_option("--json", o.json_path);
  cmd.add_flag("--no-progress", o.no_progress);
  cmd.add_option("--kernels-dir", o.kernels_dir);
}

int run_hash_command(HashArgs& a) {
  if (a.numerics != "portable" && a.numerics != "native") {
    fmt::print(stderr, "tritium hash: error: --numerics must be 'portable' or 'native', got '{}'\n", a.numerics);
    return 2;
  }
  a.options.portable = a.numerics == "portable";
  a.options.backends.clear();
  size_t start = 0;
  while (start <= a.backends.size() && !a.backends.empty()) {
    const size_t comma = a.backends.find(',', start);
    const std::string name = a.backends.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty()) {
      fmt::print(stderr, "tritium hash: error: --backends '{}' has an empty name\n", a.backends);
      return 2;
    }
    a.options.backends.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return bench::run_hash(a.options);
}

}  // namespace tritium::cli
