"""tritium.testing: do_bench and assert_close, as triton.testing's.

``do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="median")``
times ``fn()`` (a closure that launches kernels): it estimates one call's time, then calls
``fn`` for about ``warmup`` ms untimed and about ``rep`` ms timed, each call timed alone;
returns milliseconds: the median by default (a robust figure to take ratios of; "mean",
"min", "max", "all" as upstream), or the given ``quantiles``. Each call is timed
separately, so two kernels can be compared interleaved (A B A B ...) by alternating short
do_bench calls.

How a call is timed: when ``fn``'s launches ran on the cuda backend and torch has CUDA,
as upstream does — a 256 MB buffer is zeroed before each call (so the call starts with a
cold L2 cache) and the call is timed by CUDA events on torch's current stream (tritium's
launches go on that stream). Otherwise each call is followed by ``tritium.synchronize()``
and timed with the host's monotonic clock (``time.perf_counter``), launch overhead included.

``assert_close(x, y, atol=None, rtol=None, err_msg="")``: both converted to float64 numpy
arrays (torch tensors through ``.float().cpu()``), then ``numpy.testing.assert_allclose``
with atol 1e-2 and rtol 0 by default; NaN only matches NaN.

``perf_report`` / ``Benchmark``: the tutorials' benchmark tables (tritium/perf_report.py).
"""

from __future__ import annotations

import statistics
import sys
import time

from . import backend as _backend
from .perf_report import Benchmark, Mark, perf_report  # noqa: F401  (triton.testing's names)


def _sync():
    _backend.synchronize()


def _cuda_torch():
    """torch, when the launches so far ran on cuda and torch has CUDA (then events time)."""
    torch = sys.modules.get("torch")
    if "cuda" not in _backend._used or torch is None or not torch.cuda.is_available():
        return None
    return torch


def _bench_cuda(torch, fn, warmup, rep, grad_to_none):
    cache = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    ev = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731
    start, end = ev(), ev()
    start.record()
    for _ in range(5):
        cache.zero_()
        fn()
    end.record()
    torch.cuda.synchronize()
    est_ms = start.elapsed_time(end) / 5
    n_warmup = min(10000, max(1, int(warmup / max(est_ms, 1e-3))))
    n_repeat = min(10000, max(1, int(rep / max(est_ms, 1e-3))))
    for _ in range(n_warmup):
        fn()
    starts, ends = [ev() for _ in range(n_repeat)], [ev() for _ in range(n_repeat)]
    for i in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        cache.zero_()
        starts[i].record()
        fn()
        ends[i].record()
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in zip(starts, ends)]


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="median"):
    """Milliseconds per call of `fn` (see the module docstring)."""
    if return_mode not in ("min", "max", "mean", "median", "all"):
        raise ValueError(f"return_mode must be min, max, mean, median or all, got {return_mode!r}")
    fn()
    _sync()
    torch = _cuda_torch()
    if torch is not None:
        return _summarize(_bench_cuda(torch, fn, warmup, rep, grad_to_none), quantiles, return_mode)
    t0 = time.perf_counter()
    for _ in range(5):
        fn()
        _sync()
    est_ms = (time.perf_counter() - t0) * 1e3 / 5
    n_warmup = max(1, int(warmup / max(est_ms, 1e-3)))
    n_repeat = max(1, int(rep / max(est_ms, 1e-3)))
    n_warmup, n_repeat = min(n_warmup, 10000), min(n_repeat, 10000)
    for _ in range(n_warmup):
        fn()
    _sync()
    times = []
    for _ in range(n_repeat):
        if grad_to_none is not None:
            for x in grad_to_none:
                x.grad = None
        a = time.perf_counter()
        fn()
        _sync()
        times.append((time.perf_counter() - a) * 1e3)
    return _summarize(times, quantiles, return_mode)


def _summarize(times, quantiles, return_mode):
    if quantiles is not None:
        s = sorted(times)
        out = [s[min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))] for q in quantiles]
        return out[0] if len(out) == 1 else out
    if return_mode == "all":
        return times
    return {"min": min, "max": max, "mean": statistics.fmean, "median": statistics.median}[return_mode](times)


def _to_numpy(x):
    import numpy as np

    if hasattr(x, "detach"):  # torch
        x = x.detach()
        if hasattr(x, "float") and x.is_floating_point():
            x = x.float()
        return x.cpu().numpy().astype(np.float64)
    return np.asarray(x, dtype=np.float64)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Raises AssertionError unless |x - y| <= atol + rtol |y| elementwise (as upstream: for
    more than one element NaN equals NaN, for one element it does not; atol / rtol may be
    functions of the dtype)."""
    import numpy as np

    a, b = _to_numpy(x), _to_numpy(y)
    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    dt = getattr(x, "dtype", a.dtype)  # upstream: a tolerance may be a function of x's dtype
    atol = atol(dt) if callable(atol) else atol
    rtol = rtol(dt) if callable(rtol) else rtol
    if a.size > 1 or b.size > 1:
        np.testing.assert_allclose(a, b, atol=atol, rtol=rtol, equal_nan=True, err_msg=err_msg)
        return
    # One element, as upstream: NaN does not equal NaN here.
    if not np.allclose(a, b, atol=atol, rtol=rtol):
        raise AssertionError(f"{err_msg} {a} is not close to {b} (atol={atol}, rtol={rtol})")
