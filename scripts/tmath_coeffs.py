#!/usr/bin/env python3
"""Derives the polynomial coefficients of src/common/tmath.inc (tritium's fp32 exp / log).

Each polynomial is a weighted minimax approximation computed here with the Remez exchange
algorithm (E. Ya. Remez, 1934; see e.g. J.-M. Muller, "Elementary Functions", 3rd ed.,
ch. 3) in multiple precision (mpmath), followed by the usual successive rounding of the
coefficients to binary32: coefficient j is rounded, then the higher ones are re-fitted to
absorb its rounding error (Brisebarre, Muller and Tisserand's observation that this beats
rounding a real minimax polynomial term by term).

  exp:  e^r = 1 + r + r^2/2 + r^3 Q(r),  |r| <= ln2/2 (+ slack);
        minimises max |r^3 (Q - Q*)| / e^r  (the error relative to the result).
  log:  log1p(f) = f - f^2/2 + f^3 P(f),  f in [sqrt(1/2) - 1, sqrt(2) - 1] (+ slack);
        minimises max |f^3 (P - P*)| / |log1p(f)|.

Usage: python3 scripts/tmath_coeffs.py [exp_degree] [log_degree]   (needs mpmath, numpy)
Prints each coefficient as a C hex-float literal and the weighted error of the rounded
polynomial (evaluated exactly, i.e. without the float rounding of the evaluation).
"""
import sys

import mpmath as mp
import numpy as np

mp.mp.dps = 60


def f32_exact(x):
    """x rounded to the nearest binary32 value (one rounding to 24 bits; normal range)."""
    if x == 0:
        return mp.mpf(0)
    m, e = mp.frexp(x)  # x = m 2^e, 0.5 <= |m| < 1
    q = mp.nint(m * 2**24)  # round half even
    return mp.ldexp(q, e - 24)


def hexf(x):
    h = float(x).hex()  # exact: x has at most 24 significant bits
    m, e = h.split("p")
    return m.rstrip("0").rstrip(".") + "p" + e + "f"


def remez(g, w, a, b, deg, iters=60, grid=3000):
    """Coefficients c_0..c_deg minimising max_{[a,b]} |w(x) (sum c_j x^j - g(x))|."""
    n = deg + 2
    ref = [(a + b) / 2 - (b - a) / 2 * mp.cos(mp.pi * i / (n - 1)) for i in range(n)]
    ref = [x if abs(x) > mp.mpf("1e-6") else mp.mpf("1e-6") for x in ref]
    xs = [a + (b - a) * mp.mpf(i) / grid for i in range(grid + 1)]
    xs = [x for x in xs if abs(x) > mp.mpf("1e-9")]
    best = None
    for _ in range(iters):
        A = mp.matrix(n, n)
        rhs = mp.matrix(n, 1)
        for i, x in enumerate(ref):
            for j in range(deg + 1):
                A[i, j] = x**j
            A[i, deg + 1] = (-1) ** i / w(x)
            rhs[i] = g(x)
        sol = mp.lu_solve(A, rhs)
        c = [sol[j] for j in range(deg + 1)]
        lev = abs(sol[deg + 1])

        def err(x):
            return w(x) * (mp.polyval(c[::-1], x) - g(x))

        es = [err(x) for x in xs]
        # local extrema of the error on the grid (endpoints included)
        ext = []
        for i in range(len(xs)):
            l = es[i - 1] if i > 0 else None
            r = es[i + 1] if i + 1 < len(xs) else None
            v = abs(es[i])
            if (l is None or v >= abs(l)) and (r is None or v >= abs(r)):
                ext.append((xs[i], es[i]))
        # keep alternation: merge runs of one sign, keeping the largest
        alt = []
        for x, e in ext:
            if alt and mp.sign(alt[-1][1]) == mp.sign(e):
                if abs(e) > abs(alt[-1][1]):
                    alt[-1] = (x, e)
            else:
                alt.append((x, e))
        while len(alt) > n:  # drop the smallest extremum, then restore the alternation
            i = min(range(len(alt)), key=lambda k: abs(alt[k][1]))
            alt.pop(i)
            merged = []
            for x, e in alt:
                if merged and mp.sign(merged[-1][1]) == mp.sign(e):
                    if abs(e) > abs(merged[-1][1]):
                        merged[-1] = (x, e)
                else:
                    merged.append((x, e))
            alt = merged
        mx = max(abs(e) for _, e in ext)
        best = (c, mx)
        if len(alt) < n:
            break
        ref = [x for x, _ in alt]
        if mx - lev < lev * mp.mpf("1e-6"):
            break
    return best


