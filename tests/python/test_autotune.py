"""tritium.autotune and tritium.heuristics (triton's semantics) on the cpu backend.

Results are checked against float64 numpy references on NaN-poisoned outputs; the
kernels do exact arithmetic (sums of small integers in fp32), so comparisons are exact.
"""

import numpy as np
import pytest

import tritium

from conftest import poisoned

SRC = """
import tritium
import tritium.language as tl

CALLS = []


def prune(configs, named_args, **kwargs):
    CALLS.append(("prune", named_args["n"]))
    return [c for c in configs if c.kwargs["BLOCK"] <= 512]


@tritium.autotune(
    configs=[tritium.Config({"BLOCK": 128}, num_warps=2), tritium.Config({"BLOCK": 256}),
             tritium.Config({"BLOCK": 512}, num_warps=8), tritium.Config({"BLOCK": 4096})],
    key=["n"],
    prune_configs_by={"early_config_prune": prune},
)
@tritium.jit
def double_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2, mask=m)


@tritium.autotune(configs=[tritium.Config({"BLOCK": 64}), tritium.Config({"BLOCK": 128})], key=["n"],
                  reset_to_zero=["acc_ptr"])
@tritium.jit
def accumulate_kernel(x_ptr, acc_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.atomic_add(acc_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


@tritium.heuristics({"EVEN": lambda a: a["n"] % 2 == 0})
@tritium.autotune(configs=[tritium.Config({"BLOCK": 64}), tritium.Config({"BLOCK": 128})], key=["n"],
                  prune_configs_by={"perf_model": lambda **kw: kw["BLOCK"] * (1 if kw["n"] > 0 else 2), "top_k": 1})
@tritium.jit
def fill_kernel(out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.full([BLOCK], 7.0, tl.float32) + EVEN, mask=offs < n)


@tritium.heuristics({"BLOCK": lambda args: tritium.next_power_of_2(args["n"]),
                     "EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
@tritium.jit
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs))
    else:
        m = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)
"""


@pytest.fixture
def mod(write_module):
    return write_module("autotune_mod", SRC)


def grid_for(meta):
    return (tritium.cdiv(meta["n"], meta["BLOCK"]),)


def test_autotune_picks_a_config_per_key_and_prunes(mod, rng):
    for n in (1000, 3000):
        x = rng.integers(-100, 100, n).astype(np.float32)
        out = poisoned(n, np.float32)
        k = mod.double_kernel[grid_for](x, out, n)
        np.testing.assert_array_equal(out, x * 2)
        best = mod.double_kernel.best_config
        assert best.kwargs["BLOCK"] in (128, 256, 512)  # 4096 was pruned
        assert f"BLOCK={best.kwargs['BLOCK']}" in k.signature
        assert k.metadata["num_warps"] == best.num_warps
    assert len(mod.double_kernel.cache) == 2
    assert [c for c in mod.CALLS if c[0] == "prune"] == [("prune", 1000), ("prune", 3000)]
    # A key already tuned is not tuned again.
    x = rng.integers(-100, 100, 1000).astype(np.float32)
    out = poisoned(1000, np.float32)
    mod.double_kernel[grid_for](x, out, 1000)
    assert len([c for c in mod.CALLS if c[0] == "prune"]) == 2
    np.testing.assert_array_equal(out, x * 2)


def test_autotune_reset_to_zero(mod, rng):
    n = 700
    x = rng.integers(-50, 50, n).astype(np.float32)
    acc = rng.integers(-50, 50, n).astype(np.float32)  # not zero: the tuner zeroes it
    mod.accumulate_kernel[grid_for](x, acc, n)
    # Tuning launched the kernel many times, zeroing acc before each and after the last;
    # then the chosen config ran once more.
    np.testing.assert_array_equal(acc, x)


def test_autotune_conflicting_meta_parameter(mod, rng):
    x = np.ones(16, np.float32)
    out = poisoned(16, np.float32)
    with pytest.raises(ValueError, match="Conflicting meta-parameters: BLOCK"):
        mod.double_kernel[grid_for](x, out, 16, BLOCK=64)


@pytest.mark.parametrize("n", [64, 100])
def test_heuristics(mod, rng, n):
    x = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    k = mod.copy_kernel[(1,)](x, out, n)
    np.testing.assert_array_equal(out, x)
    block = tritium.next_power_of_2(n)
    assert f"BLOCK={block}" in k.signature
    assert (f"EVEN={'True' if n % block == 0 else 'False'}") in k.signature


def test_a_value_heuristics_compute_may_be_passed_and_is_overridden(mod, rng):
    # Upstream's Heuristics.run assigns kwargs[v] = heur(...): a passed BLOCK is replaced.
    n = 50
    x = rng.standard_normal(n).astype(np.float32)
    out = poisoned(n, np.float32)
    k = mod.copy_kernel[(1,)](x, out, n, BLOCK=8)
    np.testing.assert_array_equal(out, x)  # BLOCK=8 would have copied 8 elements only
    assert "BLOCK=64" in k.signature


