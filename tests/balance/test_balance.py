"""`cardrules balance`: the report's numbers are the games' numbers, it answers the questions
it claims to (a rigged seat is caught, a dead rule is named, skill shows), it is the same byte
for byte from the same seed, and bad input writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from small_games import KEEPING
from typer.testing import CliRunner

from interpreter.balance.stats import chi2_sf, diff_means, diff_proportions, equal_shares, wilson
from interpreter import load_ruleset
from interpreter.commands.cli import app

ROOT = Path(__file__).resolve().parents[2]
GANJIFA = ROOT / "rulesets" / "ganjifa" / "ganjifa.cards"

RACE = '''game race "Race"
players 2..3

deck small "Small pack":
    suits Red, Blue
    ranks 1..3

zone stock shared hidden "pack"

option head_start: bool = true "The first seat starts five points ahead."
var points(p: player): int = 0

define score(p: player) = points(p)
winner most score

phase play "Play":
    rule start "Head start" when head_start:
        set points(seat(1)) = 5
    for each n in 1..3:
        for each p in players:
            rule step "A step":
                choose by p:
                    action go k in 1..3 "Go this far.":
                        set points(p) = points(p) + k
    if player_count > 5:
        rule never "Never happens":
            set points(seat(1)) = 0
'''


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.fixture()
def race(tmp_path) -> Path:
    p = tmp_path / "race.cards"
    p.write_text(RACE, encoding="utf-8")
    return p


def report(out: Path) -> dict:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))


# ---------------------------------------------------------------- the statistics

def test_wilson_and_chi_square_match_published_values():
    lo, hi = wilson(85, 100)
    assert abs(lo - 0.7672) < 1e-4 and abs(hi - 0.9069) < 1e-4
    assert wilson(0, 10)[0] == 0.0 and abs(wilson(0, 10)[1] - 0.2775) < 1e-4
    for x, df, p in ((3.841, 1, 0.05), (5.991, 2, 0.05), (7.815, 3, 0.05), (20.0, 3, 0.00017), (0.5, 4, 0.9735)):
        assert abs(chi2_sf(x, df) - p) < 2e-4
    assert equal_shares([50, 50])["p_value"] == 1.0
    assert equal_shares([90, 10])["p_value"] < 1e-10


def test_differences_are_significant_only_when_their_interval_leaves_out_zero():
    assert diff_proportions(50, 100, 52, 100)["significant"] is False
    big = diff_proportions(20, 100, 60, 100)
    assert big["significant"] and big["ci"][0] > 0 and abs(big["difference"] - 0.4) < 1e-12
    assert diff_means([1, 2, 3] * 20, [1, 2, 3] * 20)["significant"] is False
    assert diff_means([1, 2, 3] * 20, [5, 6, 7] * 20)["significant"] is True


# ---------------------------------------------------------------- the report

def test_a_seat_with_a_head_start_is_caught_and_the_fair_version_passes(race, tmp_path):
    out = tmp_path / "rep"
    r = run("balance", race, "--games", 150, "--option", "head_start=true,false", "--skill-games", 60, "--strong", "greedy",
            "--out", out)
    assert r.exit_code == 0, r.output
    data = report(out)
    rigged, fair = data["configurations"]
    assert rigged["configuration"] == "head_start=true" and fair["configuration"] == "head_start=false"
    assert rigged["win_rate"]["P1"]["rate"] > 0.9 and rigged["fairness"]["p_value"] < 0.001
    assert rigged["fairness"]["verdict"] == ("evidence that the seats' chances differ (a fair game would look this "
                                             f"uneven in under 0.1% of runs of {rigged['games']} games)"), rigged["fairness"]
    assert fair["fairness"]["p_value"] > 0.01 and fair["fairness"]["verdict"] == "no evidence that any seat is favoured"
    # P1 always decides first here, so the first player's share is P1's
    assert rigged["first_player"]["seat_counts"] == {"P1": 150, "P2": 0}
    assert rigged["first_player"]["win_rate"] == rigged["win_rate"]["P1"]["rate"]
    # the rule that cannot fire is named; 'start' fires only with the head start
    assert rigged["never_fired"] == ["never"] and fair["never_fired"] == ["start", "never"]
    assert rigged["rules"]["start"]["per_game"] == 1.0 and rigged["rules"]["step"]["per_game"] == 6.0
    assert rigged["moves"] == {"go": {"per_game": 6.0, "share_of_games": 1.0}}
    # every game is six decisions: three steps each
    assert rigged["length"]["decisions"]["min"] == rigged["length"]["decisions"]["max"] == 6
    # greedy takes 3 every time: it beats random clearly in the fair game
    assert fair["skill"]["win_rate"] > 0.85 and fair["skill"]["verdict"].startswith("skill matters")
    # the lead: with a head start the winner is almost never behind; without, often
    assert rigged["lead"]["winner_was_behind"] < 0.1 < fair["lead"]["winner_was_behind"]
    cmp = data["comparisons"][0]
    rows = {row["statistic"]: row for row in cmp["rows"]}
    assert rows["P1 win share"]["significant"] and rows["P1 win share"]["difference"] < -0.3
    assert not rows["decisions per game"]["significant"]
    html = (out / "report.html").read_text(encoding="utf-8")
    for question in ("Is the game fair to every seat?", "Does the first player have an advantage?",
                     "How long does a game last?", "Which rules are used, and which moves are made?", "Does skill matter?",
                     "Does the lead change during a game?", "head_start=false against head_start=true"):
        assert question in html
    assert html.count("<svg") == 7 and "<?xml" not in html


def test_the_report_agrees_with_play_for_the_same_seeds_and_bots(tmp_path):
    out = tmp_path / "rep"
    r = run("balance", GANJIFA, "-n", 3, "-k", 12, "--seed", 5, "--bot", "2=greedy", "--strong", "none", "--out", out)
    assert r.exit_code == 0, r.output
    data = report(out)["configurations"][0]
    p = run("play", GANJIFA, "-n", 3, "-k", 12, "--seed", 5, "--bot", "2=greedy", "--json")
    played = json.loads(p.output)
    assert data["seats"] == {"P1": "random", "P2": "greedy", "P3": "random"}
    assert abs(data["length"]["decisions"]["mean"] - played["mean_decisions"]) < 1e-3
    for seat, rate in data["win_rate"].items():
        shared = [g for g in played["results"] if seat in g["winners"]]
        assert abs(rate["wins"] - sum(1 / len(g["winners"]) for g in shared)) < 1e-6
    for name, rule in data["rules"].items():
        assert abs(rule["per_game"] - played["rules"][name]["per_game"]) < 1e-4
    assert data["skill"] is None


def test_the_same_seed_gives_the_same_report_byte_for_byte(race, tmp_path):
    outs = [tmp_path / "a", tmp_path / "b"]
    for out in outs:
        assert run("balance", race, "-k", 30, "--seed", 3, "--strong", "greedy", "--out", out).exit_code == 0
    for name in ("report.json", "report.html"):
        assert (outs[0] / name).read_bytes() == (outs[1] / name).read_bytes()


def test_two_rulesets_side_by_side(tmp_path):
    out = tmp_path / "rep"
    variant = ROOT / "rulesets" / "ganjifa" / "traditional-deni.cards"
    r = run("balance", GANJIFA, "-n", 3, "-k", 10, "--strong", "none", "--against", variant, "--out", out)
    assert r.exit_code == 0, r.output
    data = report(out)
    assert [c["configuration"] for c in data["configurations"]] == ["ganjifa", "traditional-deni"]
    stats = [row["statistic"] for row in data["comparisons"][0]["rows"]]
    assert any(s.startswith("rule deni ") for s in stats) and "move give_deni: times per game" in stats
    assert "traditional-deni against ganjifa" in r.output


@pytest.mark.parametrize("against", [pytest.param(False, marks=pytest.mark.slow), True])
def test_no_legend_covers_the_data_of_a_plot(tmp_path, monkeypatch, against):
    """Every figure of the report, of one ruleset and of two side by side: each legend lies
    outside the axes (it covered the bars of the seat plot and the boxes of the score plot)."""
    from interpreter.balance import plots
    seen = []
    svg = plots._svg

    def check(fig):
        fig.canvas.draw()
        legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend() is not None]
        for leg in legends:
            box = leg.get_window_extent()
            for ax in fig.axes:
                assert not box.overlaps(ax.get_window_extent()), (fig.axes[0].get_title(), box, ax.get_window_extent())
        seen.append((fig.axes[0].get_title(), len(legends)))
        return svg(fig)

    monkeypatch.setattr(plots, "_svg", check)
    monkeypatch.setattr(plots, "_DRAWN", {})  # every figure drawn here, none taken from an earlier test
    more = ["--against", ROOT / "rulesets" / "ganjifa" / "inverted-ranking.cards"] if against else []
    r = run("balance", GANJIFA, "-n", 3, "-k", 8, "--skill-games", 4, "--strong", "greedy", "--workers", 1,
            "--out", tmp_path / "rep", *more)
    assert r.exit_code == 0, r.output
    titles = dict(seen)
    assert len(titles) == 7 and titles["Games won by each seat, with 95% intervals"] == 1, seen
    assert all(n == (1 if against else 0) for t, n in seen if not t.startswith(("Games won", "Does skill"))), seen


def test_a_median_shows_in_its_box_and_the_first_configuration_is_on_top(monkeypatch):
    """The score plot's medians are not drawn in the colour of a box (matplotlib's orange median
    vanished in the second configuration's orange box); the skill plot lists the configurations
    from the top, as the plot of the rules does."""
    from types import SimpleNamespace

    from matplotlib.colors import to_rgb

    from interpreter.balance import plots
    figs = []
    monkeypatch.setattr(plots, "_svg", lambda fig: figs.append(fig) or "")
    monkeypatch.setattr(plots, "_DRAWN", {})
    reports = [{"configuration": c, "players": 2, "win_rate": {"P1": {}, "P2": {}},
                "skill": {"strong": "greedy", "others": "random", "win_rate": w, "ci": [w - 0.1, w + 0.1]}}
               for c, w in (("base", 0.8), ("variant", 0.6))]
    facts = [[SimpleNamespace(scores=(k, 10 - k)) for k in range(6)]] * 2
    plots.scores(reports, facts)
    ax = figs[-1].axes[0]
    boxes = {to_rgb(b.get_facecolor()) for b in ax.patches}
    medians = {to_rgb(line.get_color()) for line in ax.lines if len(set(line.get_ydata())) == 1
               and line.get_xdata()[1] - line.get_xdata()[0] > 0.1}  # the medians: level lines across a box
    assert medians and all(sum((m - b) ** 2 for m, b in zip(med, box)) ** 0.5 > 0.5
                           for med in medians for box in boxes), (medians, boxes)
    plots.skill(reports)
    ax = figs[-1].axes[0]
    renderer = figs[-1].canvas.get_renderer()
    top_down = sorted(ax.get_yticklabels(), key=lambda t: -t.get_window_extent(renderer).y0)
    assert ["base" in t.get_text() for t in top_down] == [True, False], [t.get_text() for t in top_down]


def test_a_report_written_again_from_the_same_numbers_draws_no_figure_again(race, tmp_path, monkeypatch):
    """Drawing is most of a small balance run's time: the same figure of the same numbers is
    drawn once a process, and a figure of other numbers is drawn anew."""
    from interpreter.balance import plots
    drawn = []
    svg = plots._svg
    monkeypatch.setattr(plots, "_svg", lambda fig: drawn.append(fig.axes[0].get_title()) or svg(fig))
    monkeypatch.setattr(plots, "_DRAWN", {})
    counts = []
    for out, seed in (("a", 3), ("b", 3), ("c", 4)):
        assert run("balance", race, "-k", 30, "--seed", seed, "--strong", "greedy", "--out", tmp_path / out).exit_code == 0
        counts.append(len(drawn))
    html = [(tmp_path / out / "report.html").read_text() for out in "abc"]
    assert counts[0] >= 4 and counts[1] == counts[0] and counts[2] > counts[1]  # b drew none; c its new figures
    assert "Games won by each seat, with 95% intervals" in drawn[counts[1]:]  # c's seats won other shares
    assert html[0] == html[1] and html[0] != html[2] and html[2].count("<svg") == html[0].count("<svg")


@pytest.mark.parametrize("args, message", [
    (["--bot", "clever"], "unknown bot 'clever'"),
    (["--strong", "clever"], "unknown bot 'clever'"),
    (["--players", "7"], "is for 2 to 3 players, not 7"),
    (["--option", "head_start=maybe"], "head_start"),
    (["--option", "head_start=true,false", "--option", "nosuch=1,2"], "one option only"),
])
def test_bad_input_is_one_clear_error_and_writes_nothing(race, tmp_path, args, message):
    out = tmp_path / "rep"
    r = run("balance", race, "-k", 5, "--out", out, *args)
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output
    assert not out.exists()


def test_against_a_ruleset_for_other_player_counts_is_refused(race, tmp_path):
    out = tmp_path / "rep"
    r = run("balance", race, "-n", 2, "-k", 5, "--against", GANJIFA, "--out", out)
    assert r.exit_code == 2 and "is not for 2 players" in r.output and not out.exists()


def test_diff_play_adds_the_table_under_the_textual_diff(tmp_path):
    variant = ROOT / "rulesets" / "ganjifa" / "traditional-deni.cards"
    r = run("diff", GANJIFA, variant, "--no-redline", "--play", 6)
    assert r.exit_code == 1, r.output  # different in meaning
    head, _, table = r.output.partition("Played: 6 games each, 3 random players")
    assert "Definition `deni_card`" in head
    assert "move give_deni: times per game" in table and "95% interval" in table
    out = tmp_path / "d.html"
    r = run("diff", GANJIFA, variant, "--format", "html", "--play", 4, "--out", out)
    html = out.read_text(encoding="utf-8")
    assert "<section class=\"played\">" in html and html.index("played") < html.index("</body>")


def test_diff_play_says_a_win_share_is_not_games_won_where_wins_are_shared(tmp_path):
    """Durak, Jass and Twenty-Nine by new users: 'P1 wins (share of games) 23.0%' read as games won
    where every win was shared by two or three players."""
    fool = tmp_path / "fool.cards"  # (three players at least: two share each win)
    fool.write_text((ROOT / "tests" / "engine" / "fool.cards").read_text(encoding="utf-8")
                    .replace("players 2..4", "players 3..4"), encoding="utf-8")
    other = tmp_path / "fool-b.cards"
    other.write_text('variant b of "fool.cards"\nrule fool "The last one holding cards":\n'
                     "    declare loser first(players_in_play)\n    end game\n", encoding="utf-8")
    r = run("diff", fool, other, "--no-redline", "--play", 6)
    table = r.output.partition("Played: 6 games each")[2]
    assert "a win share counts a win shared by k players as 1/k of a game" in table, r.output
    assert "P1 win share" in table and "P1 wins (share of games)" not in table
    r = run("diff", GANJIFA, ROOT / "rulesets" / "ganjifa" / "traditional-deni.cards", "--no-redline", "--play", 4)
    assert "win shared by k" not in r.output  # (no win is shared in Ganjifa)


def test_a_game_that_names_its_loser_reports_each_seats_share_of_the_losses(tmp_path):
    """Durak and Shithead by new users: 'won: P1 31.2%, P2 35.0%, P3 33.8%' (every win shared
    by the players who were not the fool) hid the one figure a designer asks: who is the fool."""
    fool = tmp_path / "fool.cards"  # (in three-player Fool, P3 is always left holding the last card)
    fool.write_text((ROOT / "tests" / "engine" / "fool.cards").read_text(encoding="utf-8")
                    .replace("players 2..4", "players 3..4"), encoding="utf-8")
    out = tmp_path / "r"
    r = run("balance", fool, "-k", 12, "--strong", "none", "--workers", 1, "--out", out)
    assert r.exit_code == 0, r.output
    assert "lost (the rules name the loser): P1 0.0%, P2 0.0%, P3 100.0%" in r.output
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))["configurations"][0]
    assert data["loss_rate"]["P3"]["losses"] == 12 and data["loss_rate"]["P1"]["losses"] == 0
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Fool: lost</th>" in html and "the rules name the loser" in html
    other = tmp_path / "fool-b.cards"  # (the fool is now the first still holding cards: P1 or P2)
    other.write_text('variant b of "fool.cards"\nrule fool "The last one holding cards":\n'
                     "    declare loser first(players)\n    end game\n", encoding="utf-8")
    r = run("diff", fool, other, "--no-redline", "--play", 6)
    table = r.output.partition("Played: 6 games each")[2]
    assert "P3 lost (share of games)" in table and "P1 lost (share of games)" in table, r.output
    r = run("balance", GANJIFA, "-n", 3, "-k", 3, "--strong", "none", "--workers", 1, "--out", tmp_path / "g")
    assert r.exit_code == 0 and "lost" not in r.output  # (a winner named, not a loser)


def test_diff_play_refuses_rulesets_for_different_tables():
    r = run("diff", GANJIFA, ROOT / "rulesets" / "mughal" / "udvasa.cards", "--play", 3)
    assert r.exit_code == 2 and "not played by the same number of players" in r.output


def test_an_out_that_is_a_file_is_refused_before_any_game(race, tmp_path):
    """It was refused after the games, as 'the report was not written: File exists'."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    r = run("balance", race, "-k", 5, "--out", afile)
    assert r.exit_code == 2 and f"--out {afile} is a file; --out names the folder" in r.output, r.output
    assert "engine:" not in r.output and afile.read_text() == "x"


