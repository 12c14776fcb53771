"""OpenSpiel's games played by random players, as the classic games' replays and soaks draw them:
every chance outcome and every action drawn alike with the test's `rng`, in the order OpenSpiel
asks for them (so one seed always gives the same games)."""

from __future__ import annotations


def dealt_round(s, rng, players: int, cards: int | None = None, first: int = 0) -> list[list[str]]:
    """OpenSpiel's deal round the table, from seat `first`: the next `cards` chance outcomes (by
    default every one up to the first decision), each seat's as OpenSpiel writes the cards."""
    hands = [[] for _ in range(players)]
    i = 0
    while (s.is_chance_node() if cards is None else i < cards):
        a = rng.choice([a for a, _ in s.chance_outcomes()])
        hands[(first + i) % players].append(s.action_to_string(a))
        i += 1
        s.apply_action(a)
    return hands


def random_decisions(s, rng, name, choose=None) -> list:
    """OpenSpiel's game `s`, dealt, played to its end: each action `choose(rng, legal)` (by default
    any legal action alike); each decision as (the player, the names of the legal actions, the
    name of the one taken), `name(s, action)` naming them before it is taken."""
    decisions = []
    while not s.is_terminal():
        p = s.current_player()
        legal = s.legal_actions()
        a = choose(rng, legal) if choose else rng.choice(legal)
        decisions.append((p, {name(s, x) for x in legal}, name(s, a)))
        s.apply_action(a)
    return decisions


def random_game(game, rng, count=None):
    """One of OpenSpiel's games played from the start, chance and players at random: the finished
    state and how many decisions it took (an action counting as `count(s, action)` of ours where
    one of theirs is more than one of ours; by default one)."""
    s = game.new_initial_state()
    n = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice([a for a, _ in s.chance_outcomes()]))
        else:
            a = rng.choice(s.legal_actions())
            n += count(s, a) if count else 1
            s.apply_action(a)
    return s, n
