"""Launch overhead of a cached kernel from Python: tritium.jit vs upstream triton.jit on the
same kernel source, torch CUDA tensors, one GPU (run by scripts/gpu-check --python).

Each launch is `kernel[(1,)](x, y, out, n, BLOCK=1024)` of a one-program vector add whose
GPU time (~2-3 us) is below the host cost of a launch, so back-to-back launches measure the
host side: binding, specialization key, cache lookup, argument packing and the driver
call. A round times 2,000 launches of one JIT (then synchronizes; the per-launch figure is
total / 2,000); rounds interleave A (upstream) B (tritium) A' B' ..., 15 of each, and the
medians are reported with the A-vs-A' and B-vs-B' noise (median |X/X' - 1| over rounds).
A fifth series times tritium's kernel.warmup (the same host work without the driver call), to
split tritium's figure. Both kernels' outputs are checked against a float64 reference first (exact: one fp32 add).
Prints a table and writes --json.
"""

import argparse
import json
import statistics
import time

import torch
import triton
import triton.language as tl

import tritium


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


tritium_add = tritium.jit(add_kernel.fn)


def per_launch_us(k, args, n=2000):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        k[(1,)](*args, BLOCK=1024)
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / n * 1e6


def per_warmup_us(k, args, n=2000):
    """tritium's host side without the driver call: bind, specialize, look the kernel up."""
    t0 = time.perf_counter()
    for _ in range(n):
        k.warmup(*args, BLOCK=1024, grid=(1,))
    return (time.perf_counter() - t0) / n * 1e6


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--rounds", type=int, default=15)
    a = ap.parse_args()
    n = 1000
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    ref = (x.double() + y.double()).float()
    for name, k in (("triton", add_kernel), ("tritium", tritium_add)):
        out = torch.full((n,), float("nan"), device="cuda")
        k[(1,)](x, y, out, n, BLOCK=1024)
        torch.cuda.synchronize()
        if not torch.equal(out, ref):
            raise SystemExit(f"{name}: wrong result")
    out = torch.empty(n, device="cuda")
    args = (x, y, out, n)
    for k in (add_kernel, tritium_add):  # warm: compiled and cached
        per_launch_us(k, args, 200)
    rounds = {"triton": [], "tritium": [], "triton'": [], "tritium'": []}
    for _ in range(a.rounds):
        rounds["triton"].append(per_launch_us(add_kernel, args))
        rounds["tritium"].append(per_launch_us(tritium_add, args))
        rounds["triton'"].append(per_launch_us(add_kernel, args))
        rounds["tritium'"].append(per_launch_us(tritium_add, args))
        rounds.setdefault("tritium warmup only", []).append(per_warmup_us(tritium_add, args))
    med = {k: statistics.median(v) for k, v in rounds.items()}
    noise = {k: statistics.median(abs(p / q - 1) for p, q in zip(rounds[k], rounds[k + "'"]))
             for k in ("triton", "tritium")}
    ratios = [t / u for t, u in zip(rounds["tritium"], rounds["triton"])]
    print(f"{'jit':10} {'us/launch':>10} {'noise':>8}")
    for k in ("triton", "tritium"):
        print(f"{k:10} {med[k]:10.2f} {noise[k] * 100:7.1f}%")
    print(f"(tritium's host side without the driver call, kernel.warmup: {med['tritium warmup only']:.2f} us)")
    print(f"tritium / triton launch time: {statistics.median(ratios):.3f} (median of per-round ratios; < 1: tritium "
          f"launches faster), rounds {a.rounds}, torch {torch.__version__}, triton {triton.__version__}, "
          f"{torch.cuda.get_device_name()}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rounds": rounds, "median_us": med, "noise": noise,
                       "ratio_tritium_over_triton": statistics.median(ratios), "torch": torch.__version__,
                       "triton": triton.__version__, "gpu": torch.cuda.get_device_name()}, f, indent=1)


if __name__ == "__main__":
    main()
