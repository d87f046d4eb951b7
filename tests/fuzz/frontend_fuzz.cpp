// The frontend fuzz target (libFuzzer's LLVMFuzzerTestOneInput; docs/fuzzing.md).
//
// The input's bytes are a module source. It is loaded with the public API; every jit
// function in it (up to kMaxKernels) gets a signature derived from its parameters and is
// compiled as far as tritium goes without an outside compiler: the IR after the pass
// pipeline, then the cpu (C++), opencl, msl and cuda renderers' text, through a device that
// renders and loads nothing (RenderDevice below). Nothing is launched.
//
// The contract checked (ARCHITECTURE.md, "Refuse loudly"): an input may be refused, but only
// with a tritium error of an expected kind, and a CompileError must carry its file:line:col.
// Anything else — an internal error, a foreign exception translated by the API, a
// CompileError without a location — is reported on stderr and aborts, which libFuzzer (and
// the replay driver, replay_main.cpp) records as a crash. Crashes, sanitizer reports, stack
// overflows and hangs are caught by the harness around this function. With the environment's
// TRITIUM_FUZZ_VERBOSE=1 each step's outcome (the error, or "ok") is printed.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "codegen/cpu/cpu_codegen.h"
#include "codegen/cuda/cuda_codegen.h"
#include "codegen/metal/msl_codegen.h"
#include "codegen/opencl/opencl_codegen.h"
#include "frontend/source.h"
#include "runtime/device.h"
#include "tritium/tritium.h"

namespace {

constexpr size_t kMaxKernels = 4;  // jit functions compiled per input (bounds the time per input)

[[noreturn]] void bug(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "\n==== frontend_fuzz: contract violated: %s\n%s\n", what.c_str(), detail.c_str());
  std::fflush(stderr);
  std::abort();
}

// A CompileError must say where (the public type allows line 0 = unknown; the contract does not).
void check_location(const std::string& file, int line, int col, const std::string& text) {
  if (file.empty() || line <= 0 || col <= 0) bug("a CompileError without file:line:col", text);
}

// One renderer's pass over the IR: a refusal (frontend::CompileError) is fine when located.
template <class F>
void render(F&& f) {
  try {
    f();
  } catch (const tritium::frontend::CompileError& e) {
    check_location(std::string(e.loc().filename()), static_cast<int>(e.loc().line), static_cast<int>(e.loc().col),
                   e.what());
  }
}

// The loaded kernel RenderDevice returns: the renderers' text, never launched.
class RenderedKernel : public tritium::runtime::LoadedKernel {
 public:
  explicit RenderedKernel(std::string text) : text_(std::move(text)) {}
  void launch(const std::array<int32_t, 3>&, const std::vector<tritium_arg>&) override {
    throw std::runtime_error("frontend_fuzz: rendered kernels are not launched");
  }
  const std::string& source() const override { return text_; }

 private:
  std::string text_;
};

// A device whose compile() runs the four source renderers (no g++, NVRTC or OpenCL driver)
// and whose memory is the host's (never used: nothing is launched).
class RenderDevice : public tritium::runtime::Device {
 public:
  std::string name() const override { return "fuzz-render"; }
  std::string description() const override { return "renders cpu, opencl, msl and cuda text"; }
  tritium::runtime::DeviceBuffer alloc(size_t bytes) override { return {std::malloc(bytes ? bytes : 1), bytes}; }
  void free(tritium::runtime::DeviceBuffer& b) override { std::free(b.ptr); }
  void copy_in(tritium::runtime::DeviceBuffer&, const void*, size_t, size_t) override {}
  void copy_out(void*, const tritium::runtime::DeviceBuffer&, size_t, size_t) override {}
  void synchronize() override {}
  std::unique_ptr<tritium::runtime::LoadedKernel> compile(const tritium::ir::Module& m,
                                                          const tritium::runtime::CodegenOptions& o) override {
    namespace cg = tritium::codegen;
    std::string text;
    render([&] { text += cg::render_cpu(m, o); });
    render([&] { text += cg::render_opencl(m, o); });
    render([&] { text += cg::render_msl(m, o); });
    render([&] { text += cg::render_cuda(m, o).source; });
    return std::make_unique<RenderedKernel>(std::move(text));
  }
};

// A small deterministic hash of the input: picks dtypes and values where names do not.
uint64_t fnv1a(const uint8_t* data, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

// A default's source text that a signature entry accepts as a value (a literal or tl.dtype).
bool literal_default(const std::string& t) {
  if (t.empty() || t.size() > 40) return false;
  if (t == "True" || t == "False" || t == "None") return true;
  if (t.rfind("tl.", 0) == 0) return true;
  if ((t.front() == '\'' || t.front() == '"') && t.back() == t.front() && t.size() >= 2) return true;
  for (char c : t)
    if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == 'e')) return false;
  return true;
}

