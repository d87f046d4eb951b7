// The OpenCL C renderer (src/codegen/opencl): the program's shape, run-time failures (a
// non-positive loop step, tl.device_assert in debug mode) reported like the CPU backend's,
// with the lowest failing program's coordinates, and the loud refusal of pointers made
// from integers. Numerics are checked by the conformance suite, which runs every case on the
// opencl backend bit-for-bit against the interpreter (tests/conformance/conformance_util.h).
//
// The launch tests skip without an OpenCL device, unless TRITIUM_REQUIRE_OPENCL=1 (set by
// scripts/test when PoCL is installed).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "runtime/opencl/opencl_api.h"
#include "tritium/tritium.h"

#include "require_opencl.h"
#include "scoped_env.h"

namespace {

const char* kSteps = R"(import triton
import triton.language as tl


@triton.jit
def steps(out, n, bad_from):
    pid = tl.program_id(0)
    step = tl.where(pid >= bad_from, 0, 1)
    acc = 0
    for i in range(0, n, step):
        acc += i
    tl.store(out + pid, acc)


@triton.jit
def checked(x, out):
    pid = tl.program_id(0)
    v = tl.load(x + pid)
    tl.device_assert(v > 0, "v must be positive")
    tl.store(out + pid, v * 2.0)


@triton.jit
def show(x, n):
    pid = tl.program_id(0)
    tl.device_print(" pid=", pid)
    v = tl.load(x + pid * 4 + tl.arange(0, 4))
    tl.device_print(" v: ", v, tl.arange(0, 4))
    tl.device_print(" h ", v.to(tl.float16), hex=True)
    tl.device_print(" n ", n)


@triton.jit
def via_pointer_array(ptrs, out):
    p = tl.load(ptrs).to(tl.pointer_type(tl.float32))
    tl.store(out, tl.load(p))


@triton.jit
def picks(x, out, hist, idx):
    i = tl.arange(0, 16)
    v = tl.load(x + i)
    tl.store(out + tl.arange(0, 4), tl.topk(v, 4))
    j = tl.load(idx + i)
    tl.store(out + 4 + i, tl.gather(v, j, 0))
    tl.store(hist + tl.arange(0, 8), tl.histogram(j, 8))
)";

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// The source of `name` compiled with TRITIUM_OPENCL_SHAPE=`shape` ("": unset, auto).
std::string source_in_shape(const char* shape, const char* name, const char* sig) {
  ScopedEnv env("TRITIUM_OPENCL_SHAPE", shape);
  return tritium::Module::from_string(kSteps, "steps.py").kernel(name).compile(tritium::Device::get("opencl"), sig).source();
}

TEST(OpenCLCodegen, ProgramShape) {
  REQUIRE_OPENCL();
  // The work-group shape (the default): 32 x num_warps work-items, local scratch.
  const std::string s = source_in_shape("", "steps", "*i32, i32, i32");
  EXPECT_NE(s.find("#pragma OPENCL FP_CONTRACT OFF"), std::string::npos);
  // (sub-groups of 32 required where the device exchanges lanes by sub-group shuffles)
  const std::string sg = s.find("lanes exchanged by sub-group shuffles") != std::string::npos
                             ? " __attribute__((intel_reqd_sub_group_size(32)))"
                             : "";
  EXPECT_NE(s.find("__kernel __attribute__((reqd_work_group_size(128, 1, 1)))" + sg +
                   " void tritium_kernel(__global uchar* a0_base, ulong a0_off, int32_t a1, int32_t a2, __global "
                   "ulong* tr_status)"),
            std::string::npos)
      << s.substr(s.find("__kernel"), 200);
  EXPECT_NE(s.find("__local uchar tr_smem_["), std::string::npos);
  EXPECT_EQ(s.find("template <"), std::string::npos);  // no C++ left in the program
  EXPECT_EQ(s.find("__syncthreads"), std::string::npos);
  // top-k, a gather by unsigned index, a histogram of unsigned values: OpenCL C 1.2 has
  // neither GCC builtins nor `unsigned long long` literals.
  const std::string k = source_in_shape("", "picks", "*fp32, *fp32, *i32, *u32");
  EXPECT_NE(k.find("reqd_work_group_size(128, 1, 1)"), std::string::npos);
  const std::string kernel_text = k.substr(k.find("// ---- kernel @picks"));
  EXPECT_EQ(kernel_text.find("__builtin"), std::string::npos) << kernel_text;
  EXPECT_FALSE(std::regex_search(kernel_text, std::regex("\\b\\d+ull\\b", std::regex::icase))) << kernel_text;
  // The serial shape: one work-item per program.
  const std::string t = source_in_shape("serial", "steps", "*i32, i32, i32");
  EXPECT_NE(t.find("__kernel void tritium_kernel(__global uchar* a0_base, ulong a0_off, int32_t a1, int32_t a2, "
                   "__global ulong* tr_status)"),
            std::string::npos)
      << t.substr(t.find("__kernel"), 200);
  EXPECT_NE(t.find("(the serial shape: requested)"), std::string::npos);
  EXPECT_EQ(t.find("template <"), std::string::npos);
  // device_print: the serial shape, which says why.
  const std::string p = source_in_shape("", "show", "*fp32, i32");
  EXPECT_NE(p.find("(the serial shape: steps.py:26:5: opencl backend: print not lowered by the work-group-parallel "
                   "OpenCL C renderer yet: tl.device_print)"),
            std::string::npos)
      << p.substr(0, 400);
}

