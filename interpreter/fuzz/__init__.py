"""Stage 6: `cardrules fuzz` -- hunt for inconsistencies in a ruleset.

For every player count and option combination (a deterministic sample when there are many)
the fuzzer plays games with two kinds of bots -- uniform random ones, and "rule seekers" that
look one move ahead (on `state.clone()`) and prefer moves that fire rarely fired rules, take
rarely taken actions or reach a failure -- and checks, after every move (the observation
checks at the first decisions, every tenth and at the end; the replay check on the first two
games of each configuration):

* deadlock        -- the game is not over but nobody has a legal move;
* exceeds-bound   -- more decisions than the declared `at most N decisions` (the engine stops
                     the game at the move after which it would need one more: engine.too_long);
  no-end-in-sight -- no bound declared and not over after NO_BOUND_LIMIT decisions (or the
                     engine's DEFAULT_MAX_DECISIONS, where it stops such a game);
  endless-loop    -- the engine's "the rules loop for ever without asking anyone to decide";
* runtime-error   -- any other GameRuntimeError (the ruleset asks for something impossible);
  engine-crash    -- any other exception (an engine bug);
* cards-not-conserved -- every card id is in exactly one zone and `card_zone` agrees;
* same-decision   -- two actions of one choice offer the same move (the engine silently keeps
                     the first; found by evaluating every action's `values` ourselves);
* hidden-leak     -- `observe` shows a player a card they may not see; a card-valued variable
                     (public: not a `private var`) names a card the player has never seen (not in
                     a public zone, face up, or in their own private zones); or the legal moves
                     offered to a player change when the cards they cannot see are rearranged,
                     confirmed in a possible truth (engine/truths.py: the game dealt again with
                     those cards renamed and replayed, the table looking the same to the player),
                     so that a move that depends on what a rule already showed (every King
                     turned up when dealt) is no leak;
* replay-mismatch -- a game's record (through JSON) does not replay to the same state_digest;
* card-leak       -- a game ends with cards in a zone that is not public and that no
                     expression of the ruleset reads (only `move ... to`, `deal ... to each` or
                     `shuffle` name it), cards that no player ever saw (never in a zone the
                     player could look into, never face up): no rule uses them again, no score
                     counts them and nobody knows them, so they leave the game without trace. A
                     card some player saw before it went there, or put there from one of their
                     own zones (a dealer's discard from the hand, a trick gathered face down),
                     is a discard, not a leak; so is a zone that every move there fills from
                     public zones (cards turned up and put out of play in one rule). The engine
                     itself cannot create or destroy cards (that is cards-not-conserved).

After all games (and more rule-seeking games while some rule has not fired, in which the
rule seekers also prefer moves after which an unfired rule's condition -- its `when` and the
tests of the `if`s around it -- still holds, so that a line of several moves leads to it:
`aims`; then, in a game for one player with advice, a best-first search of whole games by it for a
line to such a rule, played as a game of its own: `solve`, for a patience only a plan wins):
never-fires (a rule with no firing in any game) and dead-option (an option that never
changes play: with the same seeds and a bot that picks from the *sorted* legal moves, every
game's legal move sets, moves, visible cards, public variables and outcome are identical for
every value, with the other options at their defaults and in a few other combinations; so a
mere change of the order in which moves are listed does not count as an effect, and games cut
short at TRACE_LIMIT decisions prove nothing either way). An option is judged only when the
rules did read it in those games (more seeds when they seldom do); one no game read was never
put to the test: the report says so, and it is no finding. An option that no used code reads
is reported statically. A "reference" is any non-prose string field of the rule graph (names,
calls, performed procedures, `split`'s definitions, ...), so new statements are covered.

Static checks: unreachable-phase (no chain of `then` leads to it from the first phase),
unused-definition (a definition or procedure not referenced, directly or transitively, from
any phase, variable, score or used definition), constant-condition (an `if`/`elif`/`while`
test, a rule's or action's `when`, an action's `where` or a `face up if` that constant
folding -- literals, options, the player count, constant `let`s and definitions -- finds true
for every player count and every option value, or false for all; one that depends only on the
options or the player count is fine; `while true` is the loop idiom and is not reported),
one-copy (`c == card(Queen, Clubs)` where the deck holds two Queens of Clubs: card(...) names
the first copy only, so the test misses the other).

Every dynamic finding is shrunk: first smaller player counts and default options, then the
shortest prefix of the move list that still shows it (the move at which it first shows), then
a few other seeds; the result is written as a game record (`engine.make_record`) that
`cardrules replay` re-runs (a failing last move included). A never-fires finding comes with the
shortest complete game played, a dead-option finding with the two games (each value) that
replay the same moves; static findings have a source location instead.

Budget: `games` per configuration and/or `seconds` overall. With `games` only, the result is
a function of the seed (the clock is never consulted).

One module per stage: `common` (limits, findings, configurations, events), `static` (the
static checks and the graph walking they share), `players` (the fuzzer's bots) with `aims`
(the conditions of unfired rules they aim at) and `solve` (the search for a line to one), `play` (the
`Fuzzer` and the phases of a run) with `checks` (what is checked while a game is played),
`options` (the option-effect check) and `shrink` (reproductions and findings), and `run`
(`fuzz_ruleset`, the report, the reproductions written). Every name is importable from here;
the command, `cardrules fuzz`, is interpreter/commands/fuzz.py."""

from __future__ import annotations

# the public names of the stages (tests, the language server and the studio import them from here)
from .common import (Config, DEFAULT_GAMES, Event, Finding, Game, Hit, KIND_ORDER, MAX_COMBOS,
                     MAX_FOLD_CONFIGS, MAX_PLAYER_COUNTS, NO_BOUND_AFTER, NO_BOUND_LIMIT, OBSERVE_EARLY,
                     OBSERVE_EVERY, OPTION_EXTRA_COMBOS, OPTION_MORE_SEEDS, OPTION_SEEDS, OPTION_TOGETHER, Reproduction, RulesetReport,
                     SEARCH_DEPTH, SEARCH_GAME_NODES, SEARCH_NODES, SEEK_AIM, SOLVE_DEALS, SOLVE_NODES, SEEK_RANDOM, SEEK_SAMPLE, SHRINK_SEEDS, SHRINK_SEEDS_SEEKER, TRACE_LIMIT,
                     configurations, option_combos, option_values, player_counts)
from .static import NONE, Static, UNK
from .players import AdvisedPlayer, BOT_KINDS, RandomPlayer, RuleSeeker
from .invariants import Checks
from .options import OptionEffects
from .shrink import Shrinking
from .fuzzer import Fuzzer
from .run import finding_paragraph, fuzz_ruleset, write_reproductions
