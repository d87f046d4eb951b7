"""LayerNorm forward in the style of Liger-Kernel's layer_norm.

Per row r of X: mean = sum_c X / n, var = sum_c (X - mean)^2 / n (biased),
rstd = rsqrt(var + eps), Y = (X - mean) * rstd * W + B; Mean[r] and RSTD[r] stored.

Shapes and dtypes
    X, Y: [n_rows, n_cols] fp32 or fp16 (Y has X's dtype), row strides in elements;
    W, B: [n_cols] fp32; Mean, RSTD: [n_rows] fp32; eps fp32.
    Statistics are computed in fp32.

Style imitated
    Liger-Kernel's layer norm: rsqrt imported straight from
    triton.language.extra.cuda.libdevice; one row per program with a masked
    BLOCK_SIZE >= n_cols; the centred row zeroed outside the mask with tl.where
    before the variance; per-row pointers built with `+ row_idx * stride`.

Launch
    grid = (n_rows,)
"""
import triton
import triton.language as tl
from triton.language.extra.cuda.libdevice import rsqrt


@triton.jit
def _layer_norm_forward_kernel(
    Y_ptr, Y_row_stride,
    X_ptr, X_row_stride,
    W_ptr, W_row_stride,
    B_ptr, B_row_stride,
    Mean_ptr, Mean_row_stride,
    RSTD_ptr, RSTD_row_stride,
    n_cols, eps,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    Y_ptr = Y_ptr + row_idx * Y_row_stride
    X_ptr = X_ptr + row_idx * X_row_stride
    Mean_ptr = Mean_ptr + row_idx * Mean_row_stride
    RSTD_ptr = RSTD_ptr + row_idx * RSTD_row_stride

    X_row = tl.load(X_ptr + col_offsets, mask=mask, other=0.0).to(tl.float32)
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0.0)
    B_row = tl.load(B_ptr + col_offsets, mask=mask, other=0.0)

    mean = tl.sum(X_row, axis=0) / n_cols
    Xmm = tl.where(mask, X_row - mean, 0.0)
    var = tl.sum(Xmm * Xmm, axis=0) / n_cols
    rstd = rsqrt(var + eps)

    tl.store(Mean_ptr, mean)
    tl.store(RSTD_ptr, rstd)

    Y_row = Xmm * rstd * W_row + B_row
    tl.store(Y_ptr + col_offsets, Y_row.to(Y_ptr.dtype.element_ty), mask=mask)
