"""The planning player (plan): it finds the careful line of moves a patience needs, it never
looks at cards its seat cannot see, it is a function of its seed and the position, and it only
plays legal moves in every bundled game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import paths_variants_slow, plays_only_legal_moves
from small_games import DRAWS, KEEPING, ROADS
from typer.testing import CliRunner

from interpreter import load_ruleset, loads_ruleset
from interpreter.players.bots import make_bot
from interpreter.commands.cli import app
from interpreter.engine import (apply, cards_in, determinise, legal_moves, moves_for, new_game, outcome, position,
                                state_digest)
from interpreter.errors import OptionError
from interpreter.players.plan import DEFAULT_NODES, DEFAULT_SEEN, DEFAULT_WORLDS, PlanBot


def move_key(m) -> tuple:
    return (m.action, m.arg)

ROOT = Path(__file__).resolve().parents[2]
RULESETS = sorted((ROOT / "rulesets").glob("**/*.cards"))
UDVASA = ROOT / "rulesets" / "mughal" / "udvasa.cards"
KLONDIKE = ROOT / "rulesets" / "classic" / "klondike.cards"
STARTERS = ["Raja-Surya", "Raja-Chandra", "Raja-Barat", "Raja-Phul", "1-Kumancha", "1-Ghulam", "1-Cheng", "1-Shamsher"]


@pytest.fixture(scope="module")
def udvasa():
    return load_ruleset(UDVASA)


def _buried(udvasa):
    """The Vizier of Surya, which Surya's build stack needs next, lies under a 7 and a 5.
    Only the 5 can move at first (onto the 6 or the 4); then the 7 can go onto the 8 (or the
    6), which frees the Vizier. Every other top card is useless and the pack is not empty."""
    work = {1: ["Vizier-Surya", "7-Cheng", "5-Ghulam"], 2: ["3-Phul", "8-Barat"], 3: ["9-Phul", "6-Kumancha"],
            4: ["2-Barat", "4-Cheng"], 5: ["10-Cheng"], 6: ["10-Ghulam"], 7: ["2-Shamsher", "10-Kumancha"],
            8: ["3-Surya", "10-Shamsher"]}
    build = {k + 1: [c] for k, c in enumerate(STARTERS)}
    return position(udvasa, 1, "play", zones={"build": build, "work": work, "stock": ["9-Surya", "8-Surya"]},
                    vars={"moves_in_a_row": 0})


def test_it_frees_a_buried_card(udvasa):
    s = _buried(udvasa)
    bot = PlanBot(seed=1, nodes=400, worlds=2)
    played = []
    while not played or played[-1].startswith("shift"):
        m = bot.choose(s)
        assert m in moves_for(s)
        played.append(str(m))
        apply(s, m)
    assert played[-1] == "build Vizier-Surya", played
    assert "deal" not in played and len(played) == 3, played  # the 5 and the 7 moved away, then the build
    assert played[0].startswith("shift 5-Ghulam") and played[1].startswith("shift 7-Cheng"), played
    assert cards_in(s, "build", 1) == ["Raja-Surya", "Vizier-Surya"]
    # with a card and its destination one decision, each of these moves uncovers the Vizier a
    # little, so the greedy player, one move deep, finds the same line here
    g = _buried(udvasa)
    greedy = make_bot("greedy", 1)
    assert [str(apply(g, greedy.choose(g)).history[-1]).split()[:2] for _ in range(3)] == [
        ["shift", "5-Ghulam"], ["shift", "7-Cheng"], ["build", "Vizier-Surya"]]


def test_it_decides_the_same_whatever_the_pack_holds(udvasa):
    """Rearranging the face-down pack (all the patience hides) must change neither its move
    nor its plan: every move it plans is the same in every order of the pack. The positions
    are ones where it may deal, so a plan that peeked at the pack could plan past the deal."""
    for seed in (3, 5):
        s = new_game(udvasa, 1, None, seed)
        rng = random.Random(seed)
        for _ in range(25):
            apply(s, rng.choice(legal_moves(s)))
        while len(moves_for(s)) < 2 or "deal" not in {m.action for m in moves_for(s)}:
            apply(s, rng.choice(legal_moves(s)))
        lines = set()
        for k in range(3):
            t = s if k == 0 else determinise(s, 0, random.Random(50 + k))
            if k:
                assert state_digest(t) != state_digest(s)  # the pack really is in another order
            bot = PlanBot(seed=7, nodes=300, worlds=2)  # (two sampled worlds: the same question, a third of the time)
            line = [str(bot.choose(t))] + [str(key) for key, _ in bot._plan]
            lines.add(tuple(line))
        assert len(lines) == 1, lines


def test_same_seed_same_move_and_the_position_is_left_alone(udvasa):
    s = new_game(udvasa, 1, None, 11)
    before = (state_digest(s), [str(m) for m in legal_moves(s)], len(s.history))
    a = PlanBot(seed=2, nodes=200).choose(s)
    assert (state_digest(s), [str(m) for m in legal_moves(s)], len(s.history)) == before
    assert PlanBot(seed=2, nodes=200).choose(s) == a and a in moves_for(s)


def test_it_replans_when_the_position_is_not_the_one_it_planned_for(udvasa):
    s = _buried(udvasa)
    bot = PlanBot(seed=1, nodes=400, worlds=2)
    first = str(bot.choose(s))
    assert first in ("shift 5-Ghulam work3", "shift 5-Ghulam work4")
    assert bot._plan and bot._plan[0][0][0] == "shift"  # the rest of the plan: the 7 next
    apply(s, "shift 5-Ghulam " + ("work4" if first.endswith("work3") else "work3"))  # not where the plan put it
    m = bot.choose(s)  # a fresh plan from where the card really went: the 7 goes next
    assert m in moves_for(s) and str(m).startswith("shift 7-Cheng ")


@pytest.mark.parametrize("path", paths_variants_slow(RULESETS, [p.stem for p in RULESETS]))
def test_it_plays_only_legal_moves_in_every_bundled_game(path):
    plays_only_legal_moves(path, PlanBot(seed=1, nodes=15))


def _klondike_endgame():
    """Thoughtful Klondike (every card known), fifty moves from a win: the last face-down card,
    the 7 of Diamonds, lies under the Jack of Spades, and the stock and the waste hold the rest
    in an order that takes going round the stock to dig out."""
    stock = ["9-Diamonds", "5-Clubs", "7-Clubs"]
    up = lambda suit, top: [f"{r}-{suit}" for r in ["Ace", "2", "3", "4", "5", "6", "7"][:top]]  # noqa: E731
    return position(load_ruleset(KLONDIKE), 1, "play", zones={
        "pile": {1: ["King-Hearts", "Queen-Clubs", "Jack-Hearts", "10-Clubs"], 2: ["6-Clubs"], 3: ["Queen-Spades"],
                 4: ["Jack-Diamonds", "10-Spades", "9-Hearts", "8-Spades", "7-Hearts"],
                 5: ["Jack-Clubs", "10-Hearts", "9-Spades", "8-Hearts"], 6: ["King-Diamonds"],
                 7: ["Queen-Hearts", "Jack-Spades"]},
        "down": {7: ["7-Diamonds"]},
        "foundation": {1: up("Diamonds", 6), 2: up("Clubs", 4), 3: up("Spades", 7), 4: up("Hearts", 5)},
        "stock": stock,
        "waste": ["King-Clubs", "6-Hearts", "8-Diamonds", "8-Clubs", "9-Clubs", "Queen-Diamonds", "10-Diamonds",
                  "King-Spades"]},
        vars={"idle_moves": 4}, options={"visible": True}, face_up=stock + ["7-Diamonds"])


def _line_wins(bot, s) -> bool:
    """Whether the whole line `bot` plans from `s` (its move now and the plan it keeps) wins."""
    keys = [move_key(bot.choose(s))] + [key for key, _ in bot._plan]
    t = s.clone()
    for key in keys:
        apply(t, next(m for m in moves_for(t) if move_key(m) == key))
    return t.finished and 0 in outcome(t).winners


def test_depth_first_it_finds_a_long_win_that_best_first_misses():
    """Sixty positions are enough to follow one line fifty moves to the win, depth first (the
    layouts met again, the stock gone round, skipped), and it stops there; best first, the same
    sixty positions spread over the first few moves of many lines, and the plan ends far from
    the end of the game."""
    deep, best = PlanBot(seed=1, nodes=60), PlanBot(seed=1, nodes=60, deep=False)
    assert _line_wins(deep, _klondike_endgame())
    assert len(deep._plan) + 1 == 50
    assert not _line_wins(best, _klondike_endgame())
    assert len(best._plan) + 1 < 20


def test_depth_first_it_departs_from_the_advice_near_the_root_before_deep_down():
    """The advice favours the left road, where fourteen cards are laid down in any order (16,384
    layouts) before the game is lost; the right road wins at the next move. A depth-first search
    that tries every departure deep down first spends any budget short of those layouts on the
    left. This one goes in rounds: round 0 follows the advice to the loss (15 positions), round 1
    may take a second-best move once on a line, so it tries each such move down the left road
    and then the right road, and wins: 200 positions are enough. With 100 it is still on the left
    in round 1, and plans the best it found there."""
    s = new_game(loads_ruleset(ROADS, "roads.cards"), 1, None, 5)
    bot = PlanBot(seed=1, nodes=200)
    assert move_key(bot.choose(s)) == ("go_right", None)
    assert [key for key, _ in bot._plan] == [("arrive", None)]
    assert _line_wins(PlanBot(seed=1, nodes=200), s)
    short = PlanBot(seed=1, nodes=100)
    assert move_key(short.choose(s)) == ("go_left", None)
    assert not _line_wins(PlanBot(seed=1, nodes=100), s)


@pytest.mark.parametrize("spec, deep, nodes, worlds", [
    ("plan", True, None, DEFAULT_WORLDS), ("plan:60", True, 60, DEFAULT_WORLDS), ("plan:best", False, None, DEFAULT_WORLDS),
    ("plan:60:best", False, 60, DEFAULT_WORLDS), ("Plan:7:Best", False, 7, DEFAULT_WORLDS), ("plan:60:3", True, 60, 3),
    ("plan:60:0", True, 60, 0),
])
def test_the_spec_names_the_search_its_positions_and_its_worlds(spec, deep, nodes, worlds):
    bot = make_bot(spec)
    assert (bot.deep, bot.nodes, bot.worlds) == (deep, nodes, worlds)


def test_by_default_it_looks_further_where_it_sees_every_card(udvasa):
    """Depth first, a plan looks at DEFAULT_SEEN positions where the seat can identify every card
    (a line may run to a win, and the search stops there), else DEFAULT_NODES; best first, and
    with a number given, that number everywhere."""
    shown, hidden = _klondike_endgame(), new_game(load_ruleset(KLONDIKE), 1, None, 1)
    assert PlanBot(1)._budget(shown, 0) == DEFAULT_SEEN > DEFAULT_NODES == PlanBot(1)._budget(hidden, 0)
    assert PlanBot(1, deep=False)._budget(shown, 0) == DEFAULT_NODES
    assert PlanBot(1, 60)._budget(shown, 0) == PlanBot(1, 60)._budget(hidden, 0) == 60


@pytest.mark.parametrize("spec, message", [
    ("plan:0", "at least 1"), ("plan::best", "whole number"), ("plan:best:60", "whole number"),
    ("plan:0:best", "at least 1"), ("plan:-3", "at least 1"), ("plan:lots", "whole number"), ("plan:", "whole number"),
    ("plan:60:few", "number of worlds"), ("plan:60:-1", "number of worlds"), ("plan:60:3:best", "plan:POSITIONS:WORLDS"),
    ("plan:60:3:4", "plan:POSITIONS:WORLDS"),
])
def test_bad_position_counts_are_clear_errors(spec, message):
    with pytest.raises(OptionError, match=message):
        make_bot(spec)
    r = CliRunner().invoke(app, ["play", str(UDVASA), "-n", "1", "--bot", f"P1={spec}"])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


def test_the_command_line_seats_it():
    """(In a short game: a whole Udvasa game with the planner takes half a minute.)"""
    r = CliRunner().invoke(app, ["play", str(ROOT / "rulesets" / "classic" / "goofspiel.cards"), "-n", "2",
                                 "--bot", "P1=plan:20", "--json"])
    assert r.exit_code == 0, r.output
    assert '"P1": "plan:20"' in r.output and '"P2": "random"' in r.output


def _draws(judge: str | None = None, sure: str = "count(drawn) == 2"):
    text = DRAWS.replace("SURE", sure)
    if judge is not None:
        text = text.replace("(route == 1 and card(4, Red) in drawn) or (route == 2 and count(drawn) == 2)", judge)
    return loads_ruleset(text, "draws.cards")


@pytest.mark.parametrize("seed", range(4))
def test_with_cards_hidden_a_patience_is_planned_in_sampled_worlds(seed):
    """Two draws, the long shot never a win here: before a card shows, the long shot and the sure
    thing look alike, and the plain plan (no worlds) takes the long shot, offered first. Planned
    in sampled worlds, each seen whole, only the sure thing wins: it is played, and the winning
    line is kept (its next move, the look)."""
    rs = _draws(judge="route == 2 and count(drawn) == 2")
    s = new_game(rs, 1, None, seed)
    assert [str(m) for m in moves_for(s)] == ["long_shot", "sure_thing"]
    assert str(PlanBot(seed, 50, worlds=0).choose(s)) == "long_shot"
    bot = PlanBot(seed, 50)
    assert str(bot.choose(s)) == "sure_thing"
    assert [key for key, _ in bot._plan] == [("look", None)]


def test_the_worlds_vote_and_the_move_most_of_them_win_by_is_played(monkeypatch):
    """The sure thing wins only where the 1 is drawn (half the worlds), the long shot where the 4
    is on top (a quarter; a world's plan takes the first win it finds, the long shot tried
    first): the move played has the most votes, and the worlds stop once the rest could not
    change that."""
    rs = _draws(sure="card(1, Red) in drawn")
    votes = {"long_shot": 0, "sure_thing": 0}
    real = PlanBot._world

    def counted(self, state, me, nodes):
        line, value = real(self, state, me, nodes)
        if line and value >= 1e9:
            votes[line[0][0][0]] += 1
        return line, value
    monkeypatch.setattr(PlanBot, "_world", counted)
    played = []
    for seed in range(6):
        before = dict(votes)
        m = str(PlanBot(seed, 50).choose(new_game(rs, 1, None, seed)))
        got = {k: votes[k] - before[k] for k in votes}
        assert got[m] == max(got.values()) and sum(got.values()) <= DEFAULT_WORLDS
        played.append(m)
    assert votes["sure_thing"] > votes["long_shot"] > 0 and "sure_thing" in played


def test_the_worlds_stop_once_those_left_could_not_change_the_choice(monkeypatch):
    """Every world won by the sure thing: after k of the n worlds, k votes lead by more than the
    n - k left once k > n / 2."""
    rs = _draws(judge="route == 2 and count(drawn) == 2")
    planned = []
    real = PlanBot._world
    monkeypatch.setattr(PlanBot, "_world", lambda self, *a: planned.append(1) or real(self, *a))
    for n, k in ((6, 4), (5, 3), (1, 1)):
        planned.clear()
        assert str(PlanBot(0, 50, worlds=n).choose(new_game(rs, 1, None, 0))) == "sure_thing"
        assert len(planned) == k


def test_where_no_world_is_won_the_plain_plan_decides():
    rs = _draws(judge="route == 3")
    for seed in range(3):
        bot = PlanBot(seed, 50)
        assert str(bot.choose(new_game(rs, 1, None, seed))) == "long_shot"
        assert bot._plan == []


def test_in_a_game_for_several_or_with_every_card_shown_it_plans_in_no_worlds(monkeypatch):
    """Worlds are for a patience with hidden cards: the solver's peek, a game for two, a patience
    with nothing hidden and the best-first search plan as before."""
    def no(*a, **k):
        raise AssertionError("planned in worlds")
    monkeypatch.setattr(PlanBot, "_worlds", no)
    shown = _klondike_endgame()
    PlanBot(1, 40).choose(shown)
    PlanBot(1, 40, deep=False).choose(new_game(load_ruleset(KLONDIKE), 1, None, 1))
    peek = PlanBot(1, 40)
    peek.peek = True
    peek.line(new_game(load_ruleset(KLONDIKE), 1, None, 1))
    two = new_game(load_ruleset(ROOT / "rulesets" / "classic" / "goofspiel.cards"), 2, None, 1)
    PlanBot(1, 20).choose(two)


@pytest.mark.parametrize("engine", ["python", "native"])
def test_in_a_game_for_one_scored_by_points_an_end_is_worth_its_score(engine):
    from interpreter import engines
    rs = loads_ruleset(KEEPING, "keeping.cards")
    s = engines.new_game(rs, 1, None, 0, engine=engine)
    bot = PlanBot(3)
    while not s.finished:
        apply(s, bot.choose(s))
    assert [m.action for m in s.history] == ["discard"] * 4 + ["stop"]
    assert outcome(s).scores == (0,)
