"""Any ruleset as an OpenSpiel game (`pip install 'cardrules[openspiel]'`).

    from interpreter.adapters.openspiel import load_game
    game = load_game("some-game", players=3)          # a bundled name or a .cards path
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])

`load_game(path_or_name, players=None, options=None, *, seed=0, returns="win",
max_decisions=None, int_range=None, engine="auto", chance="sampled")` returns a `pyspiel.Game`;
so does `pyspiel.load_game` with the game's string (`str(game)`), as OpenSpiel's deserialisation
does: the game is registered as `cardrules` with the parameters `ruleset` (a bundled name or a
path), `players` (0: the fewest the ruleset allows), `options` (`name:value;name:value`), `seed`,
`returns`, `max_decisions` (0: the ruleset's own bound), `int_low`/`int_high`, `engine`
(`native`: the ruleset compiled to C, an OptionError when it cannot be had; `python`; `auto`, the
default: native wherever a C compiler builds the ruleset, else Python; the observations are
written by C (c_observations.py); the same games on both: `game.engine` says which,
`game.spec.engine.line` why) and `chance` (`sampled`, the default, or `explicit`: below).

The game's type, from the ruleset:

* sequential moves; several players deciding at one point (`choose by each`) are asked one
  after another, the first still to decide being the current player (a choice made in secret
  stays in the others' history as "a choice made in secret"; its effect shows once all have
  chosen);
* chance: with `chance="sampled"` (the default) sampled stochastic (shuffles happen inside
  `apply_action`, drawn from the state's seeded generator: game k from one game object uses seed
  `seed + k`; there are no chance nodes); with `chance="explicit"` explicit stochastic, for
  algorithms that walk the tree (CFR, best responses, exploitability): every draw the rules make
  is a chance node (`current_player()` is PlayerId.CHANCE, `chance_outcomes()` lists the n
  equally likely outcomes 0..n-1, `legal_actions()` those ids, `action_to_string` "draw k";
  `max_chance_outcomes`: the most cards, players or numbers one draw can choose among), the step
  replayed in Python with the outcomes chosen (chance.py); it needs the Python engine (native
  with it is an OptionError, auto plays Python), has no seed, and refuses resampling and reseeding.
  Deterministic when the rules never shuffle or draw at random;
* information: imperfect when any zone is hidden or private or a choice is made in secret;
* utility: zero-sum with `returns="win"` (a sole winner 1, each loser -1/(n-1); a shared win
  split; no winner 0) and `returns="points"` (each seat's score less the table's mean: chips won
  and lost as they are), general-sum for a solitaire and with `returns="score"` (scores placed
  between 0 and 1); terminal rewards only;
* actions: the stable encoding of `interpreter.adapters.encoding` (`num_distinct_actions`
  ids per ruleset and player count); `max_game_length`: the ruleset's `at most N decisions`.

Strings and tensors per player: `observation_string` (what the seat sees now),
`information_state_string` (that and every move as the seat saw it), `observation_tensor`
and `information_state_tensor` (the layouts in `encoding`, also by piece through
`make_py_observer`). `resample_from_infostate(player, sampler)` draws what that player cannot
know (and the future chance) afresh, as OpenSpiel's information-set search wants;
`resampler(seed)` gives a seeded one for `ISMCTSBot.set_resampler`. A state's copy draws the
same future chance as the original: a search that must not foresee shuffles should resample
or call `state.reseed(n)`. States pickle and serialise (as their seed, moves and samples; with
explicit chance, as their draws and moves)."""

from __future__ import annotations

import random

try:
    import numpy as np
    import pyspiel
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("interpreter.adapters.openspiel needs OpenSpiel: pip install 'cardrules[openspiel]' "
                      f"(or pip install open-spiel); {e}") from e

from ..errors import OptionError
from . import chance as explicit
from .core import Core, Seeds
from .encoding import DEFAULT_INT_RANGE, spec_for

SHORT_NAME = "cardrules"

