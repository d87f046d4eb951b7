// Launch-argument checking and conversion to ABI slots (src/api/launch_args.h), without the
// frontend: parameters are written by hand, buffers come from a fake host device.
#include "api/launch_args.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <random>

#include "fake_device.h"

namespace {

using tritium::Arg;
using tritium::ArgInfo;
using tritium::Error;
using tritium::ErrorKind;
using tritium::detail::convert_arg;
using tritium::detail::convert_args;
using tritium::detail::round_to_small_float;

ArgInfo scalar(const std::string& name, const std::string& dtype, int div = 1, bool eq1 = false) {
  ArgInfo a;
  a.name = name;
  a.dtype = dtype;
  a.divisibility = div;
  a.equal_to_1 = eq1;
  return a;
}

ArgInfo pointer(const std::string& name, const std::string& dtype, int div = 1) {
  ArgInfo a = scalar(name, dtype, div);
  a.is_pointer = true;
  return a;
}

// Expects convert_arg to throw Error(Argument) whose message names the parameter and
// contains `needle`.
void expect_refused(const ArgInfo& p, const Arg& a, const std::string& needle,
                    const tritium::runtime::Device* dev = nullptr) {
  try {
    convert_arg("k", p, 3, a, dev);
    FAIL() << "accepted " << a.describe() << " for " << p.name;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Argument);
    std::string msg = e.what();
    EXPECT_NE(msg.find("'" + p.name + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("kernel 'k'"), std::string::npos) << msg;
    EXPECT_NE(msg.find(needle), std::string::npos) << msg;
  }
}

uint16_t f16_bits(_Float16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

// bf16 by integer round-to-nearest-even on the fp32 bit pattern (valid for finite floats
// whose rounding does not need the double's extra bits): an algorithm independent of
// round_to_small_float.
uint16_t bf16_from_float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  uint32_t bias = 0x7FFFu + ((b >> 16) & 1u);
  return static_cast<uint16_t>((b + bias) >> 16);
}

// ------------------------------------------------------------------ round_to_small_float

TEST(ApiSmallFloat, Fp16HandValues) {
  EXPECT_EQ(round_to_small_float(1.0, 5, 10), 0x3C00u);
  EXPECT_EQ(round_to_small_float(-2.0, 5, 10), 0xC000u);
  EXPECT_EQ(round_to_small_float(65504.0, 5, 10), 0x7BFFu);           // max finite
  EXPECT_EQ(round_to_small_float(65519.99, 5, 10), 0x7BFFu);          // below the halfway point
  EXPECT_EQ(round_to_small_float(65520.0, 5, 10), 0x7C00u);           // halfway to 2^16 → even → inf
  EXPECT_EQ(round_to_small_float(std::ldexp(1.0, -24), 5, 10), 0x0001u);  // min subnormal
  EXPECT_EQ(round_to_small_float(std::ldexp(1.0, -25), 5, 10), 0x0000u);  // tie → even (0)
  EXPECT_EQ(round_to_small_float(3 * std::ldexp(1.0, -25), 5, 10), 0x0002u);  // 1.5 ulp tie → 2
  EXPECT_EQ(round_to_small_float(std::ldexp(1.0, -14), 5, 10), 0x0400u);  // min normal
  EXPECT_EQ(round_to_small_float(-0.0, 5, 10), 0x8000u);
  EXPECT_EQ(round_to_small_float(INFINITY, 5, 10), 0x7C00u);
  EXPECT_EQ(round_to_small_float(-INFINITY, 5, 10), 0xFC00u);
  EXPECT_EQ(round_to_small_float(NAN, 5, 10), 0x7E00u);
}

TEST(ApiSmallFloat, Fp16MatchesCompilerConversionOnRandomDoubles) {
  // _Float16 conversion from double is the compiler's (libgcc's) correctly rounded one.
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> ex(-27, 17);
  for (int i = 0; i < 20000; ++i) {
    double v = std::ldexp(mant(gen), ex(gen)) * (i % 2 ? -1 : 1);
    ASSERT_EQ(round_to_small_float(v, 5, 10), f16_bits(static_cast<_Float16>(v))) << v;
  }
}

TEST(ApiSmallFloat, Bf16HandValues) {
  EXPECT_EQ(round_to_small_float(1.0, 8, 7), 0x3F80u);
  EXPECT_EQ(round_to_small_float(-2.0, 8, 7), 0xC000u);
  EXPECT_EQ(round_to_small_float(3.0, 8, 7), 0x4040u);
  EXPECT_EQ(round_to_small_float(1.0 + std::ldexp(1.0, -8), 8, 7), 0x3F80u);      // half ulp tie → even
  EXPECT_EQ(round_to_small_float(1.0 + 3 * std::ldexp(1.0, -8), 8, 7), 0x3F82u);  // 1.5 ulp tie → even
  EXPECT_EQ(round_to_small_float(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40), 8, 7), 0x3F81u);  // above tie
  EXPECT_EQ(round_to_small_float(INFINITY, 8, 7), 0x7F80u);
  EXPECT_EQ(round_to_small_float(NAN, 8, 7), 0x7FC0u);
  EXPECT_EQ(round_to_small_float(1e39, 8, 7), 0x7F80u);  // past bf16 max (~3.39e38)
}

