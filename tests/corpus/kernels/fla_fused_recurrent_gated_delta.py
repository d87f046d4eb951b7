"""Fused recurrent gated delta rule, forward (one token at a time).

Per (batch b, head h), state S in R^{K x V} starting from h0 (or 0), for each t:
    S = exp(g_t) S;  v_t' = beta_t (v_t - S^T k_t);  S = S + k_t v_t'^T;  o_t = S^T (scale q_t)
with optional L2 normalisation of q_t and k_t inside the kernel.

Shapes and dtypes
    q, k: [B, T, H, K]; v, o: [B, T, H, V]; g, beta: [B, T, H]; h0, ht: [B, H, K, V];
    q, k, v in fp16 (o fp16), g, beta, states fp32; fp32 arithmetic throughout.

Style imitated
    flash-linear-attention's fused_recurrent kernels: grid (V blocks, K blocks = 1,
    B * H); pointers p_q / p_k / p_v / p_o advanced by H * K / H * V per step;
    USE_INITIAL_STATE / STORE_FINAL_STATE / USE_QK_L2NORM_IN_KERNEL constexpr flags;
    the state update with broadcasts b_k[:, None] * b_v[None, :] and the readout as
    tl.sum(b_h * b_q[:, None], 0); scale applied to q.

Launch
    grid = (cdiv(V, BV), 1, B * H); BK >= K.
"""
import triton
import triton.language as tl


@triton.jit
def fused_recurrent_gated_delta_rule_fwd_kernel(
    q, k, v, g, beta, o, h0, ht,
    scale,
    T,
    H: tl.constexpr, K: tl.constexpr, V: tl.constexpr,
    BK: tl.constexpr, BV: tl.constexpr,
    USE_INITIAL_STATE: tl.constexpr,
    STORE_FINAL_STATE: tl.constexpr,
    USE_QK_L2NORM_IN_KERNEL: tl.constexpr,
):
    i_v, i_k, i_nh = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    i_n, i_h = i_nh // H, i_nh % H
    bos = i_n * T

    o_k = i_k * BK + tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    p_q = q + (bos * H + i_h) * K + o_k
    p_k = k + (bos * H + i_h) * K + o_k
    p_v = v + (bos * H + i_h) * V + o_v
    p_g = g + bos * H + i_h
    p_beta = beta + bos * H + i_h
    p_o = o + (bos * H + i_h) * V + o_v

    mask_k = o_k < K
    mask_v = o_v < V
    mask_h = mask_k[:, None] & mask_v[None, :]

    b_h = tl.zeros([BK, BV], dtype=tl.float32)
    if USE_INITIAL_STATE:
        p_h0 = h0 + i_nh * K * V + o_k[:, None] * V + o_v[None, :]
        b_h += tl.load(p_h0, mask=mask_h, other=0).to(tl.float32)

    for _ in range(0, T):
        b_q = tl.load(p_q, mask=mask_k, other=0).to(tl.float32)
        b_k = tl.load(p_k, mask=mask_k, other=0).to(tl.float32)
        b_v = tl.load(p_v, mask=mask_v, other=0).to(tl.float32)
        b_g = tl.load(p_g).to(tl.float32)
        b_beta = tl.load(p_beta).to(tl.float32)
        if USE_QK_L2NORM_IN_KERNEL:
            b_q = b_q / (tl.sqrt(tl.sum(b_q * b_q)) + 1e-6)
            b_k = b_k / (tl.sqrt(tl.sum(b_k * b_k)) + 1e-6)
        b_q = b_q * scale
        b_h *= tl.exp(b_g)
        b_v -= tl.sum(b_h * b_k[:, None], 0)
        b_v *= b_beta
        b_h += b_k[:, None] * b_v[None, :]
        b_o = tl.sum(b_h * b_q[:, None], 0)
        tl.store(p_o, b_o.to(p_o.dtype.element_ty), mask=mask_v)

        p_q += H * K
        p_k += H * K
        p_v += H * V
        p_o += H * V
        p_g += H
        p_beta += H

    if STORE_FINAL_STATE:
        p_ht = ht + i_nh * K * V + o_k[:, None] * V + o_v[None, :]
        tl.store(p_ht, b_h.to(p_ht.dtype.element_ty), mask=mask_h)