_PARAMS = {"ruleset": "", "players": 0, "options": "", "seed": 0, "returns": "win", "max_decisions": 0,
           "int_low": DEFAULT_INT_RANGE[0], "int_high": DEFAULT_INT_RANGE[1], "engine": "auto",
           "chance": "sampled"}
CHANCE_MODES = ("sampled", "explicit")

_T = pyspiel.GameType
_REGISTERED_TYPE = _T(
    short_name=SHORT_NAME, long_name="cardrules: a ruleset from a .cards file", dynamics=_T.Dynamics.SEQUENTIAL,
    chance_mode=_T.ChanceMode.SAMPLED_STOCHASTIC, information=_T.Information.IMPERFECT_INFORMATION,
    utility=_T.Utility.GENERAL_SUM, reward_model=_T.RewardModel.TERMINAL, max_num_players=64, min_num_players=1,
    provides_information_state_string=True, provides_information_state_tensor=True,
    provides_observation_string=True, provides_observation_tensor=True,
    parameter_specification=dict(_PARAMS), default_loadable=False)


def options_text(options: dict | None) -> str:
    """{name: value} as the `options` parameter: 'name:value;name:value', sorted."""
    out = []
    for k, v in sorted((options or {}).items()):
        v = ("true" if v else "false") if isinstance(v, bool) else str(v)
        if any(ch in f"{k}{v}" for ch in ":;,=()"):
            raise OptionError(f"option {k}={v!r} cannot be written in a game string")
        out.append(f"{k}:{v}")
    return ";".join(out)


def parse_options(text: str) -> dict:
    out = {}
    for part in filter(None, (p.strip() for p in str(text or "").split(";"))):
        name, sep, value = part.partition(":")
        if not sep:
            raise OptionError(f"options are written 'name:value;name:value', not {text!r}")
        out[name.strip()] = value.strip()
    return out


class CardGame(pyspiel.Game):
    """A ruleset at one player count with its options, as a pyspiel game."""

    def __init__(self, params=None):
        p = dict(_PARAMS)
        p.update(params or {})
        if not p["ruleset"]:
            raise OptionError("the cardrules game needs a ruleset: a bundled game's name or a path to a .cards file")
        mode = str(p["chance"])
        if mode not in CHANCE_MODES:
            raise OptionError(f"chance is one of {', '.join(CHANCE_MODES)}, not {mode!r}")
        engine = str(p["engine"])
        if mode == "explicit":  # the draws are listed by replaying steps in Python (chance.py)
            if engine == "native":
                raise OptionError("chance='explicit' plays on the Python engine only (its draws are listed by "
                                  "replaying each step in Python): give engine='python' or 'auto'")
            if engine == "auto":
                engine = "python"
        spec = spec_for(p["ruleset"], int(p["players"]) or None, parse_options(p["options"]), returns=p["returns"],
                        max_decisions=int(p["max_decisions"]) or None, int_range=(int(p["int_low"]), int(p["int_high"])),
                        engine=engine)
        self.spec = spec
        self.engine = spec.engine.name  # "native" or "python"; spec.engine.line says why
        canonical = dict(p, ruleset=spec.ref, players=spec.players, options=options_text(dict(spec.given)))
        rs = spec.ruleset
        self.explicit = mode == "explicit" and spec.chance
        chance = (_T.ChanceMode.DETERMINISTIC if not spec.chance else
                  _T.ChanceMode.EXPLICIT_STOCHASTIC if self.explicit else _T.ChanceMode.SAMPLED_STOCHASTIC)
        info = _T.Information.IMPERFECT_INFORMATION if spec.imperfect else _T.Information.PERFECT_INFORMATION
        utility = _T.Utility.ZERO_SUM if spec.zero_sum else _T.Utility.GENERAL_SUM
        game_type = _T(
            short_name=SHORT_NAME, long_name=f"cardrules: {spec.title}", dynamics=_T.Dynamics.SEQUENTIAL,
            chance_mode=chance, information=info, utility=utility, reward_model=_T.RewardModel.TERMINAL,
            max_num_players=rs.players_max, min_num_players=rs.players_min,
            provides_information_state_string=True, provides_information_state_tensor=True,
            provides_observation_string=True, provides_observation_tensor=True,
            parameter_specification=dict(_PARAMS), default_loadable=False)
        low, high = spec.utility_range
        game_info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_distinct_actions,
            max_chance_outcomes=explicit.max_chance_outcomes(spec) if self.explicit else 0, num_players=spec.players,
            min_utility=low, max_utility=high, utility_sum=0.0 if spec.zero_sum else None,
            max_game_length=spec.max_length)
        super().__init__(game_type, game_info, canonical)
        self.seeds = Seeds(spec, int(p["seed"]))
        self._root = None  # explicit chance: the first node, worked out once
        self._walk = explicit.Walk() if self.explicit else None  # and the steps from each node

    def root(self) -> tuple:
        """Explicit chance: the first node (its position, and its chance node if it draws)."""
        if self._root is None:
            self._root = explicit.root(self.spec)
        return self._root  # (a chance.Fixed position: shared, never changed in place)

    def new_initial_state(self, *args):
        """A new game, with the next seed (`seed`, `seed + 1`, ...), taken when the game is
        first played or asked who is to play."""
        if args:
            raise ValueError("a cardrules game starts from its seed, not from a description: use "
                             "new_initial_state() or new_initial_state_with_seed(seed)")
        if self.explicit:
            return CardState(self, *self.root())
        return CardState(self)

    def new_initial_state_with_seed(self, seed: int) -> "CardState":
        """The game the engine plays with `seed` (the game's seed counter is not used)."""
        if self.explicit:
            raise OptionError("a game with chance='explicit' has no seed: its chance nodes' outcomes are actions")
        return CardState(self, Core.start(self.spec, seed))

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        info_state = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        public_only = bool(iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE)
        return CardObserver(self.spec, info_state, public_only)