def test_a_report_whose_games_all_stop_unfinished_says_so_and_draws_no_empty_plot(tmp_path, monkeypatch):
    """Every game cut at the balance cap: the report still writes, names the cut, and puts a
    sentence where the margin and lead plots would be empty (it once crashed in its template)."""
    import interpreter.balance.games as games
    import interpreter.commands.balance as command
    monkeypatch.setattr(games, "HARD_CAP", 40)
    monkeypatch.setattr(command, "HARD_CAP", 40)
    src = Path(__file__).resolve().parents[1] / "fuzz" / "targets" / "endless.cards"
    loop = tmp_path / "loop.cards"
    loop.write_text(src.read_text().replace("at most 30 decisions", "at most 1000 decisions"))
    out = tmp_path / "out"
    r = run("balance", str(loop), "--out", str(out), "-k", "3", "--strong", "none", "--engine", "python")
    assert r.exit_code == 0, r.output
    assert "3 games (3 stopped unfinished at 40 decisions)" in r.output
    html = (out / "report.html").read_text()
    assert "0 of 3" in html
    assert "no game ended with a sole winner" in html
    assert "Margin of victory" not in html and "Lead changes" not in html


# ---------------------------------------------------------------- --solve and the strongest player

KUHN = ROOT / "rulesets" / "classic" / "kuhn-poker.cards"
KUHN3 = ROOT / "rulesets" / "classic" / "kuhn-poker-three.cards"
GOOFSPIEL = ROOT / "rulesets" / "classic" / "goofspiel.cards"


