// The `tritium` command: runs the built binary (TRITIUM_CLI_PATH, set by tests/CMakeLists.txt)
// and checks exit statuses, usage pages, diagnostics and emitted output.
#include "nvrtc_opt_out.h"
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "passes/pipeline.h"
#include "runtime/registry.h"

#ifndef TRITIUM_CLI_PATH
#error "TRITIUM_CLI_PATH must name the tritium executable"
#endif

namespace {

struct Result {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A scratch path private to the running test and process (ctest may run tests in parallel).
std::string tmp_path(const std::string& name) {
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "/tritium_cli_" + std::to_string(::getpid()) + "_" + (t ? t->name() : "none") + "_" +
         name;
}

// Removes this process's scratch files (tmp_path) when the test program ends.
class ScratchCleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    const std::string prefix = "tritium_cli_" + std::to_string(::getpid()) + "_";
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(::testing::TempDir(), ec))
      if (e.path().filename().string().rfind(prefix, 0) == 0) std::filesystem::remove(e.path(), ec);
  }
};
[[maybe_unused]] ::testing::Environment* const kScratchCleanup = ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

// Runs `ENV tritium ARGS` through the shell (ENV and ARGS are shell text: `VAR=value ...`)
// capturing stdout and stderr.
Result run_env(const std::string& env, const std::string& args) {
  std::string out = tmp_path("stdout.txt"), err = tmp_path("stderr.txt");
  std::string cmd = env + " '" + TRITIUM_CLI_PATH + "' " + args + " >'" + out + "' 2>'" + err + "' </dev/null";
  int raw = std::system(cmd.c_str());
  Result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}
Result run(const std::string& args) { return run_env("", args); }

bool contains(const std::string& s, const std::string& needle) { return s.find(needle) != std::string::npos; }

const char* const kKernels = R"(import triton
import triton.language as tl

def host_helper(n):
    return n * 2

@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

@triton.jit
def typo_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, offz)

if __name__ == "__main__":
    print(host_helper(3))
)";

std::string kernel_file() {
  std::string path = tmp_path("kernels.py");
  std::ofstream(path) << kKernels;
  return path;
}

const std::string kAddSig = "--signature '*fp32:16, *fp32:16, *fp32:16, i32, 256'";

// ------------------------------------------------------------------ top level

TEST(Cli, VersionNamesTheCompiler) {
  Result r = run("--version");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out.rfind(std::string("tritium ") + TRITIUM_VERSION + "\n", 0), 0u) << r.out;
  EXPECT_TRUE(contains(r.out, "built with")) << r.out;
}

void expect_man_page(const std::string& page, const std::string& name_line) {
  for (const char* section : {"NAME\n", "SYNOPSIS\n", "DESCRIPTION\n", "OPTIONS\n", "EXAMPLES\n", "EXIT STATUS\n"})
    EXPECT_TRUE(contains(page, section)) << "missing " << section << " in\n" << page;
  EXPECT_TRUE(contains(page, name_line)) << page;
}

TEST(Cli, TopLevelHelp) {
  Result r = run("--help");
  EXPECT_EQ(r.status, 0);
  expect_man_page(r.out, "tritium - compile and run Triton-language kernels");
  for (const char* cmd : {"compile", "bench", "doctor", "help"}) EXPECT_TRUE(contains(r.out, cmd)) << cmd;
  EXPECT_EQ(run("help").out, r.out);
}

TEST(Cli, EveryCommandHasAPageShownBothWays) {
  for (std::string cmd : {"compile", "bench", "doctor"}) {
    Result a = run("help " + cmd), b = run(cmd + " --help"), c = run(cmd + " -h");
    EXPECT_EQ(a.status, 0) << cmd;
    EXPECT_EQ(b.status, 0) << cmd << b.err;
    expect_man_page(a.out, "tritium " + cmd + " - ");
    EXPECT_EQ(a.out, b.out) << cmd;
    EXPECT_EQ(a.out, c.out) << cmd;
  }
  Result h = run("help help");
  EXPECT_EQ(h.status, 0);
  EXPECT_TRUE(contains(h.out, "tritium help - ")) << h.out;
}

TEST(Cli, UsageErrorsExitWith2) {
  Result none = run("");
  EXPECT_EQ(none.status, 2);
  EXPECT_TRUE(contains(none.err, "SYNOPSIS")) << none.err;
  Result unknown_cmd = run("frobnicate");
  EXPECT_EQ(unknown_cmd.status, 2);
  Result unknown_opt = run("doctor --frobnicate");
  EXPECT_EQ(unknown_opt.status, 2);
  EXPECT_TRUE(contains(unknown_opt.err, "--frobnicate")) << unknown_opt.err;
  Result bad_topic = run("help frobnicate");
  EXPECT_EQ(bad_topic.status, 2);
  EXPECT_TRUE(contains(bad_topic.err, "no command 'frobnicate'")) << bad_topic.err;
}

