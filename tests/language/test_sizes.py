"""Every size a file states has a limit (interpreter/language/sizes.py), told with a located error before
anything that size is made: a typo or a mutant such as `ranks 1..100000000` once made `cardrules
check` grow to 10 GB. The memory proof over every number of every bundled file is
benchmarks/sizes.py; here each limit is pinned, at it and one past it."""

from __future__ import annotations

import sys
from pathlib import Path

import procs
import pytest

from interpreter import loads_ruleset
from interpreter.language import sizes
from interpreter.errors import RulesetError

ROOT = Path(__file__).resolve().parents[2]

GAME = """game sizes "Sizes"
players 2..4
at most 200 decisions
deck d:
    suits Red, Blue
    ranks 1..6
zone stock shared hidden
zone hand per player owner
zone row[3] shared public
var turn: player = seat(1)
define points(p: player) = count(hand(p))
winner fewest points
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 2 from stock to each hand
    while count(hand(turn)) > 0:
        rule go "Go":
            choose by turn:
                action drop c in hand(turn):
                    move c to row(1)
                    let n = count k in 1..6 where k > 3
            set turn = next(turn)
"""


def located(text: str) -> RulesetError:
    with pytest.raises(RulesetError) as e:
        loads_ruleset(text, "sizes.cards")
    assert e.value.file == "sizes.cards" and e.value.line and e.value.column and e.value.source_line
    return e.value


def test_the_game_loads():
    assert loads_ruleset(GAME).players_max == 4


@pytest.mark.parametrize("old,new,line,words", [
    ("players 2..4", "players 2..65", 2, "65 players are more than the language allows: at most 64"),
    ("at most 200 decisions", "at most 1000000001 decisions", 3, "1,000,000,001 is larger than the language allows"),
    ("ranks 1..6", "ranks 1..100000000", 6, "100,000,000 ranks"),
    ("ranks 1..6", "ranks 1..1000, 1001..2001", 6, "2,001 ranks"),
    ("ranks 1..6", "ranks 1..6\n    copies 2001", 7, "2,001 copies"),
    ("ranks 1..6", "ranks 1..1000\n    copies 3", 4, "has 6,000 cards; the language allows at most 2,000"),
    ("zone row[3]", "zone row[257]", 9, "257 zones in one family"),
    ("deal 2 from", "deal 1000000001 from", 16, "1,000,000,001 is larger than the language allows"),
    ("deal 2 from", "deal " + "9" * 5000 + " from", 16, "a number of 5,000 digits is larger"),
    ("in 1..6 where", "in 1..10001 where", 22, "the range 1..10001 holds 10,001 numbers"),
    ("in 1..6 where", "in -5000..5000 where", 22, "the range -5000..5000 holds 10,001 numbers"),
    ("seat(1)", "seat(5)", 10, "there is no seat 5"),
    ("seat(1)", "seat(0)", 10, "there is no seat 0"),
])
def test_a_size_past_its_limit_is_a_located_error(old, new, line, words):
    err = located(GAME.replace(old, new, 1))
    assert err.line == line and words in err.message, err.render()


@pytest.mark.parametrize("old,new", [
    ("ranks 1..6", "ranks 1..1000"),                       # 2,000 cards: the most a deck may have
    ("in 1..6 where", "in 1..10000 where"),               # the longest range
    ("at most 200 decisions", "at most 1000000 decisions"),
    ("zone row[3]", "zone row[256]"),
])
def test_a_size_at_its_limit_loads(old, new):
    assert loads_ruleset(GAME.replace(old, new, 1)) is not None


def test_every_limit_has_its_row_in_the_language_reference():
    from interpreter.render.reference import render_language_markdown
    page = render_language_markdown()
    table = page[page.index("## Limits"):page.index("## Keywords")]
    for x in sizes.LIMITS:
        assert f"| {x.most:,} |" in table


CHILD = """import resource, sys, time
sys.path.insert(0, sys.argv[1])
from interpreter import loads_ruleset
from interpreter.errors import CardRulesError
text = sys.stdin.read()
loads_ruleset(text.replace("ranks 1..100000000", "ranks 1..6"))  # the imports, before the limit
soft = int(open('/proc/self/statm').read().split()[0]) * 4096 + 300 * 2 ** 20
resource.setrlimit(resource.RLIMIT_AS, (soft, soft))
t = time.perf_counter()
try:
    loads_ruleset(text, 'huge.cards')
except CardRulesError as e:
    print(e.line, round(time.perf_counter() - t, 2))
"""


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="reads its memory from /proc")
def test_a_hundred_million_ranks_are_refused_in_little_memory_and_time():
    """The issue's mutant: a hundred million ranks, refused within 300 MB more than a small game
    needs (a MemoryError there would be a traceback, and no line printed)."""
    text = GAME.replace("ranks 1..6", "ranks 1..100000000")
    r = procs.run([sys.executable, "-c", CHILD, str(ROOT)], input=text, text=True, capture_output=True, timeout=120)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    line, seconds = r.stdout.split()
    assert line == "6" and float(seconds) < 5


def test_number_mutants_cover_every_number_of_a_file():
    from interpreter.fuzz.mutants import number_mutants, numbers_of
    text = (ROOT / "rulesets" / "classic" / "kuhn-poker.cards").read_text(encoding="utf-8")
    spans = numbers_of(text)
    got = list(number_mutants(text, (9, 10)))
    assert len(got) == 2 * len(spans) + 2
    edit, mutant = got[1]
    a, b = spans[0]
    assert mutant[:a] == text[:a] and mutant[a:].startswith("10000000000")
    assert all(text[a:b].isdigit() for a, b in spans)
