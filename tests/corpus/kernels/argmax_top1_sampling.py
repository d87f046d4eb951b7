"""Greedy decoding: the top-1 token (first index of the largest logit) per row, with the
winning logit, over a vocabulary streamed in BLOCK_V chunks.

Shapes and dtypes
    logits: [n_rows, V] fp32 (row stride = V); token: [n_rows] int64; best: [n_rows] fp32.
    Ties go to the lowest token id (torch.argmax's convention).

Style imitated
    Sampling kernels of LLM serving stacks: tl.max(x, axis=0, return_indices=True,
    return_indices_tie_break_left=True) per chunk, a running (value, index) pair
    merged across chunks with a strict `>` so an earlier chunk keeps ties, masked loads
    with other=-float("inf"), and a one-chunk shortcut through tl.argmax when V fits
    (ONE_CHUNK).

Launch
    grid = (n_rows,)
"""
import triton
import triton.language as tl


@triton.jit
def greedy_top1_kernel(logits_ptr, token_ptr, best_ptr, V, BLOCK_V: tl.constexpr, ONE_CHUNK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * V
    offs = tl.arange(0, BLOCK_V)
    if ONE_CHUNK:
        x = tl.load(base + offs, mask=offs < V, other=-float("inf"))
        best_idx = tl.argmax(x, axis=0, tie_break_left=True)
        best_val = tl.max(x, axis=0)
    else:
        best_val = -float("inf")
        best_idx = 0
        for start in range(0, V, BLOCK_V):
            x = tl.load(base + start + offs, mask=start + offs < V, other=-float("inf"))
            val, idx = tl.max(x, axis=0, return_indices=True, return_indices_tie_break_left=True)
            better = val > best_val
            best_idx = tl.where(better, start + idx, best_idx)
            best_val = tl.where(better, val, best_val)
    tl.store(token_ptr + row, best_idx.to(tl.int64))
    tl.store(best_ptr + row, best_val)