TEST(ApiSmallFloat, Bf16MatchesIntegerRoundingOfFloats) {
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<float> mant(1.0f, 2.0f);
  std::uniform_int_distribution<int> ex(-130, 120);
  for (int i = 0; i < 20000; ++i) {
    float f = std::ldexp(mant(gen), ex(gen)) * (i % 2 ? -1.f : 1.f);
    ASSERT_EQ(round_to_small_float(static_cast<double>(f), 8, 7), bf16_from_float_bits(f)) << f;
  }
}

// ------------------------------------------------------------------ integers

TEST(ApiLaunchArgs, IntegersInRangeAreExtendedBySignedness) {
  EXPECT_EQ(convert_arg("k", scalar("n", "i32"), 0, Arg(-5), nullptr).i64, -5);
  EXPECT_EQ(convert_arg("k", scalar("n", "i8"), 0, Arg(127), nullptr).i64, 127);
  EXPECT_EQ(convert_arg("k", scalar("n", "i8"), 0, Arg(-128), nullptr).i64, -128);
  EXPECT_EQ(convert_arg("k", scalar("n", "u16"), 0, Arg(65535), nullptr).u64, 65535u);
  EXPECT_EQ(convert_arg("k", scalar("n", "u64"), 0, Arg(UINT64_MAX), nullptr).u64, UINT64_MAX);
  EXPECT_EQ(convert_arg("k", scalar("n", "i64"), 0, Arg(INT64_MIN), nullptr).i64, INT64_MIN);
  EXPECT_EQ(convert_arg("k", scalar("b", "i1"), 0, Arg(true), nullptr).u64, 1u);
  EXPECT_EQ(convert_arg("k", scalar("b", "i1"), 0, Arg(false), nullptr).u64, 0u);
  EXPECT_EQ(convert_arg("k", scalar("n", "i32", 16), 0, Arg(48), nullptr).i64, 48);
  EXPECT_EQ(convert_arg("k", scalar("n", "i64", 1, true), 0, Arg(1), nullptr).i64, 1);
}

TEST(ApiLaunchArgs, IntegersOutOfRangeAreRefused) {
  expect_refused(scalar("n", "i8"), Arg(128), "out of range");
  expect_refused(scalar("n", "i8"), Arg(-129), "out of range");
  expect_refused(scalar("n", "i32"), Arg(int64_t{1} << 31), "out of range");
  expect_refused(scalar("n", "u32"), Arg(-1), "out of range");
  expect_refused(scalar("n", "u32"), Arg(uint64_t{1} << 32), "out of range");
  expect_refused(scalar("n", "i64"), Arg(UINT64_MAX), "out of range");
  expect_refused(scalar("b", "i1"), Arg(2), "out of range");
}

