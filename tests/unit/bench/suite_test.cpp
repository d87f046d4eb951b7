// Tests of the bench case list (bench/suite.h): coverage of every kernel and dtype, ids,
// signatures that fit the kernels' parameter lists (read from kernels/*.py here with a
// plain text scan, independently of the compiler), deterministic and poisoned problem data.
#include "bench/suite.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

using namespace tritium::bench;

struct Params {
  int total = 0;
  int constexprs = 0;
};

// Parameters of `def function(...)` in kernels/<file>: counted by top-level commas.
Params read_params(const std::string& file, const std::string& function) {
  std::ifstream in(std::string(TRITIUM_SOURCE_DIR) + "/kernels/" + file);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const size_t start = text.find("def " + function + "(");
  if (start == std::string::npos) throw std::runtime_error("no def " + function + " in " + file);
  const size_t open = text.find('(', start), close = text.find("):", open);
  const std::string list = text.substr(open + 1, close - open - 1);
  Params p;
  std::stringstream items(list);
  std::string item;
  while (std::getline(items, item, ',')) {
    if (item.find_first_not_of(" \n\t") == std::string::npos) continue;
    ++p.total;
    if (item.find("constexpr") != std::string::npos) ++p.constexprs;
  }
  return p;
}

int signature_entries(const std::string& sig) {
  int n = 1;
  for (char c : sig) n += c == ',';
  return n;
}

TEST(BenchSuite, IdsAreUniqueAndWellFormed) {
  std::set<std::string> ids;
  for (const Case& c : all_cases()) {
    EXPECT_TRUE(ids.insert(c.id).second) << "duplicate id " << c.id;
    EXPECT_EQ(c.id, c.kernel + "/" + c.dtype + "/" + c.shape);
    EXPECT_GT(c.bytes, 0.0) << c.id;
    EXPECT_EQ(c.flops > 0.0, !c.memory_bound) << c.id;
    EXPECT_TRUE(c.make) << c.id;
  }
}

TEST(BenchSuite, EveryKernelAndDtypeInQuickAndFullSets) {
  const std::vector<std::string> functions = {"add_kernel",       "softmax_kernel", "softmax_online_kernel",
                                              "rmsnorm_kernel",   "layernorm_kernel", "swiglu_kernel",
                                              "swiglu_rows_kernel", "matmul_kernel", "attn_fwd_kernel"};
  const std::vector<Case> cases = all_cases();
  for (const std::string& f : functions)
    for (const char* dt : {"fp32", "fp16", "bf16"}) {
      int quick = 0, large = 0;
      for (const Case& c : cases)
        if (c.function == f && c.dtype == dt) (c.quick ? quick : large)++;
      EXPECT_GE(quick, 1) << f << " " << dt;
      EXPECT_GE(large, 1) << f << " " << dt;
    }
  // Attention: head dims 64 and 128, full and causal, at N = 1024 in the full set.
  for (const char* id : {"attention/fp16/1x4x1024x64", "attention/fp16/1x4x1024x128",
                         "attention_causal/fp16/1x4x1024x64", "attention_causal/fp16/1x4x1024x128"}) {
    bool found = false;
    for (const Case& c : cases) found = found || c.id == id;
    EXPECT_TRUE(found) << id;
  }
}

TEST(BenchSuite, SignaturesFitTheKernelParameters) {
  for (const Case& c : all_cases()) {
    const Params p = read_params(c.file, c.function);
    EXPECT_EQ(signature_entries(c.signature), p.total) << c.id << ": " << c.signature;
  }
}

TEST(BenchSuite, SizesOfQuickAndLargeCases) {
  for (const Case& c : all_cases()) {
    if (c.quick) {
      EXPECT_LT(c.bytes, 4.0 * (1 << 20)) << c.id;  // CI-sized
    } else if (c.memory_bound) {
      // Large memory-bound cases stream at least 128 MiB (several times a 32 MiB LLC).
      EXPECT_GE(c.bytes, 128.0 * (1 << 20)) << c.id;
    }
  }
}

