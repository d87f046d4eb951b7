"""Weight-only int8 matrix multiplication (W8A16) with per-output-channel scales.

C[m, n] = (sum_k A[m, k] * W[k, n]) * scale[n] (+ bias[n]), W int8, A fp16.

Shapes and dtypes
    A: [M, K] fp16 (stride_am, stride_ak); W: [K, N] int8 (stride_wk, stride_wn);
    scale: [N] fp32; bias: [N] fp32 (HAS_BIAS); C: [M, N] fp16 (stride_cm, stride_cn).
    W tiles are converted to fp16 (exact for int8) for the fp16 tl.dot with an fp32
    accumulator; the scale is applied once after the K loop.

Style imitated
    Weight-only-quantized GEMM kernels of LLM inference libraries: a 2-D grid
    (tl.program_id(0), tl.program_id(1)); the int8 tile upcast with `.to(tl.float16)`
    right before tl.dot; the dequantization scale folded into the epilogue; a
    HAS_BIAS constexpr; masks on the K tail with `other=0`.

Launch
    grid = (cdiv(M, BLOCK_M), cdiv(N, BLOCK_N))
"""
import triton
import triton.language as tl


@triton.jit
def w8a16_matmul_kernel(a_ptr, w_ptr, scale_ptr, bias_ptr, c_ptr, M, N, K,
                        stride_am, stride_ak, stride_wk, stride_wn, stride_cm, stride_cn,
                        HAS_BIAS: tl.constexpr,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak
    w_ptrs = w_ptr + rk[:, None] * stride_wk + rn[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(rk[:, None] < k_left) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, w.to(tl.float16), acc)
        a_ptrs += BLOCK_K * stride_ak
        w_ptrs += BLOCK_K * stride_wk
    scale = tl.load(scale_ptr + rn, mask=rn < N, other=0.0)
    acc = acc * scale[None, :]
    if HAS_BIAS:
        acc += tl.load(bias_ptr + rn, mask=rn < N, other=0.0)[None, :]
    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(tl.float16), mask=(rm[:, None] < M) & (rn[None, :] < N))
