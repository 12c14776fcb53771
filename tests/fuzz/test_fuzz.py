"""`cardrules fuzz` finds what the deliberately broken rulesets in tests/fuzz/targets/ break,
its reproductions re-run, it is deterministic, and the real rulesets stay quiet and quick.

Each target is a tiny game (4-12 cards) with one flaw, named in its first comment:

    deadlock.cards           a choice that can be left with no legal move (only without an option)
    card-leak.cards          unseen cards moved into a hidden zone nothing reads or counts
    never-fires.cards        a rule whose condition never holds in play (and is not a constant)
    dead-option.cards        an option that is read but cannot change anything
    dead-option-order.cards  an option that only reorders the listed moves
    endless.cards            a game that outruns its declared 'at most 30 decisions'
    endless-loop.cards       rules that loop for ever without asking anyone to decide
    runtime-error.cards      '.played_by' of none
    two-claims.cards         two actions of one choice offering the same move
    peek.cards               a public variable naming a hidden card; moves depending on hidden cards
    called-card.cards        (sound) a public variable naming a card called aloud, unseen where it lies
    everyone-at-once.cards   a sound game with a `choose by each` (its records must replay)
    dead-code.cards          unreachable phases, unused definitions, constant conditions
    rare-line.cards          a rule only eight passes in a row reach, and one nothing reaches
    rare-option.cards        an option read only where no game goes (untried, not dead)
    guarded-option.cards     an option the fast path reads ahead of a test that never holds (untried)
    untested-option.cards    an option read in every game, in a test it never decides (untried)
    long-roads.cards         three rules at the end of long roads: a line, a count, an option's limit
    lucky-deal.cards         a rule only the deal can fire (untried, not never-fires)
    needs-a-plan.cards       a patience only a plan wins (a search finds it), and a rule nothing reaches
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from interpreter import load_ruleset
from interpreter.engine import cards_in, legal_moves, replay
from interpreter.errors import RecordError
from interpreter.fuzz import Static, fuzz_ruleset
from interpreter.commands.fuzz import fuzz_command

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ROOT / "tests" / "fuzz" / "targets"
GANJIFA = ROOT / "rulesets" / "ganjifa"


@pytest.fixture(scope="module")
def reports():
    """Each target fuzzed once (4 games per configuration, seed 0), shared by the tests."""
    cache = {}

    def get(name: str):
        if name not in cache:
            cache[name] = fuzz_ruleset(TARGETS / name, games=4, seed=0)
        return cache[name]
    return get


def only(report, kind: str):
    found = [f for f in report.findings if f.kind == kind]
    assert found, f"no {kind} finding in {report.path}; found: " + \
        "; ".join(f"[{f.kind}] {f.sentence}" for f in report.findings)
    return found


def replayed(finding):
    """Replay a finding's record the way `cardrules replay` does (through JSON)."""
    rs = load_ruleset(finding.reproduction.ruleset)
    return replay(rs, json.loads(json.dumps(finding.reproduction.record)))


# ------------------------------------------------------------------ the broken targets

def test_deadlock(reports):
    rep = reports("deadlock.cards")
    assert {f.kind for f in rep.findings} == {"deadlock"}
    (f,) = only(rep, "deadlock")
    assert f.rules == ["follow"] and "no legal move" in f.sentence
    r = f.reproduction
    # shrunk: the fewest players; the option that allows the deadlock stays, and only it
    assert r.players == 2 and r.changed == {"lenient": False}
    s = replayed(f)
    assert not s.finished and legal_moves(s) == []


def test_card_leak(reports):
    """Burnt cards nobody saw are a leak; the loser's card, seen face up before it was put face
    down in a pile nothing reads, is a discard."""
    rep = reports("card-leak.cards")
    (f,) = only(rep, "card-leak")
    assert f.rules == ["round"] and "'limbo'" in f.sentence and "no player ever saw them" in f.sentence
    s = replayed(f)
    limbo = cards_in(s, "limbo")
    assert s.finished and limbo and cards_in(s, "discard")
    assert f.sentence.startswith(f"{len(limbo)} card(s)")


