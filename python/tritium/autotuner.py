"""tritium.autotune, tritium.heuristics and tritium.Config, with triton's semantics.

Upstream: python/triton/runtime/autotuner.py (Triton 3.6). Both decorators wrap a
JITFunction (or each other); the outermost acts first.

``@autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None,
pre_hook=None, post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None,
cache_results=False)``: the first launch with a new value of the ``key`` arguments (plus
the dtypes of the tensor arguments) times every config (after ``prune_configs_by``:
``early_config_prune(configs, named_args, **kwargs)``, then ``perf_model`` / ``top_k``)
with ``tritium.testing.do_bench`` — each config's launch zeroes ``reset_to_zero`` tensors
first, and ``restore_value`` tensors are restored after each timing — and keeps the
fastest for that key; later launches with the key use it. A config that fails to compile
counts as infinitely slow. ``TRITON_PRINT_AUTOTUNING=1`` (or TRITIUM_PRINT_AUTOTUNING)
prints the choice. A meta-parameter passed by the caller that a config also sets is an
error ("Conflicting meta-parameters").

``@heuristics(values)``: ``values`` maps a meta-parameter name to a function of ``args``
(a dict of the bound arguments by name and the meta-parameters so far), evaluated at each
launch.
"""

from __future__ import annotations

import builtins
import os
import time

from .errors import CompilationError
from .jit import KernelInterface


class Config:
    """One autotuning configuration: meta-parameters (kwargs) and launch options."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None, ir_override=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def all_kwargs(self):
        """The meta-parameters and the launch options set (None ones left out)."""
        out = dict(self.kwargs)
        for k in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
            v = getattr(self, k)
            if v is not None:
                out[k] = v
        return out

    def __str__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}", f"num_stages: {self.num_stages}",
                  f"maxnreg: {self.maxnreg}"]
        return ", ".join(parts)

    __repr__ = __str__

    # As upstream: the pre_hook is part of a config's identity (two configs differing only
    # in their hooks are timed, and used, separately).
    def __eq__(self, other):
        return isinstance(other, Config) and self.all_kwargs() == other.all_kwargs() and \
            self.pre_hook == other.pre_hook

    def __hash__(self):
        return hash((tuple(sorted(self.all_kwargs().items())), self.pre_hook))


def _check_no_conflict(config, kwargs):
    """Upstream's error for a meta-parameter the caller passes that `config` also sets."""
    for k in config.kwargs:
        if k in kwargs:
            raise ValueError(f"Conflicting meta-parameters: {k}. Make sure that you don't re-define auto-tuned "
                             "symbols.")


def _base_jit(fn):
    while not hasattr(fn, "_binder"):
        fn = fn.fn
    return fn


