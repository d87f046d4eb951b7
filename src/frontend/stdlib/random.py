# Random numbers for Triton-language kernels: tritium's `triton.language.random`
# (tl.randint, tl.randint4x, tl.rand, tl.rand4x, tl.randn, tl.randn4x, tl.philox,
# tl.philox_impl, tl.uint_to_uniform_float, tl.pair_uniform_to_normal), written in the
# Triton language and compiled by tritium's own frontend like user code (see README.md).
#
# Generator: Philox4x32 (Philox4x64 when tl.philox / tl.philox_impl get 64-bit counter
# words), the counter-based generator of J. K. Salmon, M. A. Moraes, R. O. Dror and
# D. E. Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC 2011, with its default of
# 10 rounds. The stream is upstream Triton 3.6's: the key is the seed converted to uint64
# and split into its low and high 32-bit words; the counter for an offset is (low 32 bits of
# the offset, high 32 bits (0 for offsets of 32 bits or fewer), 0, 0). Shapes and dtypes:
# the seed is an integer scalar (or integer tensor broadcastable with the offsets), the
# offsets a tensor of any shape; results have the offsets' shape, uint32 for randint*,
# fp32 for rand* and randn*. Each float conversion is the same sequence of operations, in
# the same order and precision, as upstream's (see the functions).

import triton
import triton.language as tl

# Bound into triton.language as well (tl.randint ...); every public def is in tl.random.
__all__ = [
    "pair_uniform_to_normal",
    "philox",
    "philox_impl",
    "rand",
    "rand4x",
    "randint",
    "randint4x",
    "randn",
    "randn4x",
    "uint_to_uniform_float",
]

# Rounds when n_rounds is not given (the "-10" of Philox4x32-10).
N_ROUNDS_DEFAULT: tl.constexpr = 10

# Philox4x32 (Salmon et al. 2011): the multipliers of counter words 0 and 2, and
# the Weyl-sequence increments of the two key words (the fractional parts of the golden
# ratio and of sqrt(3), in 32 bits).
_MUL32_W0: tl.constexpr = 0xD2511F53
_MUL32_W2: tl.constexpr = 0xCD9E8D57
_WEYL32_K0: tl.constexpr = 0x9E3779B9
_WEYL32_K1: tl.constexpr = 0xBB67AE85
# The Philox4x64 counterparts (the same constructions in 64 bits).
_MUL64_W0: tl.constexpr = 0xD2E7470EE14C6C93
_MUL64_W2: tl.constexpr = 0xCA5A826395121157
_WEYL64_K0: tl.constexpr = 0x9E3779B97F4A7C15
_WEYL64_K1: tl.constexpr = 0xBB67AE8584CAA73B


@triton.jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """`n_rounds` Philox rounds on the counter (c0, c1, c2, c3) under the key (k0, k1);
    returns the four output words. The dtype of c0 picks the variant: uint32 is Philox4x32,
    uint64 Philox4x64 (any other dtype is refused). The other words combine with c0 under
    Triton's usual promotion and broadcasting rules; arithmetic wraps."""
    if c0.dtype == tl.uint32:
        m0: tl.constexpr = _MUL32_W0
        m2: tl.constexpr = _MUL32_W2
        w0: tl.constexpr = _WEYL32_K0
        w1: tl.constexpr = _WEYL32_K1
    else:
        tl.static_assert(c0.dtype == tl.uint64, "tl.philox_impl needs uint32 or uint64 counter words")
        m0: tl.constexpr = _MUL64_W0
        m2: tl.constexpr = _MUL64_W2
        w0: tl.constexpr = _WEYL64_K0
        w1: tl.constexpr = _WEYL64_K1
    for _ in tl.static_range(n_rounds):
        # Round: the two double-width products m0*c0 and m2*c2 split into halves; the high
        # halves are mixed with the other two words and the key, the words permuted.
        hi0 = tl.umulhi(m0, c0)
        lo0 = tl.mul(m0, c0, sanitize_overflow=False)
        hi2 = tl.umulhi(m2, c2)
        lo2 = tl.mul(m2, c2, sanitize_overflow=False)
        c0, c1, c2, c3 = hi2 ^ c1 ^ k0, lo2, hi0 ^ c3 ^ k1, lo0
        # Key schedule: a Weyl sequence.
        k0 = tl.add(k0, w0, sanitize_overflow=False)
        k1 = tl.add(k1, w1, sanitize_overflow=False)
    return c0, c1, c2, c3


