#!/usr/bin/env python3
"""Time the built-in suite's kernels on an NVIDIA GPU: upstream Triton, tritium, the library.

The A/B of the cuda backend (issues 4 and 7): upstream Triton compiling the same
kernels/*.py sources tritium compiles, on the same GPU in the same process, beside the
strongest library baseline of each kernel (torch's fused ops, cuBLAS through torch.matmul,
torch SDPA). With ``--tritium build/capi/libtritium_c.so`` tritium's cuda backend joins
(kernels/tools/tritium_ctypes.py: the same kernels/*.py files, the same tensors, launch
configurations and specialization rules, launched without a host synchronisation).

Correctness first: fresh random inputs (never zeros); each output is poisoned with NaN,
the kernel run, and the result checked against a float64 torch reference (relative
Frobenius error against a bound stated per dtype; NaN or Inf fails). A case whose Triton
result is wrong is not timed; a tritium that is wrong or fails to compile or launch is left
out of the case's timing, and both make the exit status 1.

Timing (the statistics are in kernels/tools/bench_stats.py):
- Arms: "triton"; "tritium" (when given and its result checked ok); the baseline ("torch",
  "cublas" or "sdpa"); and a noise-floor arm, a second timing of the same callable in the
  same rounds: "tritium'", or "triton'" when tritium is absent.
- Warm-up: whole rounds until every arm ran at least 10 times and 0.2 s passed.
- Each round calls every arm once, in list order in even rounds and reversed in odd ones,
  so no arm always follows the same one. Before every call, outside the timed region, the
  L2 cache is cleared by zeroing a 256 MiB buffer (as triton.testing.do_bench does): each
  call starts with its inputs in device memory, not in L2. Each call is bracketed by its
  own pair of CUDA events; one synchronisation per round. Rounds: at least --rounds, then
  on while the first arm's timed calls total under --time-per-case seconds; at most 500.
- Ratios, each taken per round (the two calls of a round shared clocks and temperature) and
  reported as the median over rounds with a 95% percentile-bootstrap interval:
    tritium_vs_triton   = triton / tritium   (above 1: tritium faster than Triton)
    tritium_vs_baseline = baseline / tritium (above 1: tritium faster than the library)
    triton_vs_baseline  = baseline / triton  (above 1: Triton faster than the library)
    noise               = noise arm / its first arm (an A/A ratio: how far its interval
                          strays from 1 is what this setup cannot resolve)
  Issue 4's target applies to tritium_vs_triton's median: 0.9 memory-bound, 0.8 matmul,
  0.7 attention; a speed short of it is reported, not an error.
- Amounts: memory-bound cases count each input read once and each output written once
  (bytes); matmul 2·M·N·K flops; attention 4·Z·H·N²·D flops, halved when causal.
- Roofs, measured in the same run: the device's copy bandwidth (dst.copy_(src) on 1 GiB,
  2 bytes moved per byte copied, median of 20 after 5 warm-up), against which memory-bound
  cases report percent_of_roof; and the best flop rate cuBLAS reached on the matmul cases of
  this run, against which matmul and attention report theirs (none when no matmul ran).

Not part of CI (needs a GPU, torch and triton). Run from the repository root:
    python3 kernels/tools/bench_upstream.py [--quick] [--only TEXT] [--dtype fp32|fp16|bf16]
        [--rounds N] [--time-per-case S] [--json FILE] [--tritium LIB]
Prints one table line per case once all ran (progress lines start with '#'); exit status 1
when a result (Triton's or tritium's) is wrong or tritium fails to compile or launch a case.
"""

import argparse
import json
import math
import sys
import time
from functools import partial

import torch
import triton
import torch.nn.functional as F

DEV = "cuda"

