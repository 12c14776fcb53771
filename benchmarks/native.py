"""The native engine against the Python engine (issue 29), figures only: nothing here asserts.

    python benchmarks/native.py [--seconds T] [--rounds R] [--rulesets GLOB] [--openspiel] [--json]

For every ruleset matched by GLOB (default rulesets/**/*.cards) and every player count it
allows, random bots play whole games with the default options, seeds 0, 1, 2, ... (the games
`cardrules play` plays), for about T seconds on each side, the sides alternating R times in
this one process so that a busy machine slows both alike:

- python: the Python engine, a bot's choice a decision (as benchmarks/playouts.py plays);
- native: whole games in C, many a call (`cr_play_many`, what `play --engine native` runs);
- api: one decision at a time through the Python API (`legal_moves` + `apply` on a
  NativeGame), against the Python engine's `legal_moves` + `apply` with the same choices.

It prints games a second on each side and the ratios (the median over the rounds). Then, with
--openspiel, OpenSpiel's C++ crazy_eights, hearts and goofspiel driven from Python the usual
way (legal_actions, a random choice, apply_action) against our rulesets of them; then the time
to compile Euro-Jongg's C (a fresh cache), and Ganjifa's state size and the cost of a clone.
"""

from __future__ import annotations

import argparse
import ctypes
import glob
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from interpreter import load_ruleset  # noqa: E402
from interpreter.players.bots import bot_seed  # noqa: E402
from interpreter.engine import apply, legal_moves, moves_for, new_game, play  # noqa: E402
from interpreter.native.engine import NativeGame, native_program  # noqa: E402


def timed(fn, seconds: float) -> float:
    """Units of work a second: fn(k) does the k-th unit and returns how many units it did."""
    t0 = time.perf_counter()
    done = k = 0
    while time.perf_counter() - t0 < seconds:
        done += fn(k)
        k += 1
    return done / (time.perf_counter() - t0)


def python_games(rs, players):
    def one(seed):
        s = new_game(rs, players, seed=seed)
        rngs = [random.Random(bot_seed(seed, k)) for k in range(players)]
        while not s.finished and legal_moves(s):
            apply(s, rngs[s.actor].choice(moves_for(s)))
        return 1
    return one


def native_games(rs, players, chunk: int):
    np = native_program(play.program_of(rs))
    opts = np.options_row(play.resolve_options(np.p, None))
    opt_arr = (ctypes.c_int64 * len(opts))(*opts)
    out = (ctypes.c_int64 * (chunk * (5 + players + len(np.p.rule_names))))()

    def some(k):
        np.lib.cr_play_many(players, opt_arr, k * chunk, chunk, 1 << 62, out)
        return chunk
    return some


def api_decisions(rs, players, native: bool):
    """Decisions a call: one game, one move at a time from Python."""
    def one(seed):
        rng = random.Random(seed)
        n = 0
        if native:
            g = NativeGame(rs, players, seed=seed)
            while True:
                moves = g.legal_moves()
                if not moves:
                    return n
                g.apply(rng.choice(moves))
                n += 1
        s = new_game(rs, players, seed=seed)
        while True:
            moves = legal_moves(s)
            if not moves:
                return n
            apply(s, rng.choice(moves))
            n += 1
    return one


def openspiel_games(name: str, steps: bool = False):
    """OpenSpiel's game driven from Python the usual way: games a call, or (`steps`) the players'
    decisions a call (chance nodes not counted; a simultaneous node counts each player's)."""
    import pyspiel
    game = pyspiel.load_game(name)

    def one(seed):
        rng = random.Random(seed)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
                n += game.num_players()
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                n += 1
        return n if steps else 1
    return one


