"""Inductor-style persistent reduction: softmax over the last dim of a [xnumel, 100] tensor.

out[x, r] = exp(in[x, r] - max_r in[x, :]) / sum_r exp(in[x, r] - max)

Shapes and dtypes
    in_ptr0: [xnumel, 100] fp32; out_ptr2: [xnumel, 100] fp32. rnumel = 100 <= RBLOCK.

Style imitated
    Inductor's persistent reductions (triton_per_fused__softmax_*): RBLOCK declared
    inside the kernel as `RBLOCK: tl.constexpr = 128`, `roffset = 0`, one tile of
    XBLOCK rows; the max through a triton_helpers-like max2 (a tl.reduce with a
    NaN-propagating maximum combine, written here) masked with tl.where(..., float("-inf")),
    tl_math.exp, tl.sum(...)[:, None]; the row length baked into `(r1 + (100*x0))`.

Launch
    grid = (cdiv(xnumel, XBLOCK),)
"""
import triton
import triton.language as tl
from triton.language import math as tl_math


@triton.jit
def _maximum(a, b):
    # triton_helpers.maximum: NaN wins
    mask = a > b
    if a.dtype.is_floating():
        mask |= a != a
    return tl.where(mask, a, b)


@triton.jit
def max2(a, dim):
    return tl.reduce(a, dim, _maximum)


@triton.jit
def triton_per_fused__softmax_0(in_ptr0, out_ptr2, xnumel, rnumel, XBLOCK : tl.constexpr):
    RBLOCK: tl.constexpr = 128
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rindex = tl.arange(0, RBLOCK)[None, :]
    roffset = 0
    rmask = rindex < rnumel
    r1 = rindex
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r1 + (100*x0)), rmask & xmask, other=0.0)
    tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
    tmp3 = tl.where(rmask & xmask, tmp1, float("-inf"))
    tmp4 = max2(tmp3, 1)[:, None]
    tmp5 = tmp0 - tmp4
    tmp6 = tl_math.exp(tmp5)
    tmp7 = tl.broadcast_to(tmp6, [XBLOCK, RBLOCK])
    tmp9 = tl.where(rmask & xmask, tmp7, 0)
    tmp10 = tl.sum(tmp9, 1)[:, None]
    tmp11 = tmp6 / tmp10
    tl.store(out_ptr2 + (r1 + (100*x0)), tmp11, rmask & xmask)
