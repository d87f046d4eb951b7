"""Fused attention backward (FlashAttention-2 style): dQ, dK, dV from dO, with the forward's
log-sum-exp instead of the attention matrix.

With S = sm_scale Q K^T (causal: keys j <= i), P = softmax(S) row-wise, O = P V:
    Delta_i = sum_d O[i, d] dO[i, d]                      (preprocess kernel)
    dV = P^T dO,  dP = dO V^T,  dS = P * (dP - Delta[:, None])
    dK = sm_scale dS^T Q,  dQ = sm_scale dS K
P is recomputed blockwise as exp2(S log2(e) - M) from M, the forward's log-sum-exp in
log2 units. dK / dV: one program per key block walks the query blocks (causal: from the
diagonal on); dQ: one program per query block walks the key blocks (causal: up to the
diagonal).

Shapes and dtypes
    Q, K, V, O, dO, dQ, dK, dV: [Z, H, N_CTX, HEAD_DIM] fp16 contiguous (one stride set);
    M, Delta: [Z * H, N_CTX] fp32. N_CTX a multiple of every block size.

Style imitated
    The "fused attention" tutorial of upstream Triton, backward half: `_attn_bwd_preprocess`
    for Delta; pointers to a transposed Q tile (`qT_ptrs`) and tl.trans for the others;
    `pT = tl.math.exp2(qkT - m[None, :])`; `dv += tl.dot(ppT, do)`;
    `dsT = pT * (dpT - Di[None, :])`; the causal mask `offs_m[None, :] >= offs_n[:, None]`;
    tl.static_assert on the block sizes; pointers advanced by step * stride_tok.

Launch
    preprocess: grid = (N_CTX // PRE_BLOCK, Z * H); dkdv: (N_CTX // BLOCK_N1, Z * H);
    dq: (N_CTX // BLOCK_M2, Z * H).
"""
import triton
import triton.language as tl


@triton.jit
def _attn_bwd_preprocess(O, DO, Delta, N_CTX, HEAD_DIM: tl.constexpr, PRE_BLOCK: tl.constexpr):
    off_m = tl.program_id(0) * PRE_BLOCK + tl.arange(0, PRE_BLOCK)
    off_hz = tl.program_id(1)
    off_n = tl.arange(0, HEAD_DIM)
    base = off_hz * HEAD_DIM * N_CTX + off_m[:, None] * HEAD_DIM + off_n[None, :]
    o = tl.load(O + base)
    do = tl.load(DO + base).to(tl.float32)
    delta = tl.sum(o * do, axis=1)
    tl.store(Delta + off_hz * N_CTX + off_m, delta)


@triton.jit
def _tile(ptr, rows, offs_k, stride_tok, stride_d):
    # the [len(rows), HEAD_DIM] tile of rows `rows` of a (token, dim) matrix
    return ptr + rows[:, None] * stride_tok + offs_k[None, :] * stride_d


