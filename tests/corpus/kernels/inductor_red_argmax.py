"""Inductor-style looped argmax over the last dim (first index of the maximum; NaN wins).

out[x] = argmax_r in[x, r] for x < xnumel, r < rnumel, as int64.

Shapes and dtypes
    in_ptr0: [xnumel, rnumel] fp32; out_ptr0: [xnumel] int64.

Style imitated
    Inductor's triton_red_fused_argmax_*: `_tmp2 = tl.full([XBLOCK, RBLOCK], float("-inf"),
    tl.float32)` and `_tmp2_index = tl.full([XBLOCK, RBLOCK], 2147483647, tl.int32)`,
    a triton_helpers-like maximum_with_index per lane inside the rnumel loop and
    max_with_index (a two-tensor tl.reduce) across lanes after it — both written here
    with upstream's tie rule (equal values: the lower index) and NaN handling.

Launch
    grid = (cdiv(xnumel, XBLOCK),)
"""
import triton
import triton.language as tl


@triton.jit
def maximum_with_index(a_value, a_index, b_value, b_index):
    mask = a_value > b_value
    equal = a_value == b_value
    if a_value.dtype.is_floating():
        a_isnan = a_value != a_value
        b_isnan = b_value != b_value
        mask |= a_isnan & (not b_isnan)
        # Consider NaNs as equal
        equal |= a_isnan & b_isnan
    # Prefer lowest index if values are equal
    mask |= equal & (a_index < b_index)
    return tl.where(mask, a_value, b_value), tl.where(mask, a_index, b_index)


@triton.jit
def max_with_index(value, index, dim):
    return tl.reduce((value, index), dim, maximum_with_index)


@triton.jit
def triton_red_fused_argmax_0(in_ptr0, out_ptr0, xnumel, rnumel, XBLOCK : tl.constexpr, RBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex
    _tmp2 = tl.full([XBLOCK, RBLOCK], float("-inf"), tl.float32)
    _tmp2_index = tl.full([XBLOCK, RBLOCK], 2147483647, tl.int32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r1 = rindex
        tmp0 = tl.load(in_ptr0 + (r1 + (rnumel*x0)), rmask & xmask, eviction_policy='evict_first', other=0.0)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        _tmp2_next, _tmp2_index_next = maximum_with_index(
            _tmp2, _tmp2_index, tmp1, rindex
        )
        _tmp2 = tl.where(rmask & xmask, _tmp2_next, _tmp2)
        _tmp2_index = tl.where(rmask & xmask, _tmp2_index_next, _tmp2_index)
    _, tmp2_tmp = max_with_index(_tmp2, _tmp2_index, 1)
    tmp2 = tmp2_tmp[:, None]
    tl.store(out_ptr0 + (x0), tmp2, xmask)