def test_a_card_a_player_saw_is_no_leak(tmp_path):
    """The cards the pack gave a player, laid face down at the end where nothing reads them: their
    owner saw them, so they are no leak (and the game has no other flaw)."""
    text = (TARGETS / "card-leak.cards").read_text(encoding="utf-8")
    text = text.replace("                move top(stock) to limbo", "                move top(stock) to hand(seat(2))")
    text = text.replace("            move table to discard", "            move table to discard\n"
                        "            if count(hand(seat(1))) == 0:\n                move hand(seat(2)) to limbo")
    seen = tmp_path / "seen.cards"
    seen.write_text(text, encoding="utf-8")
    rep = fuzz_ruleset(seen, games=4, seed=0)
    assert rep.findings == []
    from interpreter.engine import apply, new_game
    s = new_game(load_ruleset(seen), 2, seed=1)
    while legal_moves(s):
        apply(s, legal_moves(s)[0])
    assert s.finished and len(cards_in(s, "limbo")) == 2  # the two cards drawn, seen by their owner


def test_a_card_turned_up_on_the_table_and_put_out_of_play_is_no_leak(tmp_path):
    """The burnt card turned up on the public table first, and put out of play in the same rule:
    no decision came between, but every player saw it, so 'limbo' holds no leak (the burnt
    cards nobody saw still are one: test_card_leak)."""
    text = (TARGETS / "card-leak.cards").read_text(encoding="utf-8")
    text = text.replace("                move top(stock) to limbo",
                        "                move top(stock) to table\n                move table to limbo")
    shown = tmp_path / "shown.cards"
    shown.write_text(text, encoding="utf-8")
    assert "limbo" not in Static(load_ruleset(shown), str(shown)).leak_zones
    rep = fuzz_ruleset(shown, games=4, seed=0)
    assert rep.findings == [] and rep.fired["round"] > 0


def test_rule_that_never_fires(reports):
    rep = reports("never-fires.cards")
    (f,) = only(rep, "never-fires")
    assert f.rules == ["overflow"] and "'overflow' (Too many cards" in f.sentence
    assert rep.fired["overflow"] == 0 and rep.fired["turn"] > 0
    assert rep.seeker_games > 0
    assert not [x for x in rep.findings if x.kind == "constant-condition"], "the guard is not a constant"
    assert replayed(f).finished


def test_dead_option(reports):
    rep = reports("dead-option.cards")
    (f,) = only(rep, "dead-option")
    assert "'show_plays'" in f.sentence and f.rules == ["turn"]
    r = f.reproduction
    (label, other, path) = r.extra[0]
    a, b = replayed(f), replay(load_ruleset(r.ruleset), json.loads(json.dumps(other)))
    assert a.options["show_plays"] != b.options["show_plays"]
    assert [str(m) for m in a.history] == [str(m) for m in b.history]


def test_option_that_only_reorders_moves_is_dead(reports):
    """A random bot picking by position would play differently; the comparison must not care."""
    rep = reports("dead-option-order.cards")
    (f,) = only(rep, "dead-option")
    assert "'blue_first'" in f.sentence


def test_live_option_is_not_dead(reports):
    """deadlock.cards' option changes play (it allows a discard): no dead-option finding."""
    assert not [f for f in reports("deadlock.cards").findings if f.kind == "dead-option"]


def test_endless_game_exceeds_its_bound(reports):
    rep = reports("endless.cards")
    (f,) = only(rep, "exceeds-bound")
    assert "'at most 30 decisions'" in f.sentence and "recycle" in f.rules
    # the engine stops the game at its bound: the reproduction's last move (the 30th) is the
    # one after which the game would need a 31st decision, and replaying it fails there
    assert len(f.reproduction.moves) == 30 and f.location.startswith(str(TARGETS / "endless.cards"))
    with pytest.raises(RecordError, match="not over after 30 decisions"):
        replayed(f)


def test_endless_loop(reports):
    rep = reports("endless-loop.cards")
    (f,) = only(rep, "endless-loop")
    assert f.rules == ["settle"]
    with pytest.raises(RecordError, match="loop for ever"):
        replayed(f)


def test_runtime_error(reports):
    rep = reports("runtime-error.cards")
    (f,) = only(rep, "runtime-error")
    assert f.rules == ["trick"] and "none" in f.sentence
    with pytest.raises(RecordError, match="makes the ruleset fail"):
        replayed(f)


def test_two_actions_claim_the_same_move(reports):
    rep = reports("two-claims.cards")
    (f,) = only(rep, "same-decision")
    assert "'play 1-Red'" in f.sentence and f.rules == ["turn"]
    s = replayed(f)
    assert "play 1-Red" in [str(m) for m in legal_moves(s)]


