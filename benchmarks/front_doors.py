"""The front doors' game-playing parts on each engine: the games of `cardrules balance` (its
random games and its skill games, greedy by default) and of `cardrules fuzz`, measured inside the
command (the imports, the plots and the report left out), the engines alternating round by round
in one run, so that a busy machine slows both alike. Prints each engine's median seconds and the
ratio; the results must be the same on both (checked). Figures only, nothing asserted.

`--job pettingzoo` measures the README's PettingZoo rows: `env(name, players=P, engine=E)`, reset
with a seed, then at each agent's turn `env.last()`, a random legal action drawn from the
observation's action mask (NumPy, seeded) and `env.step(action)`, to the end of each game; steps
(actions taken) a second on each engine, for Ganjifa 3p, Crazy Eights 5p, Goofspiel 2p and Hearts
4p (or --ruleset/--players), with OpenSpiel's own C++ game stepped from Python (an observation
tensor, `legal_actions` and `apply_action` a decision) beside it where it has the game. These jobs
count CPU seconds (time.process_time), which a busy machine disturbs less than the clock.
`--job openspiel` is the same loop through our OpenSpiel game: `load_game(name, players=P,
engine=E)`, `observation_tensor`, `legal_actions`, `apply_action`.

    python benchmarks/front_doors.py [--job balance|fuzz|pettingzoo|openspiel|all] [--ruleset NAME]
                                     [--players N] [--games K] [--strong BOT] [--rounds R]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter.balance import make_report  # noqa: E402
from interpreter.commands.balance import _configs  # noqa: E402
from interpreter.bundled import resolve  # noqa: E402
from interpreter.engine import program_of  # noqa: E402
from interpreter.engines import choose  # noqa: E402
from interpreter.commands.fuzz import fuzz_ruleset  # noqa: E402

ENGINES = ("python", "native")
# the adapters' jobs: (ruleset, players, games a round, OpenSpiel's own game or None)
ADAPTER_GAMES = (("ganjifa", 3, 100, None), ("classic/crazy-eights", 5, 150, "crazy_eights"),
                 ("classic/goofspiel", 2, 400, "goofspiel(num_cards=13,imp_info=True,points_order=random)"),
                 ("classic/hearts", 4, 100, "hearts"))


def balance_games(ruleset: str, players: int | None, games: int, strong: str | None, engine: str):
    """make_report's games, as `cardrules balance ... --workers 1 --engine ENGINE` plays them."""
    configs = _configs(Path(ruleset), None, players, [], [])
    choose([program_of(c.rs) for c in configs], engine)  # built (or loaded) before the clock starts
    t = time.perf_counter()
    data, _ = make_report(configs, games, 0, strong, games, engine=engine)
    return time.perf_counter() - t, data


def fuzz_games(ruleset: str, games: int, engine: str):
    """fuzz_ruleset's games and checks, as `cardrules fuzz ... -k K --workers 1 --engine ENGINE`."""
    fuzz_ruleset(ruleset, games=1, seed=0, engine=engine)  # built (or loaded), and warm, before the clock
    t = time.perf_counter()
    report = fuzz_ruleset(ruleset, games=games, seed=0, engine=engine)
    return time.perf_counter() - t, ([f.to_json() for f in report.findings], report.fired, report.games)


def pettingzoo_games(name: str, players: int, games: int, engine: str):
    """`games` games through the PettingZoo environment as a learner's loop plays them, one
    environment, reset with seeds 0, 1, ...: (seconds, steps), and what was seen (checked equal
    on both engines)."""
    import numpy as np
    from interpreter.adapters.pettingzoo import env as make_env
    e = make_env(name, players=players, engine=engine)  # (built or loaded before the clock)
    rng = np.random.default_rng(0)
    steps, seen = 0, []
    t = time.process_time()
    for seed in range(games):
        e.reset(seed=seed)
        total = 0.0
        for _agent in e.agent_iter():
            obs, reward, termination, truncation, info = e.last()
            total += reward
            if termination or truncation:
                action = None
            else:
                legal = obs["action_mask"].nonzero()[0]
                action = int(legal[int(rng.random() * len(legal))])
                steps += 1
            e.step(action)
        seen.append(total)
    return time.process_time() - t, (steps, seen)


def openspiel_ours(name: str, players: int, games: int, engine: str):
    """`games` games through our OpenSpiel game: an observation tensor, the legal actions and a
    random one applied each decision: (seconds, steps), and what was seen."""
    import numpy as np
    from interpreter.adapters.openspiel import load_game
    game = load_game(name, players=players, engine=engine)
    rng = np.random.default_rng(0)
    steps, seen = 0, []
    t = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        seen.append(state.returns())
    return time.process_time() - t, (steps, seen)


