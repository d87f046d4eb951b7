"""Rotary position embedding (RoPE) for q and k, half-split ("rotate_half") layout.

For each token (b, s), head h and pair index i < hd/2, with c = cos[s, i], n = sin[s, i]:
    forward:  x1' = x1 c - x2 n,  x2' = x2 c + x1 n
    backward: x1' = x1 c + x2 n,  x2' = x2 c - x1 n    (the inverse rotation)
where x1 = x[..., i] and x2 = x[..., i + hd/2]; applied in place to q (n_qh heads) and k
(n_kh heads; grouped-query attention has n_kh < n_qh).

Shapes and dtypes
    q: [bs, sl, n_qh, hd], k: [bs, sl, n_kh, hd] fp32, one row per token (row strides
    given); cos, sin: [cos_bs, sl, hd] fp32 where cos_bs is 1 (shared by the batch) or
    bs; only the first hd/2 entries of each row are read (HuggingFace tables repeat them).

Style imitated
    Liger-Kernel's RoPE: one program per token; the table row picked with tl.where on a
    constexpr batch size; [padded heads, padded hd / 2] tiles masked on both axes;
    a BACKWARD_PASS constexpr with a default; in-place stores.

Launch
    grid = (bs * sl,)
"""
import triton
import triton.language as tl


@triton.jit
def _rotate_pairs(base, n_heads: tl.constexpr, HEADS_P2: tl.constexpr, hd: tl.constexpr,
                  HALF_P2: tl.constexpr, c, s, BACKWARD_PASS: tl.constexpr):
    heads = tl.arange(0, HEADS_P2)
    pairs = tl.arange(0, HALF_P2)
    lo = heads[:, None] * hd + pairs[None, :]      # x1 positions; x2 sits hd // 2 further
    hi = lo + hd // 2
    ok = (heads[:, None] < n_heads) & (pairs[None, :] < hd // 2)
    x1 = tl.load(base + lo, mask=ok, other=0).to(c.dtype)
    x2 = tl.load(base + hi, mask=ok, other=0).to(c.dtype)
    if BACKWARD_PASS:
        s = -s
    tl.store(base + lo, x1 * c[None, :] - x2 * s[None, :], mask=ok)
    tl.store(base + hi, x2 * c[None, :] + x1 * s[None, :], mask=ok)


@triton.jit
def _rope_qk_kernel(
    q_ptr, q_row_stride,
    k_ptr, k_row_stride,
    cos, cos_row_stride,
    sin, sin_row_stride,
    sl,
    bs: tl.constexpr, cos_bs: tl.constexpr,
    n_qh: tl.constexpr, n_kh: tl.constexpr, hd: tl.constexpr,
    pad_n_qh: tl.constexpr, pad_n_kh: tl.constexpr, pad_hd: tl.constexpr,
    BACKWARD_PASS: tl.constexpr = False,
):
    token = tl.program_id(0).to(tl.int64)
    b = token // sl
    t = token % sl
    # Tables shared by the batch (cos_bs == 1) or one per sequence.
    table_row = tl.where(cos_bs == 1, t, b * sl + t)
    half = tl.arange(0, pad_hd // 2)
    c = tl.load(cos + table_row * cos_row_stride + half, mask=half < hd // 2, other=0)
    s = tl.load(sin + table_row * sin_row_stride + half, mask=half < hd // 2, other=0)
    _rotate_pairs(q_ptr + token * q_row_stride, n_qh, pad_n_qh, hd, pad_hd // 2, c, s, BACKWARD_PASS)
    _rotate_pairs(k_ptr + token * k_row_stride, n_kh, pad_n_kh, hd, pad_hd // 2, c, s, BACKWARD_PASS)
