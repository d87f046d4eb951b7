// passes::written_params: which pointer parameters a kernel may store through, as
// CompiledKernel::arguments() reports it (ArgInfo::written) — traced through pointer
// arithmetic, splats, selects and helpers; conservative (every pointer) when a stored
// pointer comes from memory or is carried through a loop.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tritium/tritium.h"

namespace {

std::vector<bool> written(const std::string& body, const std::string& sig, const std::string& params) {
  const std::string src = "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(" + params + "):\n" + body;
  auto k = tritium::Module::from_string(src, "written.py").kernel("k").compile(tritium::Device::get("interp"), sig);
  std::vector<bool> out;
  for (const auto& a : k.arguments()) out.push_back(a.is_pointer && a.written);
  return out;
}

TEST(WrittenParams, StoresTraceToTheirParameter) {
  EXPECT_EQ(written("    o = tl.arange(0, 16)\n    tl.store(out + o, tl.load(x + o) + tl.load(y + o))\n",
                    "*fp32, *fp32, *fp32", "x, y, out"),
            (std::vector<bool>{false, false, true}));
  // through a select of two pointers: both may be written
  EXPECT_EQ(written("    o = tl.arange(0, 16)\n    p = tl.where(o < 8, a + o, b + o)\n    tl.store(p, tl.load(x + o))\n",
                    "*fp32, *fp32, *fp32", "x, a, b"),
            (std::vector<bool>{false, true, true}));
  // atomics write
  EXPECT_EQ(written("    tl.atomic_add(acc, tl.load(x))\n", "*fp32, *fp32", "x, acc"),
            (std::vector<bool>{false, true}));
}

TEST(WrittenParams, LoopsAdvancingLoadedPointersDoNotCountAsWrites) {
  EXPECT_EQ(written("    acc = 0.0\n    p = x\n    for i in range(n):\n        acc += tl.load(p)\n        p += 1\n"
                    "    tl.store(out, acc)\n",
                    "*fp32, *fp32, i32", "x, out, n"),
            (std::vector<bool>{false, true, false}));
}

TEST(WrittenParams, UntraceablePointersCountAsWritingEveryPointer) {
  // a stored pointer carried through a loop
  EXPECT_EQ(written("    p = out\n    for i in range(n):\n        tl.store(p, tl.load(x))\n        p += 1\n",
                    "*fp32, *fp32, i32", "x, out, n"),
            (std::vector<bool>{true, true, false}));
  // a pointer loaded from memory
  EXPECT_EQ(written("    p = tl.load(table).to(tl.pointer_type(tl.float32))\n    tl.store(p, tl.load(x))\n",
                    "*fp32, *i64", "x, table"),
            (std::vector<bool>{true, true}));
}

TEST(WrittenParams, ReadOnlyMemoryForAWrittenParameterIsRefused) {
  auto mod = tritium::Module::from_string(
      "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(x, out):\n"
      "    tl.store(out, tl.load(x) * 2)\n",
      "written.py");
  const tritium::Device dev = tritium::Device::get("cpu");
  auto k = mod.kernel("k").compile(dev, "*fp32, *fp32");
  tritium::Buffer bx = dev.upload(std::vector<float>{3.0f}), bo = dev.upload(std::vector<float>{-1.0f});
  k.launch({1}, {tritium::Arg(bx).read_only(), bo});  // reading read-only memory is fine
  EXPECT_EQ(bo.download<float>()[0], 6.0f);
  try {
    k.launch({1}, {bx, tritium::Arg(bo).read_only()});
    FAIL() << "expected Error(Argument)";
  } catch (const tritium::Error& e) {
    EXPECT_EQ(e.kind(), tritium::ErrorKind::Argument);
    EXPECT_NE(std::string(e.what()).find("argument 1 ('out', *fp32): is read-only memory"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(bo.download<float>()[0], 6.0f);
}

}  // namespace