def test_warmup_of_autotuned_kernels_compiles_without_launching(mod):
    # Autotuner.warmup is a method (its do_bench option is not named `warmup`), and
    # heuristics over autotune: warmup compiles every config, benchmarks and launches none.
    out = poisoned(200, np.float32)
    grid = lambda m: (tritium.cdiv(200, m["BLOCK"]),)  # noqa: E731
    compiled = mod.fill_kernel.fn.warmup(out, 200, EVEN=True, grid=grid)
    assert len(compiled) == 1  # the configs left after perf_model's top_k = 1
    mod.fill_kernel.warmup(out, 200, grid=grid)
    assert np.isnan(out).all()


def test_perf_model_with_keyword_arguments(mod):
    # perf_model gets every argument once, keyword-passed ones included; it picks BLOCK=64.
    out = poisoned(300, np.float32)
    mod.fill_kernel[lambda m: (tritium.cdiv(300, m["BLOCK"]),)](out, n=300)
    np.testing.assert_array_equal(out, np.full(300, 8.0, np.float32))  # 7 + EVEN (300 is even)
    assert mod.fill_kernel.fn.best_config.kwargs["BLOCK"] == 64


def test_do_bench_median_and_quantiles(mod):
    x = np.ones(1 << 16, np.float32)
    out = poisoned(1 << 16, np.float32)
    fn = lambda: mod.double_kernel[grid_for](x, out, x.size)  # noqa: E731
    ms = tritium.testing.do_bench(fn, warmup=1, rep=5)
    q = tritium.testing.do_bench(fn, warmup=1, rep=5, quantiles=[0.2, 0.5, 0.8])
    assert ms > 0 and len(q) == 3 and q[0] <= q[1] <= q[2]
    np.testing.assert_array_equal(out, x * 2)


def test_assert_close_one_element_and_callable_tolerances():
    # Upstream: one element compares with np.allclose (NaN is not close to NaN); tolerances
    # may be functions of x's dtype.
    with pytest.raises(AssertionError):
        tritium.testing.assert_close(np.float32("nan"), np.float32("nan"))
    tritium.testing.assert_close(np.array([np.nan, 1.0]), np.array([np.nan, 1.0]))
    loose = lambda dt: 0.5 if dt == np.float16 else 1e-6  # noqa: E731
    tritium.testing.assert_close(np.array([1.0, 2.0], np.float16), np.array([1.2, 2.0]), atol=loose)
    with pytest.raises(AssertionError):
        tritium.testing.assert_close(np.array([1.0, 2.0], np.float32), np.array([1.2, 2.0]), atol=loose)


def test_assert_close():
    tritium.testing.assert_close(np.array([1.0, 2.0]), np.array([1.0, 2.005]))
    with pytest.raises(AssertionError):
        tritium.testing.assert_close(np.array([1.0, 2.0]), np.array([1.0, 2.5]))
    with pytest.raises(AssertionError):
        tritium.testing.assert_close(np.array([np.nan]), np.array([1.0]))


def test_a_user_pre_hook_resets_after_tuning(as_triton, write_module):
    """Upstream calls a user pre_hook before every benchmarked launch and once more with
    reset_only=True after tuning (it replaces reset_to_zero): an accumulating kernel then
    leaves one launch's sum, not the benchmark runs' too."""
    m = write_module("prehook_mod", """
import triton
import triton.language as tl

calls = []


def zero(nargs, reset_only=False):
    calls.append(reset_only)
    nargs["out"].fill(0)


@triton.autotune(configs=[triton.Config({"B": 8}), triton.Config({"B": 16})], key=["n"], pre_hook=zero)
@triton.jit
def acc(x, out, n, B: tl.constexpr):
    i = tl.program_id(0) * B + tl.arange(0, B)
    tl.atomic_add(out, tl.sum(tl.load(x + i, mask=i < n, other=0.0), axis=0))
""")
    x = np.arange(1, 17, dtype=np.float32)
    out = np.full(1, np.nan, np.float32)
    m.acc[lambda meta: (triton_cdiv(16, meta["B"]),)](x, out, 16)
    assert out[0] == float(x.sum())  # 136: one launch after the reset
    assert m.calls[-1] is True and False in m.calls  # benchmark calls, then the reset


def triton_cdiv(a, b):
    return (a + b - 1) // b


def test_restore_value_restores_after_every_benchmarked_launch(as_triton, write_module):
    """Upstream copies restore_value buffers before and back after EACH benchmarked launch:
    a kernel appending at a counter then writes one entry in all, not one per benchmark
    run (each run must start from the caller's counter)."""
    m = write_module("restore_mod", """
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"V": 1}), triton.Config({"V": 2})], key=[], restore_value=["count"])
@triton.jit
def append(queue, count, V: tl.constexpr):
    pos = tl.atomic_add(count, 1)
    tl.store(queue + pos, 7)
""")
    queue = np.zeros(100_000, np.int32)
    count = np.array([5], np.int32)
    m.append[(1,)](queue, count)
    assert count[0] == 6
    assert np.flatnonzero(queue).tolist() == [5]


def test_configs_differing_only_in_their_pre_hook_are_distinct():
    h1 = lambda nargs: None  # noqa: E731
    h2 = lambda nargs: None  # noqa: E731
    a, b = tritium.Config({"B": 8}, pre_hook=h1), tritium.Config({"B": 8}, pre_hook=h2)
    assert a != b and len({a, b}) == 2
    assert a == tritium.Config({"B": 8}, pre_hook=h1)
