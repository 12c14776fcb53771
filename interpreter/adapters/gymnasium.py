"""A batch of games as a Gymnasium vector environment (`pip install 'cardrules[pettingzoo]'`,
which brings Gymnasium), over `vector.VectorGames`:

    from interpreter.adapters.gymnasium import vector_env
    envs = vector_env("some-game", players=3, num_envs=256, seed=0)     # engine auto: native
    obs, infos = envs.reset()
    while training:
        actions = policy(obs["observation"], obs["action_mask"])        # one action id per game
        obs, rewards, terminated, truncated, infos = envs.step(actions)

Each observation is {"observation": (num_envs, obs_size) float32, "action_mask": (num_envs,
actions) int8}, for the seat to act in each game (`infos["seat"]`); the action space is
`MultiDiscrete([actions] * num_envs)`, the same ids as the OpenSpiel game and the PettingZoo
environment. The games are turn-based with several seats, and Gymnasium's reward is one number
per game: `rewards[i]` is the return of the seat that made game i's move this step (zero until
the game ends), and `infos["rewards"]` gives every seat's, (num_envs, players), in absolute seat
order, for a learner that credits each seat (self-play). A game that ends starts again at once
with the next seed (`metadata["autoreset_mode"]` is SAME_STEP): the observation returned is the
new game's, and the ended game's last position, as the seat that moved sees it (its mask all
zero), is in `infos["final_obs"][i]`, where `infos["_final_obs"][i]` is true.
`reset(seed=S)` starts game i from seed S + i; `infos["seed"]` is each game's seed."""

from __future__ import annotations

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("interpreter.adapters.gymnasium needs Gymnasium: pip install 'cardrules[pettingzoo]' "
                      f"(or pip install gymnasium); {e}") from e

from .vector import VectorGames


class CardVectorEnv(VectorEnv):
    """num_envs games of one ruleset as a Gymnasium vector environment (see the module)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, path_or_name, players: int | None = None, num_envs: int = 1, seed: int = 0,
                 options: dict | None = None, *, engine: str = "auto", returns: str = "win",
                 max_decisions: int | None = None, int_range: tuple[int, int] | None = None):
        self.games = g = VectorGames(path_or_name, players, n=num_envs, seed=seed, options=options, engine=engine,
                                     returns=returns, max_decisions=max_decisions, int_range=int_range)
        self.num_envs = num_envs
        self.engine = g.engine
        low, high = g.spec.bounds()
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (g.num_actions,), dtype=np.int8)})
        self.single_action_space = spaces.Discrete(g.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._reward = np.zeros(num_envs, np.float32)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        obs, mask = self.games.reset(seed)
        return {"observation": obs, "action_mask": mask}, self._infos()

    def step(self, actions):
        g = self.games
        acted = g.seats.copy()
        obs, rewards, done, cut = g.step(np.asarray(actions))
        self._reward[:] = rewards[np.arange(self.num_envs), acted]
        infos = self._infos()
        infos["rewards"] = rewards
        ended = done | cut
        if ended.any():  # (Gymnasium's SAME_STEP keys: the ended games' last observations)
            final = np.full(self.num_envs, None, object)
            none = np.zeros(g.num_actions, np.int8)
            for i in np.flatnonzero(ended):
                final[i] = {"observation": g.final_obs[i].copy(), "action_mask": none}
            infos["final_obs"], infos["_final_obs"] = final, ended.copy()
        return {"observation": obs, "action_mask": g.mask}, self._reward, done, cut, infos

    def _infos(self) -> dict:
        return {"seat": self.games.seats, "seed": self.games.seeds}

    def __repr__(self) -> str:
        return f"CardVectorEnv({self.games.spec.title!r}, num_envs={self.num_envs}, engine={self.engine!r})"


def vector_env(path_or_name, players: int | None = None, num_envs: int = 1, seed: int = 0,
               options: dict | None = None, **kw) -> CardVectorEnv:
    """A ruleset (a bundled game's name or a .cards path) as a Gymnasium vector environment."""
    return CardVectorEnv(path_or_name, players, num_envs, seed, options, **kw)