def test_hidden_information_leaks(reports):
    rep = reports("peek.cards")
    leaks = only(rep, "hidden-leak")
    texts = " ".join(f.sentence for f in leaks)
    assert "Variable 'top_card'" in texts              # a public variable names a hidden card
    assert "depend on cards" in texts                  # the legal moves reveal the neighbour's hand
    for f in leaks:
        assert not replayed(f).finished
    # the moves name the seat's own cards there, which it sees: no advice about face-down cards
    assert not any("choose a zone instead" in f.sentence for f in leaks)


def test_moves_that_depend_on_what_a_rule_showed_are_no_leak(reports, tmp_path):
    """The swap is offered unless the next player holds a King, and every King is turned up when
    dealt: a seat that sees no King there knows there is none, so the moves give nothing away (a
    rearrangement of the hidden cards that deals the neighbour a King is one the seat can rule out:
    engine/truths.py). Without the turning up, the same moves are a leak."""
    report = reports("kings-shown.cards")
    assert report.games and not [f for f in report.findings if f.kind == "hidden-leak"], report.findings
    text = (TARGETS / "kings-shown.cards").read_text(encoding="utf-8")
    hidden = tmp_path / "kings-hidden.cards"
    hidden.write_text(text.replace("            if top(hand(p)).rank == King:\n                reveal top(hand(p))\n", ""),
                      encoding="utf-8")
    (f,) = only(fuzz_ruleset(hidden, games=4, seed=0), "hidden-leak")
    assert f.rules == ["turn"] and "swap" in f.sentence


def test_a_move_that_names_a_face_down_card_says_how_to_pick_it_by_its_place(reports):
    """A player turning up one of their face-down cards by naming it learns which cards lie there;
    the finding says to choose the place (a zone) and act on its top card instead."""
    (f,) = only(reports("face-down-pick.cards"), "hidden-leak")
    assert "depend on cards" in f.sentence and f.rules == ["turn"]
    assert "choose a zone instead (z in [a(p), b(p)], or z in zones(family)) and act on top(z)" in f.sentence
    assert not replayed(f).finished


def test_static_findings(reports):
    rep = reports("dead-code.cards")
    by_kind = {}
    for f in rep.findings:
        by_kind.setdefault(f.kind, []).append(f)
    # phases that cannot be reached are refused by the compiler itself (tests/language/broken/34-...)
    assert sorted(f.rules[0] for f in by_kind["unused-definition"]) == ["reds", "tidy"]
    consts = " | ".join(f.sentence for f in by_kind["constant-condition"])
    assert "`bonus > 2`" in consts and "`big_table`" in consts and "`rounds > 3`" in consts
    assert all(f.location and f.reproduction is None for f in rep.findings if f.kind in
               ("unreachable-phase", "unused-definition", "constant-condition"))
    never = by_kind["never-fires"]
    assert [f.rules[0] for f in never] == ["extra"] and "always false" in never[0].sentence
    assert set(by_kind) == {"unused-definition", "constant-condition", "never-fires"}


# ------------------------------------------------------------------ the real rulesets

def test_ganjifa_small_budget_is_clean():
    """(Its time is a benchmark's: `benchmarks/front_doors.py --job fuzz --ruleset ganjifa`.)"""
    # two games a configuration: sacrifice_after_leading changes about one random game in five
    # (a leader who leads every unbeatable card), which one game a configuration can miss
    rep = fuzz_ruleset(GANJIFA / "ganjifa.cards", games=2, seed=0)
    assert rep.configurations >= 2 and rep.games >= rep.configurations
    assert not rep.findings, "\n".join(f"[{f.kind}] {f.sentence}" for f in rep.findings)


BUNDLED = sorted((ROOT / "rulesets").rglob("*.cards"))


def _clean(path: Path, games: int) -> None:
    rep = fuzz_ruleset(path, games=games, seed=0)
    assert not rep.findings, f"{path.relative_to(ROOT)} at --games {games}:\n" + \
        "\n".join(f"[{f.kind}] {f.sentence}" for f in rep.findings)


@pytest.mark.parametrize("name", ["classic/blackjack.cards", "classic/hanabi.cards", "classic/tarok.cards"])
def test_small_bundled_files_fuzz_clean(name):
    """A sample of the bundled files at --games 10, in the normal run; every one at 40 is the
    slow test below (minutes a file for the largest)."""
    _clean(ROOT / "rulesets" / name, 10)