TEST(BenchSuite, QuickProblemsArePoisonedDeterministicAndConsistent) {
  for (const Case& c : select_cases(all_cases(), true, "")) {
    const Problem a = c.make(NumericsContext{});
    const Problem b = c.make(NumericsContext{});
    const Params p = read_params(c.file, c.function);  // one launch argument per runtime parameter
    EXPECT_EQ(static_cast<int>(a.args.size()), p.total - p.constexprs) << c.id;
    ASSERT_EQ(a.arrays.size(), b.arrays.size());
    std::set<int> outputs_checked;
    for (size_t i = 0; i < a.arrays.size(); ++i) {
      const HostArray& x = a.arrays[i];
      EXPECT_EQ(x.bytes, b.arrays[i].bytes) << c.id << " array " << x.name << " not deterministic";
      EXPECT_EQ(x.byte_size(), x.count * dtype_size(x.dtype));
      if (x.is_output) {
        for (uint8_t byte : x.bytes) ASSERT_EQ(byte, kPoisonByte) << c.id << " output " << x.name;
      } else {
        bool nonzero = false;
        for (size_t j = 0; j < x.count && !nonzero; ++j) nonzero = x.get(j) != 0.0;
        EXPECT_TRUE(nonzero) << c.id << " input " << x.name;
      }
    }
    for (const Expected& e : a.expected) {
      ASSERT_GE(e.buffer, 0);
      ASSERT_LT(e.buffer, static_cast<int>(a.arrays.size()));
      EXPECT_TRUE(a.arrays[e.buffer].is_output) << c.id;
      EXPECT_TRUE(outputs_checked.insert(e.buffer).second) << c.id;
      EXPECT_EQ(e.ref.size(), a.arrays[e.buffer].count) << c.id;
      EXPECT_TRUE(e.mag.empty() || e.mag.size() == e.ref.size()) << c.id;
      EXPECT_FALSE(e.tol.reason.empty()) << c.id;
      for (double v : e.ref) ASSERT_TRUE(std::isfinite(v)) << c.id;
    }
    int n_outputs = 0;
    for (const HostArray& x : a.arrays) n_outputs += x.is_output;
    EXPECT_EQ(static_cast<int>(outputs_checked.size()), n_outputs) << c.id << ": an output has no reference";
    for (const LaunchArg& arg : a.args) {
      if (arg.kind != LaunchArg::Kind::Buffer) continue;
      ASSERT_LT(arg.buffer, static_cast<int>(a.arrays.size()));
      EXPECT_LT(arg.byte_offset, a.arrays[arg.buffer].byte_size()) << c.id;
    }
  }
}

TEST(BenchSuite, Selection) {
  const std::vector<Case> all = all_cases();
  const std::vector<Case> quick = select_cases(all, true, "");
  EXPECT_GT(quick.size(), 0u);
  EXPECT_LT(quick.size(), all.size());
  for (const Case& c : quick) EXPECT_TRUE(c.quick);
  const std::vector<Case> sm = select_cases(all, false, "softmax_online/fp16");
  ASSERT_EQ(sm.size(), 2u);  // small and large
  for (const Case& c : sm) EXPECT_EQ(c.function, "softmax_online_kernel");
  EXPECT_TRUE(select_cases(all, false, "no-such-kernel").empty());
}

TEST(BenchSuite, SignatureSpecializesLikeTritonJit) {
  // Unit strides as ":1", multiples of 16 as ":16", as Triton's JIT specializes them.
  for (const Case& c : all_cases()) {
    if (c.id == "matmul/fp32/512x512x512") {
      EXPECT_EQ(c.signature,
                "*fp32:16, *fp32:16, *fp32:16, i32:16, i32:16, i32:16, i32:16, i32:1, i32:16, i32:1, i32:16, "
                "i32:1, 64, 64, 32, 8");
    }
    if (c.id == "vector_add/fp16/100003") {
      EXPECT_EQ(c.signature, "*fp16:16, *fp16:16, *fp16:16, i32, 1024");
    }
    if (c.id == "swiglu_rows/fp32/33x999") {  // up = h + 999 floats: not 16-byte aligned
      EXPECT_EQ(c.signature, "*fp32:16, *fp32, *fp32:16, i32, i32, i32, i32, 256");
    }
  }
}

}  // namespace