TEST(OpenCLCodegen, NonPositiveStepFailsNamingTheLowestProgram) {
  REQUIRE_OPENCL();
  auto dev = tritium::Device::get("opencl");
  auto k = tritium::Module::from_string(kSteps, "steps.py").kernel("steps").compile(dev, "*i32, i32, i32");
  const int n = 37;
  std::vector<int32_t> poison(8, -77);
  auto out = dev.upload(poison.data(), poison.size() * 4);
  k.launch({8}, {tritium::Arg(out), tritium::Arg(int64_t{n}), tritium::Arg(int64_t{100})});  // no program fails
  std::vector<int32_t> got(8);
  out.copy_to_host(got.data(), 32);
  for (int p = 0; p < 8; ++p) EXPECT_EQ(got[p], n * (n - 1) / 2) << p;
  const std::string m = message_of([&] {
    k.launch({8}, {tritium::Arg(out), tritium::Arg(int64_t{n}), tritium::Arg(int64_t{5})});  // programs 5..7 fail
  });
  EXPECT_NE(m.find("for loop step must be positive at run time at steps.py:10"), std::string::npos) << m;
  EXPECT_NE(m.find("in steps, program (5, 0, 0)"), std::string::npos) << m;
  // The status is reset per launch: a clean launch afterwards does not raise.
  EXPECT_EQ(message_of([&] { k.launch({8}, {tritium::Arg(out), tritium::Arg(int64_t{n}), tritium::Arg(int64_t{8})}); }), "");
}

TEST(OpenCLCodegen, DeviceAssertInDebugMode) {
  REQUIRE_OPENCL();
  auto dev = tritium::Device::get("opencl");
  tritium::CompileOptions debug;
  debug.debug = true;
  auto k = tritium::Module::from_string(kSteps, "steps.py").kernel("checked").compile(dev, "*fp32, *fp32", debug);
  std::vector<float> x = {1.5f, 2.5f, -1.0f, 3.0f, -2.0f}, poison(5, -99.0f);
  auto xb = dev.upload(x.data(), 20), ob = dev.upload(poison.data(), 20);
  const std::string m = message_of([&] { k.launch({5}, {tritium::Arg(xb), tritium::Arg(ob)}); });
  EXPECT_NE(m.find("device_assert failed: v must be positive at steps.py:19 in checked, program (2, 0, 0)"),
            std::string::npos)
      << m;
  std::vector<float> got(5);
  ob.copy_to_host(got.data(), 20);
  EXPECT_EQ(got[0], 3.0f);  // the failing programs run on to their end, as on the CPU
  EXPECT_EQ(got[2], -2.0f);
}

std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t p = 0, q; p < text.size(); p = q + 1) {
    q = text.find('\n', p);
    if (q == std::string::npos) q = text.size();
    lines.push_back(text.substr(p, q - p));
  }
  std::sort(lines.begin(), lines.end());  // programs run in parallel on both backends
  return lines;
}

// tl.device_print through OpenCL C's printf: the same lines as the cpu backend prints
// (scalars, tensors with two operands and their indices, hex of fp16 bits, an int64).
TEST(OpenCLCodegen, DevicePrintGivesTheCpuBackendsLines) {
  REQUIRE_OPENCL();
  const std::vector<float> x = {1.5f, -2.25f, 3.0f, 0.125f, -7.0f, 65504.0f, 1e-3f, -0.0f};
  std::string text[2];
  const char* names[2] = {"cpu", "opencl"};
  for (int b = 0; b < 2; ++b) {
    auto dev = tritium::Device::get(names[b]);
    auto k = tritium::Module::from_string(kSteps, "steps.py").kernel("show").compile(dev, "*fp32, i64");
    auto xb = dev.upload(x.data(), x.size() * 4);
    testing::internal::CaptureStdout();
    k.launch({2}, {tritium::Arg(xb), tritium::Arg(int64_t{-5000000000LL})});
    dev.synchronize();
    std::fflush(stdout);
    text[b] = testing::internal::GetCapturedStdout();
  }
  const auto cpu = sorted_lines(text[0]), cl = sorted_lines(text[1]);
  EXPECT_EQ(cl, cpu) << text[1];
  EXPECT_EQ(cpu.size(), 2u * (1 + 8 + 4 + 1));
  EXPECT_NE(text[0].find("pid (1, 0, 0) idx (1) h: 0x7bff"), std::string::npos) << text[0];  // 65504 in fp16
  EXPECT_NE(text[0].find(" n: -5000000000"), std::string::npos) << text[0];
}

// OpenCL C 1.2 buffers have no device addresses: a pointer made from an integer (a
// pointer array loaded from memory) is refused at the cast, never dereferenced.
TEST(OpenCLCodegen, IntegersTurnedIntoPointersAreRefusedAtTheirLocation) {
  REQUIRE_OPENCL();
  auto dev = tritium::Device::get("opencl");
  try {
    tritium::Module::from_string(kSteps, "steps.py").kernel("via_pointer_array").compile(dev, "*i64, *fp32");
    FAIL() << "an integer turned into a pointer must be refused";
  } catch (const tritium::CompileError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("steps.py:35:"), std::string::npos) << m;
    EXPECT_NE(m.find("opencl backend:"), std::string::npos) << m;
    EXPECT_NE(m.find("no device addresses"), std::string::npos) << m;
  }
}

}  // namespace
