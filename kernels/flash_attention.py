"""FlashAttention forward: Out = softmax(sm_scale * Q K^T [+ causal mask]) V, plus LSE.

Shapes and dtypes
    Q, K, V, Out: [Z, H, N_CTX, HEAD_DIM] (batch, heads, sequence, head dim), each
        with its own four strides in elements (z, h, sequence, head-dim). Q, K, V
        share one dtype (fp16, bf16 or fp32); Out is expected to have Q's dtype
        (the fp32 accumulator is rounded to Out's element type).
    M: [Z * H, N_CTX], contiguous, fp32: the log-sum-exp of each query row's
        scaled scores, in NATURAL-log units:
            M[z*H + h, i] = log(sum_j exp(sm_scale * q_i . k_j))  over the keys j
        the row attends to (all j, or j <= i when IS_CAUSAL). (Triton's tutorial
        kernel stores this in log2 units; this one converts back to natural log
        so it equals PyTorch's / FlashAttention-2's softmax_lse.)
    sm_scale: fp32 scalar, usually 1 / sqrt(HEAD_DIM).

Algorithm
    One program per (BLOCK_M query rows, one (z, h) pair). The query block stays
    in registers; key/value blocks of BLOCK_N rows stream through. Online softmax
    per query row: running maximum m_i and running sum l_i of exp(s - m_i), with
    the output accumulator rescaled by exp(m_old - m_new) when the maximum grows,
    and divided by l_i once at the end. Scores are pre-multiplied by
    sm_scale * log2(e) so every exponential is an exp2.
    Non-causal: the full key blocks run without masks, then the ragged tail
    block (N_CTX % BLOCK_N keys) runs with a key-index mask.
    Causal: the key blocks strictly left of the query block's diagonal run
    without masks; only the BLOCK_M / BLOCK_N blocks on the diagonal apply
    key_index <= query_index. Blocks right of the diagonal are never visited.
    Masked scores are -inf; every processed row sees at least one unmasked key
    in its first block, so no -inf - (-inf) arises.
    Rows past N_CTX (last query block) load zeros and are not stored.

Launch
    grid = (cdiv(N_CTX, BLOCK_M), Z * H)
    HEAD_DIM in {16, 32, 64, 128, 256} (a power of two, >= 16); 64 and 128 are the
    tuned cases. BLOCK_M, BLOCK_N powers of two >= 16, BLOCK_M % BLOCK_N == 0
    (e.g. 128/64 on NVIDIA for fp16, 64/32 for fp32 or HEAD_DIM=128 on small
    shared memories).

Source
    T. Dao, D. Y. Fu, S. Ermon, A. Rudra and C. Re, "FlashAttention: Fast and
    Memory-Efficient Exact Attention with IO-Awareness", NeurIPS 2022;
    T. Dao, "FlashAttention-2: Faster Attention with Better Parallelism and Work
    Partitioning", arXiv:2307.08691, 2023 (loop order, deferred normalization);
    online softmax: Milakov & Gimelshein, arXiv:1805.02867, 2018.

Reference
    ``ref_attention`` in kernels/ref/reference.h (its lse output is M here).
"""

import triton
import triton.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base,
                    stride_kn, stride_kk, stride_vn, stride_vk,
                    lo, hi, offs_m, offs_n, offs_d, N_CTX, qk_scale,
                    MASK_KEYS: tl.constexpr, CAUSAL_MASK: tl.constexpr,
                    BLOCK_N: tl.constexpr):
    # Process key blocks [lo, hi) for one query block; returns (acc, l_i, m_i).
    # MASK_KEYS: mask keys >= N_CTX (ragged tail). CAUSAL_MASK: mask keys > query.
    for start_n in range(lo, hi, BLOCK_N):
        n = start_n + offs_n
        k_ptrs = k_base + offs_d[:, None] * stride_kk + n[None, :] * stride_kn   # K^T block
        v_ptrs = v_base + n[:, None] * stride_vn + offs_d[None, :] * stride_vk
        if MASK_KEYS:
            k = tl.load(k_ptrs, mask=n[None, :] < N_CTX, other=0.0)
        else:
            k = tl.load(k_ptrs)
        qk = tl.dot(q, k) * qk_scale          # [BLOCK_M, BLOCK_N], log2 units
        if CAUSAL_MASK:
            keep = (offs_m[:, None] >= n[None, :]) & (n[None, :] < N_CTX)
            qk = tl.where(keep, qk, -float("inf"))
        elif MASK_KEYS:
            qk = tl.where(n[None, :] < N_CTX, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        if MASK_KEYS:
            v = tl.load(v_ptrs, mask=n[:, None] < N_CTX, other=0.0)
        else:
            v = tl.load(v_ptrs)
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def attn_fwd_kernel(Q, K, V, sm_scale, M, Out,
                    stride_qz, stride_qh, stride_qm, stride_qk,
                    stride_kz, stride_kh, stride_kn, stride_kk,
                    stride_vz, stride_vh, stride_vn, stride_vk,
                    stride_oz, stride_oh, stride_om, stride_ok,
                    Z, H, N_CTX,
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                    IS_CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = (off_hz // H).to(tl.int64)
    off_h = (off_hz % H).to(tl.int64)
    q_base = Q + off_z * stride_qz + off_h * stride_qh
    k_base = K + off_z * stride_kz + off_h * stride_kh
    v_base = V + off_z * stride_vz + off_h * stride_vh
    o_base = Out + off_z * stride_oz + off_h * stride_oh

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    row_mask = offs_m < N_CTX

    q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qk,
                mask=row_mask[:, None], other=0.0)

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634   # log2(e)

    if IS_CAUSAL:
        # Key blocks fully below the diagonal: no mask (all keys < start_m*BLOCK_M < N_CTX).
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base,
                                        stride_kn, stride_kk, stride_vn, stride_vk,
                                        0, start_m * BLOCK_M, offs_m, offs_n, offs_d,
                                        N_CTX, qk_scale, False, False, BLOCK_N)
        # Key blocks on the diagonal: causal mask (and key < N_CTX at the sequence end).
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base,
                                        stride_kn, stride_kk, stride_vn, stride_vk,
                                        start_m * BLOCK_M, (start_m + 1) * BLOCK_M,
                                        offs_m, offs_n, offs_d,
                                        N_CTX, qk_scale, True, True, BLOCK_N)
    else:
        n_full = (N_CTX // BLOCK_N) * BLOCK_N
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base,
                                        stride_kn, stride_kk, stride_vn, stride_vk,
                                        0, n_full, offs_m, offs_n, offs_d,
                                        N_CTX, qk_scale, False, False, BLOCK_N)
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, k_base, v_base,
                                        stride_kn, stride_kk, stride_vn, stride_vk,
                                        n_full, N_CTX, offs_m, offs_n, offs_d,
                                        N_CTX, qk_scale, True, False, BLOCK_N)

    acc = acc / l_i[:, None]
    lse = m_i * 0.6931471805599453 + tl.log(l_i)   # ln(2) * log2-max + ln(sum)
    tl.store(M + off_hz.to(tl.int64) * N_CTX + offs_m, lse, mask=row_mask)
    tl.store(o_base + offs_m[:, None] * stride_om + offs_d[None, :] * stride_ok,
             acc.to(Out.dtype.element_ty), mask=row_mask[:, None])