TEST(Cli, DoctorListsEveryBackend) {
  Result r = run("doctor");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  for (const char* b : {"cpu", "interp", "cuda", "opencl", "metal", "msl-emu"})
    EXPECT_TRUE(contains(r.out, std::string("\n  ") + b + " ")) << b << "\n" << r.out;
  EXPECT_TRUE(contains(r.out, "interp   available")) << r.out;
  // PoCL on CI (scripts/test requires it), else the loader's reason
  EXPECT_TRUE(contains(r.out, "opencl   available") || contains(r.out, "opencl   unavailable")) << r.out;
  EXPECT_TRUE(contains(r.out, "\nOpenCL platforms:")) << r.out;  // the ICD loader's platforms, or why none
  EXPECT_TRUE(contains(r.out, "CUDA compiler for the cuda backend: NVRTC")) << r.out;
  EXPECT_TRUE(contains(r.out, "best backend: ")) << r.out;
}

TEST(Cli, BenchRejectsUnknownOptions) {
  Result r = run("bench --frobnicate");
  EXPECT_EQ(r.status, 2);
}

TEST(Cli, BenchRefusesABaselineTheBackendLacks) {
  // Before anything is measured or compiled: a usage error naming the backend.
  Result up = run("bench --backend cpu --vs upstream --quick");
  EXPECT_EQ(up.status, 2);
  EXPECT_TRUE(contains(up.err, "--vs upstream") && contains(up.err, "--backend cuda")) << up.err;
  EXPECT_FALSE(contains(up.out, "copy bandwidth")) << "refused before the run starts";
  Result lib = run("bench --backend interp --vs library --quick");
  EXPECT_EQ(lib.status, 2);
  EXPECT_TRUE(contains(lib.err, "interp backend has no in-process baselines")) << lib.err;
  Result zero = run("bench --repeat 0 --quick");
  EXPECT_EQ(zero.status, 2) << "--repeat 0 is not automatic in disguise";
  Result neg = run("bench --warmup -3 --quick");
  EXPECT_EQ(neg.status, 2);
  const std::string bad = tmp_path("bad-run.json");
  std::ofstream(bad) << R"({"cases": 5})";
  Result malformed = run("bench --quick --filter vector_add --vs " + bad);
  EXPECT_EQ(malformed.status, 2);
  EXPECT_TRUE(contains(malformed.err, "no \"cases\" array")) << malformed.err;
  EXPECT_FALSE(contains(malformed.out, "copy bandwidth")) << "refused before the run starts";
  Result file = run("bench --vs /nonexistent/run.json --quick");
  EXPECT_EQ(file.status, 2);
  EXPECT_TRUE(contains(file.err, "auto, library, upstream, none")) << file.err;
}

// ------------------------------------------------------------------ compile

TEST(Cli, ListKernelsSkipsHostCode) {
  Result r = run("compile '" + kernel_file() + "' --list-kernels");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "add_kernel\ntypo_kernel\n");
}

TEST(Cli, EmitIrToStdoutAndToAFile) {
  std::string file = kernel_file();
  Result r = run("compile '" + file + "' --kernel add_kernel " + kAddSig + " --emit ir");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "kernel @add_kernel(")) << r.out;
  EXPECT_TRUE(contains(r.out, "make_range")) << r.out;
  std::string out = tmp_path("out.ir");
  std::remove(out.c_str());
  Result f = run("compile '" + file + "' -k add_kernel " + kAddSig + " -o '" + out + "'");
  ASSERT_EQ(f.status, 0) << f.err;
  EXPECT_EQ(f.out, "");
  EXPECT_EQ(slurp(out), r.out) << "--emit ir is the default; -o writes what stdout would show";
}

TEST(Cli, EmitCppGivesTheCpuKernelSource) {
  Result r = run("compile '" + kernel_file() + "' --kernel add_kernel " + kAddSig + " --emit cpp");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "tritium_run")) << r.out;  // the ABI entry point (kernel_abi.h)
}

TEST(Cli, DumpAfterAllPrintsEveryPassToStderr) {
  Result r = run("compile '" + kernel_file() + "' -k add_kernel " + kAddSig + " --dump-after all");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const std::string& pass : tritium::passes::pipeline_pass_names())
    EXPECT_TRUE(contains(r.err, "IR after " + pass + " ")) << pass << "\n" << r.err;
  Result one = run("compile '" + kernel_file() + "' -k add_kernel " + kAddSig + " --dump-after dce");
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_TRUE(contains(one.err, "IR after dce ")) << one.err;
  Result bad = run("compile '" + kernel_file() + "' -k add_kernel " + kAddSig + " --dump-after nosuchpass");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(contains(bad.err, "unknown pass 'nosuchpass'")) << bad.err;
}