def test_solve_gives_each_configurations_value_two_players_against_three(tmp_path):
    """Kuhn poker for two against its version for three (no table suits both: each is played by
    its own number of players), each solved whole: the first seat's value for two is -1/18."""
    out = tmp_path / "rep"
    r = run("balance", KUHN, "--against", KUHN3, "-k", 10, "--strong", "none", "--solve", "--solve-iterations", 100,
            "--workers", 1, "--out", out)
    assert r.exit_code == 0, r.output
    two, three = report(out)["configurations"]
    assert (two["players"], three["players"]) == (2, 3)
    e2, e3 = two["equilibrium"], three["equilibrium"]
    assert e2["solved"] and abs(e2["values"]["P1"] - (-1 / 18)) < 0.01 and e2["positions"] == 58
    assert e3["solved"] and list(e3["values"]) == ["P1", "P2", "P3"] and e3["positions"] == 617
    assert abs(sum(e3["values"].values())) < 1e-5 and e3["exploitability"] < 0.01
    assert "equilibrium (kuhn-poker, 2 players): P1 -0.05" in r.output
    assert "equilibrium (kuhn-poker-three, 3 players): P1 " in r.output
    assert "played by 2 and 3 players" in r.output
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "What is each seat worth under best play?" in html and "<td>617</td>" in html


