"""Statistics for the interleaved A/B driver kernels/tools/bench_upstream.py (stdlib only).

Kept apart from the driver so it can be tested on a machine with no GPU, torch or numpy
(tests/python/test_bench_stats.py). A timed case is a set of arms (one callable each) called
once per round, the order of the arms alternating between rounds; every figure the driver
reports is built from these functions:

    order = interleaved_order(["triton", "tritium", "torch", "tritium'"], rounds)
    r = paired_ratio(samples["triton"], samples["tritium"])   # > 1: tritium faster
    print(fmt_ratio(r))                                       # "1.023 [1.011, 1.035]"

A ratio is taken per round (the two calls of one round ran under the same clocks and
temperature) and summarised by its median with a percentile-bootstrap 95% interval over
rounds; the interval is what separates a real difference from noise.
"""

import math
import random

# A timed case stops after this many rounds, whatever the time budget says.
MAX_ROUNDS = 500


def round_order(arms, r):
    """The order of `arms` in round `r` (counted from 0): the list's order in even rounds,
    reversed in odd ones, so that no arm always follows the same arm (and any cost one call
    leaves to the next, such as a cache or clock state, falls on each arm in turn)."""
    arms = list(arms)
    return arms if r % 2 == 0 else arms[::-1]


def interleaved_order(arms, rounds):
    """The list of arm lists of `rounds` rounds: round_order(arms, r) for r = 0 .. rounds-1.

    >>> interleaved_order(["a", "b", "c"], 3)
    [['a', 'b', 'c'], ['c', 'b', 'a'], ['a', 'b', 'c']]
    """
    return [round_order(arms, r) for r in range(rounds)]


def more_rounds(done, first_arm_s, min_rounds, time_per_case, max_rounds=MAX_ROUNDS):
    """Whether a case runs another timed round: `done` rounds ran, the first arm's timed
    calls took `first_arm_s` seconds in all. At least `min_rounds`, then on while the first
    arm's total is under `time_per_case` seconds, never past `max_rounds`."""
    if done >= max_rounds:
        return False
    return done < min_rounds or first_arm_s < time_per_case


def quantile(v, q):
    """The q-quantile (0 <= q <= 1) of the values `v`, interpolated linearly between order
    statistics: with x sorted and h = (n - 1)·q, x[floor h] + (h - floor h)·(x[floor h + 1] -
    x[floor h]). This is numpy's default and Hyndman and Fan's type 7 (R. J. Hyndman and
    Y. Fan, "Sample quantiles in statistical packages", The American Statistician 50, 1996).

    >>> quantile([1, 2, 3, 4], 0.5)
    2.5
    """
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile: q = {q} is outside [0, 1]")
    x = sorted(v)
    if not x:
        raise ValueError("quantile of no values")
    h = (len(x) - 1) * q
    lo = math.floor(h)
    if lo + 1 >= len(x):
        return float(x[-1])
    return float(x[lo] + (h - lo) * (x[lo + 1] - x[lo]))


def median(v):
    """The median of `v` (quantile 0.5: the mean of the two middle values for an even count)."""
    return quantile(v, 0.5)


def paired_ratio(num, den, seed=1, resamples=2000):
    """The ratio num/den of two arms timed in the same rounds, as a dict:

    - "median": the median over rounds i of num[i] / den[i] (a round where either time is
      not positive, which a failed timing gives, is dropped);
    - "lo", "hi": a 95% percentile-bootstrap interval for that median: the kept ratios are
      resampled with replacement (as many draws as ratios) `resamples` times, each resample
      ``rng.choices(ratios, k=len(ratios))`` from one ``rng = random.Random(seed)``, the
      median of each resample is taken, and lo and hi are the
      2.5th and 97.5th percentiles (`quantile`) of those medians. B. Efron and
      R. J. Tibshirani, "An Introduction to the Bootstrap", Chapman & Hall, 1993, ch. 13
      (the percentile interval). Resampling whole rounds keeps each pair together, so the
      drift both calls of a round shared stays out of the ratio;
    - "pairs": the number of ratios kept.

    The same inputs and seed always give the same interval. With no pair left every field
    is 0. Raises ValueError when num and den differ in length.

    >>> paired_ratio([2, 4, 9], [1, 2, 3])["median"]
    2.0
    """
    if len(num) != len(den):
        raise ValueError(f"paired_ratio: {len(num)} numerators but {len(den)} denominators")
    ratios = [a / b for a, b in zip(num, den) if a > 0 and b > 0]
    if not ratios:
        return {"median": 0.0, "lo": 0.0, "hi": 0.0, "pairs": 0}
    rng = random.Random(seed)
    n = len(ratios)
    meds = [median(rng.choices(ratios, k=n)) for _ in range(resamples)]
    if not meds:
        lo = hi = median(ratios)
    else:
        lo, hi = quantile(meds, 0.025), quantile(meds, 0.975)
    return {"median": median(ratios), "lo": lo, "hi": hi, "pairs": n}


def fmt_ratio(r):
    """A paired_ratio dict as "median [lo, hi]" (three decimals); "-" for None."""
    if r is None:
        return "-"
    return f"{r['median']:.3f} [{r['lo']:.3f}, {r['hi']:.3f}]"


def finite_or_none(x):
    """`x` as a float, or None where it is infinite or NaN (JSON has no such numbers)."""
    x = float(x)
    return x if math.isfinite(x) else None


def percent_of_roof(amount, seconds, roof):
    """amount / seconds as a percentage of `roof` (bytes or flops per second, the same
    unit as amount per second); 0 when a time or the roof is not positive."""
    if seconds <= 0 or roof <= 0:
        return 0.0
    return 100.0 * amount / seconds / roof
