#!/usr/bin/env python3
"""Time the built-in suite's kernel sources under upstream Triton on an NVIDIA GPU.

The first baseline of the cuda backend (issue 4): upstream Triton compiling the same
kernels/*.py sources tritium compiles, on the same GPU, beside the strongest library
baseline of each kernel (torch's fused ops, cuBLAS through torch.matmul, SDPA).

Method (the device README's METHOD.md): fresh random inputs (never zeros), each result
checked against a float64 torch reference before timing (relative Frobenius error against
a bound stated per dtype; NaN fails); every variant timed with
``triton.testing.do_bench`` (CUDA events, median); the variants of one case interleaved
round by round (A B A' ... per round, `--rounds` rounds) so clock and thermal drift hit all
of them alike; A' is a second timing of A, so |A/A' - 1| is the noise floor printed beside
each ratio. Throughput counts each input read once and each output written once (bytes),
or 2·M·N·K (matmul) and 4·Z·H·N²·D, halved for causal (attention).

With ``--tritium build/capi/libtritium_c.so`` tritium's cuda backend joins the same run
(kernels/tools/tritium_ctypes.py: the same kernels/*.py files, the same tensors, launch
configurations and specialization rules, launched without a host synchronisation): its
result is checked like Triton's, and each round times Triton, tritium, the baseline,
Triton' and tritium' in turn (A B C A' B'). "tt/tri" is Triton's time over tritium's
(tritium's speed as a fraction of Triton's), with tritium's own noise floor |B/B' - 1|
beside it and issue 4's target (0.9 memory-bound, 0.8 matmul, 0.7 attention).

Not part of CI (needs a GPU, torch and triton). Run from the repository root:
    python3 kernels/tools/bench_upstream.py [--quick] [--json out.json] [--only NAME] [--tritium LIB]
Prints one table line per case; exit status 1 when a result (Triton's or tritium's) is
wrong or tritium fails to compile or launch a case; a speed short of the target is
reported, not an error.
"""

import argparse
import json
import math
import os
import statistics
import sys
from functools import partial

import torch
import triton
import torch.nn.functional as F
from triton.testing import do_bench

DEV = "cuda"


from kernel_loader import load_kernels  # noqa: E402  (kernels/tools on sys.path when run as a script)


def rnd(*shape, dtype, scale=1.0):
    return (torch.randn(*shape, device=DEV, dtype=torch.float32) * scale).to(dtype)


def rel_err(got, ref):
    got = got.double()
    if not torch.isfinite(got).all():
        return math.inf
    return ((got - ref).norm() / ref.norm().clamp_min(1e-300)).item()


# Relative Frobenius error bounds: fp32 ~1e-6 after the reductions here; tf32 dots ~3e-4;
# fp16/bf16 outputs are rounded to 11/8 mantissa bits (2^-11, 2^-8 relative per element).
TOL = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.2e-2}


class Case:
    """One kernel at one shape: `impls` launch the same kernel source ({"triton": fn} and,
    with --tritium, "tritium"); `baseline` is the library's (label, fn); `check(fn)` poisons
    the outputs, runs `fn` and returns (relative error, bound)."""

    def __init__(self, name, shape, dtype, kind, amount, impls, baseline, check):
        self.name, self.shape, self.dtype = name, shape, dtype
        self.kind, self.amount = kind, amount          # "GB/s" bytes or "TFLOP/s" flops
        self.impls, self.baseline, self.check = impls, baseline, check


def loader(tritium):
    """load(name) -> {"triton": module[, "tritium": the same kernels through tritium]}."""
    def load(name):
        mod = load_kernels(name)
        return {"triton": mod, **({"tritium": tritium.module(mod)} if tritium else {})}
    return load


