"""Split-K matrix multiplication with a deterministic second-pass reduction.

Computes C = A @ B where K is long compared with M and N: the K range is cut into
SPLIT_K slices, each program multiplies one (tile, slice) pair into an fp32 workspace,
and a second kernel sums the SPLIT_K partial tiles in slice order and rounds to fp16
(no floating-point atomics, so the result does not depend on program order).

Shapes and dtypes
    A: [M, K] fp16, B: [K, N] fp16, both row-major; workspace: [SPLIT_K, M, N] fp32;
    C: [M, N] fp16 row-major.

Style imitated
    Split-K GEMM kernels as written for skinny decode-time matmuls (a 3-D grid with
    tl.program_id(2) as the K slice, the slice's K range computed from a constexpr
    SPLIT_K, masks on every edge), followed by a small reduction kernel in the style
    of the vector-add tutorial.

Launch
    splitk_matmul_kernel: grid = (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N), SPLIT_K)
    splitk_reduce_kernel: grid = (cdiv(M * N, BLOCK),)
"""
import triton
import triton.language as tl


@triton.jit
def splitk_matmul_kernel(a_ptr, b_ptr, ws_ptr, M, N, K, K_PER_SPLIT,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                         SPLIT_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_begin = pid_k * K_PER_SPLIT
    k_end = tl.minimum(k_begin + K_PER_SPLIT, K)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for k0 in range(k_begin, k_end, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :],
                    mask=(rm[:, None] < M) & (rk[None, :] < k_end), other=0.)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :],
                    mask=(rk[:, None] < k_end) & (rn[None, :] < N), other=0.)
        acc += tl.dot(a, b)
    ws = ws_ptr + pid_k * M * N + rm[:, None] * N + rn[None, :]
    tl.store(ws, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def splitk_reduce_kernel(ws_ptr, c_ptr, MN, SPLIT_K: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < MN
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for s in tl.static_range(SPLIT_K):
        total += tl.load(ws_ptr + s * MN + offs, mask=mask, other=0.)
    tl.store(c_ptr + offs, total.to(tl.float16), mask=mask)