// The signature entry of one parameter; `h` supplies the choices names leave open.
std::string entry_for(const tritium::Parameter& p, uint64_t& h) {
  auto pick = [&h](uint64_t n) {
    uint64_t r = h % n;
    h = h / n + (h << 59);
    return r;
  };
  const std::string n = lower(p.name);
  if (p.is_constexpr) {
    if (p.has_default && literal_default(p.default_text)) return p.default_text;
    if (contains(n, "dtype")) return pick(2) ? "tl.float16" : "tl.float32";
    if (n.rfind("is_", 0) == 0 || n.rfind("has_", 0) == 0 || n.rfind("use_", 0) == 0 || contains(n, "even"))
      return pick(2) ? "True" : "False";
    static const char* kValues[] = {"16", "16", "16", "32", "64", "1", "128", "4"};
    return kValues[pick(8)];
  }
  if (!p.annotation_type.empty()) return p.annotation_type;
  static const char* kPointerNames[] = {"x", "y", "z", "a", "b", "c", "o", "q", "v", "out", "output", "input",
                                        "inp", "src", "dst", "in", "res", "acc", "w", "weight", "bias"};
  bool pointer = contains(n, "ptr");
  for (const char* k : kPointerNames) pointer = pointer || n == k;
  if (pointer) {
    static const char* kDtypes[] = {"fp32", "fp32", "fp32", "fp16", "bf16", "i32", "i8", "fp64", "i64", "u8"};
    std::string e = std::string("*") + kDtypes[pick(10)];
    return pick(2) ? e + ":16" : e;
  }
  if (p.has_default && (contains(p.default_text, ".") || contains(p.default_text, "e"))) return "fp32";
  static const char* kInts[] = {"i32", "i32", "i32:16", "i64", "i32:1"};
  return kInts[pick(5)];
}

// The signature for kernel `k`: one entry per parameter, trailing defaulted constexprs left out.
std::string signature_for(const tritium::Kernel& k, uint64_t& h) {
  const auto& ps = k.parameters();
  size_t n = ps.size();
  while (n > 0 && ps[n - 1].is_constexpr && ps[n - 1].has_default) --n;
  std::string sig;
  for (size_t i = 0; i < n; ++i) sig += (i ? ", " : "") + entry_for(ps[i], h);
  return sig;
}

// TRITIUM_FUZZ_VERBOSE=1: each step's outcome on stderr (what an input did, when replayed).
bool verbose() {
  static const bool v = [] {
    const char* e = std::getenv("TRITIUM_FUZZ_VERBOSE");
    return e && std::string(e) == "1";
  }();
  return v;
}

void note(const char* step, const std::string& what) {
  if (verbose()) std::fprintf(stderr, "  %s: %s\n", step, what.substr(0, what.find('\n')).c_str());
}

// Runs `f`; errors of the expected kinds are fine, the rest are bugs.
template <class F>
void expect_tritium_errors(const char* step, F&& f) {
  try {
    f();
  } catch (const tritium::CompileError& e) {
    note(step, e.what());
    check_location(e.file(), e.line(), e.col(), e.what());
  } catch (const tritium::Error& e) {
    note(step, e.what());
    switch (e.kind()) {
      case tritium::ErrorKind::Signature:  // the derived signature does not fit the parameters
      case tritium::ErrorKind::NotFound:   // an imported file or name that is not there
      case tritium::ErrorKind::Usage:      // e.g. a constexpr dtype name the signature does not know
        return;
      case tritium::ErrorKind::Compile:  // not a CompileError: a foreign exception without location
        bug(std::string(step) + ": a compile error without a location (a foreign exception?)", e.what());
      default:
        bug(std::string(step) + ": an unexpected error kind", e.what());
    }
  } catch (const std::exception& e) {
    bug(std::string(step) + ": a non-tritium exception escaped the API", e.what());
  } catch (...) {
    bug(std::string(step) + ": an unknown exception escaped the API", "");
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // Imports resolve from the current directory only, never from the environment's paths.
  unsetenv("TRITIUM_PYTHONPATH");
  unsetenv("PYTHONPATH");
  unsetenv("TRITIUM_SANITIZE");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const tritium::Device device(std::make_shared<RenderDevice>());
  const std::string text(reinterpret_cast<const char*>(data), size);
  uint64_t h = fnv1a(data, size);
  expect_tritium_errors("load", [&] {
    tritium::Module mod = tritium::Module::from_string(text, "<fuzz>");
    std::vector<std::string> names = mod.kernel_names();
    if (names.size() > kMaxKernels) names.resize(kMaxKernels);
    for (const std::string& name : names) {
      expect_tritium_errors("kernel", [&] {
        tritium::Kernel k = mod.kernel(name);
        expect_tritium_errors("decorators", [&] { k.decorators(); });
        tritium::CompileOptions opts;
        opts.num_warps = (h & 1) ? 4 : 1;
        opts.portable_numerics = (h & 2) != 0;
        const std::string sig = signature_for(k, h);
        expect_tritium_errors("compile", [&] {
          k.compile(device, sig, opts);
          note("compile", name + "(" + sig + "): ok");
        });
      });
    }
  });
  return 0;
}