@triton.jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """Philox keyed by an integer `seed` on the counter (c0, c1, c2, c3). The seed is
    converted to uint64. Counter words of 32 bits (any dtype, reinterpreted as uint32) run
    Philox4x32 with the key (low word of the seed, high word); words of 64 bits run
    Philox4x64 with the key (seed, 0), the zero a tensor of shape (1,)."""
    # A plain assignment turns a Python scalar into a run-time scalar of its literal type
    # (int32, uint32, int64 or uint64 by value), as upstream's tl.to_tensor does.
    s = seed
    tl.static_assert(s.dtype.is_int(), "the seed of tl.philox / tl.rand* / tl.randn* / tl.randint* must be an integer")
    s = s.to(tl.uint64)
    x0 = c0
    x1 = c1
    x2 = c2
    x3 = c3
    if tl.constexpr(x0.dtype.primitive_bitwidth) == 32:
        word = tl.uint32
        key0 = s.to(tl.uint32)
        key1 = (s >> 32).to(tl.uint32)
    else:
        tl.static_assert(tl.constexpr(x0.dtype.primitive_bitwidth) == 64, "tl.philox needs 32- or 64-bit counter words")
        word = tl.uint64
        key0 = s
        key1 = tl.full((1,), 0, dtype=tl.uint64)
    x0 = x0.to(word, bitcast=True)
    x1 = x1.to(word, bitcast=True)
    x2 = x2.to(word, bitcast=True)
    x3 = x3.to(word, bitcast=True)
    return philox_impl(x0, x1, x2, x3, key0, key1, n_rounds)


@triton.jit
def randint4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """Four uint32 blocks of the shape of `offset`: Philox4x32 of the counter (offset
    converted to uint32, high 32 bits of the offset when it is wider than 32 bits else 0,
    0, 0) keyed by `seed`."""
    low = offset.to(tl.uint32)
    zero = low * 0
    if tl.constexpr(offset.dtype.primitive_bitwidth) > 32:
        high = (offset >> 32).to(tl.uint32)
    else:
        high = zero
    return philox(seed, low, high, zero, zero, n_rounds)


@triton.jit
def randint(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """One uint32 block of the shape of `offset`: the first word of tl.randint4x."""
    first, _, _, _ = randint4x(seed, offset, n_rounds)
    return first


@triton.jit
def uint_to_uniform_float(x):
    """Random bits (uint32 / int32, or uint64 / int64) to fp32 in [0, 1): the bits read as
    a signed integer v, folded to v if v >= 0 else -v - 1 (one of 2^31, or 2^63, values),
    converted to fp32 (round to nearest even) and multiplied in fp32 by the largest scale
    that keeps the largest product below 1 (4.6566127342e-10, or 1.0842020432385337e-19,
    each rounded to fp32)."""
    if tl.constexpr(x.dtype == tl.uint32) or tl.constexpr(x.dtype == tl.int32):
        v = x.to(tl.int32, bitcast=True)
        scale: tl.constexpr = 4.6566127342e-10
    else:
        tl.static_assert(tl.constexpr(x.dtype == tl.uint64) or tl.constexpr(x.dtype == tl.int64),
                         "tl.uint_to_uniform_float needs 32- or 64-bit integers")
        v = x.to(tl.int64, bitcast=True)
        scale: tl.constexpr = 1.0842020432385337e-19
    # ~v is upstream's -v - 1 (equal in two's complement) without the intermediate that
    # overflows for v = INT_MIN, which tl.device_assert's overflow checks would report.
    v = tl.where(v < 0, ~v, v)
    return v.to(tl.float32) * scale


@triton.jit
def rand(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """One fp32 block in [0, 1) of the shape of `offset`: tl.randint as a uniform float."""
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@triton.jit
def rand4x(seed, offsets, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """Four fp32 blocks in [0, 1): the four words of tl.randint4x as uniform floats."""
    r0, r1, r2, r3 = randint4x(seed, offsets, n_rounds)
    return uint_to_uniform_float(r0), uint_to_uniform_float(r1), uint_to_uniform_float(r2), uint_to_uniform_float(r3)


@triton.jit
def pair_uniform_to_normal(u1, u2):
    """Box-Muller: two uniform blocks to two standard normal blocks, computed in the dtype
    of the inputs as r = sqrt(-2 * log(max(1e-7, u1))), a = 6.283185307179586 * u2,
    returning (r * cos(a), r * sin(a)); every step rounds once, constants to that dtype."""
    radius = tl.sqrt(-2.0 * tl.log(tl.maximum(1.0e-7, u1)))
    angle = 6.283185307179586 * u2
    return radius * tl.cos(angle), radius * tl.sin(angle)


@triton.jit
def randn(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """One fp32 block of standard normals: the cosine half of Box-Muller on the first two
    words of tl.randint4x."""
    r0, r1, _, _ = randint4x(seed, offset, n_rounds)
    normal, _ = pair_uniform_to_normal(uint_to_uniform_float(r0), uint_to_uniform_float(r1))
    return normal


@triton.jit
def randn4x(seed, offset, n_rounds: tl.constexpr = N_ROUNDS_DEFAULT):
    """Four fp32 blocks of standard normals: Box-Muller on words (0, 1) and (2, 3) of
    tl.randint4x."""
    u0, u1, u2, u3 = rand4x(seed, offset, n_rounds)
    n0, n1 = pair_uniform_to_normal(u0, u1)
    n2, n3 = pair_uniform_to_normal(u2, u3)
    return n0, n1, n2, n3
