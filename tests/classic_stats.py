"""What the equivalence tests of rulesets/classic/ share: a mean and its standard error."""

from __future__ import annotations

import math


def mean_se(xs) -> tuple[float, float]:
    """The mean of xs and its standard error (sample variance, n - 1)."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)