# kernels/tools is on sys.path when this runs as a script.
from kernel_loader import load_kernels  # noqa: E402
from bench_stats import (finite_or_none, fmt_ratio, median, more_rounds, paired_ratio,  # noqa: E402
                         percent_of_roof, round_order)


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
                if not torch.isfinite(o).all():  # an unwritten (NaN-poisoned) or non-finite element
                    return math.inf, 2e-2
                # Every head against float64 SDPA, 8 heads at a time (the float64 scores of 8
                # heads at N = 4096 are 1 GiB): the Frobenius error over the whole output.
                num = den = 0.0
                for z in range(q.shape[0]):
                    for h in range(0, q.shape[1], 8):
                        sl = (slice(z, z + 1), slice(h, h + 8))
                        ref = F.scaled_dot_product_attention(q[sl].double(), k[sl].double(), v[sl].double(),
                                                             is_causal=causal, scale=sc)
                        num += float(((o[sl].double() - ref) ** 2).sum())
                        den += float((ref ** 2).sum())
                return math.sqrt(num / max(den, 1e-300)), 2e-2   # bf16 P·V operands: ~2^-8 per element
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



WARMUP_CALLS, WARMUP_S = 10, 0.2
L2_CLEAR_BYTES = 256 << 20
DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def case_id(c):
    """"kernel/dtype/shape" (e.g. "softmax/bf16/32768x4096"), the id form of tritium bench."""
    short = {v: k for k, v in DTYPES.items()}[c.dtype]
    return f"{c.name}/{short}/{'x'.join(str(d) for d in c.shape)}"


def events():
    return torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)


def copy_bandwidth(nbytes=1 << 30):
    """Device copy bandwidth in bytes/s: dst.copy_(src) on `nbytes`, counted as 2·nbytes
    moved, the median of 20 event-timed copies after 5 warm-up ones."""
    src = torch.empty(nbytes, dtype=torch.uint8, device=DEV).random_(0, 256)
    dst = torch.empty_like(src)
    for _ in range(5):
        dst.copy_(src)
    ev = [events() for _ in range(20)]
    for s, e in ev:
        s.record()
        dst.copy_(src)
        e.record()
    torch.cuda.synchronize()
    return 2 * nbytes / median([s.elapsed_time(e) * 1e-3 for s, e in ev])


def time_arms(arms, min_rounds, time_per_case, l2):
    """{label: [seconds of each timed round]} for the (label, fn) `arms`, called once per
    round in bench_stats.round_order, `l2` zeroed before every call (the module docstring)."""
    fns = dict(arms)
    labels = list(fns)
    ev = {label: events() for label in labels}  # one pair per call of a round, reused each round

    def one_round(r):
        for label in round_order(labels, r):
            l2.zero_()
            ev[label][0].record()
            fns[label]()
            ev[label][1].record()
        torch.cuda.synchronize()

    r, t0 = 0, time.perf_counter()
    while r < WARMUP_CALLS or time.perf_counter() - t0 < WARMUP_S:  # warm-up rounds, not kept
        one_round(r)
        r += 1
    samples = {label: [] for label in labels}
    r = 0
    while more_rounds(r, sum(samples[labels[0]]), min_rounds, time_per_case):
        one_round(r)
        for label, (s, e) in ev.items():
            samples[label].append(s.elapsed_time(e) * 1e-3)
        r += 1
    return samples


def check(c):
    """{arm: check dict} for the impls of case `c` (a compile or launch error is reported)."""
    out = {}
    for label, fn in c.impls.items():
        try:
            err, bound = c.check(fn)
            err, bound, msg = float(err), float(bound), ""
        except Exception as e:  # a tritium compile or launch error: reported, the case goes on
            err, bound, msg = math.inf, 0.0, ((str(e).splitlines() or [type(e).__name__])[0])[:200]
        out[label] = {"rel_err": err, "bound": bound, "ok": not msg and err <= bound, "error": msg}
    return out


