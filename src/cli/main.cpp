// `tritium`: the command-line front end (compile, bench, doctor, hash, help). Option parsing is
// CLI11 with its generated help replaced by the man-page style pages of usage.cpp.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/usage.h"

namespace {

using namespace tritium::cli;

int usage_error(const std::string& where, const std::string& msg) {
  std::string topic = where.empty() ? "" : " " + where;
  fmt::print(stderr, "tritium{}: error: {}\nTry 'tritium help{}' for more information.\n", topic, msg, topic);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"tritium", "tritium"};
  app.set_help_flag();  // our own --help prints the man-page style page
  bool help = false, show_version = false;
  app.add_flag("-h,--help", help);
  app.add_flag("--version", show_version);
  app.require_subcommand(0, 1);

  CompileArgs compile_args;
  CLI::App* compile = app.add_subcommand("compile", "compile one kernel specialization");
  declare_compile(*compile, compile_args);

  BenchArgs bench_args;
  CLI::App* bench = app.add_subcommand("bench", "run the built-in kernel suite");
  declare_bench(*bench, bench_args);

  DoctorArgs doctor_args;
  CLI::App* doctor = app.add_subcommand("doctor", "list backends");
  declare_doctor(*doctor, doctor_args);

  HashArgs hash_args;
  CLI::App* hash = app.add_subcommand("hash", "compare the suite's outputs across backends");
  declare_hash(*hash, hash_args);

  std::string help_topic;
  bool help_help = false;
  CLI::App* help_cmd = app.add_subcommand("help", "show a usage page");
  help_cmd->set_help_flag();
  help_cmd->add_flag("-h,--help", help_help);
  help_cmd->add_option("command", help_topic);

  for (CLI::App* sub : {compile, bench, doctor, hash}) sub->set_help_flag();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    std::string where;
    for (CLI::App* sub : app.get_subcommands()) where = sub->get_name();
    return usage_error(where, e.what());
  }

  if (show_version) {
    fmt::print("{}", version_text());
    return 0;
  }
  // Commands report their own errors; anything that escapes them (e.g. a bad environment
  // variable such as TRITIUM_NUM_THREADS) is an error message and status 1, never an abort.
  try {
    if (*compile) return compile_args.help ? print_usage("compile") : run_compile(compile_args);
    if (*bench) return bench_args.help ? print_usage("bench") : run_bench_command(bench_args);
    if (*doctor) return doctor_args.help ? print_usage("doctor") : run_doctor(doctor_args);
    if (*hash) return hash_args.help ? print_usage("hash") : run_hash_command(hash_args);
  } catch (const std::exception& e) {
    fmt::print(stderr, "tritium: error: {}\n", e.what());
    return 1;
  }
  if (*help_cmd) return print_usage(help_help ? "help" : help_topic);
  if (help) return print_usage("");
  // No command: show the page on stderr, as a usage error.
  std::fputs(usage_page("").c_str(), stderr);
  return 2;
}
