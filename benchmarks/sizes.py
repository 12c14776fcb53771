"""`check` of any file stays small and quick, whatever numbers it states (interpreter/language/sizes.py).

Every whole number of every bundled file is set to 10**k, one number at a time, for several k
(interpreter/fuzz/mutants.py: number_mutants), and each mutant is checked as `cardrules check`
checks it (load_ruleset: build the graph, compile). Each file's mutants are checked in a child
process whose address space is limited (RLIMIT_AS) to what it had after its first check plus
--budget megabytes, so a mutant that grows past that ends in a MemoryError instead of taking the
machine. The run fails on a MemoryError, on any error that is not a located CardRulesError (a
traceback), and on a mutant that takes longer than --seconds.

    python benchmarks/sizes.py [FILE ...] [--powers 3,5,9,10,18,30] [--budget 300] [--seconds 5]

Prints one line per file (mutants, how many loaded, how many were refused with a located error,
the slowest, the peak memory above the start) and the mutants that broke a rule, then the
totals; exit 1 when any did. Times are the child's processor time, so that a machine busy with
other work does not make a quick check look slow."""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _vm_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(path: str, powers: list[int], budget_mb: int) -> None:
    """Check every number mutant of one file under the memory limit; one JSON line each."""
    from interpreter import loads_ruleset
    from interpreter.errors import CardRulesError
    from interpreter.fuzz.mutants import number_mutants
    os.environ["CARDRULES_NO_CACHE"] = "1"
    text = Path(path).read_text(encoding="utf-8")
    probe = str(Path(path).with_name("mutant-of-" + Path(path).name))
    loads_ruleset(text, probe)  # the imports and a first check, before the limit is measured
    start_rss = _rss_mb()
    limit = _vm_bytes() + budget_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    for edit, mutant in number_mutants(text, powers):
        where = "every number" if edit is None else edit.describe(text)
        t, cpu = time.perf_counter(), time.process_time()
        try:
            loads_ruleset(mutant, probe)
            verdict, message = "loaded", ""
        except CardRulesError as e:
            verdict, message = ("located" if e.line else "unlocated"), e.render().splitlines()[0]
        except MemoryError:
            verdict, message = "MemoryError", ""
        except Exception as e:  # noqa: BLE001 - a traceback is what this run looks for
            verdict, message = "traceback", f"{type(e).__name__}: {e}"[:300]
        print(json.dumps({"where": where, "verdict": verdict, "message": message,
                          "seconds": round(time.process_time() - cpu, 3), "wall": round(time.perf_counter() - t, 3),
                          "peak_mb": round(_rss_mb() - start_rss, 1)}),
              flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--powers", default="3,5,9,10,18,30")
    ap.add_argument("--budget", type=int, default=300, help="megabytes above the child's start")
    ap.add_argument("--seconds", type=float, default=5.0, help="the most processor time a check may take")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    powers = [int(x) for x in a.powers.split(",")]
    if a.child:
        child(a.child, powers, a.budget)
        return 0
    files = a.files or sorted((ROOT / "rulesets").glob("**/*.cards"))
    total = {"mutants": 0, "loaded": 0, "located": 0, "bad": 0}
    worst_s, worst_mb = (0.0, ""), (0.0, "")
    for f in files:
        r = subprocess.run([sys.executable, __file__, "--child", str(f), "--powers", a.powers, "--budget", str(a.budget)],
                           capture_output=True, text=True, cwd=ROOT)
        rows = [json.loads(x) for x in r.stdout.splitlines() if x.startswith("{")]
        bad = [x for x in rows if x["verdict"] not in ("loaded", "located") or x["seconds"] > a.seconds]
        if r.returncode != 0:
            bad.append({"where": "the child", "verdict": f"exit {r.returncode}", "message": r.stderr.strip()[-300:],
                        "seconds": 0, "peak_mb": 0})
        for x in rows:
            if x["seconds"] > worst_s[0]:
                worst_s = (x["seconds"], f"{f.name} {x['where']}")
            if x["peak_mb"] > worst_mb[0]:
                worst_mb = (x["peak_mb"], f"{f.name} {x['where']}")
        n_loaded = sum(x["verdict"] == "loaded" for x in rows)
        n_located = sum(x["verdict"] == "located" for x in rows)
        print(f"{f.relative_to(ROOT) if f.is_absolute() else f}: {len(rows)} mutants, {n_loaded} loaded, "
              f"{n_located} located errors, slowest {max([x['seconds'] for x in rows] + [0]):.2f} s, "
              f"peak +{max([x['peak_mb'] for x in rows] + [0]):.0f} MB", flush=True)
        for x in bad:
            print(f"    {x['verdict']} ({x['seconds']} s): {x['where']}: {x['message']}", flush=True)
        total["mutants"] += len(rows)
        total["loaded"] += n_loaded
        total["located"] += n_located
        total["bad"] += len(bad)
    print(f"total: {total['mutants']} mutants, {total['loaded']} loaded, {total['located']} located errors, "
          f"{total['bad']} broke a rule; slowest {worst_s[0]:.2f} s ({worst_s[1]}), "
          f"most memory +{worst_mb[0]:.0f} MB ({worst_mb[1]})")
    return 1 if total["bad"] else 0


if __name__ == "__main__":
    sys.exit(main())
