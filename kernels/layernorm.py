"""LayerNorm forward with affine weight and bias, saving per-row statistics.

    mean[r] = sum_c x[r, c] / n_cols
    var[r]  = sum_c (x[r, c] - mean[r])^2 / n_cols          (biased variance)
    rstd[r] = 1 / sqrt(var[r] + eps)
    y[r, c] = (x[r, c] - mean[r]) * rstd[r] * w[c] + b[c]

Shapes and dtypes
    x: [n_rows, n_cols], rows ``x_row_stride`` elements apart, columns contiguous.
    w, b: [n_cols], contiguous.
    y: [n_rows, n_cols], rows ``y_row_stride`` elements apart, columns contiguous.
    mean, rstd: [n_rows], contiguous, fp32 (what a backward pass needs).
    x, w, b, y may be fp16, bf16 or fp32; the math is fp32 and y is rounded to
    its own dtype. eps is an fp32 scalar (e.g. 1e-5).

Algorithm
    One program per row, three loops over BLOCK_SIZE-wide chunks: the mean, then
    the variance as the mean of squared deviations (two-pass, which does not
    cancel catastrophically the way E[x^2] - E[x]^2 does), then the normalized
    output. Any n_cols works.

Launch
    grid = (n_rows,). BLOCK_SIZE is a power of two.

Source
    J. L. Ba, J. R. Kiros and G. E. Hinton, "Layer Normalization",
    arXiv:1607.06450, 2016. Structure after the layer-norm tutorial of Triton.

Reference
    ``ref_layernorm`` in kernels/ref/reference.h.
"""

import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr,
                     x_row_stride, y_row_stride, n_cols, eps,
                     BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * x_row_stride
    y_row = y_ptr + row * y_row_stride
    cols = tl.arange(0, BLOCK_SIZE)

    # Pass 1: mean.
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = start + cols
        x = tl.load(x_row + offs, mask=offs < n_cols, other=0.0).to(tl.float32)
        acc += x
    mean = tl.sum(acc, axis=0) / n_cols

    # Pass 2: variance of the deviations; masked lanes must not contribute -mean.
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        d = tl.where(mask, x - mean, 0.0)
        acc += d * d
    var = tl.sum(acc, axis=0) / n_cols
    rstd = 1.0 / tl.sqrt(var + eps)

    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)

    # Pass 3: normalize, apply the affine transform, store.
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_row + offs, y.to(y_ptr.dtype.element_ty), mask=mask)
