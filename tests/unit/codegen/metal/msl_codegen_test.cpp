// The MSL renderer (src/codegen/metal) and the msl-emu backend that runs its text on the
// CPU: the program's shape (a Metal kernel with buffer-bound parameters, no C++ templates,
// no double anywhere, no floating literal that C++ would read as a double), run-time
// failures reported with the lowest failing program's coordinates on 1-D and 3-D grids,
// the loud refusals (fp64, atomics other than 32-bit, functions the Metal library
// lacks, integers made into pointers) at their source locations, and the emulated <metal_stdlib>'s poisoning of double.
// Numerics are checked by the conformance suite, which runs every case on msl-emu against
// the interpreter bit for bit (tests/conformance/conformance_util.h).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <algorithm>
#include <cmath>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/metal/msl_codegen.h"
#include "codegen/metal/msl_emu.h"
#include "runtime/cpu/compiler.h"
#include "scoped_env.h"
#include "tritium/tritium.h"

namespace {

const char* kSrc = R"(import triton
import triton.language as tl
from triton.language.extra import libdevice

@triton.jit
def steps(out, n, bad_from):
    pid = tl.program_id(0)
    step = tl.where(pid >= bad_from, 0, 1)
    acc = 0
    for i in range(0, n, step):
        acc += i
    tl.store(out + pid, acc)


@triton.jit
def checked3d(x, out):
    lin = tl.program_id(0) + tl.num_programs(0) * (tl.program_id(1) + tl.num_programs(1) * tl.program_id(2))
    v = tl.load(x + lin)
    tl.device_assert(v > 0, "v must be positive")
    tl.store(out + lin, v * 2.0)


@triton.jit
def wide(x, out):
    tl.store(out, tl.load(x) * 2.0)


@triton.jit
def adds(x, out):
    tl.atomic_add(out, tl.load(x))


@triton.jit
def gelu(x, out):
    v = tl.load(x)
    tl.store(out, 0.5 * v * (1.0 + tl.math.erf(v * 0.7071067811865476)))


@triton.jit
def lp(x, out):
    tl.store(out, libdevice.log1p(tl.load(x)))


@triton.jit
def via_pointer_array(ptrs, out):
    p = tl.load(ptrs).to(tl.pointer_type(tl.float32))
    tl.store(out, tl.load(p))


@triton.jit
def copy(x, out):
    tl.store(out, tl.load(x))


@triton.jit
def picks(x, out, hist, idx):
    i = tl.arange(0, 16)
    v = tl.load(x + i)
    tl.store(out + tl.arange(0, 4), tl.topk(v, 4))
    j = tl.load(idx + i)
    tl.store(out + 4 + i, tl.gather(v, j, 0))
    tl.store(hist + tl.arange(0, 8), tl.histogram(j, 8))


@triton.jit
def sorted_log_dot(x, a, b, out, o2):
    i = tl.arange(0, 16)
    v = tl.sort(tl.load(x + i), 0)
    tl.store(out + i, tl.log(tl.abs(v) + 1.0))
    ab = tl.dot(tl.load(a + i[:, None] * 16 + i[None, :]), tl.load(b + i[:, None] * 16 + i[None, :]))
    tl.store(o2 + i[:, None] * 16 + i[None, :], ab)
)";

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// The text without comments (so words in them do not count).
std::string code_of(const std::string& s) { return std::regex_replace(s, std::regex("//[^\n]*"), ""); }

// The lines of an MSL text that Metal compiles: its conditional blocks evaluated as Metal's
// preprocessor does (TR_NO_F64 and __METAL_VERSION__ defined, __CUDA_ARCH__ and
// __OPENCL_VERSION__ not).
std::string live_text(const std::string& code) {
  std::string live;
  std::vector<bool> active;  // one entry per open #if
  auto on = [&] { return std::find(active.begin(), active.end(), false) == active.end(); };
  std::istringstream in(code);
  for (std::string l; std::getline(in, l);) {
    if (l.rfind("#if", 0) == 0) {
      if (l.rfind("#ifndef TR_NO_F64", 0) == 0 || l.rfind("#ifdef __CUDA_ARCH__", 0) == 0 ||
          l.rfind("#ifdef TR_MSL_EMU", 0) == 0)
        active.push_back(false);
      else if (l.rfind("#ifndef __CUDA_ARCH__", 0) == 0 || l.rfind("#ifdef __METAL_VERSION__", 0) == 0 ||
               l.find("defined(__METAL_VERSION__)") != std::string::npos)
        active.push_back(true);
      else if (l.rfind("#ifndef TR_INLINE", 0) == 0) active.push_back(false);  // the prelude defines TR_INLINE
      else ADD_FAILURE() << "a conditional this test does not know: " << l;
    } else if (l.rfind("#else", 0) == 0 && !active.empty()) {
      active.back() = !active.back();
    } else if (l.rfind("#endif", 0) == 0 && !active.empty()) {
      active.pop_back();
    } else if (on()) {
      live += l + "\n";
    }
  }
  EXPECT_TRUE(active.empty());
  return live;
}

