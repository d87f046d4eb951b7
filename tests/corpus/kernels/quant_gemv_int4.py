"""Weight-only int4 GEMV (decode-time matrix-vector product) with per-group scales.

y[n] = sum_k x[k] * s[n, k // GROUP] * (q[n, k] - 8), q in [0, 15] (symmetric int4, zero 8).

Shapes and dtypes
    x: [K] fp16; w: [N, K // 2] uint8, two weights per byte (k even in the low nibble,
    k odd in the high one); s: [N, K // GROUP] fp16; y: [N] fp16. K is a multiple of
    GROUP and GROUP of 2 (any K, N otherwise; both edges masked).

Style imitated
    int4 GEMV kernels of inference engines: one program per BLOCK_N output rows; each
    packed byte loaded once per nibble with `offs_k // 2` and the nibble picked with
    `(b >> ((offs_k % 2) * 4)) & 0xF`; the group scale gathered with `offs_k // GROUP`;
    fp32 partial products accumulated lane-wise over the K loop and reduced with tl.sum
    at the end; masks on both N and K tails.

Launch
    grid = (cdiv(N, BLOCK_N),)
"""
import triton
import triton.language as tl


@triton.jit
def int4_gemv_kernel(x_ptr, w_ptr, s_ptr, y_ptr, N, K,
                     GROUP: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    offs_n = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    mask_n = offs_n < N
    n_groups = K // GROUP
    acc = tl.zeros((BLOCK_N, BLOCK_K), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        mask_k = offs_k < K
        mask = mask_n[:, None] & mask_k[None, :]
        x = tl.load(x_ptr + offs_k, mask=mask_k, other=0.0).to(tl.float32)
        packed = tl.load(w_ptr + offs_n[:, None] * (K // 2) + (offs_k // 2)[None, :], mask=mask, other=0)
        shift = ((offs_k % 2) * 4).to(tl.uint8)
        q = (packed >> shift[None, :]) & 0xF
        scale = tl.load(s_ptr + offs_n[:, None] * n_groups + (offs_k // GROUP)[None, :], mask=mask, other=0.0)
        w = (q.to(tl.int32) - 8).to(tl.float32) * scale.to(tl.float32)
        acc += w * x[None, :]
    y = tl.sum(acc, axis=1)
    tl.store(y_ptr + offs_n, y.to(tl.float16), mask=mask_n)
