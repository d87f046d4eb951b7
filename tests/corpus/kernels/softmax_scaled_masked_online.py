"""Scaled, masked softmax over long rows with an online (single-read) max / sum pass.

For each row r: s = x * scale, s = -10000 where mask[r, c] != 0 (Megatron's convention),
y = softmax(s). Pass 1 streams the row in BLOCK chunks keeping a running max m and
running sum d (rescaled by exp(m_old - m_new)); pass 2 writes exp(s - m) / d.

Shapes and dtypes
    x: [n_rows, n_cols] fp16; mask: [n_rows, n_cols] int8 (1 = masked out);
    y: [n_rows, n_cols] fp16; scale fp32. All rows contiguous.

Style imitated
    Megatron-LM's scaled_masked_softmax semantics written the way online-softmax Triton
    kernels are: loop-carried vector accumulators m_i / l_i of BLOCK lanes merged with
    tl.max / tl.sum only once at the end, `tl.where(mask != 0, -10000.0, s)`, int8 mask
    loads, and an explicit two-pass structure for rows longer than a block.

Launch
    grid = (n_rows,)
"""
import triton
import triton.language as tl


@triton.jit
def _scores(x_row, m_row, offs, inb, scale):
    # x * scale, with Megatron's -10000 where the mask is set
    s = tl.load(x_row + offs, mask=inb, other=0.0).to(tl.float32) * scale
    drop = tl.load(m_row + offs, mask=inb, other=0)
    return tl.where(drop != 0, -10000.0, s)


@triton.jit
def scaled_masked_softmax_kernel(x_ptr, mask_ptr, y_ptr, n_cols, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * n_cols
    m_row = mask_ptr + row * n_cols
    y_row = y_ptr + row * n_cols
    cols = tl.arange(0, BLOCK)
    m_i = tl.full([BLOCK], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + cols
        inb = offs < n_cols
        s = tl.where(inb, _scores(x_row, m_row, offs, inb, scale), -float("inf"))
        m_new = tl.maximum(m_i, s)
        # lanes that have seen nothing yet keep m = -inf: guard the rescale
        alpha = tl.where(m_new == -float("inf"), 0.0, tl.exp(m_i - m_new))
        p = tl.where(m_new == -float("inf"), 0.0, tl.exp(s - m_new))
        l_i = l_i * alpha + p
        m_i = m_new
    m = tl.max(m_i, axis=0)
    d = tl.sum(tl.where(m_i == -float("inf"), 0.0, l_i * tl.exp(m_i - m)), axis=0)
    for start in range(0, n_cols, BLOCK):
        offs = start + cols
        inb = offs < n_cols
        s = _scores(x_row, m_row, offs, inb, scale)
        tl.store(y_row + offs, (tl.exp(s - m) / d).to(tl.float16), mask=inb)