class CardState(pyspiel.State):
    """A game in progress. Its Python attributes: `_core`, which copies as a state copy and
    pickles as the game's recipe (seed or draws, moves, samples), and, with explicit chance,
    `_chance`, the chance node (chance.Pending) the position `_core` is waiting on, or None,
    and `_walk`, the game's chance.Walk; that is how OpenSpiel's clone and serialisation carry
    them."""

    _explicit, _chance, _walk = False, None, None  # (sampled chance: a state's own attributes are `_core` alone)

    def __init__(self, game: CardGame, core: Core | None = None, pending: "explicit.Pending | None" = None):
        super().__init__(game)
        self._core = core if core is not None else Core.unborn(game.spec, game.seeds)
        if game.explicit:
            self._explicit, self._chance, self._walk = True, pending, game._walk

    def _c(self) -> Core:
        core = self._core
        if core.state is None:
            core.born()
        return core

    # the pyspiel interface
    def current_player(self):
        if self._chance is not None:
            return pyspiel.PlayerId.CHANCE
        c = self._c()
        who = c.current()
        return pyspiel.PlayerId.TERMINAL if who is None else who

    def _legal_actions(self, player):
        if self._chance is not None:
            return list(range(self._chance.need)) if player == pyspiel.PlayerId.CHANCE else []
        c = self._c()
        if c.current() != player:
            return []
        return list(c.legal())

    def chance_outcomes(self):
        """Explicit chance: the outcomes of the draw, all equally likely."""
        if self._chance is None:
            return []
        n = self._chance.need
        return [(o, 1.0 / n) for o in range(n)]

    def _apply_action(self, action):
        if self._explicit:
            self._core, self._chance = self._walk.step(self._core, self._chance, int(action))
        else:
            self._c().apply_id(action)

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action}"
        return self._core.spec.action_text(action)

    def is_terminal(self):
        return self._chance is None and self._c().terminal()

    def returns(self):
        if self._chance is not None:
            return [0.0] * self._core.spec.players
        if self._explicit:  # (a position that never changes: its returns worked out once)
            memo = self._core.memo
            paid = memo.get("returns")
            if paid is None:
                paid = memo["returns"] = self._core.returns()
            return paid
        return self._c().returns()

    def __str__(self):
        c = self._core.view()
        text = c.spec.referee_text(c)
        ch = self._chance
        if ch is not None:  # (chance to move: in place of the line that says who moves, or how it ended)
            step = "the set-up" if ch.step is None else c.spec.action_text(ch.step)
            lines = text.split("\n")
            lines[1] = f"chance: {step} has drawn {list(ch.drawn)}; its next draw is among {ch.need}"
            text = "\n".join(lines)
        return text

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state the player cannot tell from this one: what they cannot know, and the future
        chance, drawn afresh (from `probability_sampler()`, a number in [0, 1))."""
        if self._explicit:
            raise OptionError("resample_from_infostate draws afresh from a seed: it needs chance='sampled'")
        seed = int(probability_sampler() * 2 ** 53)
        return self._resampled(player_id, random.Random(seed))

    def _resampled(self, player: int, rng: random.Random) -> "CardState":
        core = self._c().resample(player, rng)
        out = self.get_game().new_initial_state()
        out._core = core
        return out

    # extras
    @property
    def engine_state(self):
        """The engine's State (for reading; moving it behind the adapter's back confuses it)."""
        return self._c().state

    def reseed(self, seed: int) -> None:
        """Draw this state's future chance from `seed` from now on."""
        if self._explicit:
            raise OptionError("reseed needs chance='sampled': with explicit chance the draws are actions")
        self._c().reseed(seed)


