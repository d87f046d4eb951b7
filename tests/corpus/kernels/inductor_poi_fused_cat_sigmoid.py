"""Inductor-style pointwise kernel for torch.cat along the last dim, fused with a sigmoid.

out[r, j] = sigmoid(a[r, j])        for j < 64
          = b[r, j - 64] * 2.0       for 64 <= j < 96
with a: [R, 64] fp16 and b: [R, 32] fp16, out: [R, 96] fp32.

Style imitated
    Inductor's generated cat kernels: `x0 = xindex % 96`, `x1 = (xindex // 96)`, the
    branch index compared against tl.full([1], 0, tl.int64) / 64 bounds, each input
    loaded under its own mask `tmp4 & xmask` with other=0.0 and upcast with
    `.to(tl.float32)`, the shifted index `((-64) + x0)`, the arms combined with
    tl.where, sigmoid written as tl.sigmoid.

Launch
    grid = (cdiv(R * 96, XBLOCK),)
"""
import triton
import triton.language as tl


@triton.jit
def triton_poi_fused_cat_mul_sigmoid_0(in_ptr0, in_ptr1, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex % 96
    x1 = (xindex // 96)
    x2 = xindex
    tmp0 = x0
    tmp1 = tl.full([1], 0, tl.int64)
    tmp2 = tmp0 >= tmp1
    tmp3 = tl.full([1], 64, tl.int64)
    tmp4 = tmp0 < tmp3
    tmp5 = tl.load(in_ptr0 + ((64*x1) + x0), tmp4 & xmask, other=0.0).to(tl.float32)
    tmp6 = tl.sigmoid(tmp5)
    tmp7 = tl.full(tmp6.shape, 0.0, tmp6.dtype)
    tmp8 = tl.where(tmp4, tmp6, tmp7)
    tmp9 = tmp0 >= tmp3
    tmp10 = tl.full([1], 96, tl.int64)
    tmp11 = tmp0 < tmp10
    tmp12 = tl.load(in_ptr1 + ((32*x1) + ((-64) + x0)), tmp9 & xmask, other=0.0).to(tl.float32)
    tmp13 = 2.0
    tmp14 = tmp12 * tmp13
    tmp15 = tl.full(tmp14.shape, 0.0, tmp14.dtype)
    tmp16 = tl.where(tmp9, tmp14, tmp15)
    tmp17 = tl.where(tmp4, tmp8, tmp16)
    tl.store(out_ptr0 + (x2), tmp17, xmask)
