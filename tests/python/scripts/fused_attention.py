"""FlashAttention forward (online softmax, causal and not), in the style of Triton's
tutorial 06, written with plain pointers (runs unchanged on Triton and tritium).

Source: T. Dao, "FlashAttention-2", arXiv:2307.08691 (2023), Algorithm 1.
Shapes: q, k, v, o [Z, H, N_CTX, HEAD_DIM] fp16, contiguous; one program per
(BLOCK_M rows of one head). Check against float64 attention: fp16 operands are exact,
P is rounded to fp16 before P @ V (as the tutorial does) and o to fp16 at the end:
atol 2^-8, rtol 2^-8 (a few fp16 ulps of values of magnitude <= 1).
"""

import math

import numpy as np
import triton
import triton.language as tl

import _arrays as xp


@triton.jit
def _attn_fwd(Q, K, V, Out, sm_scale, N_CTX,  #
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * N_CTX * HEAD_DIM
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1/log(2)
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + base + cols[None, :] * HEAD_DIM + offs_d[:, None], mask=cols[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k)
        valid = cols[None, :] < N_CTX
        if CAUSAL:
            valid = valid & (offs_m[:, None] >= cols[None, :])
        qk = tl.where(valid, qk * qk_scale, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk = qk - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V + base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(Out.dtype.element_ty),
             mask=offs_m[:, None] < N_CTX)


def attention(q, k, v, o, Z, H, N_CTX, HEAD_DIM, causal, sm_scale):
    BLOCK_M, BLOCK_N = 64, 32
    grid = (triton.cdiv(N_CTX, BLOCK_M), Z * H, 1)
    _attn_fwd[grid](q, k, v, o, sm_scale, N_CTX, HEAD_DIM=HEAD_DIM, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                    CAUSAL=causal, num_warps=4, num_stages=2)
    return o


def reference(q, k, v, causal, sm_scale):
    s = np.einsum("zhmd,zhnd->zhmn", q, k) * sm_scale
    if causal:
        n = s.shape[-1]
        s = np.where(np.tril(np.ones((n, n), dtype=bool)), s, -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    return np.einsum("zhmn,zhnd->zhmd", p / p.sum(axis=-1, keepdims=True), v)


if __name__ == "__main__":
    Z, H, N_CTX, HEAD_DIM = 1, 2, 150, 64
    sm_scale = 1.0 / math.sqrt(HEAD_DIM)
    q, k, v = (xp.randn(Z, H, N_CTX, HEAD_DIM, dtype="float16") for _ in range(3))
    qn, kn, vn = xp.to_numpy(q), xp.to_numpy(k), xp.to_numpy(v)
    for causal in (False, True):
        o = attention(q, k, v, xp.empty(Z, H, N_CTX, HEAD_DIM, dtype="float16"), Z, H, N_CTX, HEAD_DIM, causal,
                      sm_scale)
        xp.check("o_causal" if causal else "o", o, reference(qn, kn, vn, causal, sm_scale), atol=2.0**-8,
                 rtol=2.0**-8)
    xp.finish()
