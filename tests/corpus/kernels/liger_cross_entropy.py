"""Cross-entropy loss with online softmax; the gradient overwrites the logits in place.

For each row i (one token) with target y_i != ignore_index, over V classes:
    lse_i  = log(sum_j exp(x_ij))                        (online: running max m, sum d)
    loss_i = (1 - ls) (lse_i - x_iy) + ls (lse_i - mean_j x_ij) [+ z * lse_i^2]
    grad_ij = softmax_ij - ls / V - (1 - ls) [j == y_i]       [+ 2 z lse_i softmax_ij]
(ls = label smoothing, z = z-loss scale); with reduction="mean" both are divided by the
number of non-ignored rows. Rows whose target is ignore_index get loss 0, lse 0 and an
all-zero gradient.

Shapes and dtypes
    X: [n_rows, V] fp32 logits (overwritten by the gradient), row stride X_stride;
    Y: [n_rows] int64 targets; loss, lse: [n_rows] fp32.

Style imitated
    Liger-Kernel's cross-entropy: the target loaded first and an early `return` for an
    ignored row after zeroing it; running max / sum initialised from float("-inf") and
    0.0 as loop-carried scalars over BLOCK_SIZE chunks (masked loads with other=-inf,
    tl.max / tl.sum without an axis); a second loop writing the gradient into X;
    tl.debug_barrier() before re-reading X[y]; the smoothing factor and the reduction
    as constexprs (a float and a string).

Launch
    grid = (n_rows,)
"""
import triton
import triton.language as tl


@triton.jit
def _zero_row(row_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        tl.store(row_ptr + cols, 0.0, mask=cols < n_cols)


@triton.jit
def cross_entropy_fwd_bwd_kernel(
    X_ptr, X_stride,
    Y_ptr, Y_stride,
    loss_ptr, lse_ptr,
    n_cols, n_non_ignore, ignore_index,
    z_loss_scale,
    label_smoothing: tl.constexpr,
    reduction: tl.constexpr,
    HAS_Z_LOSS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    target = tl.load(Y_ptr + row * Y_stride)
    X_ptr += row * X_stride
    if target == ignore_index:
        _zero_row(X_ptr, n_cols, BLOCK_SIZE)
        tl.store(loss_ptr + row, 0.0)
        tl.store(lse_ptr + row, 0.0)
        return

    smooth = label_smoothing / n_cols
    x_target = tl.load(X_ptr + target).cast(tl.float32)
    run_max = float("-inf")
    run_sum = 0.0
    neg_smoothed_sum = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X_ptr + cols, mask=cols < n_cols, other=float("-inf")).cast(tl.float32)
        if label_smoothing > 0:
            neg_smoothed_sum += tl.sum(tl.where(cols < n_cols, -smooth * x, 0.0))
        new_max = tl.maximum(run_max, tl.max(x))
        run_sum = run_sum * tl.exp(run_max - new_max) + tl.sum(tl.exp(x - new_max))
        run_max = new_max
    lse = run_max + tl.log(run_sum)

    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X_ptr + cols, mask=cols < n_cols, other=float("-inf")).cast(tl.float32)
        p = tl.exp(x - run_max) / run_sum
        g = p - smooth
        if HAS_Z_LOSS:
            g += 2 * z_loss_scale * lse * p
        if reduction == "mean":
            g = g / n_non_ignore
        tl.store(X_ptr + cols, g, mask=cols < n_cols)

    tl.debug_barrier()

    loss = lse - x_target
    if label_smoothing > 0:
        loss = loss * (1 - label_smoothing) + (neg_smoothed_sum + label_smoothing * lse)
    if HAS_Z_LOSS:
        loss += z_loss_scale * lse * lse
    hot = -(1 - label_smoothing)
    if reduction == "mean":
        loss = loss / n_non_ignore
        hot = hot / n_non_ignore
    tl.store(X_ptr + target, tl.load(X_ptr + target) + hot)
    tl.store(loss_ptr + row, loss)
    tl.store(lse_ptr + row, lse)