def memory_cases(quick, load):
    va, sm, rn, ln, sw = (load(n) for n in ("vector_add", "softmax", "rmsnorm", "layernorm", "swiglu"))
    out = []
    shapes = [(4096, 4096)] if quick else [(32768, 4096), (4096, 32768)]
    B = 1024
    for dt in (torch.float32, torch.bfloat16):
        es = torch.tensor([], dtype=dt).element_size()
        n = (1 << 22) if quick else (1 << 28 if dt == torch.float32 else 1 << 29)
        x, y, o = rnd(n, dtype=dt), rnd(n, dtype=dt), torch.empty(n, device=DEV, dtype=dt)

        def add(m, x=x, y=y, o=o, n=n): m.add_kernel[(triton.cdiv(n, B),)](x, y, o, n, BLOCK_SIZE=B)
        def add_chk(fn, x=x, y=y, o=o, dt=dt):
            o.fill_(float("nan")); fn()
            return rel_err(o, x.double() + y.double()), TOL[dt]
        out.append(Case("vector_add", (n,), dt, "GB/s", 3 * n * es, {k: partial(add, m) for k, m in va.items()},
                        ("torch", lambda x=x, y=y, o=o: torch.add(x, y, out=o)), add_chk))
        g, u, so = rnd(n, dtype=dt, scale=3), rnd(n, dtype=dt), torch.empty(n, device=DEV, dtype=dt)

        def swi(m, g=g, u=u, so=so, n=n): m.swiglu_kernel[(triton.cdiv(n, B),)](g, u, so, n, BLOCK_SIZE=B)
        def swi_chk(fn, g=g, u=u, so=so, dt=dt):
            so.fill_(float("nan")); fn()
            gd = g.double()
            return rel_err(so, gd * torch.sigmoid(gd) * u.double()), TOL[dt]
        out.append(Case("swiglu", (n,), dt, "GB/s", 3 * n * es, {k: partial(swi, m) for k, m in sw.items()},
                        ("torch", lambda g=g, u=u: F.silu(g) * u), swi_chk))
        for rows, cols in shapes:
            x = rnd(rows, cols, dtype=dt, scale=2)
            w, b = rnd(cols, dtype=dt), rnd(cols, dtype=dt)
            yo = torch.empty_like(x)
            blk = triton.next_power_of_2(cols)
            nw = 8 if cols <= 4096 else 16

            def smx(m, x=x, yo=yo, rows=rows, cols=cols, blk=blk, nw=nw):
                m.softmax_kernel[(rows,)](yo, x, x.stride(0), yo.stride(0), cols, BLOCK_SIZE=blk, num_warps=nw)
            def smx_chk(fn, x=x, yo=yo, dt=dt):
                yo.fill_(float("nan")); fn()
                return rel_err(yo, torch.softmax(x.double(), dim=1)), TOL[dt]
            out.append(Case("softmax", (rows, cols), dt, "GB/s", 2 * rows * cols * es,
                            {k: partial(smx, m) for k, m in sm.items()},
                            ("torch", lambda x=x: torch.softmax(x, dim=1)), smx_chk))
            rb = min(blk, 4096)

            def rms(m, x=x, w=w, yo=yo, rows=rows, cols=cols, rb=rb, nw=nw):
                m.rmsnorm_kernel[(rows,)](x, w, yo, x.stride(0), yo.stride(0), cols, 1e-6, BLOCK_SIZE=rb, num_warps=nw)
            def rms_chk(fn, x=x, w=w, yo=yo, dt=dt):
                yo.fill_(float("nan")); fn()
                xd = x.double()
                return rel_err(yo, xd * torch.rsqrt((xd * xd).mean(1, keepdim=True) + 1e-6) * w.double()), TOL[dt]
            out.append(Case("rmsnorm", (rows, cols), dt, "GB/s", (2 * rows * cols + cols) * es,
                            {k: partial(rms, m) for k, m in rn.items()},
                            ("torch", lambda x=x, w=w, cols=cols: F.rms_norm(x, (cols,), w, 1e-6)), rms_chk))
            mean = torch.empty(rows, device=DEV, dtype=torch.float32)
            rstd = torch.empty(rows, device=DEV, dtype=torch.float32)

            def lnf(m, x=x, w=w, b=b, yo=yo, mean=mean, rstd=rstd, rows=rows, cols=cols, rb=rb, nw=nw):
                m.layernorm_kernel[(rows,)](x, w, b, yo, mean, rstd, x.stride(0), yo.stride(0), cols, 1e-5,
                                            BLOCK_SIZE=rb, num_warps=nw)
            def ln_chk(fn, x=x, w=w, b=b, yo=yo, cols=cols, dt=dt):
                yo.fill_(float("nan")); fn()
                return rel_err(yo, F.layer_norm(x.double(), (cols,), w.double(), b.double(), 1e-5)), TOL[dt]
            out.append(Case("layernorm", (rows, cols), dt, "GB/s", (2 * rows * cols + 2 * cols) * es + 8 * rows,
                            {k: partial(lnf, m) for k, m in ln.items()},
                            ("torch", lambda x=x, w=w, b=b, cols=cols: F.layer_norm(x, (cols,), w, b, 1e-5)), ln_chk))
    return out


