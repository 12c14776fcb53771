"""Equilibria of small games (`cardrules solve --equilibrium`): CFR+ over the whole tree, each
draw of the deal a chance node, checked against what is known of Kuhn poker."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from interpreter.adapters.encoding import spec_for
from interpreter.commands.cli import app
from interpreter.errors import OptionError
from interpreter.solver.equilibrium import CHANCE, DECISION, END, best_reply, build_tree, solve_equilibrium, values


@pytest.fixture(scope="module")
def kuhn():
    return spec_for("kuhn-poker", 2, returns="points", engine="python")


def test_the_tree_of_kuhn_poker_is_openspiels(kuhn):
    """58 positions: 4 chance nodes (a shuffle of three cards, 3 then 2 outcomes: six deals), 24
    decisions in 12 information sets (each seat's card and what it saw), 30 ends."""
    t = build_tree(kuhn)
    assert len(t.kind) == 58
    assert [t.kind.count(k) for k in (CHANCE, DECISION, END)] == [4, 24, 30]
    assert len(t.infosets) == 12 and sorted(t.odds[0]) == [1 / 3] * 3


def test_a_uniform_strategy_is_exploitable_as_openspiel_counts_it(kuhn):
    t = build_tree(kuhn)
    uniform = lambda i: [1 / len(t.labels[i])] * len(t.labels[i])  # noqa: E731
    v = values(t, uniform)
    assert v == pytest.approx([0.125, -0.125])
    gains = [best_reply(t, uniform, p) - v[p] for p in range(2)]
    assert sum(gains) / 2 == pytest.approx(0.458333333, abs=1e-9)


def test_cfr_plus_finds_kuhn_pokers_value(kuhn):
    """The first player's value is -1/18; a thousand iterations bring the strategy within 0.0001
    of an equilibrium, as OpenSpiel's CFR+ does (0.00009)."""
    eq = solve_equilibrium(kuhn, 1000)
    assert eq.values[0] == pytest.approx(-1 / 18, abs=1e-4) and eq.values[1] == pytest.approx(1 / 18, abs=1e-4)
    assert eq.exploitability < 1e-4
    jack = next(v for k, v in eq.policy.items() if k.startswith("P1: ") and "hand-P1: Jack" in k and "moves:\n" == k[-7:])
    assert 0 <= jack["bet"] <= 1 / 3 + 0.01  # the first player bluffs with the Jack at most a third of the time
    assert solve_equilibrium(kuhn, 10).exploitability > eq.exploitability


def test_three_player_kuhn_is_walked_whole():
    spec = spec_for("kuhn-poker-three", 3, returns="points", engine="python")
    t = build_tree(spec)
    assert [t.kind.count(k) for k in (CHANCE, DECISION, END)] == [17, 288, 312]
    eq = solve_equilibrium(spec, 20)
    assert sum(eq.values) == pytest.approx(0, abs=1e-9) and eq.exploitability >= 0


def test_a_tree_too_large_is_refused_with_its_count(kuhn):
    with pytest.raises(OptionError, match="more than 30 positions"):
        build_tree(kuhn, limit=30)


def test_a_deal_too_large_is_refused_before_its_positions_are_made(monkeypatch):
    """A pack of 52 shuffled has more orders than any walk may take: the positions waiting in the
    walk count toward the limit before they are drawn, so the refusal comes after a small part of
    the limit's draws (it came after all of them, millions, held in memory: 10 GB for Black Maria)."""
    import interpreter.adapters.chance as chance
    made, real = [], chance.draw

    def counted(*a):
        made.append(1)
        return real(*a)
    monkeypatch.setattr(chance, "draw", counted)
    spec = spec_for("classic/black-maria", 3, returns="points", engine="python")
    with pytest.raises(OptionError, match="more than 20,000 positions"):
        build_tree(spec, limit=20_000)
    assert 0 < len(made) < 20_000 / 10


def test_solve_equilibrium_command(tmp_path):
    out = tmp_path / "policy.json"
    r = CliRunner().invoke(app, ["solve", "kuhn-poker", "--equilibrium", "--iterations", "300", "--policy", str(out),
                                 "--json"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    assert got["values"][0] == pytest.approx(-1 / 18, abs=1e-3) and got["exploitability"] < 1e-3
    assert got["positions"] == 58 and got["information_sets"] == 12 and got["returns"] == "points"
    policy = json.loads(out.read_text())["policy"]
    assert len(policy) == 12 and all(sum(p.values()) == pytest.approx(1) for p in policy.values())
    r = CliRunner().invoke(app, ["solve", "kuhn-poker", "--equilibrium", "--returns", "nothing"])
    assert r.exit_code == 2 and "returns is one of" in r.output


def test_the_cfr_bot_plays_the_strategy_found():
    from interpreter import load_ruleset
    from interpreter.players.bots import bot_seed, make_bot
    from interpreter.engine import apply, new_game
    from interpreter.players.cfr import CfrBot
    rs = load_ruleset("rulesets/classic/kuhn-poker.cards")
    bot = make_bot("cfr:300", 4)
    assert isinstance(bot, CfrBot)
    _, policy = bot._policy(new_game(rs, 2, None, 0))
    made = []
    for seed in range(60):
        s = new_game(rs, 2, None, seed)
        other = make_bot("random", bot_seed(seed, 0))
        while not s.finished:
            if s.actor == 1:  # the bot in the second seat: every move it makes has odds in the strategy
                m = bot.choose(s)
                made.append(str(m))
            else:
                m = other.choose(s)
            apply(s, m)
    assert bot.missed == 0 and len(made) >= 60 and {"bet", "check"} <= set(made)
    again = make_bot("cfr:300", 4)
    s = new_game(rs, 2, None, 1)
    apply(s, make_bot("random", bot_seed(1, 0)).choose(s))
    assert str(again.choose(s)) == str(make_bot("cfr:300", 4).choose(s))
    for spec in ("cfr:0", "cfr:x", "cfr:1:2", "cfr:win:300", "cfr:1:2:win"):
        with pytest.raises(OptionError):
            make_bot(spec)


def test_the_cfr_bot_can_be_solved_for_wins():
    """'cfr:win' (and 'cfr:N:win') solve the game for a share of a win, not the score: in Kuhn
    poker the strategy differs, and it is kept apart from the score's."""
    from interpreter import load_ruleset
    from interpreter.players.bots import make_bot
    from interpreter.engine import new_game
    rs = load_ruleset("rulesets/classic/kuhn-poker.cards")
    bots = {spec: make_bot(spec, 0) for spec in ("cfr:100", "cfr:100:win", "cfr:100:points", "cfr:win")}
    assert [(b.iterations, b.returns) for b in bots.values()] == [(100, None), (100, "win"), (100, "points"), (1000, "win")]
    s = new_game(rs, 2, None, 0)
    points, win = bots["cfr:100"]._policy(s)[1], bots["cfr:100:win"]._policy(s)[1]
    assert points == bots["cfr:100:points"]._policy(s)[1] and points.keys() == win.keys() and points != win


def test_cfr_on_arrays_is_the_same_cfr(kuhn):
    """The NumPy walk (for large trees) updates exactly as the plain one."""
    from interpreter.solver.equilibrium import CFRPlus, CFRPlusArrays
    t = build_tree(kuhn)
    a, b = CFRPlus(t), CFRPlusArrays(t)
    a.run(200)
    b.run(200)
    for i in range(len(t.labels)):
        assert a.average(i) == pytest.approx(b.average(i), abs=1e-12)


def _small_games():
    return [spec_for("kuhn-poker", 2, returns="points", engine="python"),
            spec_for("kuhn-poker-three", 3, returns="points", engine="python"),
            spec_for("goofspiel", 2, {"num_cards": 3}, returns="points", engine="python")]


@pytest.fixture(scope="module")
def small_trees():
    return [build_tree(spec) for spec in _small_games()]


def _native_or_skip():
    from interpreter.native import find_compiler
    if find_compiler() is None:
        pytest.skip("no C compiler")


def test_cfr_in_c_is_the_same_cfr(small_trees):
    """CFR+ in C (runtime/cfr.c) over the tree adds in CFRPlus's order: the same numbers to the bit;
    over the tree with its equal subtrees merged, to rounding. Values and best replies as values()
    and best_reply() work them out."""
    _native_or_skip()
    from interpreter.solver.equilibrium import CFRPlus, CFRPlusNative
    for t in small_trees:
        a, b, c = CFRPlus(t), CFRPlusNative(t, merged=False), CFRPlusNative(t)
        for x in (a, b, c):
            x.run(150)
        assert b.iterations == c.iterations == 150
        for i in range(len(t.labels)):
            assert a.average(i) == b.average(i)
            assert a.average(i) == pytest.approx(c.average(i), abs=1e-9)
        for x in (b, c):
            assert x.values() == pytest.approx(values(t, a.average), abs=1e-9)
            for p in range(t.players):
                assert x.best_reply(p) == pytest.approx(best_reply(t, a.average, p), abs=1e-9)


def test_the_merged_tree_is_smaller_where_subtrees_repeat(small_trees):
    """C numbers the distinct subtrees (runtime/cfr.c: cfr_merge): two nodes have one number when
    their kinds, information sets, payoffs and children's numbers agree, and only then."""
    _native_or_skip()
    from interpreter.native.cfr import FlatTree
    for t in small_trees:
        f = FlatTree(t)
        cls = f.classes[f.place]  # by the Tree's numbering
        kids = lambda k: tuple(int(cls[c]) for c in t.children[k])  # noqa: E731
        seen = {}
        for k in range(len(t.kind)):
            key = (t.kind[k], t.infoset[k], t.payoff[k], tuple(t.odds[k] or ()), kids(k))
            assert seen.setdefault(int(cls[k]), key) == key
            assert all(c > cls[k] for c in kids(k))
        assert len(set(seen.values())) == len(seen) and cls[0] == 0
        if f.dag is not None:
            assert f.dag.nodes == len(seen) < len(t.kind)
    assert FlatTree(small_trees[0]).dag.nodes == 28  # (58 positions: the ends of equal payoffs, ...)


def test_solve_equilibrium_runs_in_c_or_without_a_compiler(kuhn, monkeypatch):
    from interpreter.native import toolchain as build
    from interpreter.solver.equilibrium import CFRPlus, CFRPlusNative, cfr_solver
    t = build_tree(kuhn)
    if build.find_compiler() is not None:
        assert isinstance(cfr_solver(t), CFRPlusNative)
    monkeypatch.setattr(build, "find_compiler", lambda: None)
    assert isinstance(cfr_solver(t), CFRPlus)
    eq = solve_equilibrium(kuhn, 300)
    assert eq.values[0] == pytest.approx(-1 / 18, abs=1e-3) and eq.exploitability < 1e-3


def test_moving_the_last_child_in_place_walks_the_same_tree(tmp_path):
    """build_tree plays each position's last move on the position itself: the same Tree as every
    move on a copy; where a move draws (a bet draws 0 to 2 chips more into the pot), the position
    is rebuilt from its recipe and copied from then on."""
    from pathlib import Path
    from interpreter.adapters import chance
    text = (Path(__file__).resolve().parents[2] / "rulesets" / "classic" / "kuhn-poker.cards").read_text()
    path = tmp_path / "drawn-pot.cards"
    path.write_text(text.replace("\n    set bettor = p\n", "\n    set bettor = p\n    set pot = pot + random(0..2)\n"))
    drawn = spec_for(str(path), 2, returns="points", int_range=(-10, 10), engine="python")
    for spec in [*_small_games(), drawn]:
        spec.vars_texts = None  # (the lines of public variables made anew at every position)
        plain = build_tree(spec, in_place=False)
        spec.vars_texts = {}
        assert build_tree(spec) == plain and spec.vars_texts
    # a move that draws, played in place, spoils the position: its recipe gives it back
    core, pending = chance.root(drawn)
    while pending is not None:
        core, pending = chance.draw(core, pending, 0)
    before = (core.info_text(0), core.info_text(1), list(core.legal()))
    bet = next(a for a, m in core.legal().items() if str(m) == "bet")
    assert chance.decide_in_place(core, bet) is None
    again = chance.rebuilt(core)
    assert (again.info_text(0), again.info_text(1), list(again.legal())) == before
    assert chance.decide(again, bet)[1].need == 3


def test_a_long_run_in_c_stops_on_a_signal(small_trees):
    """CFR+ in C runs in chunks of about CHUNK_SECONDS: a signal's handler (Ctrl-C's
    KeyboardInterrupt) runs between two, so a long run stops within a fraction of a second."""
    _native_or_skip()
    import os
    import signal
    import threading
    import time
    from interpreter.solver.equilibrium import CFRPlusNative

    class Stop(Exception):
        pass

    def stop(*_):
        raise Stop

    c = CFRPlusNative(small_trees[1])
    old = signal.signal(signal.SIGINT, stop)
    try:
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
        started = time.perf_counter()
        with pytest.raises(Stop):
            c.run(10 ** 9)
        assert time.perf_counter() - started < 0.3 + 4 * c.CHUNK_SECONDS + 2 and 0 < c.iterations < 10 ** 9
    finally:
        signal.signal(signal.SIGINT, old)


def test_cfr_on_arrays_over_the_merged_tree_is_the_same_cfr(small_trees):
    """CFRPlusArrays walks the tree with its equal subtrees merged (merged_tree): CFRPlus's
    numbers to rounding, on two and three seats."""
    from interpreter.solver.equilibrium import CFRPlus, CFRPlusArrays, merged_tree
    for t in small_trees:
        a, b = CFRPlus(t), CFRPlusArrays(t)
        a.run(150)
        b.run(150)
        for i in range(len(t.labels)):
            assert a.average(i) == pytest.approx(b.average(i), abs=1e-9)
        cls, rep, kids = merged_tree(t)
        assert b.nodes == len(rep) < len(t.kind) and cls[0] == 0
