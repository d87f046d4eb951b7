"""GEGLU forward and backward (tanh-approximated or exact GELU gate).

Forward: c = gelu(a) * b, with
    tanh approximation: gelu(a) = 0.5 a (1 + tanh(sqrt(2/pi) (a + 0.044715 a^3)))
    exact:              gelu(a) = 0.5 a (1 + erf(a / sqrt(2)))
Backward (tanh form): db = dc * gelu(a),
    da = dc * b * (0.5 (1 + t) + 0.5 a (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 a^2)),
    t = tanh(sqrt(2/pi) (a + 0.044715 a^3)); written into da/db buffers.

Shapes and dtypes
    a, b, c, dc, da, db: [n_rows, n_cols] fp32 with one row stride.

Style imitated
    Liger-Kernel's geglu: `tanh` imported from libdevice under the try/except of the
    two module spellings, `sqrt_2_over_pi` as a Python float folded in the kernel, the
    cube written as a * a * a; the exact variant as an APPROXIMATE constexpr switch
    using libdevice.erf through `from triton.language.extra import libdevice`.

Launch
    grid = (n_rows,)
"""
import triton
import triton.language as tl
from triton.language.extra import libdevice

try:
    from triton.language.extra.libdevice import tanh
except ModuleNotFoundError:
    from triton.language.extra.cuda.libdevice import tanh


@triton.jit
def _gelu_tanh_parts(x):
    # returns (gelu(x), t) with t = tanh(sqrt(2/pi) * (x + 0.044715 x^3))
    sqrt_2_over_pi = 0.7978845608028654
    inner = sqrt_2_over_pi * (x + 0.044715 * (x * x * x))
    t = tanh(inner)
    return 0.5 * x * (1 + t), t


@triton.jit
def _geglu_forward_kernel(a, b, c, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr,
                          APPROXIMATE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    live = cols < n_cols
    gate = tl.load(a + row * stride + cols, mask=live, other=0).to(tl.float32)
    up = tl.load(b + row * stride + cols, mask=live, other=0)
    if APPROXIMATE:
        g, _ = _gelu_tanh_parts(gate)
    else:
        g = 0.5 * gate * (1 + libdevice.erf(gate * 0.7071067811865476))   # x / sqrt(2)
    tl.store(c + row * stride + cols, g * up, mask=live)


@triton.jit
def _geglu_backward_kernel(dc, a, b, da, db, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    live = cols < n_cols
    base = row * stride + cols
    grad = tl.load(dc + base, mask=live, other=0)
    gate = tl.load(a + base, mask=live, other=0).to(tl.float32)
    up = tl.load(b + base, mask=live, other=0)

    g, t = _gelu_tanh_parts(gate)
    dgelu = 0.5 * (1 + t) + 0.5 * gate * (1 - t * t) * (0.7978845608028654 * (1 + 3 * 0.044715 * gate * gate))
    tl.store(da + base, grad * up * dgelu, mask=live)
    tl.store(db + base, grad * g, mask=live)