def test_solve_a_symmetric_game_gives_each_seat_nothing():
    """Goofspiel with three cards each: the prizes are shuffled and the two seats bid at once,
    so neither has the edge: each is worth 0 (its score less the table's mean)."""
    from interpreter import load_ruleset
    from interpreter.balance import Config
    from interpreter.balance.equilibria import equilibrium
    cfg = Config(label="x", path=str(GOOFSPIEL), rs=load_ruleset(GOOFSPIEL), players=2, options=(("num_cards", "3"),),
                 bots=("random", "random"))
    e = equilibrium(cfg, 100)
    assert e["solved"] and e["returns"] == "points" and e["positions"] == 406
    assert all(abs(v) < 0.01 for v in e["values"].values()) and e["exploitability"] < 0.01


def test_a_tree_too_big_to_solve_is_said_and_the_games_are_still_played(tmp_path):
    out = tmp_path / "rep"
    r = run("balance", KUHN3, "-k", 4, "--strong", "none", "--solve", "--solve-limit", 300, "--workers", 1, "--out", out)
    assert r.exit_code == 0, r.output
    assert "Traceback" not in r.output
    c = report(out)["configurations"][0]
    assert not c["equilibrium"]["solved"] and c["games"] == 4 and c["equilibrium"]["limit"] == 300
    said = "not solved: the tree has more than 300 positions (chance included), the most --solve-limit allows; found"
    assert said in c["equilibrium"]["reason"] and said in r.output
    assert said in (out / "report.html").read_text(encoding="utf-8")


