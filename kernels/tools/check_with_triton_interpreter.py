#!/usr/bin/env python3
"""Cross-check the kernels in kernels/*.py against upstream Triton.

Not part of CI (it needs upstream `triton` and `torch`). It runs every kernel,
unchanged, through upstream Triton and compares the results with two float64
references:
  * the C++ references of kernels/ref/ (reference.h), loaded through ctypes
    from a shared library built from kernels/ref/*.cpp + kernels/tools/ref_capi.cpp
    (pass --refs-lib; skipped when absent), and
  * an independent float64 formula written here with torch.

Two modes, chosen by the environment as upstream Triton does:
  TRITON_INTERPRET=1 python3 kernels/tools/check_with_triton_interpreter.py
        Triton's CPU interpreter (numpy semantics, tensors on the CPU).
  python3 kernels/tools/check_with_triton_interpreter.py
        compiled for the GPU that torch sees (tensors on cuda).

Build the reference library first, from the repository root:
  g++ -std=c++20 -O2 -shared -fPIC -Ikernels kernels/ref/*.cpp \\
      kernels/tools/ref_capi.cpp -o /tmp/libtritium_kernel_refs.so
  ... check_with_triton_interpreter.py --refs-lib /tmp/libtritium_kernel_refs.so

Exit status 0 when every case is within tolerance, 1 otherwise.
"""

import argparse
import ctypes
import math
import os
import sys
import traceback

import torch
import triton

INTERPRET = os.environ.get("TRITON_INTERPRET", "0") == "1"
DEVICE = "cpu" if INTERPRET else "cuda"


def _fix_interpreter_scalar_index():
    """Work around Triton 3.6's interpreter under NumPy >= 2.5.

    The interpreter holds scalars as 1-element arrays and implements
    ``tensor.__index__`` (used by ``range(lo, hi, step)`` with runtime bounds) as
    ``int(array)``, which NumPy 2.5 rejects for arrays with ndim > 0 ("only
    0-dimensional arrays can be converted to Python scalars"). Re-register it with
    ``.item()``, which accepts any 1-element array; semantics are unchanged.
    """
    try:
        import triton.runtime.interpreter as interp
    except ImportError:
        return
    orig = getattr(interp, "_patch_lang_tensor", None)
    if orig is None:
        return

    def patched(tensor, scope):
        orig(tensor, scope)
        scope.set_attr(tensor, "__index__", lambda self: int(self.handle.data.item()))

    interp._patch_lang_tensor = patched


if INTERPRET:
    _fix_interpreter_scalar_index()


from kernel_loader import load_kernels  # noqa: E402  (kernels/tools on sys.path when run as a script)


# --------------------------------------------------------------------------- refs

