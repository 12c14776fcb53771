"""Scaling of `play` over processes: games/s in one process, on 2 local worker processes, and
on a local Dask cluster of 2 workers (one thread each).

    python benchmarks/scaling.py [--games K] [--rounds R] [--ruleset PATH] [--players N] [--bot NAME]
                                 [--engine native|python] [--no-dask]

Each round plays the same K games (seeds 0..K-1) three ways, alternately, so a busy machine
slows all three alike:

* `1 process`: the command's own loop (`cardrules play --workers 1`);
* `2 local workers`: the process pool of `--workers 2`, started for the round and counted in
  its time (a fresh interpreter per worker, which loads the engine and builds the ruleset from
  its text): what a command pays; `warm` is the same pool's second run, without the start;
* `Dask, 2 workers`: `--cluster` on a `distributed.LocalCluster` started once before the
  rounds (its start is not counted; connecting the client is).

It prints the median games/s of each and the speed-up over one process, and checks that the
three ways gave the same games; and how busy the cores were with other jobs just before and
after (from /proc/stat), since two workers cannot use a core that another job holds. Figures only: nothing asserts a speed. The project's machine
has 2 cores and is often shared with other jobs, so single rounds vary by 10-30%.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def one_process(path: Path, rs, players: int, games: int, bots: dict, engine: str) -> list:
    """The games played in this process by the very function a worker runs on its chunk: each
    game's result (`--json`'s entries)."""
    from interpreter.runner import remember, source_of
    from interpreter.playing import play_games
    src = source_of(path)
    remember(src, rs)
    args = {"seed": 0, "players": players, "options": {}, "bots": dict(bots), "log": False, "engine": engine,
            "json": True}
    return play_games((src,), range(games), args)["tally"].results


def on_runner(runner, path: Path, rs, players: int, games: int, bots: dict, engine: str) -> list:
    from interpreter.playing import play
    got = play(runner, path, rs, players, {}, 0, games, bots, False, engine=engine)
    assert got.broke is None and not got.interrupted
    return got.tally.results


def busy_elsewhere(seconds: float = 2.0) -> float | None:
    """The share of the machine's cores busy while this process sleeps (other jobs), from
    /proc/stat; None where there is none."""
    def snap():
        with open("/proc/stat") as f:
            a = [int(x) for x in f.readline().split()[1:]]
        return sum(a), a[3] + a[4]
    try:
        t1, i1 = snap()
        time.sleep(seconds)
        t2, i2 = snap()
    except (OSError, ValueError, IndexError):
        return None
    return 1 - (i2 - i1) / max(1, t2 - t1)


def timed(fn):
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ruleset", default=str(ROOT / "rulesets" / "ganjifa" / "ganjifa.cards"))
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--bot", default="random")
    ap.add_argument("--engine", choices=("native", "python"), default="native",
                    help="the engine the games are played on (default native, what auto gives with a compiler)")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask cluster")
    a = ap.parse_args()

    from interpreter import load_ruleset
    from interpreter.runner.local import LocalRunner
    path = Path(a.ruleset)
    rs = load_ruleset(path)
    bots = {seat: a.bot for seat in range(a.players)}
    one_process(path, rs, a.players, 5, bots, a.engine)  # warm up this process's ruleset and caches

    cluster = client_runner = None
    if not a.no_dask:
        import distributed

        from interpreter.runner.dask import DaskRunner
        cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                           dashboard_address=":0", silence_logs=50)
        with DaskRunner(cluster.scheduler_address, 30) as warm:  # the workers load the engine once
            on_runner(warm, path, rs, a.players, 8, bots, a.engine)

    before = busy_elsewhere()
    times: dict[str, list[float]] = {"1 process": [], "2 local workers": [], "2 local workers (warm)": [],
                                     "Dask, 2 workers": []}
    reference = None
    for r in range(a.rounds):
        t, ref = timed(lambda: one_process(path, rs, a.players, a.games, bots, a.engine))
        times["1 process"].append(t)
        reference = reference or ref
        assert ref == reference
        runner = LocalRunner(2)
        try:
            t, got = timed(lambda: on_runner(runner, path, rs, a.players, a.games, bots, a.engine))
            times["2 local workers"].append(t)
            assert got == reference, "2 local workers played other games"
            t, got = timed(lambda: on_runner(runner, path, rs, a.players, a.games, bots, a.engine))
            times["2 local workers (warm)"].append(t)
        finally:
            runner.close()
        if cluster is not None:
            from interpreter.runner.dask import DaskRunner

            def on_dask():
                with DaskRunner(cluster.scheduler_address, 30) as d:
                    return on_runner(d, path, rs, a.players, a.games, bots, a.engine)
            t, got = timed(on_dask)
            times["Dask, 2 workers"].append(t)
            assert got == reference, "the Dask cluster played other games"
        print(f"round {r + 1}: " + ", ".join(f"{k} {a.games / v[-1]:.0f}/s" for k, v in times.items() if v),
              flush=True)
    if cluster is not None:
        cluster.close()

    after = busy_elsewhere()
    base = statistics.median(times["1 process"])
    other = " and ".join(f"{x:.0%}" for x in (before, after) if x is not None)
    print(f"\n{path.name}, {a.players} players, {a.bot} bots, {a.games} games a run, median of {a.rounds} "
          f"rounds, {os.cpu_count()} cores" + (f" (busy with other jobs before and after: {other})" if other else "")
          + "; the same games every way")
    print(f"{'':<24} {'games/s':>9} {'speed-up':>9} {'per round':>10}")
    for k, v in times.items():
        if v:
            m = statistics.median(v)
            per_round = statistics.median(b / t for b, t in zip(times["1 process"], v))
            print(f"{k:<24} {a.games / m:>9.0f} {base / m:>8.2f}x {per_round:>9.2f}x")
    print("(speed-up: of the median games/s; per round: the median of each round's speed-up, whose runs "
          "are close in time)")


if __name__ == "__main__":
    main()
