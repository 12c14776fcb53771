"""The fuzzer on the native engine: its per-move checks made in C (the cards' bookkeeping, what
each seat has seen, whether a seat's moves hide nothing) find what the Python checks find, and
a fuzz run reports the same findings, word for word, on both engines."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import engines, load_ruleset
from interpreter.engine import apply, determinise, legal_moves, program_of
from interpreter.fuzz import fuzz_ruleset
from interpreter.fuzz.common import Game

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ROOT / "tests" / "fuzz" / "targets"


def _report(path: Path, engine: str) -> dict:
    rep = fuzz_ruleset(path, games=4, seed=0, engine=engine)
    findings = []
    for f in rep.findings:
        d = f.to_json()
        if d.get("reproduction"):
            d["reproduction"].pop("record", None)  # (where it was written)
        findings.append(d)
    return {"findings": findings, "fired": rep.fired, "games": rep.games, "seekers": rep.seeker_games,
            "untried": rep.untried}


# the targets whose findings come from the checks made in C, or from the view brought up to date
# only where a check reads it: a hidden card leaked by the moves and by a variable (peek), cards
# out of play no one saw (card-leak), two actions claiming one move (two-claims), a failure (the
# Python engine words it). (test_workers.py fuzzes a deadlock, an endless loop and a dead option
# under auto, now native, in one process, two and a cluster, and finds the same there)
@pytest.mark.parametrize("name", ["peek", "card-leak", "two-claims", "runtime-error"])
def test_a_target_fuzzed_on_native_finds_what_python_finds(name):
    path = TARGETS / f"{name}.cards"
    py, native = _report(path, "python"), _report(path, "native")
    assert py == native
    assert py["findings"]


def _python_seen(s, vis) -> tuple[bytearray, bytearray]:
    """What fuzz/invariants.py:_remember keeps of one position, from the Python view."""
    from interpreter.fuzz.invariants import Checks
    nc = len(s.card_zone)
    game = Game(None, 0, "random")
    game.vis, game.seen_all = vis, bytearray(nc)
    rows = bytearray(nc * len(s.seats))
    game.seen_own = [memoryview(rows)[k * nc:(k + 1) * nc] for k in range(len(s.seats))]
    Checks._remember(None, game, s)
    return game.seen_all, rows


def _python_differs(s, who: int, rng: random.Random) -> bool:
    """fuzz/invariants.py:_check_permuted's question, asked of the Python engine."""
    after = sorted(str(m) for m in legal_moves(determinise(s, who, rng)) if m.player == who)
    return after != sorted(str(m) for m in legal_moves(s) if m.player == who)


def _python_tries(s) -> list[tuple]:
    """NativeGame.try_moves's rows, from the Python engine: each legal move played on a clone."""
    rows = []
    for m in s._legal:
        c = s.clone()
        try:
            apply(c, m)
        except Exception:
            rows.append((1, 0, 0, 0, 0, [0] * len(s.fired)))
            continue
        alts = c.choice.alts if c.choice is not None else []
        mask = sum(1 << k for k in {next(j for j, a in enumerate(alts) if a is x._offer[0]) for x in c._legal})
        choice = None if c.finished else c.program.choices.index(c.choice)
        rows.append((0, int(c.finished), 0 if c.finished else len(c._legal), choice, mask if not c.finished else 0,
                     list(c.fired)))
    return rows


def _tries(g) -> list[tuple]:
    """NativeGame.try_moves over every legal move, the choice left out where the game is over."""
    return [(f, d, n, None if d else ch, mask, fired) for f, d, n, ch, mask, fired in
            g.try_moves(list(range(len(g.view._legal))))]


@pytest.mark.parametrize("path,players", [(TARGETS / "peek.cards", 2), (TARGETS / "card-leak.cards", 2),
                                          (ROOT / "rulesets" / "kendra-kari" / "kendra-kari.cards", 3),
                                          (ROOT / "rulesets" / "classic" / "hearts.cards", 4)])
def test_what_c_remembers_and_judges_is_what_python_does(path, players):
    """At every decision of a few seeded games: the cards each seat has seen (NativeGame.remember
    against _remember on the view) and whether a seat's moves change when what it cannot know is
    rearranged (NativeGame.permuted_differs against determinise on the Python engine)."""
    rs = load_ruleset(path)
    p = program_of(rs)
    differs = same = 0
    for seed in range(3):
        s = engines.new_game(rs, players, {}, seed, engine=engines.choose(p, "native").native)
        g = s.native
        nc = p.n_cards
        seen_all, rows = bytearray(nc), bytearray(nc * players)
        py_all, py_rows = bytearray(nc), bytearray(nc * players)
        twin = engines.new_game(rs, players, {}, seed, engine="python")
        pick = random.Random(seed)
        while not s.finished and len(s.history) < 120:
            assert g.fired() == twin.fired
            assert _tries(g) == _python_tries(twin)
            assert g.cards_check() == 0
            g.remember(seen_all, rows)
            g.sync()
            a, r = _python_seen(s, [p.zones[k].visibility for k in s.zkind])
            py_all = bytearray(x | y for x, y in zip(py_all, a))
            py_rows = bytearray(x | y for x, y in zip(py_rows, r))
            assert (seen_all, rows) == (py_all, py_rows), f"seed {seed}, after {len(s.history)} moves"
            for who in range(players):
                key = f"{seed}/{len(s.history)}/{who}"
                got = g.permuted_differs(who, random.Random(key))
                want = _python_differs(s, who, random.Random(key))
                assert got == want, f"seed {seed}, after {len(s.history)} moves, seat {who}"
                differs += want
                same += not want
            k = pick.randrange(len(s._legal))
            apply(s, s._legal[k])
            apply(twin, twin._legal[k])
    assert same
    assert differs or path.stem != "peek"  # the target whose moves give a hidden card away


def test_remember_refuses_arrays_of_the_wrong_size():
    rs = load_ruleset(TARGETS / "peek.cards")
    s = engines.new_game(rs, 2, {}, 0, engine=engines.choose(program_of(rs), "native").native)
    with pytest.raises(ValueError, match="a row of them per seat"):
        s.native.remember(bytearray(1), bytearray(1))


@pytest.mark.parametrize("path,players", [(ROOT / "rulesets" / "kendra-kari" / "kendra-kari.cards", 3),
                                          (ROOT / "rulesets" / "classic" / "hanabi.cards", 2),
                                          (ROOT / "rulesets" / "classic" / "hearts.cards", 4)])
def test_the_observation_check_reads_every_name_observe_shows_in_order(path, players):
    """The fuzzer walks observe()'s zones by their shape (_zone_strings): the same names in the
    same order as the walk over any nesting (_strings), what each seat was told included; and
    observe_zones, which it reads for the seats not to move, gives those zones."""
    from interpreter.engine import observe, observe_zones
    from interpreter.fuzz.invariants import _strings, _zone_strings
    rs = load_ruleset(path)
    s = engines.new_game(rs, players, {}, 2, engine="python")
    pick = random.Random(2)
    while not s.finished and len(s.history) < 40:
        for seat in s.seats:
            zones = observe(s, seat)["zones"]
            assert _zone_strings(zones) == _strings(zones)
            assert observe_zones(s, seat) == zones  # what the check reads of the seats not to move
        apply(s, pick.choice(legal_moves(s)))
    odd = {"hand": {"P1": {"cards": ["a"], "extra": [{"x": ["b"]}]}}, "pile": {"count": 2, "known": ["c"]}}
    assert _zone_strings(odd) == _strings(odd) == ["a", "b", "c"]  # (another shape: the walk over any nesting)