@pytest.mark.slow  # every bundled file at --games 40: hours on one core (each Euro-Jongg file 48 min)
@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(ROOT / "rulesets")))
def test_every_bundled_file_fuzzes_clean_at_40_games(path):
    _clean(path, 40)


def test_static_checks_on_the_variants():
    """What reading the variants finds (see the report): dead code a variant leaves behind."""
    def static(name):
        rs = load_ruleset(GANJIFA / name)
        return [(f.kind, f.rules) for f in Static(rs, str(GANJIFA / name)).findings]
    assert static("ganjifa.cards") == []               # no 'let gave_deni = false ... set' false alarm
    assert static("mughal-3p.cards") == []  # its deal is written for three players (once 'if tail > 0', never true)
    assert static("traditional-deni.cards") == []      # it once left next_unplayed_above unused: fixed
    assert static("no-optional-low-leads.cards") == []  # the option off, no more a definition never true


def test_static_checks_see_what_a_variant_leaves_behind(tmp_path):
    """A variant that makes a definition always false leaves the option it read unread and an
    action never offered: both are found (as no-optional-low-leads.cards once did)."""
    (tmp_path / "v.cards").write_text(f'variant v of "{GANJIFA / "ganjifa.cards"}"\n'
                                      "define may_lead(c: card) = false\n", encoding="utf-8")
    rs = load_ruleset(tmp_path / "v.cards")
    assert sorted((f.kind, f.rules) for f in Static(rs, str(tmp_path / "v.cards")).findings) == [
        ("constant-condition", ["unbeatable_leads"]), ("dead-option", ["optional_low_leads"])]


# ------------------------------------------------------------------ the command line

def cli(*args):
    """`cardrules fuzz ARGS` on the Python engine unless ARGS name one: these tests read the
    command's output, the same on both engines (tests/fuzz/test_fuzz_on_native.py, test_engine_flag.py
    and test_workers.py fuzz under auto, which is native), and building each target's C would
    cost the suite seconds."""
    app = typer.Typer(add_completion=False)
    app.command("fuzz")(fuzz_command)
    app.command("noop")(lambda: None)  # two commands, so 'fuzz' is a subcommand as in cardrules
    args = [str(a) for a in args]
    if "--engine" not in args and "--help" not in args and "--engines" not in args:
        args += ["--engine", "python"]
    return CliRunner().invoke(app, ["fuzz", *args])


def test_cli_json_findings_and_replayable_records(tmp_path):
    out = tmp_path / "found"
    r = cli(TARGETS / "deadlock.cards", TARGETS / "endless.cards", "--games", 3, "--json", "--out", out)
    assert r.exit_code == 1, r.output
    data = json.loads(r.stdout)
    kinds = [f["kind"] for f in data["findings"]]
    assert "deadlock" in kinds and "exceeds-bound" in kinds
    for f in data["findings"]:
        assert set(f) >= {"kind", "sentence", "rules", "reproduction"}
        rep = f["reproduction"]
        assert set(rep) >= {"ruleset", "players", "options", "seed", "moves"}
        assert Path(rep["record"]).is_file()
    # `cardrules replay` re-runs a reproduction
    from interpreter.commands.cli import app
    rec = next(f for f in data["findings"] if f["kind"] == "deadlock")["reproduction"]["record"]
    rr = CliRunner().invoke(app, ["replay", rec])
    assert rr.exit_code == 0 and "game not finished" in rr.stdout, rr.output


def test_cli_text_output_and_exit_codes(tmp_path):
    clean = tmp_path / "clean.cards"
    clean.write_text((TARGETS / "dead-option.cards").read_text().replace(
        "move c to pile face up if show_plays", "move c to (if show_plays then pile else stock)"))
    out = tmp_path / "found"
    r = cli(clean, "--games", 2, "--out", out)
    assert r.exit_code == 0, r.output
    assert "no findings" in r.stdout and not out.exists()   # the folder only appears with findings
    assert "[1/4]" in r.stderr                              # a progress line per configuration
    r = cli(TARGETS / "card-leak.cards", "--games", 2, "--out", out)
    assert r.exit_code == 1
    assert "\n1. [card-leak] " in r.stdout and "cardrules replay" in r.stdout and out.is_dir()
    bad = tmp_path / "bad.cards"
    bad.write_text("game x\nplayers 2\n")
    r = cli(bad, "--games", 1, "--out", out)
    assert r.exit_code == 1 and "error:" in r.stderr and "Traceback" not in r.output
    assert cli(TARGETS / "card-leak.cards", "--games", 0).exit_code == 2


