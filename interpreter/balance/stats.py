"""The statistics of a balance report: proportions with Wilson intervals, means with normal
intervals, a chi-square test of equal shares, and differences between two samples. Plain
Python (math only): the numbers are few, and a report must not need SciPy."""

from __future__ import annotations

import math
from statistics import mean, median, pstdev

Z95 = 1.959963984540054


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval for k successes in n trials (k may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(xs: list[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation; the samples here are dozens or more)."""
    if not xs:
        return (0.0, 0.0, 0.0)
    m = mean(xs)
    if len(xs) < 2:
        return (m, m, m)
    se = _sd(xs) / math.sqrt(len(xs))
    return (m, m - z * se, m + z * se)


def _sd(xs: list[float]) -> float:
    n = len(xs)
    return pstdev(xs) * math.sqrt(n / (n - 1)) if n > 1 else 0.0


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with df degrees of freedom."""
    if x <= 0:
        return 1.0
    return _gammq(df / 2.0, x / 2.0)


def _gammq(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) (series / continued fraction)."""
    lg = math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 - P
        ap, total, delta = a, 1.0 / a, 1.0 / a
        for _ in range(500):
            ap += 1
            delta *= x / ap
            total += delta
            if abs(delta) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - lg))
    b = x + 1 - a  # Lentz's continued fraction for Q
    c, d = 1.0 / 1e-300, 1.0 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - lg) * h)


def equal_shares(counts: list[float]) -> dict:
    """Chi-square test that every seat has the same chance to win, on the wins per seat."""
    total = sum(counts)
    k = len(counts)
    if total <= 0 or k < 2:
        return {"statistic": 0.0, "df": max(0, k - 1), "p_value": 1.0}
    expected = total / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return {"statistic": stat, "df": k - 1, "p_value": chi2_sf(stat, k - 1)}


def diff_proportions(k1: float, n1: int, k2: float, n2: int, z: float = Z95) -> dict:
    """B minus A for two proportions: Newcombe's hybrid score interval (from the two Wilson
    intervals); significant when it excludes 0."""
    p1, p2 = (k1 / n1 if n1 else 0.0), (k2 / n2 if n2 else 0.0)
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return {"a": p1, "b": p2, "difference": d, "ci": [lo, hi], "significant": lo > 0 or hi < 0}


def diff_means(xs: list[float], ys: list[float], z: float = Z95) -> dict:
    """B minus A for two means (Welch, normal approximation); significant when the interval excludes 0."""
    ma, mb = (mean(xs) if xs else 0.0), (mean(ys) if ys else 0.0)
    va = _sd(xs) ** 2 / len(xs) if len(xs) > 1 else 0.0
    vb = _sd(ys) ** 2 / len(ys) if len(ys) > 1 else 0.0
    d = mb - ma
    half = z * math.sqrt(va + vb)
    lo, hi = d - half, d + half
    return {"a": ma, "b": mb, "difference": d, "ci": [lo, hi],
            "significant": (lo > 0 or hi < 0) if half > 0 else d != 0}


def summary(xs: list[float]) -> dict:
    """Mean with its interval, median, smallest and largest."""
    if not xs:
        return {"mean": None, "ci": None, "median": None, "min": None, "max": None}
    m, lo, hi = mean_ci(xs)
    return {"mean": m, "ci": [lo, hi], "median": median(xs), "min": min(xs), "max": max(xs)}