def test_a_big_deal_is_refused_at_once_without_walking_its_tree():
    """A tree far beyond the limit by its estimate (a shuffled pack of 96 cards) is not walked:
    walking it to the limit would take hours where each draw replays the deal."""
    import time

    from interpreter import load_ruleset
    from interpreter.balance import Config
    from interpreter.balance.equilibria import equilibrium
    cfg = Config(label="x", path=str(GANJIFA), rs=load_ruleset(GANJIFA), players=3, bots=("random",) * 3)
    started = time.monotonic()
    e = equilibrium(cfg, 10)
    assert not e["solved"] and e["limit"] == 200_000 and time.monotonic() - started < 10
    assert "more than 200,000 positions" in e["reason"] and "without walking it" in e["reason"]


def test_the_skill_question_takes_the_strongest_player_the_game_allows_and_says_why(tmp_path):
    """--strong auto (the default): a game small enough to solve whole gets the equilibrium
    player, solved for wins as the question counts them; the choice and why are in the report."""
    out = tmp_path / "rep"
    r = run("balance", KUHN, "-k", 10, "--skill-games", 20, "--workers", 1, "--out", out)
    assert r.exit_code == 0, r.output
    skill = report(out)["configurations"][0]["skill"]
    assert skill["strong"] == "cfr:200:win" and "solved whole" in skill["why"]
    assert "skill: cfr:200:win (the strongest player this game allows" in r.output
    assert "the games with cfr:200:win play in Python" in r.output or "engine: python" in r.output
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "why this one" in html and skill["why"] in html


