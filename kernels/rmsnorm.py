"""RMSNorm forward: y[r, c] = x[r, c] * rsqrt(mean_c(x[r, :]^2) + eps) * w[c].

Shapes and dtypes
    x: [n_rows, n_cols], rows ``x_row_stride`` elements apart, columns contiguous.
    w: [n_cols], contiguous.
    y: [n_rows, n_cols], rows ``y_row_stride`` elements apart, columns contiguous.
    x, w, y may be fp16, bf16 or fp32 (independently); the math is fp32 and the
    result is rounded to y's dtype. eps is an fp32 scalar (e.g. 1e-6).

Algorithm
    One program per row. The row is walked in BLOCK_SIZE-wide chunks twice: the
    first loop accumulates x^2 lane-wise in fp32 (then one tree sum), the second
    scales and writes. Any n_cols works; BLOCK_SIZE >= n_cols makes each loop a
    single iteration.

Launch
    grid = (n_rows,). BLOCK_SIZE is a power of two.

Source
    B. Zhang and R. Sennrich, "Root Mean Square Layer Normalization",
    NeurIPS 2019.

Reference
    ``ref_rmsnorm`` in kernels/ref/reference.h.
"""

import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, x_row_stride, y_row_stride, n_cols, eps,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * x_row_stride
    y_row = y_ptr + row * y_row_stride
    cols = tl.arange(0, BLOCK_SIZE)

    # Pass 1: sum of squares.
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = start + cols
        x = tl.load(x_row + offs, mask=offs < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    mean_sq = tl.sum(acc, axis=0) / n_cols
    rstd = tl.rsqrt(mean_sq + eps)

    # Pass 2: normalize, scale, store.
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        y = x * rstd * w
        tl.store(y_row + offs, y.to(y_ptr.dtype.element_ty), mask=mask)