def matmul_cases(quick, load):
    mm = load("matmul")
    out = []
    sizes = [1024] if quick else [4096, 8192]
    for dt in (torch.float16, torch.bfloat16):
        for n in sizes:
            a, b = rnd(n, n, dtype=dt), rnd(n, n, dtype=dt)
            c = torch.empty(n, n, device=DEV, dtype=dt)
            BM, BN, BK, G = 128, 256, 64, 8

            def run(m, a=a, b=b, c=c, n=n):
                grid = (triton.cdiv(n, BM) * triton.cdiv(n, BN),)
                m.matmul_kernel[grid](a, b, c, n, n, n, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                      c.stride(0), c.stride(1), BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK,
                                      GROUP_SIZE_M=G, num_warps=8, num_stages=3)
            def chk(fn, a=a, b=b, c=c, dt=dt):
                c.fill_(float("nan")); fn()
                return rel_err(c, a.double() @ b.double()), TOL[dt]
            out.append(Case("matmul", (n, n, n), dt, "TFLOP/s", 2 * n ** 3, {k: partial(run, m) for k, m in mm.items()},
                            ("cublas", lambda a=a, b=b, c=c: torch.matmul(a, b, out=c)), chk))

            def run_desc(m, a=a, b=b, c=c, n=n):  # tensor descriptors: TMA copies on Hopper (both compilers)
                grid = (triton.cdiv(n, BM) * triton.cdiv(n, BN),)
                m.matmul_descriptor_kernel[grid](a, b, c, n, n, n, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK,
                                                 GROUP_SIZE_M=G, num_warps=8, num_stages=3)
            out.append(Case("matmul_desc", (n, n, n), dt, "TFLOP/s", 2 * n ** 3,
                            {k: partial(run_desc, m) for k, m in mm.items()},
                            ("cublas", lambda a=a, b=b, c=c: torch.matmul(a, b, out=c)), chk))
    return out


def attention_cases(quick, load):
    fa = load("flash_attention")
    out = []
    Z, H, N = (1, 8, 1024) if quick else (4, 32, 4096)
    dt = torch.bfloat16
    for D in (64, 128):
        for causal in (False, True):
            q, k, v = (rnd(Z, H, N, D, dtype=dt) for _ in range(3))
            o = torch.empty_like(q)
            lse = torch.empty(Z * H, N, device=DEV, dtype=torch.float32)
            sc = 1.0 / math.sqrt(D)
            BM, BN = 128, (64 if D == 128 else 128)

            def run(m, q=q, k=k, v=v, o=o, lse=lse, sc=sc, D=D, causal=causal, BM=BM, BN=BN):
                m.attn_fwd_kernel[(triton.cdiv(N, BM), Z * H)](
                    q, k, v, sc, lse, o, *q.stride(), *k.stride(), *v.stride(), *o.stride(), Z, H, N,
                    HEAD_DIM=D, BLOCK_M=BM, BLOCK_N=BN, IS_CAUSAL=causal, num_warps=8, num_stages=3)
            def chk(fn, q=q, k=k, v=v, o=o, causal=causal, sc=sc):
                o.fill_(float("nan")); fn()
                ref = F.scaled_dot_product_attention(q[:1, :2].double(), k[:1, :2].double(), v[:1, :2].double(),
                                                     is_causal=causal, scale=sc)
                return rel_err(o[:1, :2], ref), 2e-2   # bf16 P·V operands: ~2^-8 per element
            flops = 4 * Z * H * N * N * D // (2 if causal else 1)
            out.append(Case("attention_causal" if causal else "attention", (Z, H, N, D), dt, "TFLOP/s", flops,
                            {kk: partial(run, m) for kk, m in fa.items()},
                            ("sdpa", lambda q=q, k=k, v=v, c=causal, sc=sc:
                             F.scaled_dot_product_attention(q, k, v, is_causal=c, scale=sc)), chk))
    return out


# Issue 4's targets: tritium's speed as a fraction of upstream Triton's on the same source.
TARGET = {"GB/s": 0.9, "matmul": 0.8, "attention": 0.7}


def target_of(case):
    if case.kind == "GB/s":
        return TARGET["GB/s"]
    return TARGET["matmul"] if case.name.startswith("matmul") else TARGET["attention"]


