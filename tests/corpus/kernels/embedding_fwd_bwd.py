"""Embedding lookup forward and backward.

Forward:  out[t, :] = weight[ids[t], :] * scale  (scale = 1, or sqrt(D) as Gemma does),
          and zeros for tokens equal to padding_idx.
Backward: dweight[ids[t], :] += dout[t, :] for every non-padding token (fp32 atomics;
          repeated ids accumulate).

Shapes and dtypes
    ids: [n_tokens] int64; weight: [V, D] fp32 (row stride = D); out, dout: [n_tokens, D]
    fp32; dweight: [V, D] fp32, zero before the backward.

Style imitated
    Liger-Kernel's embedding kernels: a 2-D grid over (token blocks, dim blocks),
    token ids loaded as a BLOCK_SIZE_M vector and expanded with [:, None] to gather
    weight rows, masks on both edges, a padding index handled with tl.where; the
    backward as tl.atomic_add into the weight gradient.

Launch
    grid = (cdiv(n_tokens, BLOCK_SIZE_M), cdiv(D, BLOCK_SIZE_N))
"""
import triton
import triton.language as tl


@triton.jit
def _tile_offsets(n_tokens, D, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_n = tl.program_id(1) * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    return offs_m, offs_n, offs_m < n_tokens, offs_n < D


@triton.jit
def embedding_forward_kernel(ids_ptr, weight_ptr, out_ptr, n_tokens, D, scale, padding_idx,
                             BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    offs_m, offs_n, mask_m, mask_n = _tile_offsets(n_tokens, D, BLOCK_SIZE_M, BLOCK_SIZE_N)
    ids = tl.load(ids_ptr + offs_m, mask=mask_m, other=0)
    rows = tl.load(weight_ptr + ids[:, None] * D + offs_n[None, :],
                   mask=mask_m[:, None] & mask_n[None, :], other=0.0)
    rows = tl.where((ids == padding_idx)[:, None], 0.0, rows * scale)
    tl.store(out_ptr + offs_m[:, None] * D + offs_n[None, :], rows, mask=mask_m[:, None] & mask_n[None, :])


@triton.jit
def embedding_backward_kernel(ids_ptr, dout_ptr, dweight_ptr, n_tokens, D, padding_idx,
                              BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    offs_m, offs_n, mask_m, mask_n = _tile_offsets(n_tokens, D, BLOCK_SIZE_M, BLOCK_SIZE_N)
    ids = tl.load(ids_ptr + offs_m, mask=mask_m, other=padding_idx)
    g = tl.load(dout_ptr + offs_m[:, None] * D + offs_n[None, :], mask=mask_m[:, None] & mask_n[None, :], other=0.0)
    live = mask_m[:, None] & mask_n[None, :] & (ids != padding_idx)[:, None]
    tl.atomic_add(dweight_ptr + ids[:, None] * D + offs_n[None, :], g, mask=live)