def ratio_rows(paths, seconds, rounds):
    rows = []
    for path in paths:
        rs = load_ruleset(path)
        for players in range(rs.players_min, rs.players_max + 1):
            py_rate = python_games(rs, players)
            chunk = max(1, int(timed(py_rate, 0.2) * 5))  # about 1/10 s of native play a call
            nat_rate = native_games(rs, players, chunk)
            sides = {"python": [], "native": [], "api_py": [], "api_native": []}
            for _ in range(rounds):
                sides["python"].append(timed(py_rate, seconds))
                sides["native"].append(timed(nat_rate, seconds))
                sides["api_py"].append(timed(api_decisions(rs, players, False), seconds / 2))
                sides["api_native"].append(timed(api_decisions(rs, players, True), seconds / 2))
            med = {k: statistics.median(v) for k, v in sides.items()}
            rows.append({"ruleset": os.path.relpath(path, ROOT), "players": players,
                         "python_games_s": round(med["python"], 1), "native_games_s": round(med["native"], 1),
                         "whole_games_ratio": round(med["native"] / med["python"], 1),
                         "api_ratio": round(med["api_native"] / med["api_py"], 2)})
            r = rows[-1]
            print(f"{r['ruleset']:45s} {players}p  python {r['python_games_s']:9.1f}/s  native "
                  f"{r['native_games_s']:11.1f}/s  whole games {r['whole_games_ratio']:6.1f}x  "
                  f"per decision (API) {r['api_ratio']:5.2f}x", flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--rulesets", default="rulesets/**/*.cards")
    ap.add_argument("--openspiel", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    paths = sorted(glob.glob(str(ROOT / args.rulesets), recursive=True))
    out = {"rows": ratio_rows(paths, args.seconds, args.rounds)}
    if args.openspiel:
        out["openspiel"] = []
        for ours, theirs, players in (("classic/crazy-eights", "crazy_eights", 5), ("classic/hearts", "hearts", 4),
                                      ("classic/goofspiel", "goofspiel", 2)):
            rs = load_ruleset(ROOT / "rulesets" / f"{ours}.cards")
            os_rate = openspiel_games(theirs)
            chunk = 200
            nat = native_games(rs, players, chunk)
            a, b = [], []
            for _ in range(args.rounds):
                a.append(timed(os_rate, args.seconds))
                b.append(timed(nat, args.seconds))
            # a step at a time through the Python API: their legal_actions + apply_action against
            # our legal_moves + apply on a native game, decisions a second
            os_steps, our_steps = openspiel_games(theirs, steps=True), api_decisions(rs, players, True)
            c, d = [], []
            for _ in range(args.rounds):
                c.append(timed(os_steps, args.seconds / 2))
                d.append(timed(our_steps, args.seconds / 2))
            r = {"game": theirs, "openspiel_games_s": round(statistics.median(a), 1),
                 "native_games_s": round(statistics.median(b), 1),
                 "openspiel_steps_s": round(statistics.median(c)), "native_api_steps_s": round(statistics.median(d))}
            r["ratio"] = round(r["native_games_s"] / r["openspiel_games_s"], 1)
            r["step_ratio"] = round(r["native_api_steps_s"] / r["openspiel_steps_s"], 2)
            out["openspiel"].append(r)
            print(f"OpenSpiel {theirs:14s} {r['openspiel_games_s']:9.1f}/s  ours native {r['native_games_s']:11.1f}/s"
                  f"  {r['ratio']:6.1f}x; a step through the API: {r['openspiel_steps_s']}/s against ours "
                  f"{r['native_api_steps_s']}/s, {r['step_ratio']:.2f}x", flush=True)
    # compiling Euro-Jongg, once, with nothing in the cache
    os.environ["CARDRULES_CACHE_DIR"] = tempfile.mkdtemp(prefix="cardrules-bench-")
    from interpreter.native import program as nprogram
    nprogram._PROGRAMS.clear()
    rs = load_ruleset(ROOT / "rulesets" / "euro-jongg" / "euro-jongg.cards")
    t0 = time.perf_counter()
    native_program(play.program_of(rs))
    out["compile_euro_jongg_s"] = round(time.perf_counter() - t0, 2)
    print(f"compiling Euro-Jongg's C (a fresh cache): {out['compile_euro_jongg_s']} s")
    # Ganjifa's state and a clone
    rs = load_ruleset(ROOT / "rulesets" / "ganjifa" / "ganjifa.cards")
    g = NativeGame(rs, 3, seed=1)
    twin = (ctypes.c_uint64 * len(g.mem))()
    n = 200_000
    t0 = time.perf_counter()
    for _ in range(n):
        ctypes.memmove(twin, g.mem, ctypes.sizeof(g.mem))
    out["ganjifa_state_bytes"] = ctypes.sizeof(g.mem)
    out["ganjifa_clone_us"] = round((time.perf_counter() - t0) / n * 1e6, 3)
    print(f"Ganjifa, 3 players: a state is {out['ganjifa_state_bytes']} bytes; a clone (memmove from Python) "
          f"{out['ganjifa_clone_us']} us")
    if args.json:
        print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