def time_case(variants, rounds):
    """Median ms per (label, fn) over `rounds` interleaved rounds (ABC...A'B'... per round)."""
    samples = {l: [] for l, _ in variants}
    for _ in range(rounds):
        for l, f in variants:
            samples[l].append(do_bench(f, warmup=10, rep=40, return_mode="median"))
    return {l: statistics.median(v) for l, v in samples.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small shapes, for a smoke run")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--only", default="", help="run only cases whose name contains this")
    ap.add_argument("--json", default="", help="write every figure to this file")
    ap.add_argument("--tritium", default="", metavar="LIB",
                    help="also run tritium's cuda backend on the same sources, through LIB (libtritium_c.so)")
    args = ap.parse_args()
    torch.manual_seed(20261201)
    # Upstream Triton writes device-side tensor descriptors (matmul_descriptor_kernel) into
    # scratch memory from this allocator; tritium allocates its own.
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=DEV))
    tritium = None
    if args.tritium:
        from tritium_ctypes import TritiumLib
        tritium = TritiumLib(args.tritium, backend="cuda")
    print(f"# upstream triton {triton.__version__}, torch {torch.__version__}, {torch.cuda.get_device_name()}"
          + (f", tritium {tritium.version()}" if tritium else ""))
    load = loader(tritium)
    cases = memory_cases(args.quick, load) + matmul_cases(args.quick, load) + attention_cases(args.quick, load)
    cases = [c for c in cases if args.only in c.name]
    rows, failed = [], 0
    hdr = (f"{'kernel':17} {'shape':20} {'dtype':9} {'err':>9} {'triton ms':>10} {'rate':>9} {'base':7} "
           f"{'base ms':>9} {'rate':>9} {'tri/base':>8} {'noise':>6}")
    if tritium:
        hdr += f" {'tt err':>9} {'tritium ms':>10} {'rate':>9} {'tt/tri':>7} {'noise':>6} {'target':>6}"
    print(hdr, flush=True)
    for c in cases:
        rate = (lambda ms: c.amount / (ms * 1e-3) / (1e9 if c.kind == "GB/s" else 1e12))
        r = {"kernel": c.name, "shape": list(c.shape), "dtype": str(c.dtype).replace("torch.", ""), "unit": c.kind}
        checks = {}
        for label, fn in c.impls.items():
            try:
                err, bound = c.check(fn)
                checks[label] = (err, bound, err <= bound, "")
            except Exception as e:  # a tritium compile or launch error: reported, the case goes on
                checks[label] = (math.inf, 0.0, False, str(e).splitlines()[0][:200])
        r["checks"] = {l: {"rel_err": e, "bound": b, "ok": ok, "error": msg} for l, (e, b, ok, msg) in checks.items()}
        r["rel_err"], r["bound"], r["ok"] = checks["triton"][0], checks["triton"][1], checks["triton"][2]
        failed += sum(not ok for _, _, ok, _ in checks.values())
        rows.append(r)
        if not checks["triton"][2]:
            print(f"{c.name:17} {str(c.shape):20} {r['dtype']:9} {checks['triton'][0]:9.2e} WRONG under Triton "
                  f"(bound {checks['triton'][1]:.1e})", flush=True)
            continue
        tt_ok = "tritium" in checks and checks["tritium"][2]
        variants = [("triton", c.impls["triton"])]
        if tt_ok:
            variants.append(("tritium", c.impls["tritium"]))
        variants.append(c.baseline)
        variants.append(("triton'", c.impls["triton"]))
        if tt_ok:
            variants.append(("tritium'", c.impls["tritium"]))
        t = time_case(variants, args.rounds)
        r["ms"] = t
        base_label = c.baseline[0]
        ratio = t[base_label] / t["triton"]                   # > 1: Triton faster
        noise = abs(t["triton"] / t["triton'"] - 1)
        r.update(ratio_vs_baseline=ratio, noise=noise)
        line = (f"{c.name:17} {str(c.shape):20} {r['dtype']:9} {checks['triton'][0]:9.2e} {t['triton']:10.4f} "
                f"{rate(t['triton']):9.1f} {base_label:7} {t[base_label]:9.4f} {rate(t[base_label]):9.1f} "
                f"{ratio:8.3f} {noise:6.1%}")
        if "tritium" in checks:
            e, b, ok, msg = checks["tritium"]
            if not ok:
                line += f" tritium {'ERROR: ' + msg if msg else f'WRONG: err {e:.2e} > bound {b:.1e}'}"
            else:
                sp = t["triton"] / t["tritium"]                # tritium's speed / Triton's (>= target)
                tn = abs(t["tritium"] / t["tritium'"] - 1)
                tg = target_of(c)
                r.update(tritium_vs_triton=sp, tritium_noise=tn, target=tg, meets_target=sp >= tg)
                line += (f" {e:9.2e} {t['tritium']:10.4f} {rate(t['tritium']):9.1f} {sp:7.3f} {tn:6.1%} "
                         f"{'ok' if sp >= tg else 'short':>6}")
        print(line, flush=True)
    print(f"# rate: GB/s for memory-bound, TFLOP/s for matmul/attention; tri/base = baseline time / Triton time "
          f"(> 1: Triton faster); noise = |A/A' - 1|" +
          ("; tt/tri = Triton time / tritium time (tritium's speed as a fraction of Triton's; target "
           "0.9 memory-bound, 0.8 matmul, 0.7 attention)" if tritium else ""))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"triton": triton.__version__, "torch": torch.__version__,
                       "tritium": tritium.version() if tritium else None,
                       "gpu": torch.cuda.get_device_name(), "cases": rows}, f, indent=1)
    if tritium:
        met = sum(1 for r in rows if r.get("meets_target"))
        print(f"# tritium: {met} of {len(rows)} cases at or above the target")
    print(f"# {len(rows)} cases, {failed} wrong results (Triton or tritium)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