TEST(Cli, CompileErrorPrintsLocationLineAndCaret) {
  std::string file = kernel_file();
  Result r = run("compile '" + file + "' --kernel typo_kernel --signature '*fp32, 64'");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  // `offz` is on line 16, column 28.
  EXPECT_EQ(r.err.rfind(file + ":16:28: error: ", 0), 0u) << r.err;
  EXPECT_TRUE(contains(r.err, "    tl.store(x_ptr + offs, offz)\n")) << r.err;
  EXPECT_TRUE(contains(r.err, "\n" + std::string(4 + 27, ' ') + "^")) << r.err;
}

TEST(Cli, UnknownKernelListsTheKernels) {
  Result r = run("compile '" + kernel_file() + "' --kernel host_helper " + kAddSig);
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err, "no jit kernel named 'host_helper'")) << r.err;
  EXPECT_TRUE(contains(r.err, "add_kernel, typo_kernel")) << r.err;
  Result missing = run("compile '" + kernel_file() + "' " + kAddSig);
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(contains(missing.err, "add_kernel, typo_kernel")) << missing.err;
}

TEST(Cli, SignatureMismatchNamesTheParameter) {
  Result r = run("compile '" + kernel_file() + "' -k add_kernel --signature '*fp32, *fp32, *fp32, 5, 256'");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err, "parameter 'n' (#4) is not a tl.constexpr")) << r.err;
  Result bad = run("compile '" + kernel_file() + "' -k add_kernel --signature '*fp32, *fp32, *float7, i32, 256'");
  EXPECT_EQ(bad.status, 1);
  EXPECT_TRUE(contains(bad.err, "unknown type 'float7'")) << bad.err;
}

TEST(Cli, BadOptionValues) {
  std::string base = "compile '" + kernel_file() + "' -k add_kernel " + kAddSig;
  Result emit = run(base + " --emit ptx");
  EXPECT_EQ(emit.status, 2);
  EXPECT_TRUE(contains(emit.err, "--emit ptx is not available yet")) << emit.err;
  Result msl = run(base + " --emit msl");  // rendered, then compiled and loaded by msl-emu
  EXPECT_EQ(msl.status, 0) << msl.err;
  EXPECT_TRUE(contains(msl.out, "kernel void tritium_kernel(device float* a0 [[buffer(0)]]")) << msl.out.substr(0, 400);
  if (tritium::runtime::backend_status("opencl").available) {  // rendered and built by the device
    Result cl = run(base + " --emit opencl");
    EXPECT_EQ(cl.status, 0) << cl.err;
    // the work-group shape: 32 x num_warps work-items per program
    EXPECT_TRUE(contains(cl.out, "__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void tritium_kernel("))
        << cl.out.substr(0, 400);
  }
  if (!tritium_no_nvrtc()) {  // the CUDA source, checked by NVRTC
    Result cuda = run(base + " --emit cuda");
    EXPECT_EQ(cuda.status, 0) << cuda.err;
    EXPECT_TRUE(contains(cuda.out, "extern \"C\" __global__")) << cuda.out.substr(0, 400);
  }
  EXPECT_EQ(run(base + " --emit wasm").status, 2);
  EXPECT_EQ(run(base + " --numerics fast").status, 2);
  Result warps = run(base + " --num-warps 3");
  EXPECT_EQ(warps.status, 2);
  EXPECT_TRUE(contains(warps.err, "num_warps must be a power of two")) << warps.err;
  EXPECT_EQ(run(base + " --num-warps eight").status, 2);
  Result missing = run("compile /nonexistent/k.py -k add_kernel");
  EXPECT_EQ(missing.status, 1);
  EXPECT_TRUE(contains(missing.err, "cannot read kernel source '/nonexistent/k.py': No such file")) << missing.err;
  Result dir = run("compile /tmp --list-kernels");  // a directory is not a kernel file
  EXPECT_EQ(dir.status, 1);
  EXPECT_TRUE(contains(dir.err, "cannot read kernel source '/tmp': it is a directory")) << dir.err;
  Result threads = run_env("TRITIUM_NUM_THREADS=abc", "bench --filter vector_add");  // an error, not an abort
  EXPECT_EQ(threads.status, 1);
  EXPECT_TRUE(contains(threads.err, "TRITIUM_NUM_THREADS must be a whole number from 1 to 4096, not 'abc'")) << threads.err;
  EXPECT_EQ(run("compile").status, 2);
}

TEST(Cli, PortableAndDebugOptionsAreAccepted) {
  Result r = run("compile '" + kernel_file() + "' -k add_kernel " + kAddSig +
                 " --numerics portable --debug --num-warps 8 --num-stages 2");
  EXPECT_EQ(r.status, 0) << r.err;
}

// ------------------------------------------------------------------ decorators

