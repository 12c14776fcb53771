"""What the solver's table may forget of a position (language/unread.py): the order of a zone no
rule reads in order, who played a card where no rule asks. Scenario tests on small games for the
walk's verdicts; a property over every bundled ruleset that a position scrambled in what is
forgotten plays on exactly alike; and the transpositions it buys in Bridge."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_ruleset, loads_ruleset, new_game
from interpreter.engine import apply, moves_for, outcome, scores
from interpreter.language.unread import forgets, unread
from interpreter.players.bots import bot_seed, make_bot
from interpreter.solver import Solver
from interpreter.engine import sides
from tests.small_games import TINY

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").glob("**/*.cards"))

# TINY, its trick's winner read straight from the pile (not through a `let`, which the walk
# cannot follow), and LATER written after the trick is taken
READ_IN_PILE = TINY.replace("""            let best = highest c in pile
            set leader = best.played_by
            move pile to won(leader)
""", """            set leader = (highest c in pile).played_by
            move pile to won(leader)
            LATER
""")


def verdict(text: str):
    u = unread(loads_ruleset(text, "tiny.cards"))
    return sorted(u.unordered), sorted(u.no_played_by)


def test_a_pile_only_counted_is_a_set_and_played_by_is_read_only_where_the_rules_look():
    # won is only counted; the pile is searched for its highest card and moved whole to won,
    # whose order nobody reads; hands are offered in order, the stock is shuffled and dealt from.
    # Cards come into the pile from anywhere, keeping played_by when they leave a shared zone:
    # the stock's and the pile's are kept, the hands' and the won piles' forgotten
    assert verdict(READ_IN_PILE.replace("LATER\n", "")) == (["pile", "won"], ["hand", "won"])


def test_a_card_read_through_a_let_may_lie_anywhere():
    assert verdict(TINY) == (["pile", "won"], [])


@pytest.mark.parametrize("later, unordered", [
    # only counted and searched by suit: still sets
    ("set leader = if count(won(leader)) > 0 and any c in won(leader) where c.suit == Red then leader else next(leader)",
     ["pile", "won"]),
    # the bottom card of a won pile; and so the pile, moved whole onto it, hands its order on
    ("set leader = first(won(leader)).owner", []),
    # a won pile gathered into the stock, which is dealt from
    ("move won(leader) to stock", []),
    # how deep a card lies in a won pile
    ("set leader = if any c in won(leader) where c.depth > 0 then leader else next(leader)", []),
])
def test_what_reads_a_zones_order(later, unordered):
    assert verdict(READ_IN_PILE.replace("LATER", later))[0] == unordered


def test_a_zone_reached_through_a_card_forgets_nothing():
    u, by = verdict(READ_IN_PILE.replace("LATER", "set leader = if count(top(pile).zone) > 9 then leader else leader"))
    assert (u, by) == ([], [])


def test_a_card_leaving_a_shared_zone_carries_its_played_by():
    # who played a won card is read; cards reach won only from the pile, a shared zone, so the
    # pile's played_by must be kept too; the hands' never reach won with theirs
    text = READ_IN_PILE.replace("LATER", "set leader = (highest c in won(leader)).played_by")
    _, by = verdict(text)
    assert by == ["hand"]


def _scrambled(s, rng: random.Random):
    """A copy of s with every zone the rules never read in order shuffled, and played_by made up
    for every card lying where the rules never read it."""
    t = s.clone()
    ordered, by = forgets(t.program)
    for i, z in enumerate(t.zones):
        if not ordered[t.zkind[i]]:
            rng.shuffle(z)
        if not by[t.zkind[i]]:
            for c in z:
                t.played_by[c] = rng.choice([None, *range(t.n_players)])
    t.memo, t.cmemo = {}, {}
    return t


def _forgetting():
    out, seen = [], set()
    for path in RULESETS:
        rs = load_ruleset(path)
        u = unread(rs)
        if (u.unordered or u.no_played_by) and rs.name not in seen:
            seen.add(rs.name)
            out.append(path)
    return out


@pytest.mark.parametrize("path", _forgetting(), ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_a_position_scrambled_in_what_is_forgotten_plays_on_alike(path):
    """Every ruleset that forgets something: at several points of a random game, a copy
    scrambled in what the key forgets offers the same moves, in the same order, at every later
    decision of the same random line, and ends with the same scores and outcome."""
    rs = load_ruleset(path)
    players = rs.players_min
    for seed in (0, 1):
        s = new_game(rs, players, None, seed)
        bot = make_bot("random", bot_seed(seed, 0))
        n = 0
        while not s.finished and n < 400:
            if n % 7 == 3:
                a, b = s.clone(), _scrambled(s, random.Random(n))
                picks = random.Random(seed * 1000 + n)
                steps = 0
                while not a.finished and steps < 200:
                    ma, mb = moves_for(a), moves_for(b)
                    assert [str(m) for m in ma] == [str(m) for m in mb], (path.name, seed, n, steps)
                    k = picks.randrange(len(ma))
                    apply(a, ma[k])
                    apply(b, mb[k])
                    steps += 1
                assert b.finished == a.finished
                if a.finished:
                    assert scores(a) == scores(b) and outcome(a) == outcome(b)
            apply(s, bot.choose(s))
            n += 1


def _bridge_trick_play(seed: int, left: int):
    from benchmarks.solve import late
    rs = load_ruleset(ROOT / "rulesets" / "classic" / "bridge.cards")
    return late(rs, 4, seed, left)


def test_bridge_tricks_taken_in_another_order_are_one_position_in_the_table(monkeypatch):
    """Sixteen cards left: the won piles are sets and who played a won card is forgotten, so the
    solver meets the same position by lines that take the same tricks in another order. The
    same value, in far fewer positions, than with the whole position as the key."""
    s = _bridge_trick_play(1, 16)
    side = [list(x) for x in sides(s)]
    assert forgets(s.program) != (None, None)
    now = Solver(4, side, 10**6).solve(s)
    import interpreter.solver.minimax as mm
    monkeypatch.setattr(mm, "forgets", lambda program: (None, None))
    whole = Solver(4, side, 10**6).solve(s)
    assert now.complete and whole.complete
    assert now.value == whole.value
    assert [str(m) for m in now.line][:1] and now.nodes * 2 < whole.nodes, (now.nodes, whole.nodes)