def run_case(c, args, l2, copy_bps):
    """The case's JSON record (the schema in main's --json help); compute-bound cases'
    percent_of_roof is filled in by main once every case ran."""
    mem = c.kind == "GB/s"
    r = {"kernel": c.name, "shape": list(c.shape), "dtype": str(c.dtype).replace("torch.", ""), "unit": c.kind,
         "bytes": float(c.amount) if mem else 0.0, "flops": 0.0 if mem else float(c.amount),
         "baseline": c.baseline[0], "checks": check(c), "timed": False, "rounds": 0, "arms": {}, "ratios": {},
         "percent_of_roof": {}, "target": target_of(c) if "tritium" in c.impls else None, "meets_target": None}
    ok = {label: ch["ok"] for label, ch in r["checks"].items()}
    if not ok["triton"]:
        return r
    first = "tritium" if ok.get("tritium") else "triton"
    base = c.baseline[0]
    arms = [("triton", c.impls["triton"])] + ([("tritium", c.impls["tritium"])] if first == "tritium" else [])
    arms += [c.baseline, (first + "'", c.impls[first])]
    s = time_arms(arms, args.rounds, args.time_per_case, l2)
    r["timed"], r["rounds"] = True, len(s["triton"])
    r["arms"] = {label: {"median_s": median(v), "samples_s": v} for label, v in s.items()}
    pairs = {"tritium_vs_triton": ("triton", "tritium"), "tritium_vs_baseline": (base, "tritium"),
             "triton_vs_baseline": (base, "triton"), "noise": (first + "'", first)}
    r["ratios"] = {k: paired_ratio(s[a], s[b]) for k, (a, b) in pairs.items() if a in s and b in s}
    if mem:
        r["percent_of_roof"] = {a: percent_of_roof(c.amount, r["arms"][a]["median_s"], copy_bps)
                                for a in ("triton", "tritium", base) if a in s}
    if "tritium_vs_triton" in r["ratios"]:
        r["meets_target"] = r["ratios"]["tritium_vs_triton"]["median"] >= r["target"]
    return r


def compute_peak(rows):
    """(flops/s, source): the best rate the cuBLAS baseline reached on this run's cases."""
    peak, src = 0.0, "none (no matmul case timed)"
    for r in rows:
        if r["timed"] and r["flops"] and r["baseline"] == "cublas":
            rate = r["flops"] / r["arms"]["cublas"]["median_s"]
            if rate > peak:
                peak, src = rate, f"cublas on {r['kernel']} {tuple(r['shape'])} {r['dtype']}"
    return peak, src


def errors_of(r):
    return "; ".join(f"{a} ERROR: {ch['error']}" if ch["error"] else
                     f"{a} WRONG: err {ch['rel_err']:.2e} > bound {ch['bound']:.1e}"
                     for a, ch in r["checks"].items() if not ch["ok"])


HDR = (f"{'kernel':17} {'shape':20} {'dtype':9} {'arm':8} {'ms':>9} {'rate':>8} {'%roof':>6} "
       f"{'vs triton [95%]':22} {'base':6} {'vs base [95%]':22} {'A/A [95%]':22} {'target':6} errors")


