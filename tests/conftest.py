"""Shared test set-up: import path and hypothesis profiles.

Profiles (choose one with HYPOTHESIS_PROFILE=<name>):

* ``default`` -- local runs: 3 examples per test (per parametrized case), no deadline.
* ``ci``      -- loaded automatically by hypothesis when the ``CI`` environment variable is
  set: hypothesis's own ci profile (derandomized, no deadline, no example database), with
  the same small number of examples so CI time matches local time.
* ``thorough`` -- long local runs (``HYPOTHESIS_PROFILE=thorough pytest tests/games/test_properties.py``).

Every test of these properties plays whole games, so the example count is per game played.
"""

from __future__ import annotations

import atexit
import gc
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the package is not installed: import it from the checkout
    sys.path.insert(0, str(ROOT))
# the helpers shared by the rooms' tests (procs, bundled_games, native_support, ...) live here
if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))

# the tests keep their grammar and graph caches to themselves, not in the user's cache folder;
# the run that made the folder (xdist's workers share it) removes it at the end
_OWN_CACHE = None
if "CARDRULES_CACHE_DIR" not in os.environ:
    os.environ["CARDRULES_CACHE_DIR"] = _OWN_CACHE = tempfile.mkdtemp(prefix="cardrules-test-cache-")


def pytest_unconfigure(config):
    if _OWN_CACHE is not None and not hasattr(config, "workerinput"):
        shutil.rmtree(_OWN_CACHE, ignore_errors=True)

# Every process of the run keeps the bytecode it compiles (in __pycache__, which git ignores), even
# where PYTHONDONTWRITEBYTECODE is set (as on this project's machines): without it each worker
# rewrote the asserts of every test module (about 19 s of processor time a worker) and every child
# process (servers, commands, workers) compiled the package again from its source.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# the games' C compiled at -O0, in a fifth of the time -O2 takes: the suite plays few games on
# each library, and the golden playthroughs build at -O0 anyway, so each game is compiled once
# (test_native_engine.py builds five games at -O2, as users do, and plays them)
os.environ.setdefault("CARDRULES_NATIVE_OPT", "-O0")

_SLOW_OK = [HealthCheck.too_slow]

# Re-registering the profile that is active (default, or ci when CI is set) reloads it,
# so hypothesis's own choice between the two is kept.
settings.register_profile("default", max_examples=3, deadline=None, suppress_health_check=_SLOW_OK)
settings.register_profile("ci", settings.get_profile("ci"), max_examples=3)
settings.register_profile("thorough", max_examples=200, deadline=None, suppress_health_check=_SLOW_OK)

if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])


# ------------------------------------------------------------------ the order under pytest-xdist (-n auto)
# The modules with the longest tests go first, so that no long test starts last and leaves the
# other core idle at the end (xdist hands out tests in this order; the order inside a module is
# kept, so module fixtures still start once per worker).

LONG_FIRST = ["test_studio_layout_browser.py", "test_studio_measure_browser.py", "test_studio_editor_browser.py",
              "test_studio_files_browser.py", "test_web_browser.py", "test_studio_browser.py",
              "test_workers.py", "test_no_hang.py", "test_adapters.py", "test_classic_tarok.py",
              "test_classic_crazy_eights.py", "test_properties.py", "test_differential.py", "test_fuzz.py"]


def pytest_collection_finish(session):
    """What collection made (every ruleset compiled, the test modules) lives until the run ends:
    frozen, the garbage collector stops walking it again and again (the property suite spends a
    tenth less processor time)."""
    gc.collect()
    gc.freeze()


def pytest_sessionstart(session):
    """Under xdist, before the workers start, two processes do once what each worker would do
    again: first they read the bundled rulesets into the run's own cache (65 files, about 11 s of
    processor time), then they collect the test modules the command names, each half of them, which
    writes every module's bytecode with its asserts rewritten (about 19 s for all). The workers then
    collect the whole suite in about 6 s each instead of 25."""
    config = session.config
    if _OWN_CACHE is None or hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    import subprocess

    def both(argvs: list[list[str]]) -> None:
        procs = [subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for argv in argvs]
        for proc in procs:  # what fails here is the tests' to report, not this warm-up's
            proc.wait()

    files = [str(p) for p in sorted(ROOT.glob("rulesets/**/*.cards"))]
    warm = "import sys\nfrom interpreter import load_ruleset\nfor f in sys.argv[1:]:\n    load_ruleset(f)\n"
    both([[sys.executable, "-c", warm, *half] for half in (files[0::2], files[1::2])])
    modules = sorted(_selected_modules(config), key=lambda p: -p.stat().st_size)
    collect = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist", "-p", "no:cacheprovider"]
    both([[*collect, *map(str, half)] for half in (modules[0::2], modules[1::2]) if half])  # (none: all)


def _selected_modules(config) -> set[Path]:
    """The test modules the command line names (folders, files or test ids; all, without any)."""
    tests = Path(__file__).resolve().parent
    out = set()
    for arg in config.args or [str(tests)]:
        p = Path(arg.split("::")[0])
        p = (p if p.is_absolute() else Path(config.invocation_params.dir) / p).resolve()
        found = sorted(p.glob("**/test_*.py")) if p.is_dir() else [p] if p.is_file() else []
        out.update(f for f in found if f.is_relative_to(tests))
    return out


@pytest.hookimpl(optionalhook=True)  # a run without xdist (-p no:xdist, or not installed) does not know the hook
def pytest_xdist_auto_num_workers(config):
    """`-n auto` starts one worker more than there are cores: many tests wait on a child process,
    a browser or a server, and a third worker on two cores keeps them busy (measured on this
    project's 2-core machine, the whole suite: 735 s with two workers, 664 s with three).
    PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cores = os.cpu_count() or 1
    return cores + 1


def pytest_collection_modifyitems(config, items):
    rank = {name: i for i, name in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))



def _exit_at_once() -> None:
    """An xdist worker has sent every report by the time Python shuts down; freeing its heap
    (every game compiled, every cache) took 3 to 10 s of the suite's end. The exit handlers
    registered after this one (the native builds' scratch folder, the studio's jobs) have run;
    the two registered before (logging's, execnet's for gateways a worker never opens) are
    logging's flush, done here."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if os.environ.get("PYTEST_XDIST_WORKER"):
    atexit.register(_exit_at_once)


# ------------------------------------------------------------------ the browser tests' browser

@pytest.fixture(scope="module")
def browser(server):
    """Chromium through Playwright, one a module, for the module's own `server` fixture (the
    server starts first and stops last, so the browser drops its live connections before)."""
    from browser import chromium
    with chromium() as b:
        yield b
