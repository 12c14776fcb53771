"""What the equivalence tests of rulesets/classic/ share (and any test that plays whole games at
random): our own games of random players, our scores as OpenSpiel's returns, a mean and its
standard error, and the comparison of statistics with OpenSpiel's."""

from __future__ import annotations

import math

from interpreter.engine import apply, legal_moves, new_game, outcome


def random_games(rs, players: int, games: int, rng):
    """Our own games of random players, seeds 0 to games - 1, each move drawn from rng: each
    finished game and how many decisions it took."""
    for seed in range(games):
        s = new_game(rs, players, seed=seed)
        n = 0
        while not s.finished:
            apply(s, rng.choice(legal_moves(s)))
            n += 1
        yield s, n


def returns(s) -> tuple[float, ...]:
    """Our finished game's scores as OpenSpiel writes returns (floats), to compare the two."""
    return tuple(float(x) for x in outcome(s).scores)


def mean_returns(seats: int, at: int = 0) -> list:
    """The statistics 'seat i mean return' of records holding the returns by seat at index `at`."""
    return [(f"seat {i + 1} mean return", lambda g, i=i: g[at][i]) for i in range(seats)]


def mean_se(xs) -> tuple[float, float]:
    """The mean of xs and its standard error (sample variance, n - 1)."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


def assert_same_statistics(ours: list, theirs: list, stats: list) -> None:
    """Each statistic, a (name, function of one game's record) pair, has the same mean over our
    games as over OpenSpiel's, within four standard errors of the difference (one printed line a
    statistic, for the log of a soak); a statistic without spread on either side must be equal."""
    failures = []
    for name, f in stats:
        m1, se1 = mean_se([f(g) for g in ours])
        m2, se2 = mean_se([f(g) for g in theirs])
        se = math.hypot(se1, se2)
        if se == 0:
            print(f"{name}: ours {m1:.4f}, OpenSpiel {m2:.4f}, both without spread")
            if m1 != m2:
                failures.append(name)
            continue
        print(f"{name}: ours {m1:.4f} ± {se1:.4f}, OpenSpiel {m2:.4f} ± {se2:.4f}, difference {(m1 - m2) / se:+.2f} SE")
        if abs(m1 - m2) >= 4 * se:
            failures.append(name)
    assert not failures, failures
