# The helpers PyTorch Inductor's generated Triton kernels call through
# `from torch._inductor.runtime import triton_helpers` (triton_helpers.maximum, .max2,
# .welford_reduce, ...), written here in the Triton language so that Inductor output
# compiles unchanged on tritium (codegen_globals.cpp maps that import to this module; its
# `libdevice` and `math` names map to tl.extra.libdevice and tl.math). Each function has the
# meaning of the PyTorch function of the same name (torch/_inductor/runtime/triton_helpers.py),
# re-derived from its definition; shapes follow the arguments (elementwise helpers broadcast
# as Triton operators do; the reductions remove `dim`).
#
# NaN rules: maximum / minimum propagate NaN (a NaN operand wins); the *_with_index
# reductions treat NaN as the extreme value, NaNs as equal to each other, and break ties by
# the lower index.

import triton
import triton.language as tl

__all__ = []


@triton.jit
def promote_to_tensor(x):
    # A scalar (or tensor) as a tensor of at least one element, its dtype unchanged.
    return x + tl.zeros((1,), tl.int1)


@triton.jit
def is_floating(x):
    return promote_to_tensor(x).dtype.is_floating()


@triton.jit
def div_floor_integer(a, b):
    # Python's a // b on integers (Triton's // truncates toward zero).
    q = a // b
    inexact = (a % b) != 0
    signs_differ = (a < 0) != (b < 0)
    return tl.where(inexact & signs_differ, q - 1, q)


@triton.jit
def remainder_integer(a, b):
    # Python's a % b on integers: the sign of the divisor.
    r = a % b
    wrong_sign = (r != 0) & ((r < 0) != (b < 0))
    return tl.where(wrong_sign, r + b, r)


@triton.jit
def maximum(a, b):
    take_a = a > b
    if is_floating(a):
        take_a = take_a | (a != a)
    return tl.where(take_a, a, b)


@triton.jit
def minimum(a, b):
    take_a = a < b
    if is_floating(a):
        take_a = take_a | (a != a)
    return tl.where(take_a, a, b)


@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, maximum)


@triton.jit
def min2(a, dim):
    return tl.reduce(a, dim, minimum)


@triton.jit
def _times(a, b):
    return a * b


@triton.jit
def prod(input, axis):
    return tl.reduce(input, axis, _times)


@triton.jit
def _either(a, b):
    return a | b


@triton.jit
def any(a, dim):
    return tl.reduce(a, dim, _either)


@triton.jit
def _pick_with_index(a_value, a_index, b_value, b_index, prefer_a):
    # prefer_a: a strictly better than b by value (NaN counted as the extreme)
    same = a_value == b_value
    if is_floating(a_value):
        a_nan = a_value != a_value
        b_nan = b_value != b_value
        prefer_a = prefer_a | (a_nan & (b_nan == 0))
        same = same | (a_nan & b_nan)
    keep_a = prefer_a | (same & (a_index < b_index))
    return tl.where(keep_a, a_value, b_value), tl.where(keep_a, a_index, b_index)


@triton.jit
def maximum_with_index(a_value, a_index, b_value, b_index):
    return _pick_with_index(a_value, a_index, b_value, b_index, a_value > b_value)


@triton.jit
def minimum_with_index(a_value, a_index, b_value, b_index):
    return _pick_with_index(a_value, a_index, b_value, b_index, a_value < b_value)


@triton.jit
def max_with_index(value, index, dim):
    return tl.reduce((value, index), dim, maximum_with_index)


@triton.jit
def min_with_index(value, index, dim):
    return tl.reduce((value, index), dim, minimum_with_index)


@triton.jit
def welford_reduce(value, mean, m2, weight, first_iteration):
    # One step of Welford's running mean / sum of squared deviations (B. P. Welford,
    # "Note on a method for calculating corrected sums of squares and products",
    # Technometrics 4(3), 1962): the first step starts the count at 1.
    if first_iteration:
        return value, tl.zeros_like(m2), tl.full(weight.shape, 1, weight.dtype)
    else:
        count = weight + 1
        delta = value - mean
        new_mean = mean + delta / count
        return new_mean, m2 + delta * (value - new_mean), count


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    # Merging two partial Welford states (Chan, Golub and LeVeque's pairwise update); an
    # empty pair (total weight 0) keeps the first state.
    delta = mean_2 - mean_1
    total = weight_1 + weight_2
    frac_2 = tl.where(total == 0.0, 0.0, weight_2 / total)
    return mean_1 + delta * frac_2, m2_1 + m2_2 + delta * delta * weight_1 * frac_2, total


@triton.jit
def welford(mean, m2, weight, dim):
    return tl.reduce((mean, m2, weight), dim, welford_combine)


@triton.jit
def device_assert_then(cond, msg, r):
    tl.device_assert(cond, msg)
    return r


@triton.jit
def randint64(seed, offset, low, high):
    # A 64-bit draw from two Philox words, reduced into [low, high).
    w0, w1, w2, w3 = tl.randint4x(seed, offset)
    bits = w0.to(tl.uint64) | (w1.to(tl.uint64) << 32)
    span = (high - low).to(tl.uint64)
    return (bits % span).to(tl.int64) + low


@triton.jit
def bucketize_binary_search(values, offsets_ptr, indexing_dtype, right, OFFSETS_SIZE, BLOCK_SHAPE):
    # For each value, the number of boundaries offsets[0 .. OFFSETS_SIZE) below it
    # (right=False: boundaries < value; right=True: boundaries <= value), by bisection over
    # the sorted boundaries.
    lo = tl.zeros(BLOCK_SHAPE, dtype=indexing_dtype)
    hi = tl.full(BLOCK_SHAPE, OFFSETS_SIZE, dtype=indexing_dtype)
    remaining = OFFSETS_SIZE + 1
    while remaining > 1:
        mid = (lo + hi) // 2
        in_range = mid < OFFSETS_SIZE
        boundary = tl.load(offsets_ptr + mid, mask=in_range, other=0.0)
        if right:
            above = values >= boundary
        else:
            above = values > boundary
        lo = tl.where(above & in_range, mid + 1, lo)
        hi = tl.where(above, hi, mid)
        remaining = (remaining + 1) // 2
    return lo
