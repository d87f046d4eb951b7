"""Fused residual add + RMSNorm forward (the pre-norm block of a decoder layer).

Per row r: S = X + R (the new residual stream, stored), rstd = 1 / sqrt(mean(S^2) + eps),
Y = S * rstd * W.

Shapes and dtypes
    X, R, S_out, Y: [n_rows, n_cols] fp16 with one shared row stride; W: [n_cols] fp16;
    RSTD: [n_rows] fp32. The sum S is rounded to fp16 (as stored) before the
    normalization, matching what an unfused add followed by RMSNorm computes.

Style imitated
    Liger-Kernel's fused_add_rms_norm: rsqrt via `tl.math.rsqrt` (the spelling of
    older Liger releases), the residual written back in the input dtype, the
    statistics in fp32, a column loop over BLOCK_SIZE chunks when n_cols exceeds
    one block (two passes over the row).

Launch
    grid = (n_rows,)
"""
import triton
import triton.language as tl


@triton.jit
def _fused_add_rms_norm_kernel(Y_ptr, S_ptr, X_ptr, R_ptr, W_ptr, RSTD_ptr,
                               row_stride, n_cols, eps,
                               BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    X_ptr += row * row_stride
    R_ptr += row * row_stride
    S_ptr += row * row_stride
    Y_ptr += row * row_stride

    sum_sq = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(X_ptr + cols, mask=mask, other=0.0)
        r = tl.load(R_ptr + cols, mask=mask, other=0.0)
        s = x + r
        tl.store(S_ptr + cols, s, mask=mask)
        s32 = s.to(tl.float32)
        sum_sq += s32 * s32
    rstd = tl.math.rsqrt(tl.sum(sum_sq, axis=0) / n_cols + eps)
    tl.store(RSTD_ptr + row, rstd)

    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        s = tl.load(S_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(W_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(Y_ptr + cols, (s * rstd * w).to(tl.float16), mask=mask)
