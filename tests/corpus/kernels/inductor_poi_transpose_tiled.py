"""Inductor-style 2-D tiled pointwise kernel: a permute copy with a dtype conversion.

out[b, s, c] = float16(in[b, c, s] * 0.125) for b < B, c < 64, s < 196 (a channels-first
[B, 64, 196] fp32 tensor written channels-last in fp16).

Shapes and dtypes
    in_ptr0: [B, 64, 196] fp32 contiguous; out_ptr0: [B, 196, 64] fp16 contiguous.
    ynumel = B * 64 (the y index walks (b, c)), xnumel = 196 (the x index walks s).

Style imitated
    Inductor's tiled pointwise kernels (triton_poi_fused_clone_*): ynumel / xnumel,
    yoffset from tl.program_id(1) and xoffset from tl.program_id(0), yindex[None, :]
    and xindex[:, None] tiles, `y0 = yindex % 64`, `y1 = (yindex // 64)`, flattened
    index expressions like `(y0 + 64*x2 + 12544*y1)`, the combined mask
    `xmask & ymask`, eviction_policy='evict_last', and `.to(tl.float16)` on store.

Launch
    grid = (cdiv(196, XBLOCK), cdiv(B * 64, YBLOCK))
"""
import triton
import triton.language as tl


@triton.jit
def triton_poi_fused__to_copy_clone_mul_0(in_ptr0, out_ptr0, ynumel, xnumel, YBLOCK : tl.constexpr, XBLOCK : tl.constexpr):
    yoffset = tl.program_id(1) * YBLOCK
    yindex = yoffset + tl.arange(0, YBLOCK)[None, :]
    ymask = yindex < ynumel
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    x2 = xindex
    y3 = yindex
    y0 = yindex % 64
    y1 = (yindex // 64)
    tmp0 = tl.load(in_ptr0 + (x2 + (196*y3)), xmask & ymask, eviction_policy='evict_last')
    tmp1 = 0.125
    tmp2 = tmp0 * tmp1
    tmp3 = tmp2.to(tl.float16)
    tl.store(out_ptr0 + (y0 + (64*x2) + (12544*y1)), tmp3, xmask & ymask)
