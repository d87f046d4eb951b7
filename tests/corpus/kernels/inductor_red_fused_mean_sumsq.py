"""Inductor-style looped reduction over a middle dimension: mean and mean of squares.

For x: [A, R, 16] (contiguous) and each (a, c): out0[a, c] = mean_r x[a, r, c],
out1[a, c] = mean_r x[a, r, c]^2; xnumel = A * 16, rnumel = R.

Shapes and dtypes
    in_ptr0: [A, R, 16] fp16; out_ptr0, out_ptr1: [A, 16] fp32 (accumulation fp32).

Style imitated
    Inductor's non-persistent reductions (triton_red_fused_*): xindex[:, None] /
    rbase[None, :] tiles, `for roffset in range(0, rnumel, RBLOCK)`, accumulators
    `_tmp3 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)` updated under
    tl.where(rmask & xmask, ...), strided index `(x0 + 16*r2 + 16*rnumel*x1)` built
    from `x0 = xindex % 16` and `x1 = (xindex // 16)`, eviction_policy='evict_first'
    for the streamed input, tl.broadcast_to, the final `tl.sum(_tmp3, 1)[:, None]`,
    and an in_out_ptr-free epilogue dividing by the float rnumel constant.

Launch
    grid = (cdiv(A * 16, XBLOCK),)
"""
import triton
import triton.language as tl


@triton.jit
def triton_red_fused_mean_pow_0(in_ptr0, out_ptr0, out_ptr1, xnumel, rnumel, XBLOCK : tl.constexpr, RBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    rbase = tl.arange(0, RBLOCK)[None, :]
    x0 = xindex % 16
    x1 = (xindex // 16)
    x3 = xindex
    _tmp3 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    _tmp6 = tl.full([XBLOCK, RBLOCK], 0, tl.float32)
    for roffset in range(0, rnumel, RBLOCK):
        rindex = roffset + rbase
        rmask = rindex < rnumel
        r2 = rindex
        tmp0 = tl.load(in_ptr0 + (x0 + (16*r2) + (16*rnumel*x1)), rmask & xmask, eviction_policy='evict_first', other=0.0).to(tl.float32)
        tmp1 = tl.broadcast_to(tmp0, [XBLOCK, RBLOCK])
        tmp2 = _tmp3 + tmp1
        _tmp3 = tl.where(rmask & xmask, tmp2, _tmp3)
        tmp4 = tmp0 * tmp0
        tmp5 = tl.broadcast_to(tmp4, [XBLOCK, RBLOCK])
        tmp7 = _tmp6 + tmp5
        _tmp6 = tl.where(rmask & xmask, tmp7, _tmp6)
    tmp3 = tl.sum(_tmp3, 1)[:, None]
    tmp6 = tl.sum(_tmp6, 1)[:, None]
    tmp8 = rnumel.to(tl.float32)
    tmp9 = tmp3 / tmp8
    tmp10 = tmp6 / tmp8
    tl.store(out_ptr0 + (x3), tmp9, xmask)
    tl.store(out_ptr1 + (x3), tmp10, xmask)
