"""Split-KV decode attention (flash-decoding) with grouped-query heads and ragged lengths.

One new query token per sequence b attends to the first seq_lens[b] cached keys:
    o[b, h] = softmax_j(sm_scale * q[b, h] . k[b, h // G, j]) v[b, h // G, j]
with G = Hq / Hkv query heads per key/value head. Stage 1 splits the keys of each
(b, kv head) into NUM_SPLITS ranges and writes, per split and query head, the partial
output normalised by its own sum plus its log-sum-exp; stage 2 merges the splits
(splits with no keys carry lse = -inf and are skipped).

Shapes and dtypes
    q: [B, Hq, D] fp16; k_cache, v_cache: [B, Hkv, L_max, D] fp16 (any strides);
    seq_lens: [B] int32 (1 <= seq_lens[b] <= L_max); mid_o: [B, Hq, NUM_SPLITS, D] fp32;
    mid_lse: [B, Hq, NUM_SPLITS] fp32; o: [B, Hq, D] fp16.

Style imitated
    The Triton decode-attention kernels of SGLang / vLLM (_fwd_grouped_kernel_stage1,
    _fwd_kernel_stage2): grid (batch, kv head, split); the group's query heads padded to
    BLOCK_H = 16 rows so that tl.dot applies; the split range from
    tl.cdiv(seq_len, NUM_SPLITS); online softmax with tl.exp inside the split; the merge
    loop over splits with a running max and `tl.exp(old - new)` rescales.

Launch
    stage 1: grid = (B, Hkv, NUM_SPLITS); stage 2: grid = (B, Hq)
"""
import triton
import triton.language as tl


@triton.jit
def _decode_grouped_stage1(Q, K_cache, V_cache, seq_lens, sm_scale, Mid_O, Mid_lse,
                           stride_qb, stride_qh,
                           stride_kb, stride_kh, stride_kl,
                           stride_vb, stride_vh, stride_vl,
                           stride_mob, stride_moh, stride_mos,
                           Hq, kv_group_num: tl.constexpr,
                           HEAD_DIM: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_N: tl.constexpr,
                           NUM_SPLITS: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_kv_head = tl.program_id(1)
    split_id = tl.program_id(2)

    heads = cur_kv_head * kv_group_num + tl.arange(0, BLOCK_H)
    mask_h = (tl.arange(0, BLOCK_H) < kv_group_num) & (heads < Hq)
    offs_d = tl.arange(0, HEAD_DIM)
    seq_len = tl.load(seq_lens + cur_batch)

    q = tl.load(Q + cur_batch * stride_qb + heads[:, None] * stride_qh + offs_d[None, :],
                mask=mask_h[:, None], other=0.0)

    per_split = tl.cdiv(seq_len, NUM_SPLITS)
    split_start = per_split * split_id
    split_end = tl.minimum(split_start + per_split, seq_len)

    e_max = tl.full([BLOCK_H], -float("inf"), tl.float32)
    e_sum = tl.zeros([BLOCK_H], dtype=tl.float32)
    acc = tl.zeros([BLOCK_H, HEAD_DIM], dtype=tl.float32)
    if split_end > split_start:
        for start_n in range(split_start, split_end, BLOCK_N):
            offs_n = start_n + tl.arange(0, BLOCK_N)
            mask_n = offs_n < split_end
            k = tl.load(K_cache + cur_batch * stride_kb + cur_kv_head * stride_kh
                        + offs_n[None, :] * stride_kl + offs_d[:, None],
                        mask=mask_n[None, :], other=0.0)
            qk = tl.dot(q, k) * sm_scale
            qk = tl.where(mask_h[:, None] & mask_n[None, :], qk, -float("inf"))
            v = tl.load(V_cache + cur_batch * stride_vb + cur_kv_head * stride_vh
                        + offs_n[:, None] * stride_vl + offs_d[None, :],
                        mask=mask_n[:, None], other=0.0)
            n_e_max = tl.maximum(tl.max(qk, 1), e_max)
            # padded head rows stay at -inf: keep their rescale finite
            safe_max = tl.where(n_e_max == -float("inf"), 0.0, n_e_max)
            re_scale = tl.exp(e_max - safe_max)
            p = tl.exp(qk - safe_max[:, None])
            acc *= re_scale[:, None]
            acc += tl.dot(p.to(v.dtype), v)
            e_sum = e_sum * re_scale + tl.sum(p, 1)
            e_max = n_e_max
        # Mid_lse is Mid_O without its last (HEAD_DIM) dimension: its offsets are Mid_O's
        # offsets of the same (batch, head, split) divided by HEAD_DIM (Mid_O contiguous).
        mid = cur_batch * stride_mob + heads[:, None] * stride_moh + split_id * stride_mos + offs_d[None, :]
        tl.store(Mid_O + mid, acc / e_sum[:, None], mask=mask_h[:, None])
        tl.store(Mid_lse + (cur_batch * stride_mob + heads * stride_moh) // HEAD_DIM + split_id,
                 e_max + tl.log(e_sum), mask=mask_h)
    else:
        tl.store(Mid_lse + (cur_batch * stride_mob + heads * stride_moh) // HEAD_DIM + split_id,
                 tl.full([BLOCK_H], -float("inf"), tl.float32), mask=mask_h)


@triton.jit
def _decode_stage2(Mid_O, Mid_lse, O, seq_lens,
                   stride_mob, stride_moh, stride_mos, stride_ob, stride_oh,
                   HEAD_DIM: tl.constexpr, NUM_SPLITS: tl.constexpr):
    cur_batch = tl.program_id(0)
    cur_head = tl.program_id(1)
    offs_d = tl.arange(0, HEAD_DIM)
    seq_len = tl.load(seq_lens + cur_batch)
    per_split = tl.cdiv(seq_len, NUM_SPLITS)

    e_sum = 0.0
    e_max = -float("inf")
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    row = cur_batch * stride_mob + cur_head * stride_moh
    for split_id in range(0, NUM_SPLITS):
        if per_split * split_id < seq_len:
            tv = tl.load(Mid_O + row + split_id * stride_mos + offs_d)
            tlogic = tl.load(Mid_lse + row // HEAD_DIM + split_id)
            n_e_max = tl.maximum(tlogic, e_max)
            old_scale = tl.exp(e_max - n_e_max)
            acc *= old_scale
            exp_logic = tl.exp(tlogic - n_e_max)
            acc += exp_logic * tv
            e_sum = e_sum * old_scale + exp_logic
            e_max = n_e_max
    tl.store(O + cur_batch * stride_ob + cur_head * stride_oh + offs_d, (acc / e_sum).to(tl.float16))
