"""Tests of kernels/tools/bench_stats.py, the statistics of the interleaved A/B driver
kernels/tools/bench_upstream.py. Pure Python: no GPU, torch or numpy needed."""

import os
import random
import statistics
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "kernels", "tools"))

import bench_stats as bs  # noqa: E402


def test_order_alternates_between_rounds():
    order = bs.interleaved_order(["triton", "tritium", "torch", "tritium'"], 4)
    assert order == [["triton", "tritium", "torch", "tritium'"], ["tritium'", "torch", "tritium", "triton"],
                     ["triton", "tritium", "torch", "tritium'"], ["tritium'", "torch", "tritium", "triton"]]
    assert bs.interleaved_order(["a"], 0) == []
    # No arm always follows the same arm: over two rounds "tritium" follows "triton" once
    # and "torch" once.
    followed = {tuple(o[i:i + 2]) for o in order for i in range(len(o) - 1)}
    assert ("triton", "tritium") in followed and ("torch", "tritium") in followed


def test_order_rounds_are_independent_lists():
    arms = ["a", "b"]
    order = bs.interleaved_order(arms, 3)
    order[0].append("x")
    assert order[2] == ["a", "b"] and arms == ["a", "b"]


def test_more_rounds():
    assert bs.more_rounds(0, 0.0, 30, 1.0)
    assert bs.more_rounds(29, 5.0, 30, 1.0)        # fewer than the minimum: on
    assert bs.more_rounds(30, 0.5, 30, 1.0)        # under the time budget: on
    assert not bs.more_rounds(30, 1.0, 30, 1.0)    # minimum reached and budget spent
    assert not bs.more_rounds(500, 0.0, 30, 1.0)   # the cap
    assert not bs.more_rounds(10, 0.0, 30, 1.0, max_rounds=10)


def test_quantile_hand_computed():
    v = [4.0, 1.0, 3.0, 2.0]                       # sorted 1 2 3 4
    assert bs.quantile(v, 0.0) == 1.0
    assert bs.quantile(v, 1.0) == 4.0
    assert bs.quantile(v, 0.5) == 2.5              # h = 1.5
    assert bs.quantile(v, 0.25) == pytest.approx(1.75)   # h = 0.75
    assert bs.quantile(v, 0.9) == pytest.approx(3.7)     # h = 2.7
    assert bs.quantile([10, 20, 30, 40, 50], 0.025) == pytest.approx(11.0)   # h = 0.1
    assert bs.quantile([10, 20, 30, 40, 50], 0.975) == pytest.approx(49.0)   # h = 3.9
    assert bs.quantile([7], 0.3) == 7.0
    assert bs.median([5, 1, 3]) == 3.0
    assert v == [4.0, 1.0, 3.0, 2.0]               # the input is left unsorted
    with pytest.raises(ValueError):
        bs.quantile([], 0.5)
    with pytest.raises(ValueError):
        bs.quantile([1, 2], 1.5)


def test_paired_ratio_median_hand_checked():
    r = bs.paired_ratio([2, 4, 9], [1, 2, 3])      # ratios 2, 2, 3
    assert r["median"] == 2.0 and r["pairs"] == 3
    assert 2.0 <= r["lo"] <= r["median"] <= r["hi"] <= 3.0
    r = bs.paired_ratio([3, 1, 8, 5], [1, 1, 2, 1])  # ratios 3, 1, 4, 5: median (3 + 4) / 2
    assert r["median"] == 3.5


def test_paired_ratio_pairs_kept_together():
    # Rounds drift by 10x, the ratio in each round is 2: a paired ratio sees no spread.
    den = [1e-3 * (1 + 9 * i / 99) for i in range(100)]
    num = [2 * d for d in den]
    r = bs.paired_ratio(num, den)
    assert r["median"] == pytest.approx(2.0) and r["lo"] == pytest.approx(2.0) and r["hi"] == pytest.approx(2.0)


def noisy(seed, n=60):
    rng = random.Random(seed)
    den = [1e-3 * rng.uniform(0.9, 1.1) for _ in range(n)]
    num = [d * rng.uniform(1.0, 1.4) for d in den]
    return num, den


def test_paired_ratio_interval_reproducible_and_seeded():
    num, den = noisy(7)
    a = bs.paired_ratio(num, den, seed=1)
    assert a == bs.paired_ratio(num, den, seed=1)
    assert a["lo"] < a["median"] < a["hi"]
    assert 1.0 < a["lo"] and a["hi"] < 1.4
    b = bs.paired_ratio(num, den, seed=2)
    assert b["median"] == a["median"]
    assert (b["lo"], b["hi"]) != (a["lo"], a["hi"])


def test_paired_ratio_interval_is_the_documented_percentile_bootstrap():
    num, den = noisy(11, n=40)
    ratios = [a / b for a, b in zip(num, den)]
    rng = random.Random(5)
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(2000))
    lo = meds[49] + 0.975 * (meds[50] - meds[49])              # h = 1999 * 0.025 = 49.975
    hi = meds[1949] + 0.025 * (meds[1950] - meds[1949])        # h = 1999 * 0.975 = 1949.025
    r = bs.paired_ratio(num, den, seed=5)
    assert r["lo"] == pytest.approx(lo, rel=1e-12) and r["hi"] == pytest.approx(hi, rel=1e-12)
    assert r["median"] == pytest.approx(statistics.median(ratios), rel=1e-12)
    assert meds[0] < r["lo"] and r["hi"] < meds[-1]             # not the resamples' extremes


def test_paired_ratio_interval_narrows_with_more_rounds():
    few = bs.paired_ratio(*noisy(3, n=20))
    many = bs.paired_ratio(*noisy(3, n=500))
    assert many["hi"] - many["lo"] < few["hi"] - few["lo"]


def test_paired_ratio_errors_and_dropped_pairs():
    with pytest.raises(ValueError):
        bs.paired_ratio([1.0, 2.0], [1.0])
    r = bs.paired_ratio([2.0, 0.0, 6.0, -1.0, 5.0], [1.0, 1.0, 2.0, 1.0, 0.0])  # kept: 2, 3
    assert r["pairs"] == 2 and r["median"] == 2.5
    assert bs.paired_ratio([], []) == {"median": 0.0, "lo": 0.0, "hi": 0.0, "pairs": 0}
    assert bs.paired_ratio([0.0], [1.0]) == {"median": 0.0, "lo": 0.0, "hi": 0.0, "pairs": 0}


def test_helpers():
    assert bs.fmt_ratio({"median": 1.0234, "lo": 1.011, "hi": 1.0351, "pairs": 9}) == "1.023 [1.011, 1.035]"
    assert bs.fmt_ratio(None) == "-"
    assert bs.finite_or_none(float("inf")) is None and bs.finite_or_none(float("nan")) is None
    assert bs.finite_or_none(3) == 3.0
    assert bs.percent_of_roof(4e9, 1.0, 8e9) == 50.0
    assert bs.percent_of_roof(4e9, 0.0, 8e9) == 0.0
