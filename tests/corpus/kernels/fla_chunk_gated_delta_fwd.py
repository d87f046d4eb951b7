"""Chunked gated delta rule, forward (the recurrence of Gated DeltaNet, evaluated chunk by chunk).

Per (batch b, head h), with state S in R^{K x V} starting at 0, for t = 0 .. T-1:
    S'  = exp(g_t) S
    u_t = beta_t (v_t - S'^T k_t)
    S   = S' + k_t u_t^T
    o_t = scale * S^T q_t
Final state ht[b, h] = S.  Inside a chunk of BT tokens with cumulative gates G (log2 units),
    A  = strictly-lower( beta_i 2^(G_i - G_j) k_i . k_j ),   T = (I + A)^-1   (forward substitution)
    W  = T (beta 2^G k),   U = T (beta v),   Vn = U - W S0
    O  = scale ((2^G q) S0 + causal( q k^T 2^(G_i - G_j) ) Vn)
    S1 = 2^G_last S0 + (k 2^(G_last - G))^T Vn

Shapes and dtypes
    q, k: [B, T, H, K]; v, o: [B, T, H, V]; g (natural-log gates, <= 0), beta: [B, T, H];
    ht: [B, H, K, V]; all fp32. T need not be a multiple of BT, V not a multiple of BV.

Style imitated
    flash-linear-attention's chunked kernels: program ids (i_v, i_bh) split into
    (i_b, i_h); `b_`-prefixed block variables; tl.cumsum of the gates inside a chunk
    scaled by RCP_LN2 so that every decay is a tl.exp2; tl.dot for the chunk products
    with tl.trans; masks `m_t`, `m_k`, `m_v` on every ragged edge; a triangular
    solve by forward substitution written with tl.where row selection (as FLA's
    solve_tril); a loop over chunks carrying the state b_h in registers.

Launch
    grid = (cdiv(V, BV), B * H); BT >= 16, BK >= K (powers of two).
"""
import triton
import triton.language as tl

RCP_LN2: tl.constexpr = 1.4426950408889634


@triton.jit
def _solve_unit_lower(b_A, BT: tl.constexpr):
    # (I + A)^-1 for a strictly lower-triangular A: row i = e_i - A[i, :] @ T.
    o_i = tl.arange(0, BT)
    b_T = tl.where(o_i[:, None] == o_i[None, :], 1.0, 0.0)
    for i in range(1, BT):
        b_a = tl.sum(tl.where(o_i[:, None] == i, b_A, 0.0), 0)
        b_row = tl.where(o_i == i, 1.0, 0.0) - tl.sum(b_a[:, None] * b_T, 0)
        b_T = tl.where(o_i[:, None] == i, b_row[None, :], b_T)
    return b_T


@triton.jit
def chunk_gated_delta_rule_fwd_kernel(
    q, k, v, g, beta, o, ht,
    scale,
    T,
    H: tl.constexpr, K: tl.constexpr, V: tl.constexpr,
    BT: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr,
    STORE_FINAL_STATE: tl.constexpr,
):
    i_v, i_bh = tl.program_id(0), tl.program_id(1)
    i_b, i_h = i_bh // H, i_bh % H

    o_t = tl.arange(0, BT)
    o_k = tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    m_k = o_k < K
    m_v = o_v < V
    m_strict = o_t[:, None] > o_t[None, :]
    m_incl = o_t[:, None] >= o_t[None, :]

    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    NT = tl.cdiv(T, BT)
    for i_t in range(0, NT):
        t = i_t * BT + o_t
        m_t = t < T
        rows = (i_b * T + t).to(tl.int64) * H + i_h
        b_q = tl.load(q + rows[:, None] * K + o_k[None, :], mask=m_t[:, None] & m_k[None, :], other=0.)
        b_k = tl.load(k + rows[:, None] * K + o_k[None, :], mask=m_t[:, None] & m_k[None, :], other=0.)
        b_v = tl.load(v + rows[:, None] * V + o_v[None, :], mask=m_t[:, None] & m_v[None, :], other=0.)
        b_beta = tl.load(beta + rows, mask=m_t, other=0.)
        # padded tokens have g = 0, so G past the end equals G at the last real token
        b_g = tl.cumsum(tl.load(g + rows, mask=m_t, other=0.), axis=0) * RCP_LN2
        b_g_last = tl.sum(tl.where(o_t == BT - 1, b_g, 0.), axis=0)

        b_decay = tl.exp2(b_g[:, None] - b_g[None, :])
        b_A = tl.where(m_strict, b_beta[:, None] * tl.dot(b_k, tl.trans(b_k)) * b_decay, 0.)
        b_T = _solve_unit_lower(b_A, BT)

        b_w = tl.dot(b_T, b_k * (b_beta * tl.exp2(b_g))[:, None])
        b_u = tl.dot(b_T, b_v * b_beta[:, None])
        b_vn = b_u - tl.dot(b_w, b_h)

        b_qk = tl.where(m_incl, tl.dot(b_q, tl.trans(b_k)) * b_decay, 0.)
        b_o = tl.dot(b_q * tl.exp2(b_g)[:, None], b_h) + tl.dot(b_qk, b_vn)
        b_o = b_o * scale
        tl.store(o + rows[:, None] * V + o_v[None, :], b_o.to(o.dtype.element_ty), mask=m_t[:, None] & m_v[None, :])

        b_kd = b_k * tl.exp2(b_g_last - b_g)[:, None]
        b_h = b_h * tl.exp2(b_g_last) + tl.dot(tl.trans(b_kd), b_vn)

    if STORE_FINAL_STATE:
        p_ht = ht + i_bh.to(tl.int64) * K * V + o_k[:, None] * V + o_v[None, :]
        tl.store(p_ht, b_h, mask=m_k[:, None] & m_v[None, :])