const char* const kTuned = R"(import triton
import triton.language as tl

@triton.autotune(configs=[triton.Config({'BLOCK': 32}, num_warps=2), triton.Config({'BLOCK': 128}, num_warps=8, num_stages=1)],
                 key=['n'])
@triton.heuristics({'EVEN': lambda args: args['n'] % args['BLOCK'] == 0})
@triton.jit
def tuned(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(x_ptr + offs, offs)
    else:
        tl.store(x_ptr + offs, offs, mask=offs < n)
)";

TEST(Cli, ListConfigsNumbersTheAutotuneConfigs) {
  std::string file = tmp_path("tuned.py");
  std::ofstream(file) << kTuned;
  Result r = run("compile '" + file + "' -k tuned --list-configs");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out,
            "0: BLOCK: 32, num_warps: 2, num_stages: 3\n1: BLOCK: 128, num_warps: 8, num_stages: 1\nkey: n\n"
            "heuristics: EVEN\n");
}

TEST(Cli, ConfigAndArgResolveTheMetaParameters) {
  std::string file = tmp_path("tuned.py");
  std::ofstream(file) << kTuned;
  // Config 1 (BLOCK 128) and n = 256: EVEN is true, so the store has no mask.
  Result r = run("compile '" + file + "' -k tuned -s '*i32, i32' --config 1 --arg n=256");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "make_range {end = 128, start = 0}")) << r.out;
  EXPECT_FALSE(contains(r.out, "has_mask = 1")) << r.out;
  // n = 100: not a multiple of 32, so the masked store.
  r = run("compile '" + file + "' -k tuned -s '*i32, i32' --config 0 --arg n=100");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.out, "make_range {end = 32, start = 0}")) << r.out;
  EXPECT_TRUE(contains(r.out, "has_mask = 1")) << r.out;
  // Without --config (two configs): a usage error that says how to choose.
  r = run("compile '" + file + "' -k tuned -s '*i32, i32' --arg n=100");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "--config N")) << r.err;
  // Without the value the heuristic reads: an error at the heuristic, naming the argument.
  r = run("compile '" + file + "' -k tuned -s '*i32, i32' --config 0");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err, "tuned.py:6:47: error")) << r.err;
  EXPECT_TRUE(contains(r.err, "heuristic for 'EVEN': key 'n' is not among the kernel's arguments")) << r.err;
  // The config sets num_warps: an explicit --num-warps contradicts it.
  r = run("compile '" + file + "' -k tuned -s '*i32, i32' --config 0 --arg n=64 --num-warps 4");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "conflict with --config 0 (it sets num_warps=2, num_stages=3)")) << r.err;
  // The config's own values may be repeated.
  r = run("compile '" + file + "' -k tuned -s '*i32, i32' --config 0 --arg n=64 --num-warps 2");
  EXPECT_EQ(r.status, 0) << r.err;
  // A misspelled --arg name is named; too many signature entries are reported as such.
  r = run("compile '" + file + "' -k tuned -s '*i32, i32' --config 0 --arg nn=64");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "--arg nn=64: kernel 'tuned' has no parameter named 'nn'")) << r.err;
  r = run("compile '" + file + "' -k tuned -s '*i32, i32, 1, 2, 3' --config 0 --arg n=64");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err, "the signature has 5 entries but the kernel has 4 parameters")) << r.err;
  r = run("compile '" + file + "' -k tuned -s '*i32, i32' --config 5 --arg n=64");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "config 5 does not exist")) << r.err;
  r = run("compile '" + file + "' -k tuned -s '*i32, i32' --config 0 --arg n=sixty");
  EXPECT_EQ(r.status, 2);
  EXPECT_TRUE(contains(r.err, "not an integer, float or bool")) << r.err;
}

TEST(Cli, DecoratorsThatNeedHostCodeAreSkippedWhenTheSignatureGivesEverything) {
  std::string file = tmp_path("host_deco.py");
  std::ofstream(file) << "import os\nimport triton\nimport triton.language as tl\n\n"
                         "@triton.autotune(configs=[triton.Config({'BLOCK': int(os.environ['B'])})], key=['n'])\n"
                         "@triton.jit\ndef k(x_ptr, n, BLOCK: tl.constexpr):\n"
                         "    tl.store(x_ptr + tl.arange(0, BLOCK), n)\n";
  Result r = run("compile '" + file + "' -k k -s '*i32, i32, 64'");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "note: the decorators of 'k' are not used:")) << r.err;
  EXPECT_TRUE(contains(r.out, "make_range {end = 64, start = 0}")) << r.out;
  // With --config the decorators are needed: their error is the result.
  r = run("compile '" + file + "' -k k -s '*i32, i32' --config 0");
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(contains(r.err, "os.environ['B']: the environment variable is not set")) << r.err;
}

}  // namespace
