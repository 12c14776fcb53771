"""What a person at the terminal sees (`cardrules play --human`): a shared family of piles is
listed pile by pile, not as "build of others"; one's own pile that others may see too (cards
won) is shown in full, not shortened to a count."""

from __future__ import annotations

from pathlib import Path

from interpreter import load_ruleset
from interpreter.engine import apply, legal_moves, new_game
from interpreter.playing import Human

ROOT = Path(__file__).resolve().parents[2]


def shown(state, seat: int, capsys) -> str:
    Human(seat).show(state)
    return capsys.readouterr().out


def test_a_shared_family_of_piles_is_listed_pile_by_pile(capsys):
    s = new_game(load_ruleset(ROOT / "rulesets" / "mughal" / "udvasa.cards"), 1, seed=1)
    out = shown(s, 0, capsys)
    assert "of others" not in out
    for i in range(1, 9):
        assert f"\nbuild({i}): " in out and f"\nwork({i}): " in out


def test_ones_own_public_pile_is_shown_in_full(capsys):
    from interpreter.engine import observe
    from interpreter.engine.state import seat_name
    s = new_game(load_ruleset(ROOT / "rulesets" / "classic" / "hearts.cards"), 4, seed=3)
    while not s.finished:
        apply(s, legal_moves(s)[0])
    piles = observe(s, 0)["zones"]["won"]
    seat = max(range(4), key=lambda i: len(piles[seat_name(i)]["cards"]))
    won = piles[seat_name(seat)]["cards"]
    assert len(won) > 6
    out = shown(s, seat, capsys)
    line = next(ln for ln in out.splitlines() if ln.startswith("your won:"))
    assert line == f"your won: {len(won)} cards"
    after = out.split(line + "\n", 1)[1].splitlines()
    by_suit = [ln for ln in after if ln.startswith("  ") and not ln.startswith("  won of others")]
    listed = " ".join(ln.split(": ", 1)[1] for ln in by_suit).split()
    assert len(listed) == len(won)  # every card, by suit, under the count
