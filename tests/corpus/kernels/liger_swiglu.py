"""SwiGLU forward and backward in the style of Liger-Kernel's swiglu.

Forward: c = silu(a) * b with silu(a) = a * sigmoid(a).
Backward (in place, recomputing the forward): with s = sigmoid(a),
    db = dc * silu(a),   da = dc * b * (s + silu(a) * (1 - s)),
written over a and b.

Shapes and dtypes
    a, b, c, dc: [n_rows, n_cols] with one row stride (fp16 or fp32); the math is fp32
    (a is upcast), results cast back to the input dtype.

Style imitated
    Liger-Kernel: a small @triton.jit `silu` helper using tl.sigmoid; one row per
    program (tl.program_id(0).to(tl.int64) times the stride); the backward overwrites
    its inputs with the gradients (Liger reuses the activation buffers).

Launch
    grid = (n_rows,)
"""
import triton
import triton.language as tl


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def _swiglu_forward_kernel(a_ptr, b_ptr, c_ptr, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = row * stride + tl.arange(0, BLOCK_SIZE)
    live = tl.arange(0, BLOCK_SIZE) < n_cols
    gate = tl.load(a_ptr + offs, mask=live, other=0).to(tl.float32)
    up = tl.load(b_ptr + offs, mask=live, other=0)
    # silu in fp32, rounded to the input dtype before the product (as Liger does)
    tl.store(c_ptr + offs, silu(gate).cast(up.dtype) * up, mask=live)


@triton.jit
def _swiglu_backward_kernel(dc_ptr, a_ptr, b_ptr, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = row * stride + tl.arange(0, BLOCK_SIZE)
    live = tl.arange(0, BLOCK_SIZE) < n_cols
    dc = tl.load(dc_ptr + offs, mask=live, other=0)
    gate = tl.load(a_ptr + offs, mask=live, other=0).to(tl.float32)
    up = tl.load(b_ptr + offs, mask=live, other=0)

    sig = tl.sigmoid(gate)
    act = gate * sig
    d_up = dc * act
    d_gate = dc * up * (sig + act * (1 - sig))
    # gradients overwrite the activations (recomputation instead of saved tensors)
    tl.store(a_ptr + offs, d_gate, mask=live)
    tl.store(b_ptr + offs, d_up, mask=live)
