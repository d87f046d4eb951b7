"""GPTQ-style int4 matrix multiplication: A @ dequant(qweight), dequantized in the K loop.

W[k, n] = (q[k, n] - z[k // GROUP, n]) * s[k // GROUP, n], with q, z in [0, 15];
C = A @ W.

Shapes and dtypes
    A: [M, K] fp16 row-major; qweight: [K // 8, N] int32, eight 4-bit weights per word
    along K (k % 8 at bits 4 * (k % 8)); scales: [K // GROUP, N] fp16;
    qzeros: [K // GROUP, N // 8] int32, eight 4-bit zeros per word along N;
    C: [M, N] fp16. K % GROUP == 0, GROUP % BLOCK_K == 0 or BLOCK_K % GROUP == 0,
    N % 8 == 0; M arbitrary.

Style imitated
    The Triton int4 kernels of the GPTQ / AutoGPTQ lineage: shifts computed as
    `(offs_k % 8) * 4` and `(offs_n % 8) * 4`, words unpacked with `(w >> shift) & 0xF`
    (arithmetic shift of a signed int32, then masked), zeros and scales gathered per
    group with `offs_k // GROUP`, the dequantized tile cast to fp16 and fed to tl.dot;
    each word loaded once per nibble it holds (no tl.interleave).

Launch
    grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)
"""
import triton
import triton.language as tl


@triton.jit
def gptq_int4_matmul_kernel(a_ptr, qw_ptr, s_ptr, qz_ptr, c_ptr, M, N, K,
                            GROUP: tl.constexpr,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_m = offs_m < M
    mask_n = offs_n < N
    zero_shift = (offs_n % 8) * 4

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + offs_m[:, None] * K + offs_k[None, :],
                    mask=mask_m[:, None] & (offs_k[None, :] < K), other=0.0)
        words = tl.load(qw_ptr + (offs_k // 8)[:, None] * N + offs_n[None, :],
                        mask=(offs_k[:, None] < K) & mask_n[None, :], other=0)
        q = (words >> ((offs_k % 8) * 4)[:, None]) & 0xF
        g = offs_k // GROUP
        scales = tl.load(s_ptr + g[:, None] * N + offs_n[None, :],
                         mask=(offs_k[:, None] < K) & mask_n[None, :], other=0.0)
        zwords = tl.load(qz_ptr + g[:, None] * (N // 8) + (offs_n // 8)[None, :],
                         mask=(offs_k[:, None] < K) & mask_n[None, :], other=0)
        z = (zwords >> zero_shift[None, :]) & 0xF
        w = (q - z).to(tl.float16) * scales
        acc += tl.dot(a, w)
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc.to(tl.float16),
             mask=mask_m[:, None] & mask_n[None, :])
