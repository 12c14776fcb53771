"""The adapters' observations of a game the native engine plays are written by C straight into
the tensor (adapters/c_observations.py: the cards' zones, what is known, the piles' lengths and
tops, the variables), not read from a Python view brought up to date after every move; they are
the Python engine's, entry for entry, for every seat (and with the history of moves,
`info_state`), and for everyone, in every bundled ruleset; so are the masks of the seat to act
(on native, written by C: adapters/c_actions.py)."""

from __future__ import annotations

import random

from bundled_games import NAMES, names_variants_slow
import pytest

from interpreter.bundled import bundled
from interpreter.native import find_compiler

np = pytest.importorskip("numpy")
pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")


def observed(name: str, engine: str, steps: int = 24) -> list:
    from interpreter.adapters.pettingzoo import raw_env
    from interpreter.errors import OptionError
    try:
        e = raw_env(bundled()[name], seed=5, engine=engine)
    except OptionError as err:  # (a game whose moves the adapters cannot number: its own tests say so)
        pytest.skip(str(err))
    assert e.engine == engine
    spec, rng, out = e.spec, random.Random(2), []
    e.reset()
    for _ in range(steps):
        core = e.core
        if core.terminal():
            break
        for seat in range(spec.players):
            for info in (False, True):
                out.append((seat, info, spec.encode(core, seat, info_state=info).tobytes()))
        out.append(spec.encode(core, None).tobytes())
        out.append(core.mask().tobytes())  # (on native, the mask C wrote as it stepped here)
        assert engine == "python" or core.state.native._stale  # (no view was brought up to date)
        e.step(rng.choice(sorted(core.legal())))
    return out


@pytest.mark.parametrize("name", names_variants_slow(NAMES))
def test_the_observations_from_c_are_the_python_engines(name):
    assert observed(name, "native") == observed(name, "python")
