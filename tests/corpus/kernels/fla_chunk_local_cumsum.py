"""Chunk-local cumulative sum of per-token gates (forward or reverse), as chunked linear
attention kernels precompute it.

For each (batch b, head h) and chunk c of BT tokens:
    forward: out[t] = sum_{c*BT <= s <= t} g[s] * scale
    reverse: out[t] = sum_{t <= s < min((c+1)*BT, T)} g[s] * scale

Shapes and dtypes
    g, out: [B, T, H] (token-major, heads innermost) fp32, or [B, H, T] with HEAD_FIRST;
    T need not be a multiple of BT.

Style imitated
    flash-linear-attention's chunk_local_cumsum_scalar kernel: tl.make_block_ptr over a
    1-D strided view (stride H, or 1 when HEAD_FIRST) loaded with boundary_check=(0,)
    and zero padding past T; tl.cumsum with a REVERSE constexpr (written as total -
    inclusive + element); an optional HAS_SCALE multiplier set by @triton.heuristics
    (`args['scale'] is not None`); @triton.autotune over num_warps written as a list
    comprehension; @triton.jit(do_not_specialize=['T']); grid (chunks, B * H).

Launch
    grid = (cdiv(T, BT), B * H)
"""
import triton
import triton.language as tl


@triton.heuristics({
    'HAS_SCALE': lambda args: args['scale'] is not None,
})
@triton.autotune(
    configs=[triton.Config({}, num_warps=num_warps) for num_warps in [1, 2, 4, 8]],
    key=['BT', 'REVERSE'],
)
@triton.jit(do_not_specialize=['T'])
def chunk_local_cumsum_scalar_kernel(s, o, scale, T, H: tl.constexpr, BT: tl.constexpr,
                                     REVERSE: tl.constexpr, HAS_SCALE: tl.constexpr,
                                     HEAD_FIRST: tl.constexpr):
    i_t, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = i_bh // H, i_bh % H
    bos = i_b * T
    if HEAD_FIRST:
        p_s = tl.make_block_ptr(s + bos * H + i_h * T, (T,), (1,), (i_t * BT,), (BT,), (0,))
        p_o = tl.make_block_ptr(o + bos * H + i_h * T, (T,), (1,), (i_t * BT,), (BT,), (0,))
    else:
        p_s = tl.make_block_ptr(s + bos * H + i_h, (T,), (H,), (i_t * BT,), (BT,), (0,))
        p_o = tl.make_block_ptr(o + bos * H + i_h, (T,), (H,), (i_t * BT,), (BT,), (0,))
    b_s = tl.load(p_s, boundary_check=(0,), padding_option="zero").to(tl.float32)
    b_o = tl.cumsum(b_s, axis=0)
    if REVERSE:
        b_z = tl.sum(b_s, axis=0)
        b_o = -b_o + b_z[None] + b_s
    if HAS_SCALE:
        b_o *= scale
    tl.store(p_o, b_o.to(p_o.dtype.element_ty), boundary_check=(0,))
