"""Tiled matrix multiplication: C = A @ B.

Shapes and dtypes
    A: [M, K] with strides (stride_am, stride_ak) in elements.
    B: [K, N] with strides (stride_bk, stride_bn).
    C: [M, N] with strides (stride_cm, stride_cn).
    A and B share one dtype: fp16, bf16 or fp32 (fp32 operands use tf32 where the
    target has it, as tl.dot does by default). The accumulator is fp32 and the
    result is rounded to C's element type (C may be fp16, bf16 or fp32).

Algorithm
    Each program computes one BLOCK_M x BLOCK_N tile of C, looping over K in
    BLOCK_K steps with tl.dot into an fp32 accumulator. Ragged edges in M, N and
    K are masked; masked-out operand elements load as 0, so they add nothing.
    Programs are numbered in groups of GROUP_SIZE_M tile-rows (column-major
    inside a group), so consecutive programs reuse the same B columns and A rows
    while they are still in L2.

Kernels
    matmul_kernel             A, B, C through pointers and strides, as above.
    matmul_descriptor_kernel  the same product through tensor descriptors
                              (tl.make_tensor_descriptor): row-major contiguous A, B
                              and C; every block bounds-checked (zero padding) by the
                              descriptor. On Hopper both upstream Triton and tritium
                              copy its operand blocks with the TMA unit.

Launch
    grid = (cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),)
    BLOCK_M, BLOCK_N, BLOCK_K: powers of two, each >= 16 (tl.dot's minimum).
    GROUP_SIZE_M >= 1 (8 is typical).

Source
    Tiling: the "matrix multiplication" tutorial of Triton (Tillet et al.,
    MAPL 2019); grouped ordering for L2 reuse as described there.

Reference
    ``ref_matmul`` in kernels/ref/reference.h (row-major contiguous operands).
"""

import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr):
    # Grouped program ordering.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    mask_m = offs_m[:, None] < M
    mask_n = offs_n[None, :] < N

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=mask_m & (offs_k[None, :] < k_remaining), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_remaining) & mask_n, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=mask_m & mask_n)


@triton.jit
def matmul_descriptor_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                             GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(c_desc.dtype))
