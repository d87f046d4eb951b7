"""An fp32 matmul with ``tl.dot(..., input_precision="ieee")`` (kernels/tools/hash_upstream.py).

C[M, N] = A[M, K] @ B[K, N], fp32 operands and accumulator, all row-major and contiguous;
one program per BLOCK_M x BLOCK_N tile of C, K walked in BLOCK_K steps with masks on every
ragged edge. With input_precision="ieee" each element of C is, on upstream Triton and on
tritium alike, a sequential fma chain over k ascending (docs: ARCHITECTURE.md, "tl.dot
precision"), so the two compilers' outputs can be compared bit for bit.

Launch: grid = (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)); BLOCK_* powers of two >= 16.
"""

import triton
import triton.language as tl


@triton.jit
def ieee_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * K + ks[None, :], mask=(rm[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * N + rn[None, :], mask=(ks[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