TEST(ApiLaunchArgs, SpecializationsAreEnforced) {
  expect_refused(scalar("n", "i32", 16), Arg(24), "multiple of 16");
  expect_refused(scalar("n", "i32", 1, true), Arg(2), "equal to 1");
  expect_refused(scalar("n", "i32", 1, true), Arg(0), "equal to 1");
}

TEST(ApiLaunchArgs, KindsMustMatch) {
  expect_refused(scalar("n", "i32"), Arg(1.5), "expects an integer");
  expect_refused(scalar("n", "i32"), Arg(2.0f), "expects an integer");
  tritium::Device dev(std::make_shared<tritium::testing::FakeDevice>());
  tritium::Buffer b = dev.alloc(64);
  expect_refused(scalar("n", "i32"), Arg(b), "expects a scalar", dev.impl().get());
  expect_refused(scalar("x", "fp32"), Arg(b), "expects a scalar", dev.impl().get());
  expect_refused(pointer("p", "fp32"), Arg(7), "expects a buffer", dev.impl().get());
  expect_refused(pointer("p", "fp32"), Arg(0.5), "expects a buffer", dev.impl().get());
}

// ------------------------------------------------------------------ floats

TEST(ApiLaunchArgs, FloatsAreRoundedIntoTheParameterDtype) {
  tritium_arg s = convert_arg("k", scalar("a", "fp32"), 0, Arg(0.1), nullptr);
  EXPECT_EQ(s.f32, 0.1f);  // double 0.1 rounded to nearest float
  uint32_t hi;
  std::memcpy(&hi, reinterpret_cast<const char*>(&s) + 4, 4);
  EXPECT_EQ(hi, 0u) << "upper bytes of an fp32 slot must be zero";
  EXPECT_EQ(convert_arg("k", scalar("a", "fp64"), 0, Arg(0.1), nullptr).f64, 0.1);
  EXPECT_EQ(convert_arg("k", scalar("a", "fp64"), 0, Arg(3), nullptr).f64, 3.0);
  EXPECT_EQ(convert_arg("k", scalar("a", "fp16"), 0, Arg(0.1), nullptr).u64, f16_bits(static_cast<_Float16>(0.1)));
  EXPECT_EQ(convert_arg("k", scalar("a", "fp16"), 0, Arg(-3), nullptr).u64, 0xC200u);
  EXPECT_EQ(convert_arg("k", scalar("a", "bf16"), 0, Arg(3), nullptr).u64, 0x4040u);
  EXPECT_EQ(convert_arg("k", scalar("a", "bf16"), 0, Arg(1.0f), nullptr).u64, 0x3F80u);
  // Infinities are values, not overflows.
  EXPECT_TRUE(std::isinf(convert_arg("k", scalar("a", "fp32"), 0, Arg(INFINITY), nullptr).f32));
  EXPECT_EQ(convert_arg("k", scalar("a", "fp16"), 0, Arg(-INFINITY), nullptr).u64, 0xFC00u);
  // Just above FLT_MAX but below the rounding boundary: rounds down to FLT_MAX.
  double near_max = static_cast<double>(FLT_MAX) * (1 + 1e-9);
  EXPECT_EQ(convert_arg("k", scalar("a", "fp32"), 0, Arg(near_max), nullptr).f32, FLT_MAX);
}

