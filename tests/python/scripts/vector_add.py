"""Vector addition, in the style of Triton's tutorial 01 (runs unchanged on Triton and tritium).

Check: an fp32 add is one correctly rounded operation, so the result equals the float64
sum rounded to fp32: atol 0, rtol 2^-24 (half an fp32 ulp of the result, relative).
"""

import triton
import triton.language as tl

import _arrays as xp


@triton.jit
def add_kernel(x_ptr,  # *Pointer* to first input vector.
               y_ptr,  # *Pointer* to second input vector.
               output_ptr,  # *Pointer* to output vector.
               n_elements,  # Size of the vector.
               BLOCK_SIZE: tl.constexpr,  # Number of elements each program should process.
               ):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x, y, output):
    n_elements = output.shape[0]
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


if __name__ == "__main__":
    size = 98432
    x = xp.randn(size)
    y = xp.randn(size)
    out = add(x, y, xp.empty(size))
    ref = xp.to_numpy(x) + xp.to_numpy(y)
    xp.check("out", out, ref, atol=0.0, rtol=2.0**-24)
    xp.finish()
