"""Fused attention forward (FlashAttention-2 schedule) written with block pointers.

Computes, per (batch z, head h) and query row i,
    O[z, h, i, :] = sum_j softmax_j(sm_scale * Q[z,h,i,:] . K[z,h,j,:]) V[z,h,j,:]
over all keys j < N_CTX (STAGE=1) or the keys j <= i (STAGE=3, causal), and
    M[z*H + h, i] = log2(sum_j exp2(sm_scale * log2(e) * q_i . k_j))
(the log-sum-exp in log2 units, as the tutorial stores it for its backward pass).

Shapes and dtypes
    Q, K, V, Out: [Z, H, N_CTX, HEAD_DIM] fp16 with strides (z, h, seq, dim) each;
    M: [Z*H, N_CTX] fp32 contiguous; sm_scale fp32. N_CTX need not be a multiple of
    the block sizes: loads use boundary_check with zero padding and the keys past
    N_CTX are masked with a large negative score.

Style imitated
    The "fused attention" tutorial of upstream Triton 3.x: tl.make_block_ptr for Q,
    K (transposed view through order=(0, 1)), V and Out; tl.advance in the key loop;
    a helper _attn_fwd_inner called once or twice according to the STAGE bits
    (off-band blocks without a mask, the diagonal block with one); scores scaled by
    sm_scale * 1/ln(2) so the softmax uses tl.math.exp2; P cast to fp16 for the PV dot.

Launch
    grid = (cdiv(N_CTX, BLOCK_M), Z * H); BLOCK_M % BLOCK_N == 0.
"""
import triton
import triton.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q,
                    K_block_ptr, V_block_ptr,
                    start_m, qk_scale,
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,
                    STAGE: tl.constexpr, offs_m: tl.constexpr, offs_n: tl.constexpr,
                    N_CTX: tl.constexpr):
    # Key range of this stage: below the diagonal block, the diagonal block, or all keys.
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:
        lo, hi = 0, N_CTX
    K_block_ptr = tl.advance(K_block_ptr, (0, lo))
    V_block_ptr = tl.advance(V_block_ptr, (lo, 0))
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(K_block_ptr, boundary_check=(1,), padding_option="zero")
        qk = tl.dot(q, k)
        if STAGE == 2:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            keep = (start_n + offs_n[None, :]) < N_CTX
            qk = qk * qk_scale + tl.where(keep, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk = qk - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V_block_ptr, boundary_check=(0,), padding_option="zero")
        p = p.to(tl.float16)
        acc = tl.dot(p, v, acc)
        m_i = m_ij
        V_block_ptr = tl.advance(V_block_ptr, (BLOCK_N, 0))
        K_block_ptr = tl.advance(K_block_ptr, (0, BLOCK_N))
    return acc, l_i, m_i


@triton.jit
def _attn_fwd(Q, K, V, sm_scale, M, Out,
              stride_qz, stride_qh, stride_qm, stride_qk,
              stride_kz, stride_kh, stride_kn, stride_kk,
              stride_vz, stride_vh, stride_vk, stride_vn,
              stride_oz, stride_oh, stride_om, stride_on,
              Z, H, N_CTX,
              HEAD_DIM: tl.constexpr,
              BLOCK_M: tl.constexpr,
              BLOCK_N: tl.constexpr,
              STAGE: tl.constexpr):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    # The tutorial shares one offset between Q, K, V and Out (same layout); this variant
    # lets each operand have its own (e.g. K, V in [Z, N_CTX, H, HEAD_DIM]).
    q_offset = off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_offset = off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    v_offset = off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    o_offset = off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh

    Q_block_ptr = tl.make_block_ptr(base=Q + q_offset, shape=(N_CTX, HEAD_DIM),
                                    strides=(stride_qm, stride_qk), offsets=(start_m * BLOCK_M, 0),
                                    block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    V_block_ptr = tl.make_block_ptr(base=V + v_offset, shape=(N_CTX, HEAD_DIM),
                                    strides=(stride_vk, stride_vn), offsets=(0, 0),
                                    block_shape=(BLOCK_N, HEAD_DIM), order=(1, 0))
    K_block_ptr = tl.make_block_ptr(base=K + k_offset, shape=(HEAD_DIM, N_CTX),
                                    strides=(stride_kk, stride_kn), offsets=(0, 0),
                                    block_shape=(HEAD_DIM, BLOCK_N), order=(0, 1))
    O_block_ptr = tl.make_block_ptr(base=Out + o_offset, shape=(N_CTX, HEAD_DIM),
                                    strides=(stride_om, stride_on), offsets=(start_m * BLOCK_M, 0),
                                    block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale
    qk_scale *= 1.44269504  # 1/ln(2)
    q = tl.load(Q_block_ptr, boundary_check=(0,), padding_option="zero")
    # STAGE 1: non-causal (all keys, tail masked); STAGE 3: causal (off-band, then diagonal).
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr,
                                        start_m, qk_scale,
                                        BLOCK_M, HEAD_DIM, BLOCK_N,
                                        4 - STAGE, offs_m, offs_n, N_CTX)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr,
                                        start_m, qk_scale,
                                        BLOCK_M, HEAD_DIM, BLOCK_N,
                                        2, offs_m, offs_n, N_CTX)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    m_ptrs = M + off_hz * N_CTX + offs_m
    tl.store(m_ptrs, m_i, mask=offs_m < N_CTX)
    tl.store(O_block_ptr, acc.to(Out.type.element_ty), boundary_check=(0,))