def openspiel_theirs(game_name: str, games: int):
    """OpenSpiel's own C++ game stepped from Python the same way (its information-state tensor
    where it has no observation tensor, as Hearts; chance nodes drawn, not counted; a
    simultaneous node counts each player's decision): steps a second, or None without pyspiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    import random
    from peers import observing, random_game
    game = pyspiel.load_game(game_name)
    see = observing(game)
    rng, n = random.Random(0), 0
    t = time.process_time()
    for _ in range(games):
        n += random_game(game, rng, see)
    return n / (time.process_time() - t)


def measure_rates(label: str, job, rounds: int, peer=None) -> None:
    """Steps a second on each engine, alternating round by round (job(engine, games) returns
    seconds and (steps, results)); OpenSpiel's own game in the same rounds when `peer` gives its rate."""
    rates = {e: [] for e in ENGINES}
    theirs, results = [], {}
    job("python", 2), job("native", 2)  # (built, loaded and warm before the clock)
    for r in range(rounds):
        for e in (ENGINES if r % 2 == 0 else ENGINES[::-1]):
            seconds, result = job(e, None)
            rates[e].append(result[0] / seconds)
            results.setdefault(e, result)
            if result != results[e]:
                raise SystemExit(f"{label}: two runs on {e} differ")
        if peer is not None:
            rate = peer()
            if rate is not None:
                theirs.append(rate)
    if results["python"] != results["native"]:
        raise SystemExit(f"{label}: the engines' results differ")
    py, nat = (statistics.median(rates[e]) for e in ENGINES)
    line = (f"{label}: python {py:,.0f} steps/s, native {nat:,.0f} steps/s: native {nat / py:.2f}x "
            f"(CPU time, median of {rounds} rounds, {results['python'][0]} steps a round, the same games)")
    if theirs:
        os_rate = statistics.median(theirs)
        line += f"; OpenSpiel's own game {os_rate:,.0f} steps/s (native {nat / os_rate:.2f}x of it)"
    print(line, flush=True)


def measure(label: str, job, rounds: int) -> None:
    times = {e: [] for e in ENGINES}
    results = {}
    for r in range(rounds):
        for e in (ENGINES if r % 2 == 0 else ENGINES[::-1]):
            seconds, result = job(e)
            times[e].append(seconds)
            results.setdefault(e, result)
            if result != results[e]:
                raise SystemExit(f"{label}: two runs on {e} differ")
    if results["python"] != results["native"]:
        raise SystemExit(f"{label}: the engines' results differ")
    py, nat = (statistics.median(times[e]) for e in ENGINES)
    print(f"{label}: python {py:.2f} s, native {nat:.2f} s: native {py / nat:.1f}x "
          f"(median of {rounds} rounds, the same results)")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--job", choices=("balance", "fuzz", "pettingzoo", "openspiel", "all"), default="all")
    ap.add_argument("--ruleset", default=None, help="default: ganjifa for balance, kendra-kari for fuzz; four games for pettingzoo and openspiel")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--games", type=int, default=None, help="default: 200 for balance, 20 for fuzz; 100-400 a round for pettingzoo and openspiel")
    ap.add_argument("--strong", default="greedy", help="the skill games' player ('none' for none)")
    ap.add_argument("--rounds", type=int, default=3)
    a = ap.parse_args(argv)
    strong = None if a.strong == "none" else a.strong
    if a.job in ("balance", "all"):
        path = str(resolve(a.ruleset or "ganjifa"))
        games = a.games or 200
        players = a.players or (3 if a.ruleset is None else None)
        measure(f"balance {Path(path).stem} -n {players} -k {games} --strong {a.strong} (its games)",
                lambda e: balance_games(path, players, games, strong, e), a.rounds)
    if a.job in ("fuzz", "all"):
        path = str(resolve(a.ruleset or "kendra-kari"))
        games = a.games or 20
        measure(f"fuzz {Path(path).stem} -k {games} (its games and checks)",
                lambda e: fuzz_games(path, games, e), a.rounds)
    for job in ("pettingzoo", "openspiel"):
        if a.job not in (job, "all"):
            continue
        table = ADAPTER_GAMES if a.ruleset is None else ((a.ruleset, a.players, a.games or 20, None),)
        for name, players, games, peer in table:
            games = a.games or games
            play = pettingzoo_games if job == "pettingzoo" else openspiel_ours
            label = (f"{job} {name} {players}p, {games} games: `env(name, players={players}, engine=E)`" if job == "pettingzoo"
                     else f"{job} {name} {players}p, {games} games: `load_game(name, players={players}, engine=E)`")
            measure_rates(label, lambda e, k, n=name, p=players, g=games, f=play: f(n, p, k or g, e), a.rounds,
                          (lambda pg=peer, g=games: openspiel_theirs(pg, g)) if peer and job == "pettingzoo" else None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
