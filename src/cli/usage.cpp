// The usage pages (see usage.h). Plain text, one page per subcommand, in the layout of a
// man page: NAME, SYNOPSIS, DESCRIPTION, OPTIONS, EXAMPLES, EXIT STATUS.
#include "cli/usage.h"

#include <cstdio>
#include <map>

namespace tritium::cli {
namespace {

const char* const kTop = R"(NAME
    tritium - compile and run Triton-language kernels

SYNOPSIS
    tritium [--help] [--version]
    tritium COMMAND [OPTIONS] [ARGS]
    tritium help [COMMAND]

DESCRIPTION
    tritium compiles kernels written in the Triton language (@triton.jit functions
    in Python syntax) and runs them on the backends this machine has. What it cannot
    compile correctly is refused with an error naming the construct and its
    FILE:LINE:COL, never compiled into a wrong result.

COMMANDS
    compile   compile one kernel specialization ahead of time (IR or generated source)
    bench     run the built-in kernel suite, check it and time it
    doctor    list the backends and whether this machine can use them
    hash      run the built-in suite on every backend and compare the outputs' SHA-256
    help      show the page of a command

OPTIONS
    -h, --help     show this page
    --version      print the version and the compiler tritium was built with

EXAMPLES
    tritium compile kernels/vector_add.py --kernel add_kernel \
        --signature "*fp32:16, *fp32:16, *fp32:16, i32, 1024" --emit ir
    tritium doctor
    tritium help compile

EXIT STATUS
    0 on success, 1 when the command failed (e.g. a compile error), 2 for a usage
    error (unknown command or option, bad option value).
)";

const char* const kCompile = R"(NAME
    tritium compile - compile one kernel specialization ahead of time

SYNOPSIS
    tritium compile FILE.py --kernel NAME --signature SIG [--emit ir|cpp|cuda|opencl|msl]
                    [-o OUT]
                    [--num-warps N] [--num-stages N] [--numerics native|portable]
                    [--dump-after PASS|all]... [--debug] [--sanitize]
                    [--config N] [--arg NAME=VALUE]...
    tritium compile FILE.py --list-kernels
    tritium compile FILE.py --kernel NAME --list-configs

DESCRIPTION
    Parses FILE.py (only @triton.jit / @jit functions matter; other top-level code is
    skipped), specializes kernel NAME for the signature SIG, runs the pass pipeline and
    prints the result: the IR (--emit ir), the C++ source the cpu backend generates
    and builds (--emit cpp), the CUDA C++ the cuda backend generates (--emit cuda;
    checked by compiling it with NVRTC, which needs the CUDA toolkit but no GPU), the
    OpenCL C the opencl backend builds (--emit opencl; needs an OpenCL device), or the
    Metal shading language program of the metal backend (--emit msl; checked by
    compiling and loading it in the msl-emu backend, so no Apple hardware is needed).

    SIG follows Triton's AOT convention: one comma-separated entry per parameter, in
    order. "*fp32" is a pointer to fp32, "*fp16:16" a pointer whose address is a
    multiple of 16 bytes, "i32" an int32 scalar, "i32:16" an int32 multiple of 16,
    "i64:1" an int64 equal to 1, "fp32" a float scalar; a parameter annotated
    tl.constexpr takes its value in place ("1024", "0.5", "True", a string "'mean'", a
    dtype "tl.float16"). "None" gives any parameter the constexpr None, as Triton
    specializes a None argument (e.g. an optional pointer). Trailing constexpr
    parameters that have defaults may be left out.

    Decorators are honoured as upstream Triton defines them. @triton.autotune: pick a
    config with --config N (--list-configs numbers them); it sets its meta-parameters
    and its num_warps / num_stages (which --num-warps / --num-stages must not contradict).
    A kernel with one config uses it; with several, --config may be left out only when
    the signature gives every meta-parameter the configs set. @triton.heuristics: each
    meta-parameter not given is computed from the signature's constexprs, its ":1"
    integers and the values given with --arg (the arguments a heuristic reads, e.g.
    --arg n_elements=4096); a heuristic that reads a value not known is an error naming
    it. @triton.jit(do_not_specialize=...) only matters to run-time specialization.

