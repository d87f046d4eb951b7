#!/usr/bin/env python3
"""Upstream Triton's own outputs beside tritium's, for the same kernel sources and inputs.

Issue 6's H200 record: for the built-in suite's elementwise and row kernels (kernels/*.py)
and an fp32 ieee matmul (kernels/tools/ieee_matmul.py), the same deterministic inputs (a
seeded torch generator on the GPU; never zeros) go to upstream Triton and to tritium's cuda
backend (through libtritium_c.so, native numerics: the instructions upstream uses), each
output is hashed (SHA-256 of its bytes) and the two are compared byte for byte; tritium is
also run twice (run-to-run determinism). Every output is checked against a float64 torch
reference first (relative Frobenius error under the dtype's bound; NaN fails).

This is a measurement: agreement is expected where both compilers issue the same
correctly rounded or identically approximated operations in the same order (vector add,
SwiGLU's ex2.approx / div.full, the ieee dot's fma chain); row reductions may combine in
another order (tritium's canonical tree vs upstream's layout) and are reported as measured.

Not part of CI (needs a GPU, torch and triton). From the repository root:
    python3 kernels/tools/hash_upstream.py --tritium build-gpu/capi/libtritium_c.so [--json out.json]
Exit status 1 when a result is wrong or tritium is not deterministic; differences between
the two compilers are reported, not errors.
"""

import argparse
import hashlib
import json
import os
import sys

import torch
import triton

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kernel_loader import load_kernels  # noqa: E402
from tritium_ctypes import TritiumLib  # noqa: E402

DEV = "cuda"
TOL = {torch.float32: 1e-5, torch.float16: 2e-3, torch.bfloat16: 1.6e-2}  # ~ a few units of the dtype's rounding


def rnd(gen, *shape, dtype, scale=1.0):
    x = torch.randn(*shape, device=DEV, dtype=torch.float32, generator=gen) * scale
    x = torch.where(x == 0, torch.full_like(x, 0.5), x)  # never zeros
    return x.to(dtype)


def rel_err(got, ref):
    got, ref = got.double(), ref.double()
    if torch.isnan(got).any():
        return float("inf")
    return ((got - ref).norm() / ref.norm().clamp_min(1e-300)).item()


def sha(t):
    return hashlib.sha256(t.detach().cpu().contiguous().view(torch.uint8).numpy().tobytes()).hexdigest()


