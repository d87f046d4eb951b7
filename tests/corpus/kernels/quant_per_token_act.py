"""Dynamic per-token activation quantization to int8 and to fp8 (e4m3).

For each row r of x: absmax = max_c |x[r, c]|;
    int8: scale[r] = absmax / 127,  q[r, c] = clamp(round(x / scale), -127, 127)  (round half away)
    fp8:  scale[r] = absmax / 448,  q[r, c] = fp8e4nv(clamp(x / scale, -448, 448)) (nearest even)
A row of zeros would divide by zero: the kernels floor absmax at 1e-10 as serving code does.

Shapes and dtypes
    x: [n_rows, n_cols] fp16 (row stride = n_cols); q: [n_rows, n_cols] int8 / fp8e4nv;
    scale: [n_rows] fp32. Arithmetic in fp32.

Style imitated
    The Triton per-token quantization kernels of LLM serving stacks (vLLM / SGLang /
    SmoothQuant): one program per token, tl.max(tl.abs(x)) over a BLOCK >= n_cols row,
    tl.maximum(absmax, 1e-10), `libdevice.round` imported from
    triton.language.extra.cuda.libdevice, `.to(tl.int8)` after a clamp, and for fp8 a
    tl.clamp to ±448 followed by `.to(tl.float8e4nv)` (whose conversion rounds to nearest
    even and saturates).

Launch
    grid = (n_rows,)
"""
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def _load_row_and_scale(x_ptr, scale_ptr, row, cols, mask, n_cols, QMAX: tl.constexpr):
    # the row in fp32 and its scale absmax / QMAX (stored)
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    absmax = tl.maximum(tl.max(tl.abs(x)), 1e-10)
    scale = absmax / QMAX
    tl.store(scale_ptr + row, scale)
    return x, scale


@triton.jit
def per_token_quant_int8_kernel(x_ptr, q_ptr, scale_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x, scale = _load_row_and_scale(x_ptr, scale_ptr, row, cols, mask, n_cols, 127.0)
    q = libdevice.round(x / scale)
    q = tl.minimum(tl.maximum(q, -127.0), 127.0).to(tl.int8)
    tl.store(q_ptr + row * n_cols + cols, q, mask=mask)


@triton.jit
def per_token_quant_fp8_kernel(x_ptr, q_ptr, scale_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x, scale = _load_row_and_scale(x_ptr, scale_ptr, row, cols, mask, n_cols, 448.0)
    q = tl.clamp(x / scale, -448.0, 448.0).to(tl.float8e4nv)
    tl.store(q_ptr + row * n_cols + cols, q, mask=mask)
