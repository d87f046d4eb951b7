"""Arrays for the tutorial-style scripts beside this file, on whatever the machine has.

The scripts are written as Triton tutorials are (``import triton``; torch tensors on the
GPU) and run unchanged on upstream Triton and on tritium (``python -m tritium.run``). On a
machine with a CUDA GPU and torch they use torch CUDA tensors; elsewhere numpy arrays
(tritium's cpu backend reads them in place). Inputs are random, from the seed in
``$TRITIUM_SCRIPT_SEED`` (fresh per run when unset; printed), so two runs of a script —
upstream and tritium — can be given the same inputs. ``$TRITIUM_SCRIPT_DUMP``, when set,
is a directory where ``check`` saves every output (``<script>.<name>.npy``) for a
bitwise comparison between the two runs.
"""

import os
import sys

import numpy as np

try:
    import torch

    ON_GPU = torch.cuda.is_available()
except ImportError:  # no torch: numpy on the host
    torch = None
    ON_GPU = False

SEED = int(os.environ.get("TRITIUM_SCRIPT_SEED", int.from_bytes(os.urandom(4), "little")))
_rng = np.random.default_rng(SEED)
_SCRIPT = os.path.splitext(os.path.basename(sys.argv[0]))[0]
_failures = []

_NP = {"float32": np.float32, "float16": np.float16, "float64": np.float64, "int32": np.int32}


def randn(*shape, dtype="float32", scale=1.0):
    """Normal random values (never all zero), on the GPU when there is one."""
    a = (_rng.standard_normal(shape) * scale).astype(np.float32)
    return from_numpy(a, dtype)


def from_numpy(a, dtype="float32"):
    if ON_GPU:
        return torch.from_numpy(np.ascontiguousarray(a)).to(device="cuda", dtype=getattr(torch, dtype))
    return np.ascontiguousarray(a.astype(_NP[dtype]))


def empty(*shape, dtype="float32"):
    """An output poisoned with NaN, so an element the kernel does not write shows."""
    if ON_GPU:
        return torch.full(shape, float("nan"), device="cuda", dtype=getattr(torch, dtype))
    return np.full(shape, np.nan, dtype=_NP[dtype])


def to_numpy(t):
    """float64 numpy copy of a result or input."""
    if ON_GPU:
        torch.cuda.synchronize()
        return t.detach().float().cpu().numpy().astype(np.float64)
    return np.asarray(t, dtype=np.float64)


def check(name, got, ref, atol, rtol):
    """Compares `got` with the float64 reference `ref`: |got - ref| <= atol + rtol |ref|; NaN fails."""
    g = to_numpy(got)
    dump = os.environ.get("TRITIUM_SCRIPT_DUMP")
    if dump:
        raw = got.detach().cpu().numpy() if ON_GPU else np.asarray(got)
        np.save(os.path.join(dump, f"{_SCRIPT}.{name}.npy"), raw)
    err = np.abs(g - ref)
    bad = ~(err <= atol + rtol * np.abs(ref))  # NaN compares False: counted bad
    worst = float(np.nanmax(err)) if np.isfinite(err).any() else float("nan")
    status = "ok" if not bad.any() else "FAIL"
    print(f"{status:4} {_SCRIPT}.{name}: max |err| {worst:.3e} (atol {atol:g}, rtol {rtol:g}), "
          f"{int(bad.sum())} of {bad.size} outside, seed {SEED}")
    if bad.any():
        _failures.append(name)


def finish():
    """Exits non-zero when a check failed."""
    if _failures:
        print(f"{_SCRIPT}: FAILED: {', '.join(_failures)}")
        sys.exit(1)
    print(f"{_SCRIPT}: all checks passed")
