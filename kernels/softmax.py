"""Row-wise softmax: y[r, :] = exp(x[r, :] - max(x[r, :])) / sum(exp(x[r, :] - max(x[r, :]))).

Shapes and dtypes
    x: [n_rows, n_cols], rows ``in_row_stride`` elements apart, columns contiguous.
    y: [n_rows, n_cols], rows ``out_row_stride`` elements apart, columns contiguous.
    x and y may be fp16, bf16 or fp32 (independently); x is converted to fp32,
    all arithmetic is done in fp32, and the result is rounded to y's dtype.

Kernels
    softmax_kernel          single pass, the whole row in one block: needs
                            BLOCK_SIZE >= n_cols (e.g. triton.next_power_of_2(n_cols)).
                            Masked lanes load -inf, so they add exp(-inf) = 0.
    softmax_online_kernel   any row length: a first loop over BLOCK_SIZE-wide column
                            blocks keeps a running maximum m and a running sum
                            l = sum(exp(x - m)), rescaling l by exp(m_old - m_new)
                            whenever the maximum grows; a second loop writes
                            exp(x - m) / l. Reads x twice, never holds the row.

Launch
    grid = (n_rows,); one program per row. BLOCK_SIZE is a power of two.

Source
    Online normalizer: M. Milakov and N. Gimelshein, "Online normalizer
    calculation for softmax", arXiv:1805.02867, 2018.

Reference
    ``ref_softmax`` in kernels/ref/reference.h.
"""

import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=-float("inf"))
    x = x.to(tl.float32)
    x_max = tl.max(x, axis=0)
    num = tl.exp(x - x_max)
    den = tl.sum(num, axis=0)
    y = num / den
    tl.store(out_ptr + row * out_row_stride + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def softmax_online_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                          BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    in_row = in_ptr + row * in_row_stride
    out_row = out_ptr + row * out_row_stride
    cols = tl.arange(0, BLOCK_SIZE)

    # First block outside the loop: it holds column 0, so its maximum is finite
    # for finite input and the running state starts without -inf arithmetic.
    mask = cols < n_cols
    x = tl.load(in_row + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    l = tl.sum(tl.exp(x - m), axis=0)

    # Pass 1: running maximum and rescaled running sum over the remaining blocks.
    for start in range(BLOCK_SIZE, n_cols, BLOCK_SIZE):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(in_row + offs, mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new

    # Pass 2: normalize and write.
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = start + cols
        mask = offs < n_cols
        x = tl.load(in_row + offs, mask=mask, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - m) / l
        tl.store(out_row + offs, y.to(out_ptr.dtype.element_ty), mask=mask)
