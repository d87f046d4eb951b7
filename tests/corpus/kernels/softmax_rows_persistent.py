"""Row softmax (or log-softmax) with a persistent program loop over rows.

y[r, :] = softmax(x[r, :]) or log_softmax(x[r, :]), one BLOCK_SIZE >= n_cols tile per row.

Shapes and dtypes
    x: [n_rows, n_cols] fp16 with input_row_stride; y: same shape, fp16, output_row_stride.
    Computed in fp32.

Style imitated
    The "fused softmax" tutorial of upstream Triton: a grid smaller than the number of
    rows, each program stepping `for row_idx in tl.range(row_start, n_rows, row_step,
    num_stages=num_stages)` with row_step = tl.num_programs(0); masked loads with
    other=-float('inf'); row - tl.max(row, axis=0), tl.exp, tl.sum; a LOG constexpr
    selecting the log-softmax epilogue.

Launch
    grid = (num_programs,) with num_programs <= n_rows.
"""
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr, LOG: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row = tl.load(input_ptr + row_idx * input_row_stride + col_offsets, mask=mask,
                      other=-float('inf')).to(tl.float32)
        shifted = row - tl.max(row, axis=0)
        numerator = tl.exp(shifted)
        denominator = tl.sum(numerator, axis=0)
        if LOG:
            result = shifted - tl.log(denominator)
        else:
            result = numerator / denominator
        tl.store(output_ptr + row_idx * output_row_stride + col_offsets, result.to(tl.float16), mask=mask)
