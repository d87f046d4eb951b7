"""Inductor-style pointwise kernel: bias add + exact GELU, written in place.

out[i] = gelu(out[i] + bias[i % C]), gelu(x) = 0.5 x (1 + erf(x / sqrt(2))), i < xnumel.

Shapes and dtypes
    in_out_ptr0: [rows, C] fp32 contiguous (read and overwritten); in_ptr0: [C] fp32.
    xnumel = rows * C; C = 768 is baked into the index arithmetic, as Inductor does.

Style imitated
    torch.compile / Inductor generated pointwise kernels (triton_poi_*): xoffset /
    xindex / xmask, `x0 = xindex % 768` for the broadcast operand loaded with
    eviction_policy='evict_last', a chain of tmpN temporaries with Python-float
    constants, libdevice.erf, the in_out_ptr0 naming of a mutated buffer. The
    `@triton_heuristics.pointwise` decorator and torch imports are left out (tritium
    does not know them); libdevice and tl_math come from triton itself.

Launch
    grid = (cdiv(xnumel, XBLOCK),)
"""
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language import math as tl_math


@triton.jit
def triton_poi_fused_add_gelu_0(in_out_ptr0, in_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x2 = xindex
    x0 = xindex % 768
    tmp0 = tl.load(in_out_ptr0 + (x2), xmask)
    tmp1 = tl.load(in_ptr0 + (x0), xmask, eviction_policy='evict_last')
    tmp2 = tmp0 + tmp1
    tmp3 = 0.5
    tmp4 = tmp2 * tmp3
    tmp5 = 0.7071067811865476
    tmp6 = tmp2 * tmp5
    tmp7 = libdevice.erf(tmp6)
    tmp8 = 1.0
    tmp9 = tmp7 + tmp8
    tmp10 = tmp4 * tmp9
    tl.store(in_out_ptr0 + (x2), tmp10, xmask)