def test_the_strongest_player_is_chosen_by_the_game_and_the_engine():
    """One player: the planner; a small tree: the equilibrium player; else the search player
    where the games play in C (sealed bids too: greedy judges a bid in a sample of the others'
    hidden bids, so it no longer wins there by knowing them), and greedy where they play in
    Python. A big deal is ruled out at once, without walking its tree."""
    import time

    from interpreter import load_ruleset
    from interpreter.balance import Config
    from interpreter.balance.equilibria import strongest

    def config(path: Path, n: int, options=()):
        return Config(label="x", path=str(path), rs=load_ruleset(path), players=n, options=options,
                      bots=("random",) * n)
    assert strongest(config(ROOT / "rulesets" / "classic" / "freecell.cards", 1), True)[0] == "plan"
    assert strongest(config(GOOFSPIEL, 2, (("num_cards", "3"),)), False)[0] == "cfr:200:win"
    started = time.monotonic()
    assert strongest(config(GANJIFA, 3), True)[0] == "ismcts"
    assert strongest(config(GANJIFA, 3), False)[0] == "greedy"
    assert strongest(config(GOOFSPIEL, 2), True)[0] == "ismcts"  # every decision a sealed bid
    assert strongest(config(ROOT / "rulesets" / "classic" / "leduc-poker.cards", 2), True)[0] == "ismcts"
    assert time.monotonic() - started < 10


def test_an_explicit_strong_player_is_kept(race, tmp_path):
    out = tmp_path / "rep"
    r = run("balance", race, "-k", 8, "--strong", "random", "--workers", 1, "--out", out)
    assert r.exit_code == 0, r.output
    skill = report(out)["configurations"][0]["skill"]
    assert skill["strong"] == "random" and skill["why"] == "as asked"


@pytest.mark.parametrize("args, message", [
    (["--solve-iterations", "0"], "--solve-iterations"),
    (["--solve-limit", "0"], "--solve-limit"),
    (["--strong", "cfr:1:2"], "the equilibrium player is"),
])
def test_bad_solve_and_strong_options_are_clear_errors(race, tmp_path, args, message):
    out = tmp_path / "rep"
    r = run("balance", race, "-k", 5, "--solve", "--out", out, *args)
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output and not out.exists()


def test_in_a_game_for_one_whose_every_end_is_a_win_skill_is_judged_by_the_score(tmp_path):
    path = tmp_path / "keeping.cards"
    path.write_text(KEEPING, encoding="utf-8")
    r = run("balance", path, "-k", 40, "--out", tmp_path / "report")
    assert r.exit_code == 0, r.output
    assert "skill: plan scored 0.00 a game, random playing alone" in r.output
    assert "(the fewer the better" in r.output and "skill matters: the stronger player scores lower than random" in r.output
    assert "wins less often" not in r.output
    data = json.loads((tmp_path / "report" / "report.json").read_text())
    skill = data["configurations"][0]["skill"]
    assert skill["by_score"]["better"] == "fewer" and skill["by_score"]["strong"]["mean"] == 0
    assert skill["by_score"]["others"]["mean"] > 1 and skill["by_score"]["ci"][1] < 0
    html = (tmp_path / "report" / "report.html").read_text()
    assert "every game ends as the player's win, so the score tells" in html and "mean score, playing alone" in html