// Every pointer type in `live` names its address space, as MSL requires ("pointer type must
// have explicit address space qualifier"): returns the declarations that do not.
std::vector<std::string> unqualified_pointers(const std::string& live) {
  static const std::regex ptr(
      "(\\w+\\s+|[(,]\\s*|\\n\\s*)(const\\s+)?(float|half|char|uchar|short|ushort|int|uint|long|ulong|void|bool|"
      "u?int(8|16|32|64)_t|atomic_uint)\\s*\\*");
  std::vector<std::string> bad;
  for (std::sregex_iterator it(live.begin(), live.end(), ptr), end; it != end; ++it) {
    std::string q = (*it)[1].str();
    q.erase(std::remove_if(q.begin(), q.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)); }), q.end());
    if (q != "device" && q != "thread" && q != "constant" && q != "threadgroup" && q != "TR_M_THREAD") bad.push_back(it->str());
  }
  return bad;
}

tritium::Kernel kernel(const char* name) { return tritium::Module::from_string(kSrc, "k.py").kernel(name); }

// Renders with TRITIUM_MSL_SHAPE=`shape` ("" unset: auto) and returns the source.
std::string source_in_shape(const char* shape, const char* name, const char* sig) {
  ScopedEnv env("TRITIUM_MSL_SHAPE", shape);
  return kernel(name).compile(tritium::Device::get("msl-emu"), sig).source();
}

// What both shapes must be: Metal's library alone, no double, no unsuffixed floating
// literal (C++ would compute in double where Metal computes in float), no OpenCL or GCC
// spellings; the C++ templates of the cpu prelude absent (the threadgroup shape's one bit
// cast template is MSL).
void expect_metal_only(const std::string& s) {
  const std::string code = code_of(s);
  EXPECT_NE(code.find("#include <metal_stdlib>"), std::string::npos);
  EXPECT_EQ(code.find("#include <metal_stdlib>"), code.rfind("#include"));  // Metal's library, nothing else
  const std::string live = live_text(code);
  size_t templates = 0;
  for (size_t at = live.find("template <"); at != std::string::npos; at = live.find("template <", at + 1))
    if (live.compare(at, 53, "template <typename T, typename U> TR_INLINE T tr_bits") != 0) ++templates;
  EXPECT_EQ(templates, 0u);
  EXPECT_EQ(live.find("__global"), std::string::npos);
  EXPECT_EQ(live.find("__builtin"), std::string::npos);
  EXPECT_EQ(live.find("__syncthreads"), std::string::npos);
  EXPECT_EQ(live.find("__shfl"), std::string::npos);
  EXPECT_FALSE(std::regex_search(live, std::regex("\\b\\d+ull\\b", std::regex::icase)));  // C++'s unsigned long long
  EXPECT_FALSE(std::regex_search(live, std::regex("\\bdouble\\b")));
  std::smatch m;
  const std::regex literal("[^\\w.](\\d+\\.\\d*(e[+-]?\\d+)?|0x[0-9a-f]+(\\.[0-9a-f]*)?p[+-]?\\d+)(?![\\w.])",
                           std::regex::icase);
  EXPECT_FALSE(std::regex_search(live, m, literal)) << "unsuffixed floating literal: " << m.str(1);
}

