"""RMSNorm forward and backward in the style of Liger-Kernel's rms_norm.

Forward, per row r of X: rstd[r] = rsqrt(mean_c X[r, c]^2 + eps),
    Y[r, c] = X[r, c] * rstd[r] * (offset + W[c]).
Three casting modes (as Liger's "llama" / "gemma" / "none"):
    llama: X to fp32, normalize, cast the normalized row back to X's dtype, multiply by W
           in that dtype;
    gemma: X and W to fp32, everything in fp32, one cast of Y at the end (offset = 1.0
           is the Gemma convention);
    none:  no explicit casts (the dtype rules of the operands).
Backward (fp32 here), per row: with m = dY * (offset + W),
    dX = rstd * m - rstd^3 / n_cols * sum_c(m * X) * X,
    dW partial for the rows of one program: sum_r dY * X * rstd, written per program
    to a [num_programs, n_cols] fp32 buffer the caller sums.

Shapes and dtypes
    X, Y: [n_rows, n_cols] fp16 (forward) or fp32 (backward) with row strides; W: [n_cols];
    RSTD: [n_rows] fp32; eps, offset: fp32 scalars.

Style imitated
    Liger-Kernel: rsqrt from libdevice imported at module level under a version test
    with a try/except fallback between the two libdevice spellings; module-level
    tl.constexpr casting-mode constants; one program per row with BLOCK_SIZE =
    next_power_of_2(n_cols); pointers advanced with `+=` by the row stride; a
    rows-per-program backward accumulating dW in fp32.

Launch
    forward: grid = (n_rows,); backward: grid = (cdiv(n_rows, rows_per_program),).
"""

import triton
import triton.language as tl

if tuple(int(v) for v in triton.__version__.split(".")[:2]) >= (3, 0):
    try:
        from triton.language.extra.libdevice import rsqrt
    except ModuleNotFoundError:
        from triton.language.extra.cuda.libdevice import rsqrt
else:
    from triton.language.math import rsqrt

_CASTING_MODE_NONE: tl.constexpr = tl.constexpr(-1)
_CASTING_MODE_LLAMA: tl.constexpr = tl.constexpr(0)
_CASTING_MODE_GEMMA: tl.constexpr = tl.constexpr(1)


@triton.jit
def _rms_norm_forward_kernel(
    Y_ptr, Y_row_stride,
    X_ptr, X_row_stride,
    W_ptr, W_row_stride,
    RSTD_ptr, RSTD_row_stride,
    n_cols, eps, offset,
    casting_mode: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    in_row = cols < n_cols
    X_ptr += row * X_row_stride
    Y_ptr += row * Y_row_stride

    x = tl.load(X_ptr + cols, mask=in_row, other=0)
    in_dtype = x.dtype
    w = tl.load(W_ptr + cols, mask=in_row, other=0)
    if casting_mode == _CASTING_MODE_LLAMA:
        x = x.to(tl.float32)
    elif casting_mode == _CASTING_MODE_GEMMA:
        x = x.to(tl.float32)
        w = w.to(tl.float32)
    else:
        eps = eps.to(in_dtype)
        offset = offset.to(in_dtype)

    rstd = rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(RSTD_ptr + row * RSTD_row_stride, rstd)

    normed = x * rstd
    if casting_mode == _CASTING_MODE_LLAMA:
        normed = normed.to(in_dtype)         # Llama rounds before the weight
    y = normed * (offset + w)
    if casting_mode == _CASTING_MODE_GEMMA:
        y = y.to(in_dtype)
    tl.store(Y_ptr + cols, y, mask=in_row)


@triton.jit
def _rms_norm_backward_kernel(
    dY_ptr, dY_row_stride,
    dX_ptr, dX_row_stride,
    X_ptr, X_row_stride,
    W_ptr, W_row_stride,
    RSTD_ptr, RSTD_row_stride,
    dW_ptr, dW_row_stride,
    n_rows, n_cols, offset,
    rows_per_program,
    BLOCK_SIZE: tl.constexpr,
):
    block = tl.program_id(0).to(tl.int64)
    first = block * rows_per_program
    last = min(first + rows_per_program, n_rows)
    cols = tl.arange(0, BLOCK_SIZE)
    in_row = cols < n_cols

    w = tl.load(W_ptr + cols, mask=in_row, other=0.0) + offset
    dw_acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for r in range(first, last):
        dy = tl.load(dY_ptr + r * dY_row_stride + cols, mask=in_row, other=0.0)
        x = tl.load(X_ptr + r * X_row_stride + cols, mask=in_row, other=0.0).to(tl.float32)
        rstd = tl.load(RSTD_ptr + r * RSTD_row_stride)
        g = (dy * w).to(tl.float32)
        # d/dx of x * rstd(x): rstd * g - rstd^3 / n * <g, x> * x
        dx = rstd * g - (rstd * rstd * rstd / n_cols) * tl.sum(g * x, axis=0) * x
        dw_acc += dy * (x * rstd)
        tl.store(dX_ptr + r * dX_row_stride + cols, dx.to(X_ptr.dtype.element_ty), mask=in_row)
    tl.store(dW_ptr + block * dW_row_stride + cols, dw_acc, mask=in_row)
