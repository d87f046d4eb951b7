"""tritium.testing: do_bench and assert_close, as triton.testing's.

``do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="median")``
times ``fn()`` (a closure that launches kernels): it estimates one call's time, then calls
``fn`` for about ``warmup`` ms untimed and about ``rep`` ms timed, each call followed by
``tritium.synchronize()`` and timed alone with the host's monotonic clock
(``time.perf_counter``); returns milliseconds: the median by default (a robust figure
to take ratios of; "mean", "min", "max", "all" as upstream), or the given ``quantiles``.
Each call is timed separately, so two kernels can be compared interleaved (A B A B ...) by
alternating short do_bench calls. Unlike upstream on GPUs this does not flush the L2
cache between calls and the figure includes the launch overhead.

``assert_close(x, y, atol=None, rtol=None, err_msg="")``: both converted to float64 numpy
arrays (torch tensors through ``.float().cpu()``), then ``numpy.testing.assert_allclose``
with atol 1e-2 and rtol 0 by default; NaN only matches NaN.

``perf_report`` / ``Benchmark``: the tutorials' benchmark tables (tritium/perf_report.py).
"""

from __future__ import annotations

import statistics
import time

from . import backend as _backend
from .perf_report import Benchmark, Mark, perf_report  # noqa: F401  (triton.testing's names)


def _sync():
    _backend.synchronize()


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="median"):
    """Milliseconds per call of `fn` (see the module docstring)."""
    if return_mode not in ("min", "max", "mean", "median", "all"):
        raise ValueError(f"return_mode must be min, max, mean, median or all, got {return_mode!r}")
    fn()
    _sync()
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
    """Raises AssertionError unless |x - y| <= atol + rtol |y| elementwise (NaN only equals NaN)."""
    import numpy as np

    atol = 1e-2 if atol is None else atol
    rtol = 0.0 if rtol is None else rtol
    a, b = _to_numpy(x), _to_numpy(y)
    np.testing.assert_allclose(a, b, atol=atol, rtol=rtol, equal_nan=True, err_msg=err_msg)
