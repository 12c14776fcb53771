"""What the poker games' test files share (Kuhn, Leduc and Texas Hold'em, and their variants,
against OpenSpiel's): our moves by name with the seat that makes them, the chips and the pot, the
cards dealt face down, and OpenSpiel's random games with the cards its chance dealt, replayed in
ours."""

from __future__ import annotations

from classic_stats import assert_same_statistics, random_games
from interpreter.engine import cards_in, observe, outcome, public_vars
from scenario import moves_of, play  # (our moves by name and seat; a line of moves by name)

__all__ = ["chips", "dealt_face_down", "moves_of", "play", "pot", "random_openspiel_game", "replayed",
           "same_statistics_as_openspiels"]


def chips(s) -> tuple[int, ...]:
    """Each seat's chips won (or, negative, put in) so far, P1 first."""
    c = public_vars(s)["chips"]
    return tuple(c[f"P{i + 1}"] for i in range(s.n_players))


def pot(s) -> int:
    return public_vars(s)["pot"]


def dealt_face_down(s, each: int, stock: int) -> list[list[str]]:
    """Assert that each of the two players holds `each` cards which only they see, and that the
    `stock` cards left are seen by neither; the hands."""
    hands = [cards_in(s, "hand", p) for p in (0, 1)]
    assert all(len(h) == each for h in hands) and len(cards_in(s, "stock")) == stock
    for p in (0, 1):
        seen = observe(s, p)["zones"]
        assert seen["hand"][f"P{p + 1}"] == {"cards": hands[p]}
        assert seen["hand"][f"P{2 - p}"] == {"count": each, "known": []}
        assert seen["stock"] == {"count": stock, "known": []}
    return hands


def random_openspiel_game(game, rng, policy=None):
    """Chance drawn from its outcomes and each move by `policy(rng, legal)` (by default any legal
    action alike): the state, the cards dealt (in OpenSpiel's order) and each decision as (the
    player, the legal actions, the action taken)."""
    s = game.new_initial_state()
    cards, decisions = [], []
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice([a for a, _ in s.chance_outcomes()])
            cards.append(a)
        else:
            legal = s.legal_actions()
            a = policy(rng, legal) if policy else rng.choice(legal)
            decisions.append((s.current_player(), legal, a))
        s.apply_action(a)
    return s, cards, decisions


def same_statistics_as_openspiels(game, rs, games: int, rng) -> None:
    """Our own two-player games (our shuffle) against OpenSpiel's, random players in both: the mean
    length and each seat's mean return agree within sampling error (OpenSpiel's games drawn first)."""
    theirs = [(len(decisions), *s.returns()) for s, _, decisions in
              (random_openspiel_game(game, rng) for _ in range(games))]
    ours = [(n, *outcome(s).scores) for s, n in random_games(rs, 2, games, rng)]
    assert_same_statistics(ours, theirs, [("decisions a game", lambda g: g[0]),
                                          ("P1's mean return", lambda g: g[1]), ("P2's mean return", lambda g: g[2])])


def replayed(s, meaning: dict, decisions):
    """OpenSpiel's decisions made in our game `s` (dealt as OpenSpiel dealt): at each, the same
    player and the same legal actions (ours by `meaning`); our game ends where theirs did."""
    for player, legal, action in decisions:
        assert not s.finished
        ours = moves_of(s)
        assert set(ours.values()) == {player}
        assert sorted(meaning[m] for m in ours) == legal
        play(s, next(m for m in ours if meaning[m] == action))
    assert s.finished
    return s
