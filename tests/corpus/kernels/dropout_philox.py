"""Seeded dropout (the random mask regenerated from (seed, offset), never stored).

out[i] = x[i] / (1 - p) where tl.rand(seed, i) > p, else 0; and a row-wise variant whose
offsets are row * row_stride + col (so a row's mask does not depend on the block size).

Shapes and dtypes
    x, out: [n] fp32 (1-D kernel) or [n_rows, n_cols] fp32 (row kernel); p fp32; seed int32.

Style imitated
    The "low-memory dropout" tutorial of upstream Triton: offsets built from
    tl.program_id * BLOCK_SIZE + tl.arange, `random = tl.rand(seed, offsets)`,
    `x_keep = random > p`, `tl.where(x_keep, x / (1 - p), 0.0)`; the row kernel in the
    style of fused dropout + residual kernels that key the Philox counter on the element's
    flat index.

Launch
    _seeded_dropout: grid = (cdiv(n, BLOCK_SIZE),); _row_dropout: grid = (n_rows,)
"""
import triton
import triton.language as tl


@triton.jit
def _seeded_dropout(x_ptr, output_ptr, n_elements, p, seed, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    random = tl.rand(seed, offsets)
    x_keep = random > p
    output = tl.where(x_keep, x / (1 - p), 0.0)
    tl.store(output_ptr + offsets, output, mask=mask)


@triton.jit
def _row_dropout(x_ptr, out_ptr, n_cols, row_stride, p, seed, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    for c0 in range(0, n_cols, BLOCK_SIZE):
        cols = c0 + tl.arange(0, BLOCK_SIZE)
        inb = cols < n_cols
        offs = row * row_stride + cols
        x = tl.load(x_ptr + offs, mask=inb, other=0.0)
        keep = tl.rand(seed, offs) > p
        tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=inb)
