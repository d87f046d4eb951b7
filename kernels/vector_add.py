"""Element-wise vector addition: out = x + y.

Shapes and dtypes
    x, y, out: 1-D contiguous arrays of ``n_elements`` elements, one dtype
    (fp16, bf16, fp32, fp64 or any integer type). The sum is computed in that
    dtype (Triton's usual promotion of two equal types).

Launch
    grid = (cdiv(n_elements, BLOCK_SIZE),); each program handles one
    BLOCK_SIZE-long slice, the last one masked. BLOCK_SIZE is a power of two.

Source
    The "vector addition" example of the Triton tutorials (Tillet et al.,
    "Triton: an intermediate language and compiler for tiled neural network
    computations", MAPL 2019).

Reference
    ``ref_vector_add`` in kernels/ref/reference.h.
"""

import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)
