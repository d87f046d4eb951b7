// Shifts at every width: `>>` is arithmetic for signed and logical for unsigned left
// operands, by scalar and by per-element tensor amounts; `<<` wraps at the width.
// Expected values are spelled out with unsigned arithmetic in C++.
#include "conformance_util.h"

using namespace conformance;

namespace {

const char* kShift = R"(
import triton
import triton.language as tl

@triton.jit
def sh(a_ptr, s_ptr, o, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(a_ptr + offs)
    s = tl.load(s_ptr + offs)
    tl.store(o + offs, a >> s)
    tl.store(o + N + offs, a << s)
    tl.store(o + 2 * N + offs, a >> 1)
)";

template <class T>
void run_shift(const char* sig) {
  using U = std::make_unsigned_t<T>;
  const int n = 64;
  const int w = 8 * sizeof(T);
  int64_t lo = std::is_signed_v<T> ? static_cast<int64_t>(std::numeric_limits<T>::min()) : 1;
  int64_t hi = sizeof(T) == 8 ? INT64_MAX : static_cast<int64_t>(std::numeric_limits<T>::max());
  auto a = rand_int<T>(n, lo, hi);
  if (!std::is_signed_v<T>) a[1] = static_cast<T>(~U(0));  // top bit set for unsigned
  if (std::is_signed_v<T>) a[1] = std::numeric_limits<T>::min();
  auto s = rand_int<T>(n, 0, w - 1, false);
  Case c(kShift, "sh", std::string("*") + sig + ", *" + sig + ", *" + sig + ", 64");
  c.in(a);
  c.in(s);
  c.out<T>(3 * n);
  auto o = c.run({1}).template get<T>(2);
  for (int i = 0; i < n; ++i) {
    U ua = static_cast<U>(a[i]);
    int k = static_cast<int>(s[i]);
    U logical = static_cast<U>(ua >> k);
    U fill = (std::is_signed_v<T> && a[i] < 0 && k > 0) ? static_cast<U>(~(static_cast<U>(~U(0)) >> k)) : U(0);
    EXPECT_EQ(o[i], static_cast<T>(logical | fill)) << sig << " " << +a[i] << " >> " << k;
    EXPECT_EQ(o[n + i], static_cast<T>(static_cast<U>(ua << k))) << sig << " " << +a[i] << " << " << k;
    U fill1 = (std::is_signed_v<T> && a[i] < 0) ? static_cast<U>(~(static_cast<U>(~U(0)) >> 1)) : U(0);
    EXPECT_EQ(o[2 * n + i], static_cast<T>(static_cast<U>(ua >> 1) | fill1)) << sig;
  }
}

TEST(ConformanceShifts, Int8) { run_shift<int8_t>("i8"); }
TEST(ConformanceShifts, Uint8) { run_shift<uint8_t>("u8"); }
TEST(ConformanceShifts, Int64) { run_shift<int64_t>("i64"); }
TEST(ConformanceShifts, Uint64) { run_shift<uint64_t>("u64"); }
TEST(ConformanceShifts, Uint16) { run_shift<uint16_t>("u16"); }

}  // namespace