TEST(MslCodegen, ProgramShape) {
  // The serial shape: threadgroups of one thread.
  const std::string s = source_in_shape("serial", "steps", "*i32, i32, i32");
  EXPECT_NE(s.find("kernel void tritium_kernel(device int32_t* a0 [[buffer(0)]], constant int32_t& a1 [[buffer(1)]], "
                   "constant int32_t& a2 [[buffer(2)]], device atomic_uint* tr_status [[buffer(3)]], "
                   "uint3 tr_pid [[threadgroup_position_in_grid]], uint3 tr_npid [[threadgroups_per_grid]])"),
            std::string::npos)
      << s.substr(s.find("kernel void"), 300);
  EXPECT_NE(s.find("(the serial shape: requested)"), std::string::npos);
  expect_metal_only(s);
  // The threadgroup shape (the default): 32 x num_warps threads, threadgroup memory at index 0.
  const std::string t = source_in_shape("", "steps", "*i32, i32, i32");
  const std::string live = live_text(code_of(t));
  EXPECT_NE(live.find("kernel void tritium_kernel(device int32_t* a0 [[buffer(0)]], constant int32_t& a1 [[buffer(1)]], "
                      "constant int32_t& a2 [[buffer(2)]], device atomic_uint* tr_status [[buffer(3)]], "
                      "threadgroup uchar* tr_dyn_smem TR_THREADGROUP_BUFFER_0, "
                      "uint3 tr_pid [[threadgroup_position_in_grid]], uint3 tr_npid [[threadgroups_per_grid]], "
                      "uint tr_tid_in [[thread_index_in_threadgroup]])"),
            std::string::npos)
      << t.substr(t.find("kernel void"), 400);
  EXPECT_NE(live.find("#define TR_THREADGROUP_BUFFER_0 [[threadgroup(0)]]"), std::string::npos);
  EXPECT_NE(t.find("// Threadgroups of 128 threads (simdgroups of 32)"), std::string::npos);
  expect_metal_only(t);
  // top-k, a gather by unsigned index and a histogram of unsigned values (no GCC builtin,
  // no `ull` literal).
  expect_metal_only(source_in_shape("threadgroup", "picks", "*fp32, *fp32, *i32, *u32"));
  // Sort and dot: through threadgroup memory, between barriers.
  const std::string r = source_in_shape("threadgroup", "sorted_log_dot", "*fp32, *fp16, *fp16, *fp32, *fp32");
  EXPECT_NE(r.find("threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);"), std::string::npos);
  expect_metal_only(r);
}

// Sort (its ping-pong buffers), dot (its row pointers) and log (tmath's out-parameters) use
// pointers into thread memory, atomics pointers into device memory: each must say so.
TEST(MslCodegen, EveryPointerNamesItsAddressSpace) {
  std::vector<std::string> bad;
  for (const char* shape : {"serial", "threadgroup"}) {
    const std::string s = source_in_shape(shape, "sorted_log_dot", "*fp32, *fp16, *fp16, *fp32, *fp32");
    for (const std::string& b : unqualified_pointers(live_text(code_of(s)))) bad.push_back(b);
    for (const std::string& b : unqualified_pointers(live_text(code_of(source_in_shape(shape, "adds", "*fp32, *fp32")))))
      bad.push_back(b);  // atomics: compare-and-swap loops through device pointers
  }
  for (const std::string& b : bad) ADD_FAILURE() << "a pointer without an address space: " << b;
  EXPECT_FALSE(unqualified_pointers("\n  float* p = x;\n").empty());  // the check can fail
  EXPECT_TRUE(unqualified_pointers("\n  thread float* p = x;\n").empty());
}

// tl.dot on simdgroup matrices in native numerics (the 16x16 fp16 dot: four 8x8 tiles, one
// per simdgroup, two k-steps), the FMA chain in portable numerics; both give the product
// (fp16 inputs: exact products, fp32 sums of 16 terms; tolerance 16 ulp of the row's
// absolute sum).
TEST(MslCodegen, DotsOnSimdgroupMatricesInNativeNumericsOnly) {
  auto dev = tritium::Device::get("msl-emu");
  const char* sig = "*fp32, *fp16, *fp16, *fp32, *fp32";
  tritium::CompileOptions portable;
  portable.portable_numerics = true;
  auto kn = kernel("sorted_log_dot").compile(dev, sig);
  auto kp = kernel("sorted_log_dot").compile(dev, sig, portable);
  EXPECT_NE(kn.source().find("simdgroup_multiply_accumulate("), std::string::npos);
  EXPECT_EQ(kp.source().find("simdgroup_multiply_accumulate("), std::string::npos);
  std::vector<float> x(16);
  std::vector<uint16_t> a(256), b(256);
  std::vector<float> af(256), bf(256);
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(next() % 1000) / 100.0f - 5.0f;
  for (int i = 0; i < 256; ++i) {
    // fp16 values k/64 for k in [-128, 127]: exact in fp16 and fp32
    const int ka = static_cast<int>(next() % 256) - 128, kb = static_cast<int>(next() % 256) - 128;
    af[i] = ka / 64.0f, bf[i] = kb / 64.0f;
    auto half_bits = [](int k) {  // k/64 as fp16 bits (|k| < 2^10: normal or zero)
      if (k == 0) return uint16_t{0};
      const uint16_t sign = k < 0 ? 0x8000 : 0;
      int m = k < 0 ? -k : k, e = 0;
      while (m >= 2048) m >>= 1, ++e;
      while (m < 1024) m <<= 1, --e;
      return static_cast<uint16_t>(sign | ((e + 15 + 10 - 6) << 10) | (m & 1023));
    };
    a[i] = half_bits(ka), b[i] = half_bits(kb);
  }
  for (auto* k : {&kn, &kp}) {
    auto xb = dev.upload(x.data(), 64), ab = dev.upload(a.data(), 512), bb = dev.upload(b.data(), 512);
    std::vector<float> poison(256, -777.0f);
    auto o1 = dev.upload(poison.data(), 64), o2 = dev.upload(poison.data(), 1024);
    k->launch({1}, {tritium::Arg(xb), tritium::Arg(ab), tritium::Arg(bb), tritium::Arg(o1), tritium::Arg(o2)});
    std::vector<float> got(256);
    o2.copy_to_host(got.data(), 1024);
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j) {
        double want = 0, mag = 0;
        for (int q = 0; q < 16; ++q) want += double(af[i * 16 + q]) * bf[q * 16 + j], mag += std::fabs(double(af[i * 16 + q]) * bf[q * 16 + j]);
        EXPECT_NEAR(got[i * 16 + j], want, 16 * mag * 0x1p-24) << (k == &kn ? "native " : "portable ") << i << "," << j;
      }
  }
}

