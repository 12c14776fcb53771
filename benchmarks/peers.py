"""OpenSpiel's own games as the benchmarks' peer: one game of random legal actions stepped from
Python, an observation read before every decision (shared by front_doors.py and vector.py, so
both compare against the same loop)."""

from __future__ import annotations


def observing(game) -> str:
    """The tensor read each decision: the observation, or the information state where the game
    has no observation tensor (Hearts)."""
    return "observation_tensor" if game.get_type().provides_observation_tensor else "information_state_tensor"


def random_game(game, rng, see: str) -> int:
    """One game to its end, chance drawn by its probabilities; the decisions made (chance nodes
    not counted; a simultaneous node counts each player's)."""
    n = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif state.is_simultaneous_node():
            for p in range(game.num_players()):
                getattr(state, see)(p)
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
            n += game.num_players()
        else:
            getattr(state, see)(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
    return n
