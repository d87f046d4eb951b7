// Programs whose tensors need more stack than the thread that runs them has are refused at
// compile time with the figures (runtime/cpu/compiler.h check_stack), instead of crashing
// the process at launch; kernels under the limits run and give the float64 reference.
//
// cpu: a program's tensors are local arrays of its function, all live at once here (34
// loads of 2**20 fp64 each, 285 MB, against the worker threads' 256 MiB stacks). msl-emu:
// the serial shape runs on the same workers; a thread of the threadgroup shape is a fiber,
// whose stack a test device makes small (make_msl_emu_device(bytes)) so that a kernel that
// compiles in seconds passes it: in the auto shape it falls back to the serial shape,
// under TRITIUM_MSL_SHAPE=threadgroup it is refused. OpenCL on a CPU device (PoCL): the
// serial shape's private arrays are on the stack of the thread running the work-group.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "../api/random_floats.h"
#include "../../require_opencl.h"
#include "runtime/msl_emu/msl_emu_device.h"
#include "runtime/opencl/opencl_device.h"
#include "scoped_env.h"
#include "tritium/tritium.h"

namespace {

const char* const kFile = "stack.py";

// Kernel `many(p, out)`: `n` loads of N elements (x_i = p[offs + i*S]), out = sum_i x_i * x_{i+1}
// — every load live until the last one is read. The decorator is on line 4.
std::string many_loads(int n) {
  std::string s =
      "import triton\nimport triton.language as tl\n\n@triton.jit\n"
      "def many(p, out, N: tl.constexpr, S: tl.constexpr):\n"
      "    offs = tl.arange(0, N)\n";
  for (int i = 0; i < n; ++i) s += "    x" + std::to_string(i) + " = tl.load(p + offs + " + std::to_string(i) + " * S)\n";
  s += "    tl.store(out + offs, ";
  for (int i = 0; i < n; ++i)
    s += (i ? " + " : "") + std::string("x") + std::to_string(i) + " * x" + std::to_string((i + 1) % n);
  return s + ")\n";
}

// float64 reference of many_loads(n) over fp32 / fp64 inputs `x`.
template <class T>
std::vector<double> reference(const std::vector<T>& x, int n, int64_t N, int64_t S) {
  std::vector<double> out(static_cast<size_t>(N), 0.0);
  for (int64_t e = 0; e < N; ++e)
    for (int i = 0; i < n; ++i)
      out[static_cast<size_t>(e)] += static_cast<double>(x[static_cast<size_t>(e + i * S)]) *
                                     static_cast<double>(x[static_cast<size_t>(e + ((i + 1) % n) * S)]);
  return out;
}

void expect_refused_at_the_kernel(const tritium::CompileError& e, const std::string& start) {
  EXPECT_EQ(e.message().rfind(start, 0), 0u) << e.message();
  EXPECT_EQ(e.file(), kFile);
  EXPECT_EQ(e.line(), 4) << e.message();  // @triton.jit
  EXPECT_EQ(e.col(), 1);
  EXPECT_NE(std::string(e.what()).find("@triton.jit\n"), std::string::npos) << e.what();
}

TEST(ProgramStack, TheCpuBackendRefusesProgramsPastItsWorkersStacks) {
  const tritium::Device dev = tritium::Device::get("cpu");
  auto mod = tritium::Module::from_string(many_loads(34), kFile);
  try {
    mod.kernel("many").compile(dev, "*fp64:16, *fp64:16, 1048576, 16");
    FAIL() << "compiled a kernel whose programs need 34 x 8 MiB of stack";
  } catch (const tritium::CompileError& e) {
    expect_refused_at_the_kernel(e, "cpu backend: kernel @many needs ");
    const std::string m = e.message();
    EXPECT_NE(m.find(" bytes of stack per program (its tensors are local arrays, whole; the largest frame, "),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("the worker threads have 267386880 — smaller blocks or fewer tensors live at once reduce it"),
              std::string::npos)
        << m;
    const int64_t need = std::stoll(m.substr(m.find("needs ") + 6));
    EXPECT_GE(need, int64_t{34} * 8 * 1048576) << "the figure counts every live array";
  }
}

TEST(ProgramStack, ACpuProgramJustUnderTheLimitRuns) {
  // 30 live arrays of 8 MiB: 240 MiB of the 255 MiB a program may use.
  const int n = 30;
  const int64_t N = 1048576, S = 16;
  const tritium::Device dev = tritium::Device::get("cpu");
  auto k = tritium::Module::from_string(many_loads(n), kFile).kernel("many").compile(dev, "*fp64:16, *fp64:16, 1048576, 16");
  const std::vector<float> xf = random_nonzero_floats(static_cast<size_t>(N + n * S), 8, 2.0f);
  const std::vector<double> x(xf.begin(), xf.end());
  tritium::Buffer in = dev.alloc(x.size() * sizeof(double));
  in.copy_from_host(x.data(), x.size() * sizeof(double));
  tritium::Buffer out = dev.alloc(static_cast<size_t>(N) * sizeof(double));
  out.fill(std::nan(""));
  k.launch({1, 1, 1}, {tritium::Arg::tensor(in, "fp64"), tritium::Arg::tensor(out, "fp64")});
  const std::vector<double> got = out.download<double>();
  const std::vector<double> want = reference(x, n, N, S);
  int64_t bad = 0;
  for (int64_t e = 0; e < N; ++e)  // 30 fp64 products of values below 2 summed: a few ulps of 120
    bad += !(std::fabs(got[static_cast<size_t>(e)] - want[static_cast<size_t>(e)]) <= 1e-12);
  EXPECT_EQ(bad, 0);
}

// The serial MSL shape on msl-emu runs on the same workers: the same limit (int64 here:
// Metal has no double).
TEST(ProgramStack, MslEmusSerialShapeHasTheWorkersLimit) {
  ScopedEnv shape("TRITIUM_MSL_SHAPE", "serial");
  const tritium::Device dev = tritium::Device::get("msl-emu");
  auto mod = tritium::Module::from_string(many_loads(34), kFile);
  try {
    mod.kernel("many").compile(dev, "*i64:16, *i64:16, 1048576, 16");
    FAIL() << "compiled a kernel whose programs need 34 x 8 MiB of stack";
  } catch (const tritium::CompileError& e) {
    expect_refused_at_the_kernel(e, "msl-emu backend: kernel @many needs ");
    EXPECT_NE(e.message().find("the worker threads have 267386880"), std::string::npos) << e.message();
  }
}

// A threadgroup-shape program (num_warps=1: 32 threads, each holding 128 elements of each of
// four tensors) on a device whose fibers allow 1 KiB: the serial shape in the auto shape,
// a refusal when the threadgroup shape is asked for; on the ordinary device, the
// threadgroup shape. All three compile in seconds.
TEST(ProgramStack, MslEmusThreadgroupShapePastItsFibersStacks) {
  const int n = 4;
  const int64_t N = 4096, S = 8;
  const char* sig = "*fp32:16, *fp32:16, 4096, 8";
  tritium::CompileOptions o;
  o.num_warps = 1;
  const std::vector<float> x = random_nonzero_floats(static_cast<size_t>(N + n * S), 9, 2.0f);
  const std::vector<double> want = reference(x, n, N, S);
  auto run = [&](const tritium::CompiledKernel& k, const tritium::Device& dev) {
    tritium::Buffer in = dev.alloc(x.size() * sizeof(float));
    in.copy_from_host(x.data(), x.size() * sizeof(float));
    tritium::Buffer out = dev.alloc(static_cast<size_t>(N) * sizeof(float));
    out.fill(std::nanf(""));
    k.launch({1, 1, 1}, {in, out});
    const std::vector<float> got = out.download<float>();
    int64_t bad = 0;
    for (int64_t e = 0; e < N; ++e)  // fp32 arithmetic: 7 roundings of values below 16
      bad += !(std::fabs(got[static_cast<size_t>(e)] - want[static_cast<size_t>(e)]) <= 1e-5 * 16);
    return bad;
  };
  auto mod = tritium::Module::from_string(many_loads(n), kFile);

  const tritium::Device normal = tritium::Device::get("msl-emu");
  const tritium::CompiledKernel tg = mod.kernel("many").compile(normal, sig, o);
  EXPECT_NE(tg.source().find("Threadgroups of 32 threads"), std::string::npos) << tg.source().substr(0, 400);
  EXPECT_EQ(run(tg, normal), 0);

  const tritium::Device tight(tritium::runtime::msl_emu::make_msl_emu_device(1024));
  const tritium::CompiledKernel serial = mod.kernel("many").compile(tight, sig, o);
  const std::string& text = serial.source();
  const std::string second = text.substr(text.find('\n') + 1, text.find('\n', text.find('\n') + 1) - text.find('\n') - 1);
  EXPECT_NE(second.find("msl-emu: a thread of the threadgroup shape needs "), std::string::npos) << second;
  EXPECT_NE(second.find("bytes of stack, msl-emu's fibers have 1024"), std::string::npos) << second;
  EXPECT_EQ(run(serial, tight), 0);

  ScopedEnv shape("TRITIUM_MSL_SHAPE", "threadgroup");
  try {  // a new module: the shape is not part of a module's compiled-kernel cache key
    tritium::Module::from_string(many_loads(n), kFile).kernel("many").compile(tight, sig, o);
    FAIL() << "TRITIUM_MSL_SHAPE=threadgroup compiled past the fibers' stacks";
  } catch (const tritium::CompileError& e) {
    expect_refused_at_the_kernel(e, "msl-emu backend: kernel @many needs ");
    const std::string m = e.message();
    EXPECT_NE(m.find(" bytes of stack per thread (TRITIUM_MSL_SHAPE=threadgroup, num_warps=1: each thread's share of "
                     "the tensors; the largest frame, "),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("msl-emu's fibers have 1024 — the serial shape, smaller blocks or more warps reduce it"),
              std::string::npos)
        << m;
  }
}

// OpenCL's serial shape on a CPU device: PoCL runs work-groups on threads with the default
// thread stack (8 MiB here) and the shape's tensors are private arrays, whole. Two loads of
// 2**20 fp32 (8 MiB) crashed the process (SIGSEGV) before the check; three of 2**19 (6 MiB)
// run and give the float64 reference.
TEST(ProgramStack, OpenCLsSerialShapeOnACpuDeviceHasItsThreadsStacks) {
  REQUIRE_OPENCL();
  auto impl = std::make_shared<tritium::runtime::opencl::OpenCLDevice>();
  if (!impl->info().is_cpu) GTEST_SKIP() << "the OpenCL device is not a CPU device: " << impl->info().name;
  const tritium::Device dev(impl);
  ScopedEnv shape("TRITIUM_OPENCL_SHAPE", "serial");
  try {
    tritium::Module::from_string(many_loads(2), kFile).kernel("many").compile(dev, "*fp32:16, *fp32:16, 1048576, 16");
    FAIL() << "compiled a serial-shape kernel whose work-item needs 8 MiB of private memory";
  } catch (const tritium::CompileError& e) {
    expect_refused_at_the_kernel(e, "opencl backend: kernel @many needs ");
    const std::string m = e.message();
    EXPECT_NE(m.find(" bytes of private memory per work-item in the serial shape (its tensors are private arrays, "
                     "whole; serial because: requested); "),
              std::string::npos)
        << m;
    EXPECT_NE(m.find("'s work-groups run on threads with "), std::string::npos) << m;
    EXPECT_GE(std::stoll(m.substr(m.find("needs ") + 6)), int64_t{2} * 4 * 1048576) << "both loads are counted";
  }

  const int n = 3;
  const int64_t N = 524288, S = 16;
  auto k = tritium::Module::from_string(many_loads(n), kFile).kernel("many").compile(dev, "*fp32:16, *fp32:16, 524288, 16");
  const std::vector<float> x = random_nonzero_floats(static_cast<size_t>(N + n * S), 10, 2.0f);
  tritium::Buffer in = dev.alloc(x.size() * sizeof(float));
  in.copy_from_host(x.data(), x.size() * sizeof(float));
  tritium::Buffer out = dev.alloc(static_cast<size_t>(N) * sizeof(float));
  out.fill(std::nanf(""));
  k.launch({1, 1, 1}, {in, out});
  const std::vector<float> got = out.download<float>();
  const std::vector<double> want = reference(x, n, N, S);
  int64_t bad = 0;
  for (int64_t e = 0; e < N; ++e)  // fp32: 5 roundings of values below 12 (products below 4)
    bad += !(std::fabs(got[static_cast<size_t>(e)] - want[static_cast<size_t>(e)]) <= 1e-5 * 12);
  EXPECT_EQ(bad, 0);
}

}  // namespace
