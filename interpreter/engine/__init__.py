"""Stage 4: the generic engine. An OpenSpiel-shaped API over a compiled Program:
`new_game`, `legal_moves`, `apply`, `outcome`, `observe`, plus records that replay.

A State is mutable (like python-chess's Board): `apply` changes it and returns it; use
`state.clone()` to branch. Chance is the state's own seeded generator, used only by
`shuffle` and `random(...)`, so the same ruleset, options and seed always give the same game.

The parts: `state` (State, Move, Outcome), `play` (set-up, the instruction loop, legal moves,
apply, outcome, observe), `records` (saved games and replay), `positions` (positions by hand
and readers for tests and tools)."""

from .play import (DEFAULT_MAX_DECISIONS, SCORE_UNREADABLE, advice, advice_values, apply, deciders, fired_counts, in_secret, is_terminal,
                   legal_moves, moves_for, moves_to_choose, new_game, observe, observe_zones, outcome, out_of_play, program_of, public_vars,
                   resolve_options, rule_at, scores, sides, state_digest)
from .legal import offered
from .positions import card_info, cards_in, determinise, evaluate, frozen_value, position, recompute_legal, waiting
from .records import RECORD_FORMAT, make_record, read_record, replay, validate_record, write_record
from .state import MAX_STEPS, Move, Outcome, State, counted, seat_name

__all__ = ["Move", "Outcome", "State", "counted", "seat_name", "MAX_STEPS", "DEFAULT_MAX_DECISIONS", "SCORE_UNREADABLE", "new_game", "legal_moves", "moves_for", "moves_to_choose",
           "deciders", "in_secret", "apply", "is_terminal", "outcome", "scores", "sides", "observe", "observe_zones", "out_of_play", "public_vars", "fired_counts",
           "state_digest", "rule_at", "program_of", "resolve_options", "RECORD_FORMAT", "make_record",
           "write_record", "read_record", "validate_record", "replay", "position", "cards_in", "card_info",
           "evaluate", "recompute_legal", "waiting", "determinise", "frozen_value", "advice", "advice_values", "offered"]
