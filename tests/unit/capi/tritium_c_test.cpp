// The C ABI (include/tritium/tritium_c.h): compile, launch on borrowed memory (waiting and
// enqueued), errors reported through tritium_c_last_error. The cpu backend everywhere; the
// cuda backend where a GPU is (TRITIUM_REQUIRE_GPU=1 makes a missing one a failure).
#include "tritium/tritium_c.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "../runtime/cuda_test_util.h"
#include "tritium/tritium.h"

namespace {

const std::string kVadd = std::string(TRITIUM_TEST_DIR) + "/../kernels/vector_add.py";

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-100.f, 100.f);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}

tritium_c_arg ptr_arg(void* p, size_t bytes, const char* dtype) {
  tritium_c_arg a{};
  a.kind = TRITIUM_C_PTR;
  a.ptr = p;
  a.bytes = bytes;
  a.dtype = dtype;
  return a;
}

tritium_c_arg int_arg(int64_t v) {
  tritium_c_arg a{};
  a.kind = TRITIUM_C_INT;
  a.i = v;
  return a;
}

// x + y in fp32 is correctly rounded: the reference is the float sum, compared bit for bit.
void expect_sum(const std::vector<float>& x, const std::vector<float>& y, const std::vector<float>& out) {
  int bad = 0;
  for (size_t i = 0; i < x.size() && bad < 5; ++i)
    if (!(out[i] == x[i] + y[i])) ++bad, ADD_FAILURE() << "element " << i << ": " << out[i] << " != " << x[i] + y[i];
}

TEST(CApi, CompilesAndLaunchesOnBorrowedHostMemory) {
  const int64_t n = 1000 + 37;  // a partial last block: the mask matters
  auto x = random_floats(n, 1), y = random_floats(n, 2);
  for (int wait : {1, 0}) {
    std::vector<float> out(n, std::nanf(""));  // poisoned
    tritium_c_kernel* k = tritium_c_compile("cpu", kVadd.c_str(), "add_kernel", "*fp32, *fp32, *fp32, i32, 256", 4, 3, 0);
    ASSERT_NE(k, nullptr) << tritium_c_last_error();
    EXPECT_EQ(tritium_c_num_args(k), 4);
    EXPECT_NE(std::string(tritium_c_signature(k)).find("*fp32"), std::string::npos);
    EXPECT_NE(std::string(tritium_c_source(k)).find("add_kernel"), std::string::npos);
    tritium_c_arg args[4] = {ptr_arg(x.data(), n * 4, "fp32"), ptr_arg(y.data(), n * 4, "fp32"),
                             ptr_arg(out.data(), n * 4, "fp32"), int_arg(n)};
    ASSERT_EQ(tritium_c_launch(k, (n + 255) / 256, 1, 1, args, 4, wait), 0) << tritium_c_last_error();
    ASSERT_EQ(tritium_c_synchronize("cpu"), 0) << tritium_c_last_error();
    expect_sum(x, y, out);
    tritium_c_release(k);
  }
}

TEST(CApi, ErrorsComeBackAsMessages) {
  // A kernel the file does not have: the message lists those it has.
  EXPECT_EQ(tritium_c_compile("cpu", kVadd.c_str(), "nope", "*fp32", 4, 3, 0), nullptr);
  EXPECT_NE(std::string(tritium_c_last_error()).find("add_kernel"), std::string::npos) << tritium_c_last_error();
  // Unknown flag bits.
  EXPECT_EQ(tritium_c_compile("cpu", kVadd.c_str(), "add_kernel", "*fp32, *fp32, *fp32, i32, 256", 4, 3, 0x40), nullptr);
  EXPECT_NE(std::string(tritium_c_last_error()).find("flag"), std::string::npos) << tritium_c_last_error();
  // A missing file.
  EXPECT_EQ(tritium_c_compile("cpu", "/nonexistent/k.py", "k", "i32", 4, 3, 0), nullptr);
  EXPECT_NE(std::string(tritium_c_last_error()).find("/nonexistent/k.py"), std::string::npos) << tritium_c_last_error();
  // An unknown backend.
  EXPECT_EQ(tritium_c_compile("no-such-backend", kVadd.c_str(), "add_kernel", "*fp32, *fp32, *fp32, i32, 256", 4, 3, 0),
            nullptr);
  EXPECT_NE(std::string(tritium_c_last_error()).find("no-such-backend"), std::string::npos) << tritium_c_last_error();
  // Wrong argument count at launch, naming the counts.
  tritium_c_kernel* k = tritium_c_compile("cpu", kVadd.c_str(), "add_kernel", "*fp32, *fp32, *fp32, i32, 256", 4, 3, 0);
  ASSERT_NE(k, nullptr) << tritium_c_last_error();
  std::vector<float> v(16, 1.f);
  tritium_c_arg args[2] = {ptr_arg(v.data(), 64, "fp32"), ptr_arg(v.data(), 64, "fp32")};
  EXPECT_NE(tritium_c_launch(k, 1, 1, 1, args, 2, 1), 0);
  EXPECT_NE(std::string(tritium_c_last_error()).find("4"), std::string::npos) << tritium_c_last_error();
  // A pointer argument whose dtype does not fit the specialization names the parameter.
  tritium_c_arg bad[4] = {ptr_arg(v.data(), 64, "fp16"), ptr_arg(v.data(), 64, "fp32"), ptr_arg(v.data(), 64, "fp32"),
                          int_arg(16)};
  EXPECT_NE(tritium_c_launch(k, 1, 1, 1, bad, 4, 1), 0);
  EXPECT_NE(std::string(tritium_c_last_error()).find("x_ptr"), std::string::npos) << tritium_c_last_error();
  // An unknown argument kind; a null pointer with bytes.
  tritium_c_arg odd[4] = {ptr_arg(v.data(), 64, "fp32"), ptr_arg(v.data(), 64, "fp32"), ptr_arg(nullptr, 64, "fp32"),
                          int_arg(16)};
  EXPECT_NE(tritium_c_launch(k, 1, 1, 1, odd, 4, 1), 0);
  EXPECT_NE(std::string(tritium_c_last_error()).find("null"), std::string::npos) << tritium_c_last_error();
  odd[2] = ptr_arg(v.data(), 64, "fp32");
  odd[3].kind = 42;
  EXPECT_NE(tritium_c_launch(k, 1, 1, 1, odd, 4, 1), 0);
  EXPECT_NE(std::string(tritium_c_last_error()).find("kind 42"), std::string::npos) << tritium_c_last_error();
  tritium_c_release(k);
}