def test_a_greedy_player_that_loses_in_a_game_without_advice_says_why():
    """Yaniv, written by a new user without advice: the greedy player won 0 of 50, and the report
    said only that the stronger player wins less than its share."""
    from interpreter.balance.games import Config, GameFacts
    from interpreter.balance.summary import analyse
    rs = load_ruleset(ROOT / "rulesets" / "classic" / "crazy-eights.cards")
    assert not rs.advice

    def facts(i, winner):
        return GameFacts(seed=i, bots=(), winners=(winner,), scores=(0,) * 3, decisions=30, finished=True,
                         fired={}, moves={}, first_decider=0, lead_changes=None, winner_was_behind=None)
    cfg = Config("3 players", "c8.cards", rs, 3, bots=("random",) * 3)
    skill = Config("3 players", "c8.cards", rs, 3, bots=("random",) * 3, rotate="greedy")
    games = [facts(i, i % 3) for i in range(60)]
    lost = [facts(i, (i + 1) % 3) for i in range(60)]  # the greedy seat (i mod 3) never wins
    verdict = analyse(cfg, games, (skill, lost))["skill"]["verdict"]
    assert verdict.startswith("the stronger player wins less than its share: this ruleset gives no advice"), verdict
    assert "--strong ismcts" in verdict
    won = analyse(cfg, games, (skill, [facts(i, i % 3) for i in range(60)]))["skill"]["verdict"]
    assert "advice" not in won


# four players in two sides, the partners' points one total: P1 and P3 start with a head start
PARTNERS = '''game partners "Partners"
players 4
option head_start: bool = true "P1 and P3 start two steps ahead."

deck d:
    suits Red
    ranks 1..4

zone stock shared hidden

var points(p: player): int = 0

define team(p: player) = p == seat(1) or p == seat(3)
define total(p: player) = sum q in players where team(q) == team(p): points(q)
sides by team
winner most total

phase play "Play":
    rule start "Head start" when head_start:
        set points(seat(1)) = 2
    for each p in players:
        rule step "A step":
            choose by p:
                action go k in 1..3 "Go this far.":
                    set points(p) = points(p) + k
'''


def test_partners_are_asked_as_sides(tmp_path):
    """New users' Belote and Rook: four seats whose partners always win together were tested as
    four independent seats (chi-square with 3 degrees of freedom, "an equal share is 25%" for a
    player whose side wins half the games, no sole leader ever, since partners tie). With a
    `sides` line that gives the same sides every game, the sides are asked."""
    path = tmp_path / "partners.cards"
    path.write_text(PARTNERS, encoding="utf-8")
    out = tmp_path / "rep"
    r = run("balance", path, "--games", 120, "--option", "head_start=true,false", "--skill-games", 40,
            "--strong", "greedy", "--workers", 1, "--out", out)
    assert r.exit_code == 0, r.output
    rigged, fair = report(out)["configurations"]
    assert set(rigged["sides"]) == {"P1 and P3", "P2 and P4"}
    assert rigged["fairness"]["df"] == 1 and rigged["fairness"]["by"] == "side"
    assert rigged["sides"]["P1 and P3"]["rate"] > 0.6 and rigged["fairness"]["p_value"] < 0.05
    assert rigged["fairness"]["verdict"].startswith("evidence that the sides' chances differ")
    assert fair["fairness"]["verdict"] == "no evidence that any side is favoured"
    assert abs(sum(w["rate"] for w in fair["sides"].values()) - 1.0) < 1e-3
    assert fair["first_player"]["fair_share"] == 0.5 and fair["first_player"]["by_side"]
    assert fair["skill"]["fair_share"] == 0.5 and fair["skill"]["by_side"]
    assert fair["lead"]["mean_changes"] > 0  # partners tied for the lead are one leader
    assert "sides: P1 and P3" in r.output and "with its side" in r.output
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "<td>P1 and P3</td>" in html and "with 1 degree of freedom" in html
    assert "the question is asked of the sides" in html


def test_a_rule_retitled_by_a_variant_is_shown_with_both_titles_and_chance_is_named(race, tmp_path):
    """A new user's Koi-Koi variant retitled a rule; `diff --play` labelled it with the base's
    title alone. Their Doppelkopf's one starred statistic of 25 after 30 games read as a finding:
    the table now says how many a chance alone would star."""
    variant = tmp_path / "retitled.cards"
    variant.write_text('variant retitled "Retitled" of "race.cards"\n\n'
                       'rule start "A flying start" when head_start:\n    set points(seat(1)) = 3\n', encoding="utf-8")
    r = run("diff", race, variant, "--no-redline", "--play", 8)
    assert "rule start (Head start; in Retitled: A flying start): times per game" in r.output, r.output
    assert "would be starred by chance alone where nothing differs" in r.output


