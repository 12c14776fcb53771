"""Any ruleset as a PettingZoo AEC environment (`pip install 'cardrules[pettingzoo]'`).

    from interpreter.adapters.pettingzoo import env
    e = env("some-game", players=3, seed=1)           # a bundled name or a .cards path
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are `player_0` ... `player_{n-1}` (seat P1 is `player_0`). The agent to act is the
seat the rules ask (at a `choose by each`, the first still to decide). Each observation is
{"observation": float32 vector, "action_mask": int8 vector}: the observation tensor of
`interpreter.adapters.encoding` for that seat (with `history=True`, the information-state
tensor, which adds how often each seat made each move), and the mask of the agent's legal
action ids (all zero for an agent not to act). The observation space is a Box with the
encoding's bounds; the action space `Discrete(num_distinct_actions)`, the same ids as the
OpenSpiel game (a game in which nobody ever chooses is refused with an OptionError). Rewards
come only at the end: the encoding's returns (`returns="win"`: a sole winner 1, each loser
-1/(n-1), a shared win split; `"score"`: scores placed between 0 and 1). A game the rules end
terminates every agent; one cut short at `max_decisions` (or where nobody can move) truncates
them. A game that reaches the ruleset's own bound (`at most N decisions`, else 100,000) and asks
for one decision more is broken, as the engine says: that step raises its GameTooLong (core.py);
give `max_decisions` below the bound to have such games truncated instead. An illegal action
raises ValueError naming the legal ones.

`engine="auto"|"python"|"native"` picks the engine the games are played on (the same games on
both; `env.unwrapped.engine` says which, `env.unwrapped.spec.engine.line` why): "native" plays
the ruleset compiled to C ("native" that cannot be had raises OptionError with one line, and
its observations are written by C); auto is native wherever a C compiler builds the ruleset,
else Python.

`reset(seed=S)` deals the game the engine deals with seed S (`cardrules play --seed S`);
`reset()` without a seed takes the next one (`seed`, `seed + 1`, ...). Options are chosen when
the environment is made; `reset`'s `options` are ignored. `render()` shows the table as the
agent to act sees it (`render_mode="human"` prints it, `"ansi"` returns it)."""

from __future__ import annotations

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
    from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("interpreter.adapters.pettingzoo needs PettingZoo: pip install 'cardrules[pettingzoo]' "
                      f"(or pip install pettingzoo gymnasium); {e}") from e

from ..errors import OptionError
from .core import Core
from .encoding import spec_for


class CardEnv(AECEnv):
    """A ruleset as an AEC environment (see the module's description)."""

    metadata = {"name": "cardrules_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, path_or_name, players: int | None = None, options: dict | None = None, seed: int = 0, *,
                 returns: str = "win", max_decisions: int | None = None, int_range: tuple[int, int] | None = None,
                 history: bool = False, render_mode: str | None = None, engine: str = "auto"):
        super().__init__()
        self.spec = spec = spec_for(path_or_name, players, options, returns=returns, max_decisions=max_decisions,
                                    int_range=int_range, engine=engine)
        self.engine = spec.engine.name  # "native" or "python"; spec.engine.line says why
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {', '.join(self.metadata['render_modes'])} or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.history = history
        self.metadata = dict(self.metadata, name=f"cardrules_{spec.ruleset.name}_v0")
        self.possible_agents = [f"player_{i}" for i in range(spec.players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        low, high = spec.bounds(history)
        n_actions = spec.num_distinct_actions
        if not n_actions:  # (an action space of no actions is no space: say why, in the game's terms)
            raise OptionError(f"{spec.title} offers no move to choose in any game (every rule runs by itself), "
                              "so an agent has nothing to do: an environment needs a game in which someone decides")
        self.observation_spaces = {
            a: spaces.Dict({"observation": spaces.Box(low, high, dtype=np.float32),
                            "action_mask": spaces.Box(0, 1, (n_actions,), dtype=np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self._next_seed = int(seed)
        self.core: Core | None = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._next_seed = int(seed)
        self.core = Core.start(self.spec, self._next_seed)
        self._next_seed += 1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._cleared = False  # every reward is the 0 _clear_rewards writes (not 0.0)
        if self.core.terminal():  # a game over before anyone decides
            self._finish(0)
        else:
            self.agent_selection = self.possible_agents[self.core.current()]

    def observe(self, agent):
        obs, mask = self.core.observation(self.agent_name_mapping[agent], self.history)
        return {"observation": obs, "action_mask": mask}

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give an action id, not None")
        self._cumulative_rewards[agent] = 0.0
        core = self.core
        core.apply_id(action)
        self._clear_rewards()
        if core.terminal():
            self._finish(self.agent_name_mapping[agent])
        else:
            self.agent_selection = self.possible_agents[core.state.actor]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _clear_rewards(self) -> None:
        if not self._cleared:  # (rewards are paid only at the end: most steps have nothing to clear)
            super()._clear_rewards()
            self._cleared = True

    def _accumulate_rewards(self) -> None:
        if not self._cleared:  # (adding 0 to every seat changes nothing)
            super()._accumulate_rewards()

    def _finish(self, last: int) -> None:
        self._cleared = False
        s = self.core.state
        cut = not s.finished and s.decisions >= self.spec.max_length  # cut short by the length bound
        for a, r in zip(self.possible_agents, self.core.returns()):
            if a in self.rewards:
                self.rewards[a] = r
                self.terminations[a] = not cut
                self.truncations[a] = cut
        self.agent_selection = self.possible_agents[(last + 1) % len(self.possible_agents)]
        if self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def render(self):
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() without a render_mode: make the environment with render_mode='ansi' or 'human'")
            return None
        core = self.core
        who = self.agent_name_mapping.get(self.agent_selection) if self.agents else None
        text = core.spec.view_text(core, who)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order-enforcing wrapper, with the calls of a learner's loop (`last`, `step`,
    the agent iterator) handed straight to the environment once it has been reset: the same
    checks, errors and results, without the wrapper's attribute look-ups (each a miss and its
    __getattr__), which cost a third of a native game's step."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            return super().last(observe)  # (the error PettingZoo gives)
        return self.env.last(observe)

    def step(self, action) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63):
        if not self._has_reset:
            return super().agent_iter(max_iter)  # (the error PettingZoo gives)
        return _Iterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)  # (as OrderEnforcingWrapper shows itself)


class _Iterable(AECOrderEnforcingIterable):
    def __iter__(self):
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):
    def __next__(self):
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection


def raw_env(path_or_name, players: int | None = None, options: dict | None = None, seed: int = 0, **kwargs) -> CardEnv:
    """The environment without PettingZoo's order-checking wrapper."""
    return CardEnv(path_or_name, players, options, seed, **kwargs)


def env(path_or_name, players: int | None = None, options: dict | None = None, seed: int = 0, **kwargs):
    """A ruleset (a bundled game's name or a .cards path) as an AEC environment for `players`
    (default: the fewest it allows), with `options` ({name: value}); keyword arguments:
    returns, max_decisions, int_range, history, render_mode, engine ("auto", "python" or "native":
    the same games; "native" that cannot be had raises OptionError)."""
    return _OrderEnforcing(raw_env(path_or_name, players, options, seed, **kwargs))