def lawson(base, A, iters=2000):
    """d minimising max_k |base_k + (A d)_k| (discrete minimax, Lawson's iteratively
    reweighted least squares; C. L. Lawson, 1961)."""
    u = np.full(len(base), 1.0 / len(base))
    d = np.zeros(A.shape[1])
    for _ in range(iters):
        s = np.sqrt(u)
        d, *_ = np.linalg.lstsq(A * s[:, None], -base * s, rcond=None)
        e = np.abs(base + A @ d)
        u = u * e
        u /= u.sum()
    return d


def successive_round(g, w, a, b, deg, grid=3000):
    """Rounds the coefficients of the real minimax polynomial to binary32 one at a time from
    the lowest degree; after each rounding the higher coefficients are re-fitted (discrete
    minimax on a Chebyshev grid) to absorb the rounding error."""
    c, _ = remez(g, w, a, b, deg)
    xs = [(a + b) / 2 - (b - a) / 2 * mp.cos(mp.pi * (k + mp.mpf(0.5)) / grid) for k in range(grid)]
    ws = [w(x) for x in xs]
    gs = [g(x) for x in xs]
    c = list(c)
    for j in range(deg + 1):
        c[j] = f32_exact(c[j])
        if j == deg:
            break
        base = np.array([float(ws[k] * (mp.polyval(c[::-1], xs[k]) - gs[k])) for k in range(grid)])
        A = np.array([[float(ws[k] * xs[k] ** i) for i in range(j + 1, deg + 1)] for k in range(grid)])
        d = lawson(base, A)
        for i in range(j + 1, deg + 1):
            c[i] += mp.mpf(float(d[i - j - 1]))
    return c


def report(name, coeffs, g, w, a, b):
    xs = [a + (b - a) * mp.mpf(i) / 20000 for i in range(20001)]
    mx = max(abs(w(x) * (mp.polyval(coeffs[::-1], x) - g(x))) for x in xs if abs(x) > 1e-12)
    print(f"{name}: degree {len(coeffs) - 1} on [{mp.nstr(a, 8)}, {mp.nstr(b, 8)}], "
          f"max weighted error {mp.nstr(mx, 4)} = 2^{mp.nstr(mp.log(mx, 2), 4)}")
    for j, c in enumerate(coeffs):
        print(f"  c{j} = {hexf(c)}   // {mp.nstr(c, 12)}")


def main():
    dexp = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    dlog = int(sys.argv[2]) if len(sys.argv) > 2 else 9

    # exp: r = x - k ln2 with |r| <= ln2/2 plus the slack of rounding x*log2e (< 1e-5).
    def gexp(r):
        if abs(r) < mp.mpf("1e-12"):
            return mp.mpf(1) / 6 + r / 24
        return (mp.exp(r) - 1 - r - r * r / 2) / r**3

    def wexp(r):
        return abs(r) ** 3 / mp.exp(r)

    R = mp.log(2) / 2 + mp.mpf("2e-5")
    ce = successive_round(gexp, wexp, -R, R, dexp)
    report("exp Q", ce, gexp, wexp, -R, R)

    # log: m in [0x1.6a09e6p-1, 2 * 0x1.6a09e6p-1), f = m - 1
    lo = mp.mpf(float.fromhex("0x1.6a09e6p-1")) - 1
    hi = 2 * mp.mpf(float.fromhex("0x1.6a09e6p-1")) - 1

    def glog(f):
        if abs(f) < mp.mpf("1e-12"):
            return mp.mpf(1) / 3 - f / 4
        return (mp.log1p(f) - f + f * f / 2) / f**3

    def wlog(f):
        return abs(f) ** 3 / abs(mp.log1p(f))

    cl = successive_round(glog, wlog, lo - mp.mpf("1e-7"), hi + mp.mpf("1e-7"), dlog)
    report("log P", cl, glog, wlog, lo, hi)

    # split constants
    ln2 = mp.log(2)
    ln2_hi = mp.floor(ln2 * 2**15) / 2**15  # 15 significant bits: k * ln2_hi exact for |k| < 2^9
    print("ln2 (binary32 hi/lo for the exp reduction):", hexf(f32_exact(ln2)), hexf(f32_exact(ln2 - f32_exact(ln2))))
    print("ln2 (15-bit hi / lo for log):", hexf(ln2_hi), hexf(f32_exact(ln2 - ln2_hi)))
    print("log2e:", hexf(f32_exact(1 / ln2)), "lo:", hexf(f32_exact(1 / ln2 - f32_exact(1 / ln2))))


if __name__ == "__main__":
    main()