// bf16 scalars are packed as upstream's launcher does (driver.py pack_bf16): rounded to
// fp32, then truncated to the high 16 bits. 1.005859375 = 1 + 3 * 2^-9 lies 3/4 of the way
// from bf16 1.0 to 1.0078125: round-to-nearest would give 0x3f81, truncation gives 0x3f80.
TEST(ApiLaunchArgs, Bf16ScalarsAreTruncatedFromFp32AsUpstream) {
  EXPECT_EQ(convert_arg("k", scalar("a", "bf16"), 0, Arg(1.005859375), nullptr).u64, 0x3f80u);
  EXPECT_EQ(convert_arg("k", scalar("a", "bf16"), 0, Arg(-2.0), nullptr).u64, 0xc000u);
  // A double that rounds up to the next fp32 first: 1 + 2^-7 - 2^-30 -> fp32 1 + 2^-7 -> 0x3f81.
  EXPECT_EQ(convert_arg("k", scalar("a", "bf16"), 0, Arg(1.0 + std::ldexp(1.0, -7) - std::ldexp(1.0, -30)), nullptr).u64,
            0x3f81u);
}

TEST(ApiLaunchArgs, FiniteFloatsThatOverflowAreRefused) {
  expect_refused(scalar("a", "fp16"), Arg(70000.0), "overflows fp16");
  expect_refused(scalar("a", "fp16"), Arg(65520), "overflows fp16");
  expect_refused(scalar("a", "fp32"), Arg(1e39), "overflows fp32");
  expect_refused(scalar("a", "bf16"), Arg(-1e39), "overflows bf16");
  expect_refused(scalar("a", "fp8e5"), Arg(1.0), "not supported");
}

// ------------------------------------------------------------------ pointers

TEST(ApiLaunchArgs, PointersCarryTheBufferAddress) {
  auto fake = std::make_shared<tritium::testing::FakeDevice>();
  tritium::Device dev(fake);
  tritium::Buffer b = dev.alloc(256);
  tritium_arg s = convert_arg("k", pointer("p", "fp32", 16), 0, Arg(b), fake.get());
  EXPECT_EQ(s.ptr, b.device_ptr());
  tritium_arg s2 = convert_arg("k", pointer("p", "fp32"), 0, Arg::ptr(b, 4), fake.get());
  EXPECT_EQ(s2.ptr, static_cast<char*>(b.device_ptr()) + 4);
  tritium_arg s3 = convert_arg("k", pointer("p", "fp32", 16), 0, Arg::ptr(b, 32), fake.get());
  EXPECT_EQ(s3.ptr, static_cast<char*>(b.device_ptr()) + 32);
}

TEST(ApiLaunchArgs, PointerChecks) {
  auto fake = std::make_shared<tritium::testing::FakeDevice>("fake");
  auto other = std::make_shared<tritium::testing::FakeDevice>("other");
  tritium::Device dev(fake), dev2(other);
  tritium::Buffer b = dev.alloc(256), b2 = dev2.alloc(16);
  expect_refused(pointer("p", "fp32", 16), Arg::ptr(b, 4), "16-byte aligned", fake.get());
  expect_refused(pointer("p", "fp32"), Arg(b2), "belongs to device 'other'", fake.get());
  tritium::Buffer empty;
  expect_refused(pointer("p", "fp32"), Arg(empty), "empty buffer", fake.get());
  EXPECT_THROW(Arg::ptr(b, 257), Error);
}

TEST(ApiLaunchArgs, CountMismatchListsTheParameters) {
  std::vector<ArgInfo> params = {pointer("x_ptr", "fp32", 16), scalar("n", "i32")};
  try {
    convert_args("add", params, {Arg(1)}, nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Argument);
    std::string m = e.what();
    EXPECT_NE(m.find("kernel 'add' takes 2 launch arguments"), std::string::npos) << m;
    EXPECT_NE(m.find("x_ptr: *fp32:16"), std::string::npos) << m;
    EXPECT_NE(m.find("n: i32"), std::string::npos) << m;
    EXPECT_NE(m.find("got 1"), std::string::npos) << m;
  }
  // The index in the message is the launch position.
  try {
    convert_args("add", {scalar("a", "i32"), scalar("b", "i32")}, {Arg(1), Arg(0.5)}, nullptr);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("argument 1 ('b'"), std::string::npos) << e.what();
  }
}

}  // namespace
