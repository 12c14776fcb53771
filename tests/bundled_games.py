"""The bundled games as the costlier per-game tests take them: every base game in every run,
and each variant with the slow tests (`pytest -m slow`). A variant states only what it changes;
its changed rules are played in the default run by its golden playthrough on both engines, by the
property suite and by its own scenario tests, so these matrices (both engines at every decision,
the fast path against the plain evaluator, the IR's form, the adapters and the search in C) take
its base's paths there, and the whole matrix in the slow run."""

from __future__ import annotations

import re
from functools import cache, partial
from pathlib import Path

import pytest

from interpreter import load_ruleset
from interpreter.bundled import bundled

NAMES = sorted(name for name in bundled() if "/" in name)  # every bundled ruleset, "family/name"


def rules(name: str):
    """A bundled ruleset by its name, loaded once a worker (the same load as its path's)."""
    return _loaded(Path(bundled()[name]))


@cache
def _loaded(path: Path):
    return load_ruleset(path)


def loader(path: Path):
    """A test module's rules(): the ruleset at `path`, loaded once a worker, whichever modules ask."""
    return partial(_loaded, Path(path))


def family_loader(folder: Path, default: str):
    """A test module's rules(name=default): a ruleset of `folder` by its name, loaded once a worker."""
    def rules(name: str = default):
        return _loaded(Path(folder) / f"{name}.cards")
    return rules


def move_key(m) -> tuple:
    """A move as the engines agree on it: its player, action and argument."""
    return (m.player, m.action, m.arg)

_VARIANT = re.compile(r"^variant\s", re.M)


def is_variant(path: Path | str) -> bool:
    return bool(_VARIANT.search(Path(path).read_text(encoding="utf-8")))


def names_variants_slow(names) -> list:
    """Bundled names ("family/name"), each variant's marked slow."""
    return [pytest.param(n, marks=pytest.mark.slow, id=n) if is_variant(bundled()[n]) else pytest.param(n, id=n)
            for n in names]


def paths_variants_slow(paths, ids) -> list:
    """Ruleset paths with their ids, each variant's marked slow."""
    return [pytest.param(p, marks=pytest.mark.slow, id=i) if is_variant(p) else pytest.param(p, id=i)
            for p, i in zip(paths, ids)]


def plays_only_legal_moves(path, bot, decisions: int = 60) -> None:
    """`bot` in the first seat of the ruleset at `path`, random players in the others: every move
    it picks in the first `decisions` is among the legal ones (seed 1)."""
    from interpreter.engine import apply, moves_for, new_game
    from interpreter.players.bots import bot_seed, make_bot
    rs = load_ruleset(path)
    n = rs.players_min
    s = new_game(rs, n, None, 1)
    bots = [bot] + [make_bot("random", bot_seed(1, i)) for i in range(1, n)]
    for _ in range(decisions):
        if s.finished:
            break
        m = bots[s.actor].choose(s)
        assert m in moves_for(s)
        apply(s, m)