    Errors in the kernel are printed as FILE:LINE:COL: error: MESSAGE, followed by the
    source line and a caret under the column.

OPTIONS
    -k, --kernel NAME         the jit function to compile (see --list-kernels)
    -s, --signature SIG       the specialization (see above); default: no parameters
    --emit ir|cpp|cuda|opencl|msl
                              what to print: the IR after the pass pipeline (default),
                              the generated C++ of the cpu backend, CUDA C++ of the
                              cuda backend, OpenCL C of the opencl backend, or MSL of
                              the metal backend
    -o, --output OUT          write to OUT instead of standard output
    --num-warps N             warps per program, a power of two in [1, 64] (default 4,
                              or the --config's)
    --num-stages N            software-pipelining depth, >= 0 (default 3, or the
                              --config's)
    --numerics native|portable
                              native (default): fastest conformant code; portable:
                              bit-identical results on every backend (no contraction)
    --dump-after PASS|all     print the IR to standard error after pass PASS (or after
                              every pass); may be repeated or comma-separated
    --debug                   enable tl.device_assert
    --sanitize                sanitize mode (cpu backend; also TRITIUM_SANITIZE=1 for
                              every compile): each load and store checked against its
                              argument's buffer, masked-off lanes without `other`
                              poisoned; --emit cpp shows the checks
    --config N                use @triton.autotune config N (0-based)
    --arg NAME=VALUE          the value of argument NAME for @triton.heuristics (an
                              integer, float, True or False); may be repeated
    --list-kernels            print the names of the jit functions in FILE.py and exit
    --list-configs            print kernel NAME's autotune configs (numbered), key,
                              heuristics and do_not_specialize parameters, and exit
    -h, --help                show this page

EXAMPLES
    tritium compile kernels/vector_add.py --list-kernels
    tritium compile kernels/vector_add.py -k add_kernel \
        -s "*fp32:16, *fp32:16, *fp32:16, i32, 1024" --emit ir
    tritium compile kernels/softmax.py -k softmax_kernel \
        -s "*fp32:16, *fp32:16, i32, i32, i32, 1024" --emit cpp -o softmax.cpp
    tritium compile kernels/vector_add.py -k add_kernel \
        -s "*fp32, *fp32, *fp32, i32, 256" --dump-after all
    tritium compile matmul.py -k matmul_kernel --list-configs
    tritium compile matmul.py -k matmul_kernel --config 2 \
        -s "*fp16:16, *fp16:16, *fp16:16, i32, i32, i32, i32:16, i32:1, i32:16, i32:1, i32:16, i32:1"

EXIT STATUS
    0 on success; 1 when the kernel does not compile (diagnostic printed), the kernel
    is not in the file (the kernels found are listed), the signature does not fit the
    parameters, or OUT cannot be written; 2 for a usage error.
)";

const char* const kBench = R"(NAME
    tritium bench - run the built-in kernel suite, check it and time it

SYNOPSIS
    tritium bench [--backend NAME] [--filter TEXT] [--dtype DTYPE] [--quick]
                  [--vs auto|library|upstream|none|FILE] [--json PATH] [--repeat N] [--warmup N] [--list]
                  [--no-progress] [--kernels-dir DIR]

DESCRIPTION
    Runs each case of the built-in suite (kernels/: vector add, softmax, RMSNorm,
    LayerNorm, SwiGLU, matmul, FlashAttention) on one backend, checks every result
    against its float64 reference and prints a table: kernel, shape, dtype, backend,
    max error vs tolerance, median time, GB/s or TFLOP/s, % of the measured copy
    bandwidth. On the cpu backend memory-bound cases also show %cache: the same kernel
    with its arrays kept in the cache (two smaller grids, timed interleaved; the extra
    bytes over the extra time), as % of the copy bandwidth. Below 100% the case is bound
    by its arithmetic on this machine, not by memory, and %roof cannot exceed it.

    On the cpu backend each case that has a baseline (a plain C++ loop compiled for
    this machine on the same threads; OpenBLAS sgemm for matmul) is timed against it
    call by call: rounds of tritium, baseline, tritium again, the order alternating,
    inputs rotated past the last-level cache. The "vs base" column is the median over
    the rounds of baseline time / tritium time (above 1: tritium is faster) with its
    bootstrap 95% interval; "A/A" is the same figure for tritium against itself, the
    noise floor. The baseline's outputs are checked against the reference first.

    On the cuda backend the timings are CUDA events around each call, the roof is the
    GPU's own device-to-device copy (cuMemcpyDtoD of 1 GiB), matmul is timed against
    cuBLAS (cublasGemmEx, loaded at run time; tf32 for fp32 as tl.dot), and the
    compute roof is cuBLAS's best rate of the run. When a Python with torch and
    triton is present ($TRITIUM_PYTHON, else python3), the bench then runs
    kernels/tools/bench_upstream.py: upstream Triton compiling the same kernel
    sources, tritium (through libtritium_c.so beside the executable, or
    $TRITIUM_C_LIBRARY) and the strongest library baseline (torch's fused ops,
    cuBLAS, torch SDPA), interleaved call by call with the L2 cleared before each
    call; its table follows ours, its figures go into the JSON under "upstream" and
    its charts beside it. Otherwise a "not run" line says why.

    Backends this machine lacks are listed in the header with the reason.

OPTIONS
    --backend NAME     backend to run on (default: the best one present; see
                       tritium doctor)
    --filter TEXT      only run cases whose id (kernel/dtype/shape) contains TEXT
    --dtype DTYPE      only run cases of this dtype: fp32, fp16 or bf16
    --quick            run the small CI set instead of the full suite
    --vs auto|library|upstream|none|FILE
                       auto (default): library, then on cuda upstream; library:
                       each case against its in-process baseline where the backend
                       has one (cpu: C++ loop, OpenBLAS; cuda: cuBLAS); upstream
                       (cuda only): the Python driver alone (upstream Triton,
                       tritium, torch/cuBLAS/SDPA); none: tritium alone; FILE:
                       an earlier run's --json file, each case compared with its
                       earlier times (same id and backend; not interleaved, so no
                       noise floor: for regressions)
    --json PATH        also write every figure of the run as JSON to PATH, and
                       the charts beside it: PATH-stem.ratios.svg (speed-up bars
                       with 95% intervals and the noise band), .roofline.svg, and
                       on cuda .upstream.json, .upstream.ratios.svg and
                       .upstream.roofline.svg
    --repeat N         timed repetitions (rounds, when compared) per case, N >= 1;
                       the median is reported. Default: automatic (at least 10
                       and 0.5 s of timed calls, at most 2 s or 1000)
    --warmup N         untimed launches (rounds) before timing, N >= 0. Default:
                       automatic (2, then more until 0.2 s has passed)
    --list             print the case list and exit without compiling anything
    --no-progress      no progress indication on standard error
    --kernels-dir DIR  where the suite's kernel files are (default:
                       $TRITIUM_KERNELS_DIR, else kernels/ of the source tree)
    -h, --help         show this page

EXAMPLES
    tritium bench
    tritium bench --backend cpu --filter softmax --repeat 50
    tritium bench --quick --json bench.json

EXIT STATUS
    0 when every selected case passed; 1 when a case failed (wrong result, NaN,
    compile or launch error); 2 for a usage error (unknown backend, no case matches
    the filter).
)";