def test_cli_seconds_budget():
    t0 = time.monotonic()
    r = cli(GANJIFA / "ganjifa.cards", "--seconds", 2, "--json")
    took = time.monotonic() - t0
    # what 2 s finds depends on the machine's speed (a loaded one plays too few games to reach a rare
    # rule): the budget is what is tested, and the answer is a report either way
    assert r.exit_code in (0, 1), r.output
    assert json.loads(r.stdout)["rulesets"], r.output
    assert took < 20, f"--seconds 2 took {took:.1f} s"  # (a loaded CI machine: the budget is kept, not raced)


def test_a_time_budget_that_stops_the_games_asked_says_so():
    """A new user's Tichu: `-k 20 --seconds 120` played 2 games in two of three configurations and
    the summary said only 'no findings (3 configurations, 24 games ...)'."""
    r = cli(GANJIFA / "ganjifa.cards", "--games", 100000, "--seconds", 1, "--workers", 1)
    assert r.exit_code in (0, 1), r.output
    assert "the time budget (--seconds) ran out before 100000 games in " in r.stdout, r.output
    r = cli(TARGETS / "never-fires.cards", "--games", 1, "--workers", 1)
    assert "time budget" not in r.stdout and "1 game of which" not in r.stdout


def test_registered_as_cardrules_fuzz():
    from interpreter.commands.cli import app
    r = CliRunner().invoke(app, ["fuzz", "--help"])
    assert r.exit_code == 0 and "--games" in r.stdout and "--seconds" in r.stdout


def test_deterministic_given_the_seed(tmp_path):
    def run(seed, out):
        r = cli(TARGETS / "never-fires.cards", TARGETS / "deadlock.cards", "--games", 3, "--seed", seed,
                "--json", "--out", out)
        data = json.loads(r.stdout)
        data.pop("seconds")
        for x in data["rulesets"]:
            x.pop("seconds")
        return json.dumps(data, sort_keys=True).replace(str(out), "OUT")
    assert run(5, tmp_path / "a") == run(5, tmp_path / "b")


def test_choose_by_each_records_replay(reports):
    """Regression: at a `choose by each` play accepts a move from any waiting decider; replay
    used to insist that the first one moved first, so records of legal games did not replay
    (found by this fuzzer, fixed in the engine at the same time)."""
    rep = reports("everyone-at-once.cards")
    assert not rep.findings, "\n".join(f.sentence for f in rep.findings)


def test_a_whole_number_option_with_no_range_is_tried_at_other_values(reports):
    """`option limit: int = 11` (no range) stops play at its value: tried at 5, 12, 22 and 1 as well as
    11, it changes play (5 cards), so no dead-option finding (it was once compared with itself)."""
    from interpreter.fuzz.common import option_values
    rs = load_ruleset(TARGETS / "whole-number-option.cards")
    assert option_values(rs.options[0], probe=True) == [11, 5, 12, 22, 1]
    assert option_values(rs.options[0]) == [11]  # the other checks play the default only, as before
    assert not [f for f in reports("whole-number-option.cards").findings if f.kind == "dead-option"]