def cases(gen):
    """(name, dtype, launch(module, outs), outs factory, reference(outs) -> error) per case."""
    va, sw, sm, rn, ln = (load_kernels(n) for n in ("vector_add", "swiglu", "softmax", "rmsnorm", "layernorm"))
    mm = load_kernels("tools/ieee_matmul")
    mods = {"vector_add": va, "swiglu": sw, "softmax": sm, "rmsnorm": rn, "layernorm": ln, "ieee_matmul": mm}
    out = []
    n, B = (1 << 20) + 3, 1024
    rows, cols = 1000, 3000
    blk = triton.next_power_of_2(cols)
    for dt in (torch.float32, torch.float16, torch.bfloat16):
        x, y = rnd(gen, n, dtype=dt), rnd(gen, n, dtype=dt, scale=3)
        out.append(("vector_add", dt, lambda m, o, x=x, y=y: m.add_kernel[(triton.cdiv(n, B),)](x, y, o[0], n, BLOCK_SIZE=B),
                    lambda x=x: [torch.empty_like(x)], lambda o, x=x, y=y: rel_err(o[0], x.double() + y.double())))
        out.append(("swiglu", dt, lambda m, o, x=x, y=y: m.swiglu_kernel[(triton.cdiv(n, B),)](y, x, o[0], n, BLOCK_SIZE=B),
                    lambda x=x: [torch.empty_like(x)],
                    lambda o, x=x, y=y: rel_err(o[0], y.double() * torch.sigmoid(y.double()) * x.double())))
        r = rnd(gen, rows, cols, dtype=dt, scale=2)
        w, b = rnd(gen, cols, dtype=dt), rnd(gen, cols, dtype=dt)
        out.append(("softmax", dt, lambda m, o, r=r: m.softmax_kernel[(rows,)](o[0], r, r.stride(0), o[0].stride(0), cols,
                                                                                 BLOCK_SIZE=blk, num_warps=8),
                    lambda r=r: [torch.empty_like(r)], lambda o, r=r: rel_err(o[0], torch.softmax(r.double(), dim=1))))
        out.append(("rmsnorm", dt, lambda m, o, r=r, w=w: m.rmsnorm_kernel[(rows,)](r, w, o[0], r.stride(0), o[0].stride(0),
                                                                                      cols, 1e-6, BLOCK_SIZE=1024, num_warps=8),
                    lambda r=r: [torch.empty_like(r)],
                    lambda o, r=r, w=w: rel_err(o[0], r.double() * torch.rsqrt((r.double() ** 2).mean(1, keepdim=True) + 1e-6)
                                                * w.double())))
        out.append(("layernorm", dt,
                    lambda m, o, r=r, w=w, b=b: m.layernorm_kernel[(rows,)](r, w, b, o[0], o[1], o[2], r.stride(0),
                                                                            o[0].stride(0), cols, 1e-5, BLOCK_SIZE=1024,
                                                                            num_warps=8),
                    lambda r=r: [torch.empty_like(r), torch.empty(rows, device=DEV), torch.empty(rows, device=DEV)],
                    lambda o, r=r, w=w, b=b: rel_err(o[0], torch.nn.functional.layer_norm(r.double(), (cols,), w.double(),
                                                                                          b.double(), 1e-5))))
    M, N, K = 300, 200, 517
    a, bm = rnd(gen, M, K, dtype=torch.float32), rnd(gen, K, N, dtype=torch.float32)
    out.append(("ieee_matmul", torch.float32,
                lambda m, o: m.ieee_matmul_kernel[(triton.cdiv(M, 64), triton.cdiv(N, 64))](a, bm, o[0], M, N, K, BLOCK_M=64,
                                                                                             BLOCK_N=64, BLOCK_K=32),
                lambda: [torch.empty(M, N, device=DEV)], lambda o: rel_err(o[0], a.double() @ bm.double())))
    return mods, out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tritium", required=True, metavar="LIB", help="build/capi/libtritium_c.so")
    ap.add_argument("--json", default="")
    args = ap.parse_args()
    gen = torch.Generator(device=DEV)
    gen.manual_seed(20261203)
    mods, cs = cases(gen)
    lib = TritiumLib(args.tritium, backend="cuda")
    tri = {k: lib.module(m) for k, m in mods.items()}
    rows, bad = [], 0
    print(f"{'case':<24} {'output':<6} {'triton sha256':<14} {'tritium sha256':<14} {'equal':<6} "
          f"{'differing':>10} {'err triton':>11} {'err tritium':>11}")
    for name, dt, launch, make, check in cs:
        outs = {}
        errs = {}
        for impl, mod in (("triton", mods[name]), ("tritium", tri[name]), ("tritium2", tri[name])):
            o = make()
            for t in o:
                t.fill_(float("nan"))
            launch(mod, o)
            torch.cuda.synchronize()
            outs[impl], errs[impl] = o, check(o)
        label = f"{name}/{str(dt).replace('torch.', '')}"
        for i, (a, b, c) in enumerate(zip(outs["triton"], outs["tritium"], outs["tritium2"])):
            eq = torch.equal(a.view(torch.uint8), b.view(torch.uint8))
            det = torch.equal(b.view(torch.uint8), c.view(torch.uint8))
            ndiff = int((a.view(torch.uint8).view(-1) != b.view(torch.uint8).view(-1)).sum()) if not eq else 0
            ok = errs["triton"] <= TOL[dt] and errs["tritium"] <= TOL[dt] and det
            bad += not ok
            rows.append({"case": label, "output": i, "triton_sha256": sha(a), "tritium_sha256": sha(b), "equal": eq,
                         "differing_bytes": ndiff, "tritium_deterministic": det, "err_triton": errs["triton"],
                         "err_tritium": errs["tritium"], "tolerance": TOL[dt]})
            print(f"{label:<24} {i:<6} {sha(a)[:12]:<14} {sha(b)[:12]:<14} {'yes' if eq else 'no':<6} {ndiff:>10} "
                  f"{errs['triton']:>11.2e} {errs['tritium']:>11.2e}{'' if ok else '  WRONG or nondeterministic'}")
    same = sum(r["equal"] for r in rows)
    print(f"\n{same} of {len(rows)} outputs bit-identical between upstream Triton {triton.__version__} and tritium (cuda, native)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"triton": triton.__version__, "torch": torch.__version__, "gpu": torch.cuda.get_device_name(),
                       "rows": rows}, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