const char* const kHash = R"(NAME
    tritium hash - run the built-in suite on every backend and compare the outputs

SYNOPSIS
    tritium hash [--backends LIST] [--filter TEXT] [--full] [--numerics MODE]
                 [--json PATH] [--no-progress] [--kernels-dir DIR]

DESCRIPTION
    Runs each case of the built-in suite once on each backend, with the same
    deterministic inputs everywhere (a splitmix64 stream per case, seeded from the
    case id, rounded to the dtype by tritium itself: no platform RNG), checks every
    output against its float64 reference as tritium bench does, and prints one row per
    output: the first 12 hex digits of its SHA-256 on each backend and whether all
    backends agree. In native numerics a disagreement shows the largest distance in
    units in the last place from the first backend's output and the normwise relative
    difference, max |a - b| / max |a| (a: the first backend's output), which elements
    near zero do not inflate (a tf32 dot against an ieee one is billions of ulp apart
    where an output is near zero, yet about 1e-3 apart normwise).

OPTIONS
    --backends LIST    comma-separated backends, in order (default: every available
                       backend; see tritium doctor)
    --filter TEXT      only cases whose id (kernel/dtype/shape) contains TEXT
    --full             every size of the suite (default: the small --quick set)
    --numerics MODE    portable (default): the outputs must agree bit for bit;
                       native: differences are measured, not required to be zero
    --json PATH        also write every hash, ulp distance and relative difference as
                       JSON to PATH
    --no-progress      no failure lines on standard error
    --kernels-dir DIR  where the suite's kernel files are (as tritium bench)
    -h, --help         show this page

EXAMPLES
    tritium hash
    tritium hash --backends cpu,opencl,interp --filter softmax
    tritium hash --numerics native --json native.json

EXIT STATUS
    0 when every run passed its check and (portable numerics) every output agrees;
    1 otherwise; 2 for a usage error (unknown or unavailable backend, no case
    matches, a build without OpenSSL).
)";