TEST(MslCodegen, NonPositiveStepFailsNamingTheLowestProgram) {
  auto dev = tritium::Device::get("msl-emu");
  auto k = kernel("steps").compile(dev, "*i32, i32, i32");
  const int n = 37;
  std::vector<int32_t> poison(64, -77);
  auto out = dev.upload(poison.data(), poison.size() * 4);
  k.launch({64}, {tritium::Arg(out), tritium::Arg(int64_t{n}), tritium::Arg(int64_t{100})});  // no program fails
  std::vector<int32_t> got(64);
  out.copy_to_host(got.data(), 256);
  for (int p = 0; p < 64; ++p) EXPECT_EQ(got[p], n * (n - 1) / 2) << p;
  const std::string msg = message_of([&] {
    k.launch({64}, {tritium::Arg(out), tritium::Arg(int64_t{n}), tritium::Arg(int64_t{21})});  // programs 21.. fail
  });
  EXPECT_NE(msg.find("for loop step must be positive at run time at k.py:10"), std::string::npos) << msg;
  EXPECT_NE(msg.find("in steps, program (21, 0, 0)"), std::string::npos) << msg;
  // The status word is reset per launch: a clean launch afterwards does not raise.
  EXPECT_EQ(message_of([&] { k.launch({64}, {tritium::Arg(out), tritium::Arg(int64_t{n}), tritium::Arg(int64_t{64})}); }),
            "");
}

TEST(MslCodegen, DeviceAssertOnAThreeDimensionalGrid) {
  auto dev = tritium::Device::get("msl-emu");
  tritium::CompileOptions debug;
  debug.debug = true;
  auto k = kernel("checked3d").compile(dev, "*fp32, *fp32", debug);
  const int gx = 4, gy = 3, gz = 2, n = gx * gy * gz;
  std::vector<float> x(n), poison(n, -99.0f);
  for (int i = 0; i < n; ++i) x[i] = 1.0f + static_cast<float>(i);
  x[17] = -1.0f, x[22] = -2.0f;  // linear 17 = (1, 1, 1), the lowest failing program
  auto xb = dev.upload(x.data(), n * 4), ob = dev.upload(poison.data(), n * 4);
  const std::string msg = message_of([&] { k.launch({gx, gy, gz}, {tritium::Arg(xb), tritium::Arg(ob)}); });
  EXPECT_NE(msg.find("device_assert failed: v must be positive at k.py:19 in checked3d, program (1, 1, 1)"),
            std::string::npos)
      << msg;
  std::vector<float> got(n);
  ob.copy_to_host(got.data(), n * 4);
  for (int i = 0; i < n; ++i) EXPECT_EQ(got[i], 2.0f * x[i]) << i;  // every program ran, each on its own element
}

void expect_refused(const char* name, const char* sig, const std::string& where, const std::string& why) {
  auto dev = tritium::Device::get("msl-emu");
  try {
    kernel(name).compile(dev, sig);
    FAIL() << name << " must be refused";
  } catch (const tritium::CompileError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(where), std::string::npos) << m;
    EXPECT_NE(m.find("metal backend:"), std::string::npos) << m;
    EXPECT_NE(m.find(why), std::string::npos) << m;
  }
}

