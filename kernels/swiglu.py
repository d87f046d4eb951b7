"""SwiGLU activation: out = silu(gate) * up, with silu(g) = g * sigmoid(g).

Shapes and dtypes
    swiglu_kernel        gate, up, out: flat contiguous arrays of n_elements.
    swiglu_rows_kernel   gate, up, out: [n_rows, n_cols], each with its own row
                         stride (elements), columns contiguous. A fused projection
                         output h = [n_rows, 2 * n_cols] is handled without a copy
                         by passing gate = h, up = h + n_cols, both strides 2 * n_cols.
    fp16, bf16 or fp32 (independently); the math is fp32 and the result is
    rounded to out's dtype.

Launch
    swiglu_kernel:      grid = (cdiv(n_elements, BLOCK_SIZE),)
    swiglu_rows_kernel: grid = (n_rows, cdiv(n_cols, BLOCK_SIZE))
    BLOCK_SIZE is a power of two.

Source
    N. Shazeer, "GLU Variants Improve Transformer", arXiv:2002.05202, 2020;
    SiLU/Swish: Ramachandran, Zoph and Le, arXiv:1710.05941, 2017.

Reference
    ``ref_swiglu`` in kernels/ref/reference.h.
"""

import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(gate_ptr, up_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    g = tl.load(gate_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(up_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    out = g * tl.sigmoid(g) * u
    tl.store(out_ptr + offsets, out.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def swiglu_rows_kernel(gate_ptr, up_ptr, out_ptr,
                       gate_row_stride, up_row_stride, out_row_stride, n_cols,
                       BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    cols = tl.program_id(axis=1) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    g = tl.load(gate_ptr + row * gate_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    u = tl.load(up_ptr + row * up_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    out = g * tl.sigmoid(g) * u
    tl.store(out_ptr + row * out_row_stride + cols, out.to(out_ptr.dtype.element_ty), mask=mask)