const char* const kDoctor = R"(NAME
    tritium doctor - list the backends and whether this machine can use them

SYNOPSIS
    tritium doctor

DESCRIPTION
    Prints the tritium version, the C++ compiler of the cpu backend and whether NVRTC
    (offline PTX/cubin compilation for the cuda backend, no GPU needed) is usable, with
    its version; then one line per backend of this build (cpu, interp, cuda, opencl,
    metal, msl-emu): available, or unavailable with the reason. Each backend reported
    available is started, and its description printed, to prove it. Finally prints the
    best backend (the default of bench and of the C++ API): the first available of
    cuda, metal, opencl, cpu.

OPTIONS
    -h, --help     show this page

EXAMPLES
    tritium doctor

EXIT STATUS
    0 when every backend reported available started; 1 when one failed to start.
)";

const char* const kHelp = R"(NAME
    tritium help - show the usage page of a command

SYNOPSIS
    tritium help [COMMAND]

DESCRIPTION
    Prints the page of COMMAND (compile, bench, doctor, hash, help), or of tritium itself
    without one. "tritium COMMAND --help" prints the same page.

EXAMPLES
    tritium help compile

EXIT STATUS
    0, or 2 when COMMAND is unknown.
)";

}  // namespace

const std::vector<std::string>& usage_topics() {
  static const std::vector<std::string> topics = {"compile", "bench", "doctor", "hash", "help"};
  return topics;
}

std::string usage_page(const std::string& topic) {
  static const std::map<std::string, const char*> pages = {{"", kTop},           {"tritium", kTop},
                                                           {"compile", kCompile}, {"bench", kBench},
                                                           {"doctor", kDoctor},   {"hash", kHash},
                                                           {"help", kHelp}};
  auto it = pages.find(topic);
  return it == pages.end() ? std::string() : std::string(it->second);
}

int print_usage(const std::string& topic) {
  std::string page = usage_page(topic);
  if (page.empty()) {
    std::string list;
    for (const std::string& t : usage_topics()) list += (list.empty() ? "" : ", ") + t;
    std::fprintf(stderr, "tritium help: no command '%s' (commands: %s)\n", topic.c_str(), list.c_str());
    return 2;
  }
  std::fputs(page.c_str(), stdout);
  return 0;
}

}  // namespace tritium::cli