TEST(MslCodegen, RefusalsNameTheConstructAndItsLocation) {
  expect_refused("wide", "*fp64, *fp64", "k.py:23:", "Metal has no double");
  expect_refused("adds", "*i64, *i64", "k.py:30:5", "atomics on int64 are not lowered by the MSL renderer yet");
  expect_refused("adds", "*fp16, *fp16", "k.py:30:5", "atomics on fp16 are not lowered by the MSL renderer yet");
  expect_refused("lp", "*fp32, *fp32", "k.py:41:", "the Metal standard library has no log1p");
  expect_refused("via_pointer_array", "*i64, *fp32", "k.py:46:", "integer turned into a pointer");
}

// erf, which the Metal library lacks, is tritium's own (tmath.inc, <= 1.085 ulp over every
// fp32 input): GELU's erf form runs. Tolerance: 4 ulp of the result, plus the erf's absolute
// error (under 1.1 ulp of 1, i.e. 2^-23.9, near +-1) times 0.5|v|, which 1 + erf cancels
// for negative v as it does on every backend.
TEST(MslCodegen, ErfIsTritiumsOwn) {
  auto dev = tritium::Device::get("msl-emu");
  auto k = kernel("gelu").compile(dev, "*fp32, *fp32");
  EXPECT_NE(k.source().find("tr_erff("), std::string::npos);
  for (float v : {-3.0f, -0.7f, 0.3f, 1.25f, 2.5f, 5.0f}) {
    auto xb = dev.upload(&v, 4);
    float poison = -99.0f;
    auto ob = dev.upload(&poison, 4);
    k.launch({1}, {tritium::Arg(xb), tritium::Arg(ob)});
    float got = 0;
    ob.copy_to_host(&got, 4);
    const double want = 0.5 * v * (1.0 + std::erf(static_cast<double>(v * 0.7071067811865476f)));
    EXPECT_NEAR(got, want, 4 * std::ldexp(1.0, std::ilogb(static_cast<float>(want)) - 23) + std::fabs(v) * 0x1p-24) << v;
  }
}

// The emulated <metal_stdlib> poisons double: a program using it fails in the emulator as
// it would on Metal (and a program without it compiles).
TEST(MslEmu, DoubleIsPoisoned) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("tritium_msl_poison_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "metal_stdlib") << tritium::codegen::msl_emu_stdlib();
  auto build = [&](const std::string& body) {
    std::ofstream(dir / "t.cpp") << "#include <metal_stdlib>\nusing namespace metal;\n" << body;
    return message_of([&] {
      tritium::runtime::cpu::compile_shared_object(dir / "t.cpp", dir / "t.so", false, {"-I" + dir.string()});
    });
  };
  EXPECT_EQ(build("float f(float x) { return fma(x, x, 1.0f); }\n"), "");
  const std::string m = build("float f(float x) { double y = x; return (float)y; }\n");
  EXPECT_NE(m.find("poisoned"), std::string::npos) << m;
  fs::remove_all(dir);
}

}  // namespace

// Metal binds at most 31 buffers to a kernel: 31 parameters compile, 32 are refused at the
// kernel's definition (and 31 plus the status word of a debug-mode device_assert too).
TEST(MslCodegen, MoreBuffersThanMetalBindsAreRefused) {
  auto source = [](int n) {
    std::string params, body;
    for (int i = 0; i < n; ++i) params += (i ? ", p" : "p") + std::to_string(i);
    for (int i = 1; i < n; ++i) body += "    tl.store(p" + std::to_string(i) + ", tl.load(p0))\n";
    return "import triton\nimport triton.language as tl\n\n@triton.jit\ndef many(" + params + "):\n" + body +
           "    tl.device_assert(tl.load(p0) > 0, 'positive')\n";
  };
  auto sig = [](int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += (i ? ", *fp32" : "*fp32");
    return s;
  };
  auto dev = tritium::Device::get("msl-emu");
  EXPECT_NO_THROW(tritium::Module::from_string(source(31), "many.py").kernel("many").compile(dev, sig(31)));
  for (bool debug : {false, true}) {
    const int n = debug ? 31 : 32;
    tritium::CompileOptions o;
    o.debug = debug;
    try {
      tritium::Module::from_string(source(n), "many.py").kernel("many").compile(dev, sig(n), o);
      FAIL() << n << " parameters must be refused (debug " << debug << ")";
    } catch (const tritium::CompileError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("many.py:4:1"), std::string::npos) << m;  // the kernel's definition
      EXPECT_NE(m.find("metal backend: kernel @many needs 32 buffer arguments"), std::string::npos) << m;
      EXPECT_NE(m.find("Metal binds at most 31"), std::string::npos) << m;
    }
  }
}