def table_line(r):
    a = "tritium" if "tritium" in r["arms"] else "triton"
    head = f"{r['kernel']:17} {str(tuple(r['shape'])):20} {r['dtype']:9} {a:8}"
    if not r["timed"]:
        return f"{head} {'not timed':>9} {'':8} {'':6} {'':22} {r['baseline']:6} {'':22} {'':22} {'':6} {errors_of(r)}"
    t = r["arms"][a]["median_s"]
    amount, scale = (r["bytes"], 1e9) if r["unit"] == "GB/s" else (r["flops"], 1e12)
    roof = r["percent_of_roof"].get(a)
    rt = r["ratios"]
    vs_base = rt.get("tritium_vs_baseline" if a == "tritium" else "triton_vs_baseline")
    tgt = "" if r["meets_target"] is None else ("ok" if r["meets_target"] else "short")
    return (f"{head} {t * 1e3:9.4f} {amount / t / scale:8.1f} {'-' if roof is None else f'{roof:.1f}':>6} "
            f"{fmt_ratio(rt.get('tritium_vs_triton')):22} {r['baseline']:6} {fmt_ratio(vs_base):22} "
            f"{fmt_ratio(rt.get('noise')):22} {tgt:6} {errors_of(r)}").rstrip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="small shapes, for a smoke run")
    ap.add_argument("--only", default="", metavar="TEXT",
                    help="run only cases whose id (kernel/dtype/shape, e.g. softmax/bf16/32768x4096: the form "
                         "tritium bench --filter matches) contains TEXT")
    ap.add_argument("--dtype", choices=sorted(DTYPES), help="run only cases of this storage dtype")
    ap.add_argument("--rounds", type=int, default=30, help="timed rounds per case, at least (default 30)")
    ap.add_argument("--time-per-case", type=float, default=1.0, metavar="S",
                    help="go on past --rounds while the first arm's timed total is under S seconds (default 1.0)")
    ap.add_argument("--json", default="", metavar="FILE",
                    help="write every figure to FILE (top level: driver, gpu, triton, torch, tritium, "
                         "copy_bytes_per_s, compute_peak_flops, compute_peak_source, cases)")
    ap.add_argument("--tritium", default="", metavar="LIB",
                    help="also run tritium's cuda backend on the same sources, through LIB (libtritium_c.so)")
    args = ap.parse_args()
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    torch.manual_seed(20261201)
    # Upstream Triton writes device-side tensor descriptors (matmul_descriptor_kernel) into
    # scratch memory from this allocator; tritium allocates its own.
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8, device=DEV))
    tritium = None
    if args.tritium:
        from tritium_ctypes import TritiumLib
        tritium = TritiumLib(args.tritium, backend="cuda")
    gpu = torch.cuda.get_device_name()
    print(f"# upstream triton {triton.__version__}, torch {torch.__version__}, {gpu}"
          + (f", tritium {tritium.version()}" if tritium else ""), flush=True)
    copy_bps = copy_bandwidth()
    torch.cuda.empty_cache()
    print(f"# copy bandwidth {copy_bps / 1e9:.1f} GB/s (1 GiB copy_, median of 20)", flush=True)
    l2 = torch.empty(L2_CLEAR_BYTES, dtype=torch.int8, device=DEV)
    load = loader(tritium)
    cases = memory_cases(args.quick, load) + matmul_cases(args.quick, load) + attention_cases(args.quick, load)
    cases = [c for c in cases if args.only in case_id(c) and (not args.dtype or c.dtype == DTYPES[args.dtype])]
    rows = []
    for i, c in enumerate(cases):
        t0 = time.perf_counter()
        rows.append(run_case(c, args, l2, copy_bps))
        print(f"# [{i + 1}/{len(cases)}] {c.name} {c.shape} {rows[-1]['dtype']}: {rows[-1]['rounds']} rounds, "
              f"{time.perf_counter() - t0:.1f} s", flush=True)
    peak, peak_src = compute_peak(rows)
    for r in rows:
        if r["timed"] and r["flops"] and peak > 0:
            r["percent_of_roof"] = {a: percent_of_roof(r["flops"], r["arms"][a]["median_s"], peak)
                                    for a in ("triton", "tritium", r["baseline"]) if a in r["arms"]}
    print(HDR)
    for r in rows:
        print(table_line(r))
    print("# arm: the kernel whose ms/rate/%roof are shown (tritium when it ran, else triton); rate GB/s "
          "(memory-bound) or TFLOP/s; %roof: of the copy bandwidth or of the compute peak; vs triton = "
          "triton/tritium, vs base = baseline/arm, A/A = noise arm/arm (medians over rounds, 95% bootstrap "
          "intervals; above 1: the arm faster); target (tritium vs triton): 0.9 memory-bound, 0.8 matmul, "
          "0.7 attention")
    print(f"# roofs: copy {copy_bps / 1e9:.1f} GB/s; compute {peak / 1e12:.1f} TFLOP/s ({peak_src})")
    for r in rows:
        for ch in r["checks"].values():
            ch["rel_err"] = finite_or_none(ch["rel_err"])
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"driver": "kernels/tools/bench_upstream.py", "gpu": gpu, "triton": triton.__version__,
                       "torch": torch.__version__, "tritium": tritium.version() if tritium else None,
                       "copy_bytes_per_s": copy_bps, "compute_peak_flops": peak, "compute_peak_source": peak_src,
                       "cases": rows}, f, indent=1, allow_nan=False)
    failed = sum(not ch["ok"] for r in rows for ch in r["checks"].values())
    if tritium:
        met = sum(1 for r in rows if r["meets_target"])
        print(f"# tritium: {met} of {len(rows)} cases at or above the target")
    print(f"# {len(rows)} cases, {failed} wrong results (Triton or tritium)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