@triton.jit
def _attn_bwd_dkdv(Q, K, V, sm_scale, DO, DK, DV, M, D, stride_tok, stride_d, N_CTX,
                   BLOCK_M1: tl.constexpr, BLOCK_N1: tl.constexpr, HEAD_DIM: tl.constexpr,
                   CAUSAL: tl.constexpr):
    tl.static_assert(BLOCK_N1 % BLOCK_M1 == 0)
    LOG2E: tl.constexpr = 1.4426950408889634
    pid = tl.program_id(0)
    bhid = tl.program_id(1)
    adj = (bhid * N_CTX * HEAD_DIM).to(tl.int64)
    Q, K, V, DO, DK, DV = Q + adj, K + adj, V + adj, DO + adj, DK + adj, DV + adj
    M += bhid * N_CTX
    D += bhid * N_CTX

    start_n = pid * BLOCK_N1
    offs_n = start_n + tl.arange(0, BLOCK_N1)
    offs_k = tl.arange(0, HEAD_DIM)
    k = tl.load(_tile(K, offs_n, offs_k, stride_tok, stride_d))
    v = tl.load(_tile(V, offs_n, offs_k, stride_tok, stride_d))
    dk = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N1, HEAD_DIM], dtype=tl.float32)

    start_m = start_n if CAUSAL else 0
    offs_m = start_m + tl.arange(0, BLOCK_M1)
    qT_ptrs = Q + offs_m[None, :] * stride_tok + offs_k[:, None] * stride_d
    do_ptrs = _tile(DO, offs_m, offs_k, stride_tok, stride_d)
    step_m = BLOCK_M1
    num_steps = (N_CTX - start_m) // BLOCK_M1
    curr_m = start_m
    for blk in range(num_steps):
        qT = tl.load(qT_ptrs)
        offs_m = curr_m + tl.arange(0, BLOCK_M1)
        m = tl.load(M + offs_m)
        qkT = tl.dot(k, qT) * (sm_scale * LOG2E)
        pT = tl.math.exp2(qkT - m[None, :])
        if CAUSAL:
            mask = offs_m[None, :] >= offs_n[:, None]
            pT = tl.where(mask, pT, 0.0)
        do = tl.load(do_ptrs)
        ppT = pT.to(tl.float16)
        dv += tl.dot(ppT, do)
        Di = tl.load(D + offs_m)
        dpT = tl.dot(v, tl.trans(do)).to(tl.float32)
        dsT = pT * (dpT - Di[None, :])
        dsT = dsT.to(tl.float16)
        dk += tl.dot(dsT, tl.trans(qT))
        curr_m += step_m
        qT_ptrs += step_m * stride_tok
        do_ptrs += step_m * stride_tok

    dk *= sm_scale
    tl.store(_tile(DV, offs_n, offs_k, stride_tok, stride_d), dv.to(tl.float16))
    tl.store(_tile(DK, offs_n, offs_k, stride_tok, stride_d), dk.to(tl.float16))


@triton.jit
def _attn_bwd_dq(Q, K, V, sm_scale, DO, DQ, M, D, stride_tok, stride_d, N_CTX,
                 BLOCK_M2: tl.constexpr, BLOCK_N2: tl.constexpr, HEAD_DIM: tl.constexpr,
                 CAUSAL: tl.constexpr):
    tl.static_assert(BLOCK_M2 % BLOCK_N2 == 0)
    LOG2E: tl.constexpr = 1.4426950408889634
    pid = tl.program_id(0)
    bhid = tl.program_id(1)
    adj = (bhid * N_CTX * HEAD_DIM).to(tl.int64)
    Q, K, V, DO, DQ = Q + adj, K + adj, V + adj, DO + adj, DQ + adj
    M += bhid * N_CTX
    D += bhid * N_CTX

    start_m = pid * BLOCK_M2
    offs_m = start_m + tl.arange(0, BLOCK_M2)
    offs_k = tl.arange(0, HEAD_DIM)
    q = tl.load(_tile(Q, offs_m, offs_k, stride_tok, stride_d))
    do = tl.load(_tile(DO, offs_m, offs_k, stride_tok, stride_d))
    m = tl.load(M + offs_m)[:, None]
    Di = tl.load(D + offs_m)
    dq = tl.zeros([BLOCK_M2, HEAD_DIM], dtype=tl.float32)

    end_n = start_m + BLOCK_M2 if CAUSAL else N_CTX
    offs_n = tl.arange(0, BLOCK_N2)
    kT_ptrs = K + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    vT_ptrs = V + offs_n[None, :] * stride_tok + offs_k[:, None] * stride_d
    curr_n = 0
    for blk in range(end_n // BLOCK_N2):
        kT = tl.load(kT_ptrs)
        vT = tl.load(vT_ptrs)
        qk = tl.dot(q, kT) * (sm_scale * LOG2E)
        p = tl.math.exp2(qk - m)
        if CAUSAL:
            offs_n_cur = curr_n + offs_n
            p = tl.where(offs_m[:, None] >= offs_n_cur[None, :], p, 0.0)
        dp = tl.dot(do, vT).to(tl.float32)
        ds = p * (dp - Di[:, None])
        ds = ds.to(tl.float16)
        dq += tl.dot(ds, tl.trans(kT))
        curr_n += BLOCK_N2
        kT_ptrs += BLOCK_N2 * stride_tok
        vT_ptrs += BLOCK_N2 * stride_tok
    dq *= sm_scale
    tl.store(_tile(DQ, offs_m, offs_k, stride_tok, stride_d), dq.to(tl.float16))