// The library exports the C functions only (tritium's and the standard library's C++
// symbols stay inside), read from its dynamic symbol table.
TEST(CApi, ExportsOnlyTheCFunctions) {
  const std::string lib = std::string(TRITIUM_C_LIBRARY);
  FILE* p = popen(("nm -D --defined-only " + lib + " 2>&1").c_str(), "r");
  ASSERT_NE(p, nullptr);
  char line[1024];
  int c_functions = 0;
  std::string others;
  while (fgets(line, sizeof line, p)) {
    std::string l(line);
    if (l.find(" tritium_c_") != std::string::npos) ++c_functions;
    else others += l;
  }
  const int rc = pclose(p);
  if (rc != 0 && c_functions == 0) GTEST_SKIP() << "nm unavailable: " << others;
  EXPECT_EQ(c_functions, 10);
  EXPECT_EQ(others, "");
}

TEST(CApi, CompileErrorsCarryTheLocation) {
  char path[] = "/tmp/tritium_capi_XXXXXX.py";
  int fd = mkstemps(path, 3);
  ASSERT_GE(fd, 0);
  const std::string src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x):\n    tl.store(x, tl.nosuch(1))\n";
  ASSERT_EQ(write(fd, src.data(), src.size()), static_cast<ssize_t>(src.size()));
  close(fd);
  EXPECT_EQ(tritium_c_compile("cpu", path, "k", "*fp32", 4, 3, 0), nullptr);
  const std::string e = tritium_c_last_error();
  unlink(path);
  EXPECT_NE(e.find(std::string(path) + ":6:"), std::string::npos) << e;
  EXPECT_NE(e.find("nosuch"), std::string::npos) << e;
}

// On the GPU: device memory from the C++ API, borrowed by the C API's own device, launches
// enqueued back to back, then one synchronize; every output element checked.
TEST(CApi, EnqueuedLaunchesOnTheGpu) {
  TRITIUM_REQUIRE_GPU();
  const int64_t n = (1 << 20) + 5;
  auto x = random_floats(n, 3), y = random_floats(n, 4);
  std::vector<float> poison(n, std::nanf(""));
  tritium::Device dev = tritium::Device::get("cuda");
  tritium::Buffer bx = dev.upload(x), by = dev.upload(y), bo = dev.upload(poison);
  tritium_c_kernel* k =
      tritium_c_compile("cuda", kVadd.c_str(), "add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 1024", 4, 3, 0);
  ASSERT_NE(k, nullptr) << tritium_c_last_error();
  tritium_c_arg args[4] = {ptr_arg(bx.device_ptr(), n * 4, "fp32"), ptr_arg(by.device_ptr(), n * 4, "fp32"),
                           ptr_arg(bo.device_ptr(), n * 4, "fp32"), int_arg(n)};
  // out = x + y, then x + out would be wrong if the launches overlapped out of order: the
  // second launch reads what the first wrote (same stream, in order).
  ASSERT_EQ(tritium_c_launch(k, (n + 1023) / 1024, 1, 1, args, 4, 0), 0) << tritium_c_last_error();
  tritium_c_arg args2[4] = {args[0], args[2], args[2], args[3]};
  ASSERT_EQ(tritium_c_launch(k, (n + 1023) / 1024, 1, 1, args2, 4, 0), 0) << tritium_c_last_error();
  ASSERT_EQ(tritium_c_synchronize("cuda"), 0) << tritium_c_last_error();
  std::vector<float> out = bo.download<float>();
  std::vector<float> want(n);
  for (int64_t i = 0; i < n; ++i) want[i] = x[i] + (x[i] + y[i]);
  int bad = 0;
  for (int64_t i = 0; i < n && bad < 5; ++i)
    if (!(out[i] == want[i])) ++bad, ADD_FAILURE() << "element " << i << ": " << out[i] << " != " << want[i];
  tritium_c_release(k);
}

}  // namespace
