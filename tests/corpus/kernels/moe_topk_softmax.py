"""MoE router: softmax over the experts of each token, then its top-k experts and weights.

For each token t: p = softmax(logits[t, :E]); for k < TOPK the k-th largest probability
(ties: the lowest expert id) goes to weights[t, k] and its expert to ids[t, k]; with
RENORMALIZE the TOPK weights are divided by their sum (Mixtral / Qwen-MoE routing).

Shapes and dtypes
    logits: [T, E] fp32 (row stride E); weights: [T, TOPK] fp32; ids: [T, TOPK] int32.
    E <= BLOCK_E (a power of two; the padding columns masked).

Style imitated
    Triton MoE routing kernels: a [BLOCK_T, BLOCK_E] tile of tokens, masked loads with
    other=-float('inf'), a row softmax, then a tl.static_range(TOPK) loop of tl.argmax /
    tl.max per row with the chosen column knocked out by tl.where, and a second
    static loop re-reading the stored weights to renormalise.

Launch
    grid = (cdiv(T, BLOCK_T),)
"""
import triton
import triton.language as tl


@triton.jit
def topk_softmax_kernel(logits_ptr, weights_ptr, ids_ptr, T,
                        E: tl.constexpr, BLOCK_E: tl.constexpr, TOPK: tl.constexpr,
                        RENORMALIZE: tl.constexpr, BLOCK_T: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_T + tl.arange(0, BLOCK_T)
    cols = tl.arange(0, BLOCK_E)
    row_ok = rows < T
    mask = row_ok[:, None] & (cols[None, :] < E)
    x = tl.load(logits_ptr + rows[:, None] * E + cols[None, :], mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=1)[:, None]
    p = tl.exp(x)
    p = p / tl.sum(p, axis=1)[:, None]
    total = tl.zeros([BLOCK_T], dtype=tl.float32)
    for k in tl.static_range(TOPK):
        best = tl.argmax(p, axis=1, tie_break_left=True)
        w = tl.max(p, axis=1)
        tl.store(weights_ptr + rows * TOPK + k, w, mask=row_ok)
        tl.store(ids_ptr + rows * TOPK + k, best.to(tl.int32), mask=row_ok)
        p = tl.where(cols[None, :] == best[:, None], -1.0, p)
        total += w
    if RENORMALIZE:
        for k in tl.static_range(TOPK):
            w = tl.load(weights_ptr + rows * TOPK + k, mask=row_ok, other=0.0)
            tl.store(weights_ptr + rows * TOPK + k, w / total, mask=row_ok)