class Autotuner(KernelInterface):
    """The object ``@autotune`` returns; ``.cache`` maps tuning keys to the chosen Config."""

    def __init__(self, fn, arg_names, configs, key, reset_to_zero, restore_value, pre_hook=None, post_hook=None,
                 prune_configs_by=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None,
                 cache_results=False):
        self.fn = fn
        self.arg_names = arg_names
        self.configs = list(configs) if configs else [Config({})]
        self.keys = list(key)
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.user_pre_hook = pre_hook
        self.user_post_hook = post_hook
        prune_configs_by = prune_configs_by or {}
        self.early_config_prune = prune_configs_by.get("early_config_prune")
        self.perf_model = prune_configs_by.get("perf_model")
        self.configs_top_k = prune_configs_by.get("top_k", 1.0)
        self.num_warmups = warmup  # do_bench's warmup (ms); not named `warmup`: that is the method
        self.rep = rep
        self.custom_do_bench = do_bench
        self.cache = {}
        self.configs_timings = None
        self.best_config = None
        for n in self.reset_to_zero + self.restore_value:
            if n not in arg_names:
                raise ValueError(f"autotune: '{n}' (reset_to_zero / restore_value) is not a parameter of "
                                 f"{getattr(_base_jit(fn).fn, '__name__', fn)}")

    def _named(self, args, kwargs):
        """The arguments by name: positional ones, then keyword ones naming parameters."""
        named = dict(zip(self.arg_names, args))
        named.update({k: v for k, v in kwargs.items() if k in self.arg_names})
        return named

    def _bench(self, args, kwargs, named, config, grid):
        from .testing import do_bench

        _check_no_conflict(config, kwargs)
        current = dict(kwargs, **config.all_kwargs())

        # As upstream: a user pre_hook replaces the reset_to_zero zeroing and a user
        # post_hook the restore_value restoring; the post_hook sees the launch's exception.
        full = dict(named, **current)

        # restore_value: the buffers are copied before and put back after EVERY benchmarked
        # launch (upstream's default hooks), so each launch starts from the caller's values.
        restore = [] if (self.user_pre_hook or self.user_post_hook) else self.restore_value
        saved = {}

        def launch():
            if config.pre_hook:
                config.pre_hook(full)
            if self.user_pre_hook:
                self.user_pre_hook(full)
            else:
                for name in self.reset_to_zero:
                    _zero(named[name])
                for name in restore:
                    saved[name] = _snapshot(named[name])
            try:
                self.fn.run(*args, grid=grid, **current)
            except Exception as e:
                if self.user_post_hook:
                    self.user_post_hook(full, exception=e)
                raise
            finally:
                for name, v in saved.items():
                    _restore(named[name], v)
                saved.clear()
            if self.user_post_hook:
                self.user_post_hook(full, exception=None)

        try:
            if self.custom_do_bench:
                t = self.custom_do_bench(launch, quantiles=(0.5, 0.2, 0.8))
            else:
                t = do_bench(launch, warmup=self.num_warmups or 25, rep=self.rep or 100, quantiles=(0.5, 0.2, 0.8))
            return t[0] if isinstance(t, (list, tuple)) else t
        except CompilationError:
            return float("inf")

    def prune_configs(self, kwargs, named):
        pruned = self.configs
        if self.early_config_prune:
            pruned = list(self.early_config_prune(self.configs, named, **kwargs))
            if not pruned:
                raise ValueError("autotune: early_config_prune returned no configs")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(pruned) * top_k)
            top_k = builtins.max(1, top_k)
            if len(pruned) > top_k:
                est = {c: self.perf_model(**dict(named, **kwargs, **c.all_kwargs())) for c in pruned}
                pruned = sorted(est, key=est.get)[:top_k]
        return pruned

    def run(self, *args, grid, warmup=False, **kwargs):
        if warmup:  # compile, never benchmark or launch (e.g. heuristics(...).warmup over autotune)
            return self.warmup(*args, grid=grid, **kwargs)
        named = self._named(args, kwargs)
        if len(self.configs) > 1:
            key = [named[k] for k in self.keys if k in named]
            for v in named.values():
                if hasattr(v, "dtype"):
                    key.append(str(v.dtype))
            key = tuple(key)
            if key not in self.cache:
                t0 = time.perf_counter()
                pruned = self.prune_configs(kwargs, named)
                timings = {c: self._bench(args, kwargs, named, c, grid) for c in pruned}
                best = builtins.min(timings, key=timings.get)
                if timings[best] == float("inf"):
                    # Every config failed: launch the first, which raises its error.
                    best = pruned[0]
                self.cache[key] = best
                self.configs_timings = timings
                if self.user_pre_hook:  # upstream: the hook, told it is only to reset
                    self.user_pre_hook(dict(named, **kwargs, **best.all_kwargs()), reset_only=True)
                else:
                    for name in self.reset_to_zero:
                        _zero(named[name])
                if os.environ.get("TRITON_PRINT_AUTOTUNING") == "1" or os.environ.get("TRITIUM_PRINT_AUTOTUNING") == "1":
                    print(f"Triton autotuning for function {_base_jit(self.fn).fn.__name__}, finished after "
                          f"{time.perf_counter() - t0:.2f}s; best config selected: {best};")
            config = self.cache[key]
        else:
            config = self.configs[0]
        self.best_config = config
        _check_no_conflict(config, kwargs)
        current = dict(kwargs, **config.all_kwargs())
        if config.pre_hook:
            config.pre_hook(dict(named, **current))
        return self.fn.run(*args, grid=grid, warmup=warmup, **current)

    def warmup(self, *args, grid, **kwargs):
        """Compiles every (pruned) config for these arguments without launching."""
        named = self._named(args, kwargs)
        return [self.fn.run(*args, grid=grid, warmup=True, **dict(kwargs, **c.all_kwargs()))
                for c in self.prune_configs(kwargs, named)]


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None, cache_results=False):
    """Decorator: time `configs` per value of the `key` arguments and launch the fastest."""

    def decorator(fn):
        return Autotuner(fn, _base_jit(fn).arg_names, configs, key, reset_to_zero, restore_value, pre_hook=pre_hook,
                         post_hook=post_hook, prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                         use_cuda_graph=use_cuda_graph, do_bench=do_bench, cache_results=cache_results)

    return decorator


class Heuristics(KernelInterface):
    """The object ``@heuristics`` returns."""

    def __init__(self, fn, arg_names, values):
        self.fn = fn
        self.arg_names = arg_names
        self.values = values

    def run(self, *args, grid, warmup=False, **kwargs):
        base = _base_jit(self.fn)
        named = dict(zip(base.arg_names, args))
        for v, heur in self.values.items():  # as upstream: a value passed as well is overridden
            kwargs[v] = heur({**named, **kwargs})
        return self.fn.run(*args, grid=grid, warmup=warmup, **kwargs)

    def warmup(self, *args, grid, **kwargs):
        return self.run(*args, grid=grid, warmup=True, **kwargs)


def heuristics(values):
    """Decorator: set meta-parameters from functions of the arguments at each launch."""

    def decorator(fn):
        return Heuristics(fn, _base_jit(fn).arg_names, values)

    return decorator


# -- tensors the autotuner zeroes and restores (numpy arrays, torch tensors, DLPack) ---------
def _zero(t):
    if hasattr(t, "zero_"):
        t.zero_()
    elif hasattr(t, "fill"):
        t.fill(0)
    else:
        raise TypeError(f"autotune reset_to_zero: cannot zero {type(t).__name__}")


def _snapshot(t):
    if hasattr(t, "clone"):
        return t.clone()
    if hasattr(t, "copy"):
        return t.copy()
    raise TypeError(f"autotune restore_value: cannot copy {type(t).__name__}")


def _restore(t, saved):
    if hasattr(t, "copy_"):
        t.copy_(saved)
    else:
        t[...] = saved