def test_an_option_no_game_reads_was_not_put_to_the_test(reports, tmp_path):
    """An option the rules read only where no game goes made no difference, but only because it
    was never read: told as untried, not reported as dead (dead-option.cards' option, read in
    every game, still is: test_dead_option)."""
    rep = reports("rare-option.cards")
    assert not [f for f in rep.findings if f.kind == "dead-option"]
    assert list(rep.untried) == ["option 'bonus'"] and "no game compared read it" in rep.untried["option 'bonus'"]
    (f,) = only(reports("dead-option.cards"), "dead-option")
    assert "the rules reached it in" in f.sentence
    r = cli(TARGETS / "rare-option.cards", "--games", 4, "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert "option 'bonus' was not put to the test: no game compared read it" in r.stdout


def test_an_option_read_only_ahead_of_a_failing_test_was_not_put_to_the_test(reports):
    """The fast path tests `(z.index == 1 or anywhere)` with the spot alone, before the test of the
    card and the spot that never holds, so the option is read in every game and changes nothing;
    the plain evaluator, testing in the order written, never reads it: untried, not dead."""
    rep = reports("guarded-option.cards")
    assert not [f for f in rep.findings if f.kind == "dead-option"]
    assert list(rep.untried) == ["option 'anywhere'"]
    assert "read only in tests that came out the same" in rep.untried["option 'anywhere'"]


def test_an_option_read_only_in_tests_it_never_decides_was_not_put_to_the_test(reports, tmp_path):
    """`not (bonus and count(hand(turn)) < 3 and count(pile) > 6)` reads the option first, in every
    game, but no pile ever grows past six cards, so the whole test comes out the same at each of
    its values (its first two parts do not: only the outermost test counts): the option never
    decided anything, untried rather than dead. Once a pile can grow that far (more cards
    dealt), the same option is live."""
    rep = reports("untested-option.cards")
    assert not [f for f in rep.findings if f.kind == "dead-option"], [f.sentence for f in rep.findings]
    assert list(rep.untried) == ["option 'bonus'"]
    assert "read only in tests that came out the same" in rep.untried["option 'bonus'"]
    more = tmp_path / "more.cards"
    more.write_text((TARGETS / "untested-option.cards").read_text().replace("ranks 1..4", "ranks 1..8")
                    .replace("deal 2 from", "deal 8 from"))
    live = fuzz_ruleset(more, games=4, seed=0)
    assert not [f for f in live.findings if f.kind == "dead-option"] and "option 'bonus'" not in live.untried


def test_rule_seekers_follow_an_unfired_rules_condition():
    """Eight passes in a row, among up to ten calls a turn, reach the rule 'passed_out' (when
    nobody has bid): the hunting rule seekers prefer moves after which its condition still
    holds, and reach it; 'overbid' (a bid past nine) no line reaches, and it is still reported."""
    from interpreter.fuzz.aims import rule_conditions
    from interpreter.language.unparse import unparse
    rs = load_ruleset(TARGETS / "rare-line.cards")
    assert {name: unparse(c) for name, c in rule_conditions(rs).items()} == {
        "passed_out": "high == 0", "overbid": "high > 9"}
    # a condition on a loop's player means nothing apart from its place: not aimed at
    assert rule_conditions(load_ruleset(TARGETS / "never-fires.cards")) == {}
    rep = fuzz_ruleset(TARGETS / "rare-line.cards", games=8, seed=0)
    assert rep.fired["passed_out"] > 0
    (f,) = only(rep, "never-fires")
    assert f.rules == ["overbid"]


def test_hunting_rule_seekers_take_the_long_roads():
    """Each of long-roads.cards' three rules needs its own road, and none fires in random play
    or with one move of look-ahead: the calls 1, 2, 3 in a row (a search three moves deep finds
    the line), twenty-four takes before the hands run out (each take brings `takes == 24`
    closer), and more turns than the option cap's 50 (the hunt tries the cap at 1). The fuzz is
    then clean, and the report says which games were played."""
    rep = fuzz_ruleset(TARGETS / "long-roads.cards", games=6, seed=0)
    assert all(rep.fired[r] > 0 for r in ("jackpot", "patience", "capped")), rep.fired
    assert not rep.findings, "\n".join(f.sentence for f in rep.findings)


def test_a_rule_only_the_deal_can_fire_was_not_put_to_the_test():
    """A rule played before anyone decides anything fires by the luck of the deal alone (a hand
    dealt complete): no player can reach it, so the deals that missed it are told, not reported;
    a rule after the first choice still is (test_rule_that_never_fires)."""
    from interpreter.fuzz import Static
    rs = load_ruleset(TARGETS / "lucky-deal.cards")
    assert Static(rs, "x").setup_rules() == {"deal", "red_hand"}
    rep = fuzz_ruleset(TARGETS / "lucky-deal.cards", games=2, seed=0)
    assert rep.fired["red_hand"] == 0 and not rep.findings
    assert "only the deal can fire it" in rep.untried["rule 'red_hand'"]


def test_a_search_of_whole_games_wins_a_patience_that_needs_a_plan():
    """Winning needs fifteen moves in the right order (the Tower of Hanoi, seventeen moves
    allowed): no random or advised game wins, so the fuzzer searches whole games by the advice
    for a line to 'won', plays it, and the rule fired. 'perfect' (a win in fewer moves than
    can be) is still reported, and the report says that the search found no line to it."""
    lines = []
    rep = fuzz_ruleset(TARGETS / "needs-a-plan.cards", games=4, seed=0, progress=lines.append)
    assert rep.fired["won"] > 0
    assert any("searched" in x and "1 found" in x for x in lines), lines
    (f,) = only(rep, "never-fires")
    assert f.rules[0] == "perfect" and "a search of 4 deals" in f.sentence
    assert [x.kind for x in rep.findings] == ["never-fires"]


@pytest.mark.parametrize("spoil, says", [
    ("twice", "lies in two places at once"),      # a card twice in one zone, another gone: n cards still
    ("two zones", "lies in two places at once"),
    ("unknown id", "an unknown card id"),
    ("card_zone", "the engine's card_zone says"),
    ("card_kind", "the engine's card_kind of"),
])
def test_cards_created_or_lost_are_found_however_the_bookkeeping_breaks(spoil, says):
    """The cards' conservation check after every move: each way the engine's bookkeeping can break
    is a `cards-not-conserved` event worded by what broke; an intact position gives none."""
    from interpreter.engine import new_game
    from interpreter.fuzz.common import Config, Game
    from interpreter.fuzz.fuzzer import Fuzzer
    rs = load_ruleset(ROOT / "rulesets" / "ganjifa" / "ganjifa.cards")
    fz = Fuzzer("ganjifa.cards", rs, 1, None, 0)
    s = new_game(rs, 3, None, 1)
    game = Game(Config(3, ()), 1, "random")
    fz._check(game, s, observe=False)
    assert not game.events
    full = [i for i, z in enumerate(s.zones) if len(z) >= 2]
    a, b = full[0], full[1]
    if spoil == "twice":
        s.zones[a][1] = s.zones[a][0]
    elif spoil == "two zones":
        s.zones[b][0] = s.zones[a][0]
    elif spoil == "unknown id":
        s.zones[a][0] = len(s.card_zone)
    elif spoil == "card_zone":
        c = s.zones[a][0]
        s.card_zone[c] = b
    else:
        c = s.zones[a][0]
        s.card_kind[c] = s.zkind[b] if s.zkind[b] != s.zkind[a] else -1
    fz._check(game, s, observe=False)
    assert list(game.events) == [("cards-not-conserved",)]
    assert says in game.events[("cards-not-conserved",)].sentence


def test_a_hidden_card_shown_to_a_seat_not_to_move_is_found():
    """The observation check reads every seat: observe() whole for the seats with a move, its
    zones alone for the others (observe_zones, what observe() shows of them). An engine that
    showed a seat waiting for its turn another seat's hidden card is a hidden-leak event."""
    from interpreter.engine import new_game, observe, observe_zones, seat_name
    from interpreter.fuzz import invariants
    from interpreter.fuzz.common import Config, Game
    from interpreter.fuzz.fuzzer import Fuzzer
    rs = load_ruleset(ROOT / "rulesets" / "ganjifa" / "ganjifa.cards")
    fz = Fuzzer("ganjifa.cards", rs, 1, None, 0)
    s = new_game(rs, 3, None, 1)
    game = Game(Config(3, ()), 1, "random")
    for seat in s.seats:
        assert observe_zones(s, seat) == observe(s, seat)["zones"]
    fz._check(game, s, observe=True)
    assert not game.events
    waiting = next(p for p in s.seats if p not in (s.actor, s.seats[0]))  # observe_zones is what it reads
    hand = [z.name for z in fz.program.zones].index("hand")
    name = fz.program.card_names[s.zones[s.zbase[hand] + s.actor][0]]  # a card in the hand of the seat to move

    def leaky(st, seat):
        zones = observe_zones(st, seat)
        if seat == waiting:
            zones["trick"] = {"cards": [name]}
        return zones
    invariants.observe_zones, real = leaky, invariants.observe_zones
    try:
        fz._check(game, s, observe=True)
    finally:
        invariants.observe_zones = real
    assert list(game.events) == [("hidden-leak", "observe")]
    assert f"shows {seat_name(waiting)} the card {name}" in game.events[("hidden-leak", "observe")].sentence


def test_a_finding_is_said_when_it_is_found_and_long_games_say_how_they_go(monkeypatch):
    """A new user's Tichu (2,000 decisions a game) fuzzed for 25 minutes with nothing said: its
    one finding waited for shrinking at the end. Each finding is now said as soon as a game shows
    it, before any shrinking, and a configuration whose games are long says every HEARTBEAT seconds
    how many it has played."""
    from interpreter.fuzz import fuzzer
    monkeypatch.setattr(fuzzer, "HEARTBEAT", 0.0)
    lines: list[str] = []
    fuzz_ruleset(TARGETS / "endless.cards", games=4, seed=0, progress=lines.append, engine="python")
    found = [k for k, x in enumerate(lines) if ": found [exceeds-bound] in game 1 (seed " in x]
    assert len(found) == 1, lines
    assert "moves; made smaller at the end): A game went past its declared bound" in lines[found[0]]
    shrunk = next(k for k, x in enumerate(lines) if "shrunk 1 finding(s)" in x)
    assert found[0] < shrunk
    so_far = [x.split(": ", 1)[1] for x in lines if "so far" in x]
    assert [x.split(",")[0] for x in so_far] == ["1 game so far", "2 games so far", "3 games so far",
                                                 "4 games so far"], lines


def test_card_of_a_rank_and_suit_held_twice_is_named_as_one_copy(tmp_path):
    """A new user's Doppelkopf (two of every card) wrote `c == card(Queen, Clubs)`, which names
    the first Queen of Clubs only: the second never counted, and nothing said so."""
    from interpreter.fuzz.static import Static
    from small_games import written
    text = """game dk "Double"
players 2

deck d:
    suits Clubs, Hearts
    ranks 9, Queen, King
    copies 2

zone stock shared hidden "stock"
zone hand per player owner "hand"

define old(c: card) = c == card(Queen, Clubs)
define score(p: player) = count c in hand(p) where old(c)
winner most score

phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 6 from stock to each hand
        end game
"""
    found = [f for f in Static(written(tmp_path, "dk.cards", text), "dk.cards").findings if f.kind == "one-copy"]
    assert len(found) == 1 and found[0].rules == ["old"]
    assert "card(Queen, Clubs) names the first of the deck's 2 copies of the Queen of Clubs only" in found[0].sentence
    assert "write c.rank == Queen and c.suit == Clubs" in found[0].sentence
    once = text.replace("    copies 2\n", "")
    assert not [f for f in Static(written(tmp_path, "one.cards", once), "one.cards").findings if f.kind == "one-copy"]


def test_a_card_called_aloud_is_no_leak_when_a_variable_keeps_it(reports, tmp_path):
    """A public variable holding a card that a move named in the open (a called partner card)
    tells no seat more than the call did; set from the top of the pack instead, it is a leak."""
    report = reports("called-card.cards")
    assert report.games and not [f for f in report.findings if f.kind == "hidden-leak"], report.findings
    text = (TARGETS / "called-card.cards").read_text(encoding="utf-8")
    peeked = tmp_path / "peeked-card.cards"
    peeked.write_text(text.replace("                set called = c\n",
                                   "                set called = top(stock)\n"), encoding="utf-8")
    leaks = only(fuzz_ruleset(peeked, games=4, seed=0), "hidden-leak")
    assert any("Variable 'called'" in f.sentence for f in leaks)


def test_a_flag_never_set_to_anything_but_its_start_makes_its_conditions_constant(tmp_path):
    """A new user's Preferans variant removed the only `set open_play = true`: `if open_play:` could
    never run, and fuzz said 'no findings'. A yes/no game variable that starts at a value and is
    only ever set to that value is that value for good; one also set to the other is not."""
    from interpreter import loads_ruleset
    text = """game flag "Flag"
players 2
deck d:
    suits S
    ranks 1..4
zone stock shared hidden
zone pile shared public
var open: bool = false
var live: bool = false
phase play "Play":
    rule deal "Deal":
        shuffle stock
        set open = false
        set live = true
    rule turn "Turn":
        if open:
            move top(stock) to pile
        if live:
            move top(stock) to pile
"""
    found = [f for f in Static(loads_ruleset(text, str(tmp_path / "flag.cards")), "flag.cards").findings
             if f.kind == "constant-condition"]
    assert len(found) == 1, [f.sentence for f in found]
    assert "The condition `open` of an if in rule 'turn'" in found[0].sentence
    assert "(variable 'open' starts false and is never set to anything else): its block never runs" in found[0].sentence