class CppRefs:
    """ctypes view of kernels/tools/ref_capi.cpp (float64, contiguous)."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path)

    @staticmethod
    def _p(t):
        assert t.dtype == torch.float64 and t.is_contiguous() and t.device.type == "cpu"
        return ctypes.c_void_p(t.data_ptr())

    def vector_add(self, x, y):
        out = torch.empty_like(x)
        self.lib.kref_vector_add(self._p(x), self._p(y), self._p(out), ctypes.c_int64(x.numel()))
        return out

    def swiglu(self, g, u):
        out = torch.empty_like(g)
        self.lib.kref_swiglu(self._p(g), self._p(u), self._p(out), ctypes.c_int64(g.numel()))
        return out

    def softmax(self, x):
        y = torch.empty_like(x)
        self.lib.kref_softmax(self._p(x), self._p(y), ctypes.c_int64(x.shape[0]),
                              ctypes.c_int64(x.shape[1]))
        return y

    def rmsnorm(self, x, w, eps):
        y = torch.empty_like(x)
        self.lib.kref_rmsnorm(self._p(x), self._p(w), self._p(y), ctypes.c_int64(x.shape[0]),
                              ctypes.c_int64(x.shape[1]), ctypes.c_double(eps))
        return y

    def layernorm(self, x, w, b, eps):
        y = torch.empty_like(x)
        mean = torch.empty(x.shape[0], dtype=torch.float64)
        rstd = torch.empty(x.shape[0], dtype=torch.float64)
        self.lib.kref_layernorm(self._p(x), self._p(w), self._p(b), self._p(y), self._p(mean),
                                self._p(rstd), ctypes.c_int64(x.shape[0]),
                                ctypes.c_int64(x.shape[1]), ctypes.c_double(eps))
        return y, mean, rstd

    def matmul(self, a, b):
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty(M, N, dtype=torch.float64)
        self.lib.kref_matmul(self._p(a), self._p(b), self._p(c), ctypes.c_int64(M),
                             ctypes.c_int64(N), ctypes.c_int64(K))
        return c

    def attention(self, q, k, v, sm_scale, causal):
        Z, H, N, D = q.shape
        o = torch.empty_like(q)
        lse = torch.empty(Z * H, N, dtype=torch.float64)
        self.lib.kref_attention(self._p(q), self._p(k), self._p(v), self._p(o), self._p(lse),
                                ctypes.c_int64(Z), ctypes.c_int64(H), ctypes.c_int64(N),
                                ctypes.c_int64(D), ctypes.c_double(sm_scale),
                                ctypes.c_int(1 if causal else 0))
        return o, lse


class TorchRefs:
    """The same formulas in float64 torch, as a second, independent reference."""

    vector_add = staticmethod(lambda x, y: x + y)
    swiglu = staticmethod(lambda g, u: g * torch.sigmoid(g) * u)
    softmax = staticmethod(lambda x: torch.softmax(x, dim=-1))
    matmul = staticmethod(lambda a, b: a @ b)

    @staticmethod
    def rmsnorm(x, w, eps):
        return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + eps) * w

    @staticmethod
    def layernorm(x, w, b, eps):
        mean = x.mean(-1)
        var = ((x - mean[:, None]) ** 2).mean(-1)
        rstd = 1.0 / torch.sqrt(var + eps)
        return (x - mean[:, None]) * rstd[:, None] * w + b, mean, rstd

    @staticmethod
    def attention(q, k, v, sm_scale, causal):
        Z, H, N, D = q.shape
        s = torch.einsum("zhid,zhjd->zhij", q, k) * sm_scale
        if causal:
            s = s.masked_fill(torch.ones(N, N, dtype=torch.bool).triu(1), float("-inf"))
        lse = torch.logsumexp(s, dim=-1)
        o = torch.einsum("zhij,zhjd->zhid", torch.softmax(s, dim=-1), v)
        return o, lse.reshape(Z * H, N)


# --------------------------------------------------------------------------- harness

class Checker:
    def __init__(self, refs):
        self.refs = refs            # list of (name, refs object)
        self.failures = []
        self.skipped = []
        self.failed_cases = set()
        self.cases = 0

    def skip(self, case, why):
        print(f"  skip {case}: {why}")
        self.skipped.append(case)

    def compare(self, case, what, got, want, atol, rtol):
        got = got.detach().to("cpu", torch.float64)
        want = want.to(torch.float64)
        err = (got - want).abs()
        bound = atol + rtol * want.abs()
        ok = bool(torch.isfinite(got).all()) and bool((err <= bound).all())
        worst = float(err.max()) if err.numel() else 0.0
        status = "ok  " if ok else "FAIL"
        print(f"  {status} {case:<52} {what:<14} max|err| {worst:.3e}  (atol {atol:g}, rtol {rtol:g})")
        if not ok:
            self.failures.append(f"{case} {what}")
            self.failed_cases.add(case)

    def run(self, case, fn):
        self.cases += 1
        try:
            fn(case)
        except Exception:  # report and continue with the next case
            traceback.print_exc()
            print(f"  FAIL {case}: exception")
            self.failures.append(f"{case} (exception)")
            self.failed_cases.add(case)


# Triton's interpreter stores bf16 as uint16 and its tl.dot multiplies the raw bit
# patterns (upstream issue triton-lang/triton#11584: bf16 dot "not supported yet").
INTERP_BF16_DOT = "bf16 tl.dot is unsupported by the upstream interpreter"


def f64(t):
    return t.detach().to("cpu", torch.float64).contiguous()


def randn(*shape, dtype=torch.float32, scale=1.0, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g, dtype=torch.float64) * scale).to(dtype).to(DEVICE)


# Tolerances for comparing against float64 by output dtype.
TOL = {torch.float32: (1e-5, 1e-5), torch.float16: (2e-3, 2e-3), torch.bfloat16: (1.6e-2, 1.6e-2)}


def check_all(ck, only):
    def want(name):
        return not only or name in only

    # ---------------------------------------------------------------- vector_add
    if want("vector_add"):
        m = load_kernels("vector_add")

        def vadd(case, n=1000, dtype=torch.float32, block=256):
            x, y = randn(n, dtype=dtype, seed=1), randn(n, dtype=dtype, seed=2)
            out = torch.empty_like(x)
            m.add_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK_SIZE=block)
            for rn, r in ck.refs:
                ck.compare(case, rn + " out", out, r.vector_add(f64(x), f64(y)), *TOL[dtype])
        ck.run("vector_add n=1000 fp32 B=256", vadd)
        ck.run("vector_add n=4096 fp16 B=1024", lambda c: vadd(c, 4096, torch.float16, 1024))

    # ---------------------------------------------------------------- softmax
    if want("softmax"):
        m = load_kernels("softmax")

        def softmax(case, rows, cols, block, online, in_dtype=torch.float32,
                    out_dtype=torch.float32, pad=3, scale=3.0):
            # Input rows padded by `pad` elements to exercise the row strides.
            x_full = randn(rows, cols + pad, dtype=in_dtype, seed=3, scale=scale)
            x = x_full[:, :cols]
            y_full = torch.empty(rows, cols + 2 * pad, dtype=out_dtype, device=DEVICE)
            y = y_full[:, :cols]
            k = m.softmax_online_kernel if online else m.softmax_kernel
            k[(rows,)](y, x, x.stride(0), y.stride(0), cols, BLOCK_SIZE=block)
            for rn, r in ck.refs:
                ck.compare(case, rn + " y", y, r.softmax(f64(x)), *TOL[out_dtype])
        ck.run("softmax single 7x100 fp32 B=128", lambda c: softmax(c, 7, 100, 128, False))
        ck.run("softmax single 5x1 fp32 B=16", lambda c: softmax(c, 5, 1, 16, False))
        ck.run("softmax single 4x300 fp16->fp32 B=512",
               lambda c: softmax(c, 4, 300, 512, False, torch.float16, torch.float32))
        ck.run("softmax single 4x300 fp32->fp16 B=512",
               lambda c: softmax(c, 4, 300, 512, False, torch.float32, torch.float16))
        ck.run("softmax online 6x1000 fp32 B=128", lambda c: softmax(c, 6, 1000, 128, True))
        ck.run("softmax online 3x37 fp32 B=16", lambda c: softmax(c, 3, 37, 16, True))
        ck.run("softmax online 3x64 fp32 B=64", lambda c: softmax(c, 3, 64, 64, True))
        ck.run("softmax online 2x333 fp32 B=32 big", lambda c: softmax(c, 2, 333, 32, True,
                                                                       scale=40.0))
        ck.run("softmax online 4x777 bf16 B=256",
               lambda c: softmax(c, 4, 777, 256, True, torch.bfloat16, torch.bfloat16))

    # ---------------------------------------------------------------- rmsnorm
    if want("rmsnorm"):
        m = load_kernels("rmsnorm")

        def rmsnorm(case, rows, cols, block, dtype=torch.float32, eps=1e-6):
            x = randn(rows, cols, dtype=dtype, seed=4, scale=2.0)
            w = randn(cols, dtype=dtype, seed=5)
            y = torch.empty_like(x)
            m.rmsnorm_kernel[(rows,)](x, w, y, x.stride(0), y.stride(0), cols, eps,
                                      BLOCK_SIZE=block)
            for rn, r in ck.refs:
                ck.compare(case, rn + " y", y, r.rmsnorm(f64(x), f64(w), eps), *TOL[dtype])
        ck.run("rmsnorm 5x300 fp32 B=128 (loop)", lambda c: rmsnorm(c, 5, 300, 128))
        ck.run("rmsnorm 5x300 fp32 B=512 (one)", lambda c: rmsnorm(c, 5, 300, 512))
        ck.run("rmsnorm 3x4096 fp16 B=1024", lambda c: rmsnorm(c, 3, 4096, 1024, torch.float16))

    # ---------------------------------------------------------------- layernorm
    if want("layernorm"):
        m = load_kernels("layernorm")

        def layernorm(case, rows, cols, block, dtype=torch.float32, eps=1e-5, offset=0.0):
            x = randn(rows, cols, dtype=torch.float64, seed=6, scale=2.0)
            x = (x + offset).to(dtype)
            w = randn(cols, dtype=dtype, seed=7)
            b = randn(cols, dtype=dtype, seed=8)
            y = torch.empty_like(x)
            mean = torch.empty(rows, dtype=torch.float32, device=DEVICE)
            rstd = torch.empty(rows, dtype=torch.float32, device=DEVICE)
            m.layernorm_kernel[(rows,)](x, w, b, y, mean, rstd, x.stride(0), y.stride(0), cols,
                                        eps, BLOCK_SIZE=block)
            for rn, r in ck.refs:
                ry, rmean, rrstd = r.layernorm(f64(x), f64(w), f64(b), eps)
                atol, rtol = TOL[dtype]
                ck.compare(case, rn + " y", y, ry, atol * 4, rtol)
                ck.compare(case, rn + " mean", mean, rmean, 1e-5, 1e-5)
                ck.compare(case, rn + " rstd", rstd, rrstd, 1e-5, 1e-5)
        ck.run("layernorm 5x300 fp32 B=128 (loop)", lambda c: layernorm(c, 5, 300, 128))
        ck.run("layernorm 5x300 fp32 B=512 (one)", lambda c: layernorm(c, 5, 300, 512))
        ck.run("layernorm 4x1000 fp32 B=256 offset=50",
               lambda c: layernorm(c, 4, 1000, 256, offset=50.0))
        ck.run("layernorm 3x2048 fp16 B=512", lambda c: layernorm(c, 3, 2048, 512, torch.float16))

    # ---------------------------------------------------------------- swiglu
    if want("swiglu"):
        m = load_kernels("swiglu")

        def swiglu_flat(case, n, block, dtype=torch.float32):
            g, u = randn(n, dtype=dtype, seed=9, scale=3.0), randn(n, dtype=dtype, seed=10)
            out = torch.empty_like(g)
            m.swiglu_kernel[(triton.cdiv(n, block),)](g, u, out, n, BLOCK_SIZE=block)
            for rn, r in ck.refs:
                ck.compare(case, rn + " out", out, r.swiglu(f64(g), f64(u)), *TOL[dtype])

        def swiglu_fused(case, rows, cols, block, dtype=torch.float32):
            h = randn(rows, 2 * cols, dtype=dtype, seed=11, scale=3.0)  # [gate | up]
            out = torch.empty(rows, cols, dtype=dtype, device=DEVICE)
            gate, up = h[:, :cols], h[:, cols:]
            m.swiglu_rows_kernel[(rows, triton.cdiv(cols, block))](
                gate, up, out, h.stride(0), h.stride(0), out.stride(0), cols, BLOCK_SIZE=block)
            for rn, r in ck.refs:
                ck.compare(case, rn + " out", out, r.swiglu(f64(gate), f64(up)), *TOL[dtype])
        ck.run("swiglu flat n=3000 fp32 B=512", lambda c: swiglu_flat(c, 3000, 512))
        ck.run("swiglu flat n=3000 bf16 B=1024",
               lambda c: swiglu_flat(c, 3000, 1024, torch.bfloat16))
        ck.run("swiglu fused rows 6x200 fp32 B=64", lambda c: swiglu_fused(c, 6, 200, 64))
        ck.run("swiglu fused rows 6x200 fp16 B=256",
               lambda c: swiglu_fused(c, 6, 200, 256, torch.float16))

    # ---------------------------------------------------------------- matmul
    if want("matmul"):
        m = load_kernels("matmul")

        def matmul(case, M, N, K, bm, bn, bk, group, dtype=torch.float16, out_dtype=None,
                   b_transposed=False):
            if INTERPRET and dtype == torch.bfloat16:
                return ck.skip(case, INTERP_BF16_DOT)
            out_dtype = out_dtype or dtype
            a = randn(M, K, dtype=dtype, seed=12)
            if b_transposed:   # B given as a [N, K] buffer viewed transposed
                b = randn(N, K, dtype=dtype, seed=13).t()
            else:
                b = randn(K, N, dtype=dtype, seed=13)
            c = torch.empty(M, N, dtype=out_dtype, device=DEVICE)
            grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
            m.matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                  b.stride(1), c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                                  BLOCK_K=bk, GROUP_SIZE_M=group)
            # fp32 operands go through tf32 on NVIDIA (10-bit mantissa): allow for it.
            if dtype == torch.float32 and not INTERPRET:
                atol, rtol = 2e-2, 2e-2
            elif out_dtype == torch.float32:
                atol, rtol = 1e-4, 1e-4      # fp32 accumulation error only
            else:
                atol, rtol = (4 * t for t in TOL[out_dtype])   # output rounding dominates
            for rn, r in ck.refs:
                ck.compare(case, rn + " c", c, r.matmul(f64(a), f64(b)), atol, rtol)
        ck.run("matmul 100x70x50 fp16 32/32/32 G4", lambda c: matmul(c, 100, 70, 50, 32, 32, 32, 4))
        ck.run("matmul 128x128x64 fp16 64/64/32 G8",
               lambda c: matmul(c, 128, 128, 64, 64, 64, 32, 8))
        ck.run("matmul 65x33x17 fp16->fp32 16/16/16 G2",
               lambda c: matmul(c, 65, 33, 17, 16, 16, 16, 2, out_dtype=torch.float32))
        ck.run("matmul 77x91x40 fp32 32/64/16 G3 B^T",
               lambda c: matmul(c, 77, 91, 40, 32, 64, 16, 3, torch.float32, b_transposed=True))
        ck.run("matmul 512x384x256 fp16 128/128/32 G8",
               lambda c: matmul(c, 512, 384, 256, 128, 128, 32, 8))
        ck.run("matmul 64x48x96 bf16 32/16/32 G1",
               lambda c: matmul(c, 64, 48, 96, 32, 16, 32, 1, torch.bfloat16))

    # ---------------------------------------------------------------- attention
    if want("flash_attention"):
        m = load_kernels("flash_attention")

        def attention(case, Z, H, N, D, causal, bm, bn, dtype=torch.float16, transposed=False):
            if INTERPRET and dtype == torch.bfloat16:
                return ck.skip(case, INTERP_BF16_DOT)
            if transposed:   # [Z, N, H, D] buffers viewed as [Z, H, N, D]: non-trivial strides
                q, k, v = (randn(Z, N, H, D, dtype=dtype, seed=s).transpose(1, 2)
                           for s in (14, 15, 16))
            else:
                q, k, v = (randn(Z, H, N, D, dtype=dtype, seed=s) for s in (14, 15, 16))
            o = torch.empty(Z, H, N, D, dtype=dtype, device=DEVICE)
            lse = torch.empty(Z * H, N, dtype=torch.float32, device=DEVICE)
            sm_scale = 1.0 / math.sqrt(D)
            grid = (triton.cdiv(N, bm), Z * H)
            m.attn_fwd_kernel[grid](q, k, v, sm_scale, lse, o,
                                    q.stride(0), q.stride(1), q.stride(2), q.stride(3),
                                    k.stride(0), k.stride(1), k.stride(2), k.stride(3),
                                    v.stride(0), v.stride(1), v.stride(2), v.stride(3),
                                    o.stride(0), o.stride(1), o.stride(2), o.stride(3),
                                    Z, H, N, HEAD_DIM=D, BLOCK_M=bm, BLOCK_N=bn,
                                    IS_CAUSAL=causal)
            tf32 = dtype == torch.float32 and not INTERPRET
            o_tol = {torch.float16: (1e-2, 1e-2), torch.bfloat16: (3e-2, 3e-2),
                     torch.float32: (1e-2, 1e-2) if tf32 else (1e-5, 1e-5)}[dtype]
            l_tol = (1e-2, 1e-3) if tf32 else (1e-4, 1e-4)
            for rn, r in ck.refs:
                ro, rlse = r.attention(f64(q), f64(k), f64(v), sm_scale, causal)
                ck.compare(case, rn + " o", o, ro, *o_tol)
                ck.compare(case, rn + " lse", lse, rlse, *l_tol)
        for causal in (False, True):
            cs = "causal" if causal else "full"
            ck.run(f"attn 2x3x128 D64 {cs} fp16 64/32",
                   lambda c, cz=causal: attention(c, 2, 3, 128, 64, cz, 64, 32))
            ck.run(f"attn 1x2x100 D64 {cs} fp16 64/32 ragged",
                   lambda c, cz=causal: attention(c, 1, 2, 100, 64, cz, 64, 32))
            ck.run(f"attn 1x2x37 D128 {cs} fp16 32/16 ragged",
                   lambda c, cz=causal: attention(c, 1, 2, 37, 128, cz, 32, 16))
            ck.run(f"attn 2x2x80 D128 {cs} bf16 32/32 [Z,N,H,D]",
                   lambda c, cz=causal: attention(c, 2, 2, 80, 128, cz, 32, 32, torch.bfloat16,
                                                  transposed=True))
            ck.run(f"attn 1x1x50 D64 {cs} fp32 32/16",
                   lambda c, cz=causal: attention(c, 1, 1, 50, 64, cz, 32, 16, torch.float32))
            ck.run(f"attn 1x4x1000 D128 {cs} fp16 128/64",
                   lambda c, cz=causal: attention(c, 1, 4, 1000, 128, cz, 128, 64))
            ck.run(f"attn 1x1x5 D64 {cs} fp16 16/16 short",
                   lambda c, cz=causal: attention(c, 1, 1, 5, 64, cz, 16, 16))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--refs-lib", help="shared library built from kernels/ref + ref_capi.cpp")
    ap.add_argument("--only", nargs="*", help="kernel families to run (file stems)")
    args = ap.parse_args()

    refs = [("torch64", TorchRefs())]
    if args.refs_lib:
        refs.insert(0, ("cpp-ref", CppRefs(args.refs_lib)))
    print(f"triton {triton.__version__}, torch {torch.__version__}, "
          f"mode {'interpreter (CPU)' if INTERPRET else 'compiled (' + DEVICE + ')'}, "
          f"references: {', '.join(n for n, _ in refs)}")
    ck = Checker(refs)
    check_all(ck, set(args.only or []))
    print(f"{ck.cases} cases: {ck.cases - len(ck.failed_cases) - len(ck.skipped)} passed, "
          f"{len(ck.failed_cases)} failed, {len(ck.skipped)} skipped")
    for f in ck.failures:
        print("  failed:", f)
    return 1 if ck.failures else 0


if __name__ == "__main__":
    sys.exit(main())