class CardObserver:
    """OpenSpiel's Python observer: `tensor` (flat float32) with a named view per piece in
    `dict`, and `string_from`."""

    def __init__(self, spec, info_state: bool, public_only: bool):
        self.spec, self.info_state, self.public_only = spec, info_state, public_only
        pieces = spec.info_pieces if info_state else spec.pieces
        self.tensor = np.zeros(spec.info_size if info_state else spec.obs_size, np.float32)
        self.dict = {}
        for name, shape, _, _ in pieces:
            a = spec.offsets[name]
            self.dict[name] = self.tensor[a:a + int(np.prod(shape))].reshape(shape)

    def set_from(self, state, player):
        self.spec.encode(state._core, None if self.public_only else player, self.tensor, self.info_state)

    def string_from(self, state, player):
        core = state._core.view()
        if self.public_only:
            return core.spec.view_text(core, None)
        if self.info_state:
            return core.info_text(player)
        return core.spec.view_text(core, player)


def resampler(seed: int = 0):
    """A seeded resampler for `ISMCTSBot.set_resampler`: the same seed, the same samples."""
    rng = random.Random(seed)

    def resample(state, player):
        return state._resampled(player, rng)

    return resample


def load_game(path_or_name, players: int | None = None, options: dict | None = None, *, seed: int = 0,
              returns: str = "win", max_decisions: int | None = None,
              int_range: tuple[int, int] | None = None, engine: str = "auto", chance: str = "sampled") -> CardGame:
    """A ruleset (a bundled game's name or a .cards path) as a pyspiel game for `players`
    (default: the fewest it allows), with `options` ({name: value}), its games played on
    `engine` (auto, python or native: the same games), its draws made inside the moves
    (`chance="sampled"`) or shown as chance nodes (`"explicit"`, on the Python engine)."""
    from ..bundled import bundled_name, resolve
    from pathlib import Path
    path = resolve(path_or_name)
    ref = bundled_name(Path(path)) or str(Path(path).resolve())
    lo, hi = DEFAULT_INT_RANGE if int_range is None else int_range
    return CardGame({"ruleset": ref, "players": int(players or 0), "options": options_text(options), "seed": int(seed),
                     "returns": returns, "max_decisions": int(max_decisions or 0), "int_low": int(lo), "int_high": int(hi),
                     "engine": engine, "chance": chance})


if SHORT_NAME not in pyspiel.registered_names():
    pyspiel.register_game(_REGISTERED_TYPE, CardGame)