def test_a_game_for_one_has_no_seats_or_first_player_to_compare(tmp_path):
    """A new user's Pyramid: "no evidence that any seat is favoured (chi-square 0 with 0 degrees of
    freedom)" and "the first player won 0.0%; an equal share is 100.0%" in a game for one; and
    "skill matters" on 1 game won of 50 against 0 of 50, the two rates within each other's noise."""
    from interpreter.balance.stats import diff_proportions
    out = tmp_path / "rep"
    r = run("balance", ROOT / "rulesets" / "mughal" / "udvasa.cards", "--games", 8, "--strong", "none",
            "--workers", 1, "--out", out)
    assert r.exit_code == 0, r.output
    (only,) = report(out)["configurations"]
    assert only["fairness"]["verdict"] == "a game for one: there are no seats to compare"
    assert not only["fairness"]["meaningful"]
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "a game for one: there is nobody to go first against" in html and "chi-square" not in html
    assert not diff_proportions(0, 50, 1, 50)["significant"]  # (what the skill verdict alone now asks)


def test_where_no_bar_is_drawn_a_line_says_how_far_the_games_have_gone(race, tmp_path, monkeypatch):
    """A log or a pipe gets no bar: a line every HEARTBEAT seconds says how many games are played
    (a new user's Spider, its skill games minutes each, said nothing for 100 s)."""
    import time
    from interpreter.commands import balance as command
    real = command.make_report

    def slow(configs, games, seed, strongs, k_skill, progress, *rest):
        def step(n=1):
            time.sleep(0.03)
            progress(n)
        return real(configs, games, seed, strongs, k_skill, step, *rest)
    monkeypatch.setattr(command, "make_report", slow)
    monkeypatch.setattr(command, "HEARTBEAT", 0.1)
    r = run("balance", race, "-k", 10, "--strong", "none", "--workers", 1, "--out", tmp_path / "out")
    assert r.exit_code == 0, r.output
    lines = [ln for ln in r.stderr.splitlines() if ln.startswith("playing: ")]
    assert lines and all(ln.endswith(" s so far") and " of 10 games, " in ln for ln in lines), r.stderr
    counts = [int(ln.split()[1]) for ln in lines]
    assert counts == sorted(counts) and counts[-1] > 0


SEALED = """game sealed "Sealed"
players 3
deck d:
    suits S
    ranks 1..9
zone stock shared hidden
zone hand per player owner
zone shown per player public
define top_card(p: player) = highest c in shown(p)
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
    rule pick "Pick":
        choose secretly by each q in players:
            action show c in hand(q):
                move c to shown(q)
    rule best "Best":
        declare winner highest q in players by top_card(q).order
        end game
"""


@pytest.mark.parametrize("scored", [False, True])
def test_a_game_whose_first_decision_all_make_at_once_has_no_first_player(tmp_path, scored):
    """A new user's 6 nimmt!: 'The first decision fell to P1 50 times', where every player picks a
    card at once, in secret. Both ways a game is played for the report: whole in C (no score) and
    move by move (a score to follow)."""
    path = tmp_path / "sealed.cards"
    text = SEALED if not scored else SEALED.replace("phase play", "define pts(p: player) = count(shown(p))\n"
                                                    "winner most pts\nphase play")
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "r"
    r = run("balance", path, "-k", 6, "--strong", "none", "--workers", 1, "--out", out)
    assert r.exit_code == 0, r.output
    first = json.loads((out / "report.json").read_text(encoding="utf-8"))["configurations"][0]["first_player"]
    assert first["at_once"] == 6 and first["games"] == 0 and first["seat_counts"] == {"P1": 0, "P2": 0, "P3": 0}
    assert "every player makes the first decision at once, in secret, so nobody goes first" in \
        (out / "report.html").read_text(encoding="utf-8")


def test_a_game_nobody_wins_says_its_wins_cannot_compare_seats_or_players(tmp_path):
    """A new user's The Game (everyone wins or loses together; random players never win): the report
    said 'no evidence that any seat is favoured' (a chi-square over no wins) and that ismcts 'wins less
    than its share'."""
    path = tmp_path / "lost.cards"
    path.write_text(SEALED.replace("declare winner highest q in players by top_card(q).order",
                                   "declare winner none"), encoding="utf-8")
    out = tmp_path / "r"
    r = run("balance", path, "-k", 4, "--strong", "greedy", "--workers", 1, "--out", out)
    assert r.exit_code == 0, r.output
    assert "no game of the 4 had a winner, so the seats' wins cannot be compared" in r.output
    assert "no game had a winner, with the stronger player or without it, so wins cannot tell whether skill " \
        "matters" in r.output
    data = json.loads((out / "report.json").read_text(encoding="utf-8"))["configurations"][0]
    assert data["fairness"]["meaningful"] is False
