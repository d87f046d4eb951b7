// The subcommands of `tritium`. Each has an options struct, a function that declares its
// options on a CLI11 subcommand, and a function that runs it and returns the exit status
// (0 success, 1 failure, 2 usage error; see usage.cpp).
#pragma once
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "bench/bench.h"
#include "bench/hash.h"

namespace tritium::cli {

/// Options of `tritium compile`.
struct CompileArgs {
  std::string file;
  std::string kernel;
  std::string signature;
  std::string emit = "ir";
  std::string output;
  int num_warps = -1;   // -1: not given (4, or the chosen autotune config's)
  int num_stages = -1;  // -1: not given (3, or the chosen autotune config's)
  int config = -1;      // --config: index of an @triton.autotune config
  std::vector<std::string> arg_values;  // --arg NAME=VALUE, for heuristics
  bool list_configs = false;
  std::string numerics = "native";
  std::vector<std::string> dump_after;
  bool debug = false;
  bool sanitize = false;  ///< --sanitize: CompileOptions::sanitize (cpu; --emit cpp shows the checks)
  bool list_kernels = false;
  bool help = false;
};

/// Declares the options of `compile` on `cmd`, bound to `a`.
void declare_compile(CLI::App& cmd, CompileArgs& a);
/// Runs `tritium compile`.
int run_compile(const CompileArgs& a);

/// Options of `tritium bench` (the benchmark library's own options, plus --help).
struct BenchArgs {
  bench::BenchOptions options;
  bool help = false;
};

/// Declares the options of `bench` on `cmd`, bound to `a`.
void declare_bench(CLI::App& cmd, BenchArgs& a);
/// Runs `tritium bench` (through the benchmark library when it is linked in).
int run_bench_command(const BenchArgs& a);

/// Options of `tritium hash` (the benchmark library's HashOptions, from the flags).
struct HashArgs {
  bench::HashOptions options;
  std::string backends;  // --backends a,b,c
  std::string numerics = "portable";
  bool help = false;
};

/// Declares the options of `hash` on `cmd`, bound to `a`.
void declare_hash(CLI::App& cmd, HashArgs& a);
/// Runs `tritium hash`.
int run_hash_command(HashArgs& a);

/// Options of `tritium doctor`.
struct DoctorArgs {
  bool help = false;
};

/// Declares the options of `doctor` on `cmd`, bound to `a`.
void declare_doctor(CLI::App& cmd, DoctorArgs& a);
/// Runs `tritium doctor`.
int run_doctor(const DoctorArgs& a);

/// The "tritium X.Y.Z" line and the compiler tritium was built with (for --version).
std::string version_text();

}  // namespace tritium::cli
