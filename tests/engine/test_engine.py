"""The engine's contract, independent of any one game: errors located in the ruleset,
endless loops caught, deadlocks visible, moves that print and parse back."""

from __future__ import annotations

import pytest
from small_games import CLAIMS, MINI_BODY as MINI, mini_game as game

from interpreter import Move, apply, legal_moves, loads_ruleset, new_game, outcome
from interpreter.engine import cards_in, observe
from interpreter.errors import GameRuntimeError, IllegalMoveError, InvalidMoveError, OptionError, RulesetError


def test_a_simple_choice_plays_to_the_end():
    s = game("""    while count(hand(turn)) > 0:
        rule discard "Discard":
            choose by turn:
                action discard c in hand(turn) where c.suit == Red or (no d in hand(turn) where d.suit == Red):
                    move c to pile
            set turn = next(turn)""")
    moves = legal_moves(s)
    assert moves and all(m.player == 0 and m.action == "discard" for m in moves)
    while not s.finished:
        apply(s, legal_moves(s)[0])
    assert outcome(s).winners == (0, 1) and outcome(s).scores == (0, 0)


def test_move_text_round_trips():
    m = Move(1, "lead", "Raja-Rama")
    assert str(m) == "lead Raja-Rama"
    assert Move.parse(str(m), 1) == m
    assert eval(repr(m)) == m
    with pytest.raises(InvalidMoveError):
        Move.parse("", 0)


def test_an_illegal_move_names_the_rule_and_the_condition():
    body = """    rule discard "Discard":
        choose by turn:
            action discard c in hand(turn) where c.suit == Red:
                move c to pile"""
    for seed in range(50):  # find a deal that gives the first player a Blue card
        s = game(body, seed=seed)
        blues = [c for c in cards_in(s, "hand", 0) if c.endswith("-Blue")]
        if blues and legal_moves(s):
            break
    with pytest.raises(IllegalMoveError) as info:
        apply(s, f"discard {blues[0]}")
    msg = str(info.value)
    assert "rule 'discard' (Discard)" in msg and "c.suit == Red" in msg
    with pytest.raises(InvalidMoveError, match="not a card of this deck"):
        apply(s, "discard Joker-Red")
    with pytest.raises(InvalidMoveError, match="not an action of this game"):
        apply(s, "fold")


def test_a_runtime_failure_points_at_the_statement():
    with pytest.raises(GameRuntimeError) as info:
        game("""    rule boom "Boom":
        let nobody = highest c in pile
        set turn = nobody.owner""")
    err = info.value
    assert err.file == "mini.cards" and err.line == 18
    assert "none here" in err.message
    assert "set turn = nobody.owner" in err.render()


def test_an_endless_loop_without_decisions_is_caught_and_named():
    with pytest.raises(GameRuntimeError, match="loop for ever.*stuck in rule 'spin', Spinning"):
        game("""    rule spin "Spinning":
        while true:
            pass""")


def test_a_deadlock_leaves_no_moves_and_no_outcome():
    s = game("""    choose by turn:
        action discard c in pile:
            pass""")
    assert not s.finished and legal_moves(s) == [] and outcome(s) is None
    assert s.current_player is None


def test_bad_player_counts_and_options_are_refused():
    with pytest.raises(OptionError, match="for 2 players, not 3"):
        game("    pass", players=3)
    with pytest.raises(OptionError, match="unknown option 'speed'"):
        game("    pass", options={"speed": "1"})


def test_same_seed_same_game_other_seed_other_game():
    body = """    rule discard "Discard":
        pass"""

    def deal(seed):
        s = game(body, seed=seed)
        return [cards_in(s, z) for z in ("stock", "hand-P1", "hand-P2", "pile")]

    assert deal(5) == deal(5)
    assert any(deal(5) != deal(k) for k in range(6, 12))


def test_replay_names_the_move_after_which_the_ruleset_fails():
    from interpreter.engine import make_record, replay
    from interpreter.errors import RecordError
    body = """    rule discard "Discard":
        choose by turn:
            action discard c in hand(turn):
                move c to pile
{after}"""
    s = game(body.replace("{after}", "                pass"))
    apply(s, legal_moves(s)[0])
    record = make_record(s, "mini.cards")
    broken = loads_ruleset(MINI.replace("{body}", body.replace(
        "{after}", "                set turn = (highest d in pile where false).owner")), "mini.cards")
    with pytest.raises(RecordError, match=r"move 1 \(P1: discard .*\) makes the ruleset fail"):
        replay(broken, record)


def test_replay_checks_the_recorded_winners_and_scores_not_only_where_the_cards_lie():
    """A new user's 6 nimmt!: a record made on the native engine replayed on the Python engine, whose
    definition then gave other scores, was called "identical final state (won by P2)" where the record
    said P1 had won: only the cards' places were compared."""
    from interpreter.engine import make_record, replay
    from interpreter.errors import RecordError
    rs = loads_ruleset(_SCORED, "scored.cards")
    s = new_game(rs, 2, seed=3)
    while legal_moves(s):
        apply(s, legal_moves(s)[0])
    record = make_record(s, "scored.cards")
    assert replay(rs, record).finished  # (as made)
    wrong = dict(record, final=dict(record["final"], scores=[v + 1 for v in record["final"]["scores"]]))
    with pytest.raises(RecordError, match=r"the cards lie as recorded, but the scores differ: the record says "):
        replay(rs, wrong)
    loser = [w for w in ("P1", "P2") if w not in record["final"]["winners"]]
    wrong = dict(record, final=dict(record["final"], winners=loser))
    with pytest.raises(RecordError, match=r"but the winners differ: the record says "):
        replay(rs, wrong)


_SCORED = """game scored "Scored"
players 2
deck d:
    suits S
    ranks 1..6
zone stock shared hidden
zone pile per player public
define score(p: player) = sum c in pile(p): c.order
winner most score
phase play "Play":
    rule take "Take":
        shuffle stock
        for each player p:
            move top(stock) to pile(p)
            move top(stock) to pile(p)
"""


FAMILY = """game fam "Families"
players 2..3
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone pile[3] shared public "piles"
zone hand per player owner
var chips(p: player): int = 10 + count(hand(p))
var last: zone
phase play "Play":
    rule setup "Setup":
        shuffle stock
        deal 2 from stock to each hand
        move top(stock, 2) to pile(1) face up
    rule turns "Turns":
        for each player p:
            choose by p:
                action put z in zones(pile) where z.index > 1 and count(z) == 0:
                    move top(hand(p)) to z
                    set last = z
                    set chips(p) = chips(p) - z.index
                action pass_turn:
                    pass
    rule judge "Judge":
        declare winner (highest p in players where chips(p) >= 10)
define wealth(p: player) = chips(p)
winner most wealth
"""


def test_zone_families_per_player_variables_and_declared_winners():
    from interpreter.engine import observe, public_vars
    rs = loads_ruleset(FAMILY, "fam.cards")
    s = new_game(rs, 2, seed=3)
    view = observe(s, 0)
    assert set(view["zones"]["pile"]) == {"1", "2", "3"}
    assert len(view["zones"]["pile"]["1"]["cards"]) == 2 and view["zones"]["pile"]["2"]["cards"] == []
    assert public_vars(s)["chips"] == {"P1": 10, "P2": 10}  # initialised before the deal
    assert {str(m) for m in legal_moves(s)} == {"put pile2", "put pile3", "pass_turn"}
    apply(s, "put pile3")
    assert public_vars(s)["chips"]["P1"] == 7 and public_vars(s)["last"] == "pile3"
    assert {str(m) for m in legal_moves(s)} == {"put pile2", "pass_turn"}
    apply(s, "pass_turn")
    assert s.finished
    # the declared winner (the highest seat with 10 chips or more) overrides the score rule
    assert outcome(s).winners == (1,) and outcome(s).scores == (7, 10)


def test_a_per_player_variable_needs_a_player():
    bad = FAMILY.replace("set chips(p) = chips(p) - z.index", "set chips = 3")
    with pytest.raises(Exception, match="one value per player"):
        loads_ruleset(bad, "fam.cards")


def test_those_filters_a_collection_and_positions_fill_zone_families():
    from interpreter.engine import position
    rs = loads_ruleset(FAMILY.replace(
        "declare winner (highest p in players where chips(p) >= 10)",
        "declare winner (those p in players where chips(p) >= 10)"), "fam.cards")
    s = position(rs, 3, "play", zones={"pile": {2: ["1-Red"], 3: ["2-Red"]}, "hand": {0: ["3-Red"]}})
    # piles 2 and 3 are taken, so the first player can only pass
    assert {str(m) for m in legal_moves(s)} == {"pass_turn"}
    for _ in range(3):
        apply(s, "pass_turn")
    assert outcome(s).winners == (0, 1, 2)  # everyone still has 10 chips or more


def test_a_variant_adds_a_definition_only_when_it_says_new(tmp_path):
    from interpreter import load_ruleset
    from interpreter.errors import RulesetError
    (tmp_path / "base.cards").write_text(FAMILY)
    (tmp_path / "v.cards").write_text('variant v of "base.cards"\nnew define rich(p: player) = chips(p) > 20\n')
    rs = load_ruleset(tmp_path / "v.cards")
    assert [c.action for c in rs.changes] == ["added"]
    (tmp_path / "w.cards").write_text('variant w of "base.cards"\ndefine rich(p: player) = chips(p) > 20\n')
    with pytest.raises(RulesetError, match="overrides nothing.*write 'new define rich"):
        load_ruleset(tmp_path / "w.cards")
    (tmp_path / "x.cards").write_text('variant x of "base.cards"\nnew define wealth(p: player) = 1\n')
    with pytest.raises(RulesetError, match="is not new"):
        load_ruleset(tmp_path / "x.cards")


def test_ranges_as_action_domains_rank_arguments_and_random_choice():
    body = """    rule pick "Pick":
        let dealer = random(players)
        set turn = dealer
        choose by turn:
            action bet n in 1..3 where is_rank(card(1, Red), 1) or n == 3:
                pass"""
    text = MINI.replace("{body}", body).replace(
        "winner fewest points", "winner fewest points\ndefine is_rank(c: card, r: rank) = c.rank == r")
    rs = loads_ruleset(text, "mini.cards")
    seen = set()
    for seed in range(12):
        s = new_game(rs, 2, seed=seed)
        assert {str(m) for m in legal_moves(s)} == {"bet 1", "bet 2", "bet 3"}
        seen.add(s.actor)
        assert new_game(rs, 2, seed=seed).actor == s.actor  # chance is seeded
    assert seen == {0, 1}
    with pytest.raises(Exception, match="belongs in a statement"):
        loads_ruleset(text.replace("define is_rank(c: card, r: rank) = c.rank == r",
                                   "define lucky = random(players)"), "mini.cards")


def test_move_under_and_deal_to_a_family_of_zones():
    from interpreter.engine import observe
    text = FAMILY.replace("""        shuffle stock
        deal 2 from stock to each hand
        move top(stock, 2) to pile(1) face up""", """        deal 1 from stock to each pile face up
        move top(stock) under pile(1)
        move top(stock) to pile(2)""")
    s = new_game(loads_ruleset(text, "fam.cards"), 2, seed=1)
    piles = observe(s, 0)["zones"]["pile"]
    # unshuffled, the stock's top is its last card: 4-Blue, then 3-Blue, 2-Blue, 1-Blue, 4-Red
    assert piles["1"]["cards"] == ["1-Blue", "4-Blue"]  # 1-Blue was slid under
    assert piles["2"]["cards"] == ["3-Blue", "4-Red"]
    assert piles["3"]["cards"] == ["2-Blue"]


def test_a_deck_of_card_lines_with_identical_copies():
    rs = loads_ruleset(CLAIMS, "claims.cards")
    s = new_game(rs, 3)
    names = s.program.card_names
    assert len(names) == 13 and names.count("King-Red") == 1 and "1-Red#2" in names and "King-Blue" not in names


def test_several_players_decide_at_one_point_in_any_order():
    from interpreter.engine import deciders, moves_for
    rs = loads_ruleset(CLAIMS, "claims.cards")
    s = new_game(rs, 3)
    assert deciders(s) == [1, 2]
    assert {(m.player, str(m)) for m in legal_moves(s)} == {
        (p, t) for p in (1, 2) for t in ("claim 1", "claim 2", "pass")}
    apply(s, Move(2, "claim", "2"))  # the later seat answers first
    assert deciders(s) == [1] and [str(m) for m in moves_for(s, 1)] == ["claim 1", "claim 2", "pass"]
    with pytest.raises(IllegalMoveError, match="P2 must decide"):
        apply(s, Move(2, "pass", None))
    apply(s, Move(1, "claim", "2"))
    assert s.finished and outcome(s).winners == (1, 2)


MELDS = """game melds "Melds"
players 1
deck d:
    suits Red, Blue
    ranks 1..6
    copies 3
zone stock shared hidden
zone hand per player owner
define run(g: cards) = count(g) == 3 and (all c in g: c.suit == first(g).suit) and ((highest c in g).order - (lowest c in g).order) == 2 and (all c in g: (count d in g where d.order == c.order) == 1)
define book(g: cards) = count(g) >= 3 and (all c in g: c.rank == first(g).rank and c.suit == first(g).suit)
define pair(g: cards) = count(g) == 2 and first(g).rank == last(g).rank and first(g).suit == last(g).suit
define meld(g: cards) = run(g) or book(g)
define points(g: cards) = if book(g) then 10 else 1
define out(p: player) = split hand(p) into 2 meld of 3..4 and 1 pair of 2
define best(p: player) = split hand(p) into 2 meld of 3..4 and 1 pair of 2 by points
phase play "Play":
    pass
"""


def test_split_searches_for_a_partition_and_scores_the_best_one():
    from interpreter.engine import evaluate, position
    rs = loads_ruleset(MELDS, "melds.cards")

    def check(cards):
        s = position(rs, 1, "play", zones={"hand": {0: cards}})
        return evaluate(s, "out", 0), evaluate(s, "best", 0)
    # two runs and a pair
    assert check(["1-Red#1", "2-Red#1", "3-Red#1", "4-Blue#1", "5-Blue#1", "6-Blue#1", "6-Red#1", "6-Red#2"]) == (True, 3)
    # looks complete (8 cards, a pair, six in sequence) but the second 'run' repeats a card: no
    assert check(["1-Red#1", "2-Red#1", "3-Red#1", "3-Red#2", "4-Red#1", "4-Red#2", "6-Red#1", "6-Red#2"]) == (False, -1)
    # two interleaved runs of the same cards
    assert check(["2-Blue#1", "2-Blue#2", "1-Blue#1", "1-Blue#2", "3-Blue#1", "3-Blue#2", "4-Red#1", "4-Red#2"]) == (True, 3)
    # a book scores 10: book + run + pair
    assert check(["1-Red#1", "1-Red#2", "1-Red#3", "2-Blue#1", "3-Blue#1", "4-Blue#1", "6-Red#1", "6-Red#2"]) == (True, 12)
    # the same with a fourth card: a book of four (sizes 3..4), or a run 1-2-3 Red is impossible
    assert check(["1-Red#1", "1-Red#2", "1-Red#3", "2-Blue#1", "3-Blue#1", "4-Blue#1", "5-Blue#1",
                  "6-Red#1", "6-Red#2"]) == (False, -1)
    assert check(["5-Red#1", "5-Red#2", "1-Blue#1", "2-Blue#1", "3-Blue#1", "6-Red#1", "6-Red#2"]) == (False, -1)


def test_a_record_replays_moves_made_in_any_order_at_a_shared_decision():
    from interpreter.engine import make_record, replay, state_digest
    rs = loads_ruleset(CLAIMS, "claims.cards")
    s = new_game(rs, 3)
    apply(s, Move(2, "claim", "2"))
    apply(s, Move(1, "pass", None))
    again = replay(rs, make_record(s, None))
    assert state_digest(again) == state_digest(s) and outcome(again).winners == (2,)


def test_a_zone_or_nothing_is_a_collection_of_cards():
    text = FAMILY.replace("move top(stock, 2) to pile(1) face up",
                          "move (if count(stock) > 100 then hand(seat(1)) else []) to pile(1)")
    s = new_game(loads_ruleset(text, "fam.cards"), 2, seed=1)
    assert cards_in(s, "pile", 1) == []


# Two copies of a card look the same but are two cards: a group test that asks whether two
# cards are the same card must see the copies apart; one that looks only at suits and ranks
# may treat them as one (the meld search then learns once for every copy).
COPIES = """game copies "Copies"
players 1
deck d:
    suits Red, Blue
    ranks 1..3
    copies 2
zone stock shared hidden
zone hand per player owner
define twins(g: cards) = count(g) == 2 and first(g) != last(g) and first(g).rank == last(g).rank
define same(g: cards) = count(g) == 2 and first(g).rank == last(g).rank and first(g).suit == last(g).suit
define by_twins(p: player) = split hand(p) into 1 twins of 2 and 1 same of 2
define by_same(p: player) = split hand(p) into 2 same of 2
phase play "Play":
    pass
"""


@pytest.mark.parametrize("fast", [True, False])
def test_split_tells_copies_apart_when_the_group_test_does(fast):
    from interpreter.compiler import compile_ruleset
    from interpreter.engine import evaluate, position
    rs = loads_ruleset(COPIES, "copies.cards")
    for hand, paired in ((["1-Red#1", "1-Red#2", "2-Blue#1", "2-Blue#2"], True),
                         (["1-Red#1", "2-Red#1", "1-Blue#1", "2-Blue#2"], False)):
        s = position(rs, 1, "play", zones={"hand": {0: hand}})
        if not fast:
            s.program = compile_ruleset(rs, fast=False)
        assert evaluate(s, "by_same", 0) is paired
        assert evaluate(s, "by_twins", 0) is paired


ZONE_ARGS = """game zn "Zone names"
players 2..3
deck d:
    suits Red, Blue
    ranks 1..3
zone stock shared hidden
zone hand per player owner
zone pile per player public
phase play "Play":
    rule pick "Pick":
        choose by seat(1):
            action to z in zones(pile) "Put here.":
                pass
"""


def test_moves_name_zones_right_whatever_table_size_was_played_before():
    rs = loads_ruleset(ZONE_ARGS, "zn.cards")
    for n in (3, 2, 3):
        assert [str(m) for m in legal_moves(new_game(rs, n))] == [f"to pile-P{i}" for i in range(1, n + 1)]


def test_the_engine_shuffles_exactly_as_pythons_own_shuffle():
    """Saved games replay only if a seed deals the same cards: the engine's written-out shuffle
    must draw exactly as random.Random.shuffle does, for every length."""
    import random as _random

    from interpreter.engine.state import _SAME_SHUFFLE, _shuffle
    assert _SAME_SHUFFLE
    for seed in range(40):
        for n in (0, 1, 2, 3, 17, 52, 96, 120, 193):
            a, b = list(range(n)), list(range(n))
            _random.Random(seed).shuffle(a)
            _shuffle(_random.Random(seed).getrandbits, b)
            assert a == b


DEPTH = """game dig "Dig"
players 1
deck d:
    suits Red
    ranks 1..5
zone stock shared hidden
zone pile shared public
define under(c: card) = c.depth
phase play "Play":
    rule dig "Dig":
        choose by seat(1):
            action dig c in pile where c.depth == 2 "Take the card with two cards on it.":
                move c to stock
"""


@pytest.mark.parametrize("fast", [True, False])
def test_a_cards_depth_counts_the_cards_lying_on_it(fast):
    from interpreter.compiler import compile_ruleset
    from interpreter.engine import cards_in, evaluate, position, recompute_legal
    rs = loads_ruleset(DEPTH, "dig.cards")
    s = position(rs, 1, "play", zones={"pile": ["4-Red", "1-Red", "5-Red", "3-Red"], "stock": ["2-Red"]})
    if not fast:
        s.program = compile_ruleset(rs, fast=False)
        recompute_legal(s)
    assert [evaluate(s, "under", c) for c in ("4-Red", "1-Red", "5-Red", "3-Red", "2-Red")] == [3, 2, 1, 0, 0]
    assert [str(m) for m in legal_moves(s)] == ["dig 1-Red"]
    apply(s, "dig 1-Red")
    assert cards_in(s, "pile") == ["4-Red", "5-Red", "3-Red"] and cards_in(s, "stock") == ["2-Red", "1-Red"]
    assert evaluate(s, "under", "4-Red") == 2 and evaluate(s, "under", "1-Red") == 0
    with pytest.raises(RulesetError, match="face_up, depth"):
        loads_ruleset(DEPTH.replace("c.depth == 2", "c.deepness == 2"), "dig.cards")


DEALER = """game dealer "Dealer"
players 3
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone hand per player public
var dealer: player = seat(2)
phase play "Play":
    rule deal "Deal":
        deal 2 from stock to each hand {start}
        choose by dealer:
            action done:
                end game
"""


@pytest.mark.parametrize("start, first", [("", 0), ("starting after dealer", 2), ("starting from dealer", 1),
                                          ("starting after seat(3)", 0), ("starting from seat(3)", 2)])
def test_a_deal_can_begin_after_or_from_a_player(start, first):
    s = new_game(loads_ruleset(DEALER.format(start=start), "dealer.cards"), 3)
    hands = observe(s, 0)["zones"]["hand"]
    # unshuffled, the stock's top is its last card: 4-Blue, then 3-Blue, 2-Blue, 1-Blue, 4-Red, 3-Red
    order = [(first + i) % 3 for i in range(3)]
    assert hands[f"P{order[0] + 1}"]["cards"] == ["4-Blue", "3-Blue"]
    assert hands[f"P{order[1] + 1}"]["cards"] == ["2-Blue", "1-Blue"]
    assert hands[f"P{order[2] + 1}"]["cards"] == ["4-Red", "3-Red"]


def test_a_deal_starting_after_a_non_player_is_a_located_error():
    with pytest.raises(RulesetError, match=r"dealer.cards:11:55: error: what follows 'starting after' must be a player; '3' is a number"):
        loads_ruleset(DEALER.format(start="starting after 3"), "dealer.cards")
    with pytest.raises(RulesetError, match="only a per-player zone is dealt starting from a player"):
        loads_ruleset(FAMILY.replace("deal 2 from stock to each hand", "deal 1 from stock to each pile starting after seat(1)"),
                      "fam.cards")


RANKED = """game ranked "Ranked"
players 2
deck d:
    suits Red, Blue
    ranks 1..3
    order for Blue: 3, 2, 1
zone stock shared hidden
zone hand per player public
phase play "Play":
    rule deal "Deal":
        deal 3 from stock to each hand
        choose by seat(1):
            action low c in hand(seat(1)) where {low}:
                end game
            action high c in hand(seat(1)) where {high}:
                end game
"""


def _ranked(low="c.rank < 2", high="c > card(2, Red)"):
    rs = loads_ruleset(RANKED.format(low=low, high=high), "ranked.cards")
    return {str(m) for m in legal_moves(new_game(rs, 2))}


def test_cards_and_ranks_compare_by_their_suits_ranking():
    # unshuffled, the first player holds the Blues, which rank 3 (lowest), 2, 1 (highest)
    assert _ranked() == {"low 3-Blue", "high 1-Blue"}
    assert _ranked(low="2 > c.rank", high="c >= card(2, Red)") == {"low 3-Blue", "high 2-Blue", "high 1-Blue"}
    # a rank taken from a card is read in that card's suit: the left one's, here Blue, where 3 is lowest
    assert _ranked(low="c.rank <= card(3, Red).rank", high="card(3, Red) < c") == {"low 3-Blue"}
    assert _ranked(low="card(3, Red).rank >= c.rank", high="false") == {"low 3-Blue", "low 2-Blue", "low 1-Blue"}
    assert _ranked(low="c.rank > 3", high="c < top(hand(seat(2)))") == {"low 2-Blue", "low 1-Blue"}  # 1-Red is the lowest Red


def test_rank_comparisons_need_one_ranking_or_a_card():
    bare = RANKED.replace('phase play', 'define lower(r: rank, s: rank) = r < s\nphase play')
    with pytest.raises(RulesetError, match=r"ranked.cards:9:34: error: the suits of this deck rank differently"):
        loads_ruleset(bare.format(low="lower(c.rank, 2)", high="true"), "ranked.cards")
    uniform = bare.replace("    order for Blue: 3, 2, 1\n", "")
    rs = loads_ruleset(uniform.format(low="lower(c.rank, 2)", high="c > card(2, Red)"), "ranked.cards")
    assert {str(m) for m in legal_moves(new_game(rs, 2))} == {"low 1-Blue", "high 3-Blue"}
    with pytest.raises(RulesetError, match=r"> compares a card with a card, by their places in their suits' rankings; '2' is a number"):
        loads_ruleset(RANKED.format(low="true", high="c > 2"), "ranked.cards")
    with pytest.raises(RulesetError, match=r"< compares a rank with a rank; 'c.suit' is a suit"):
        loads_ruleset(RANKED.format(low="c.rank < c.suit", high="true"), "ranked.cards")


PAIRS = """game pairs "Pairs"
players 2
deck d:
    suits Red, Blue
    ranks 1..3
zone stock shared hidden
zone hand per player public
zone pile[3] shared public
phase play "Play":
    rule deal "Deal":
        deal 2 from stock to each hand
        choose by seat(1):
            action put c in hand(seat(1)), z in zones(pile) where c.order >= z.index or z.index == 3 "Put this card on that pile.":
                move c to z
                end game
            action swap c in hand(seat(1)), d in hand(seat(2)) where d.suit != c.suit and d.rank == c.rank:
                move c to hand(seat(2))
                move d to hand(seat(1))
                end game
            action pass:
                end game
"""


def test_an_action_with_two_parameters_offers_each_legal_pair_as_one_move():
    s = new_game(loads_ruleset(PAIRS, "pairs.cards"), 2)
    # unshuffled, the first player holds 3-Blue and 2-Blue (orders 2 and 1), the second 1-Blue and 3-Red
    assert [str(m) for m in legal_moves(s)] == [
        "put 3-Blue pile1", "put 3-Blue pile2", "put 3-Blue pile3", "put 2-Blue pile1", "put 2-Blue pile3",
        "swap 3-Blue 3-Red", "pass"]
    apply(s, "swap 3-Blue 3-Red")  # both names are bound in the body
    assert observe(s, 0)["zones"]["hand"] == {"P1": {"cards": ["2-Blue", "3-Red"]}, "P2": {"cards": ["1-Blue", "3-Blue"]}}
    t = new_game(loads_ruleset(PAIRS, "pairs.cards"), 2)
    apply(t, Move.parse("put 2-Blue pile3", 0))
    assert observe(t, 0)["zones"]["pile"]["3"]["cards"] == ["2-Blue"] and t.finished


def test_a_wrong_pair_is_explained():
    s = new_game(loads_ruleset(PAIRS, "pairs.cards"), 2)
    with pytest.raises(IllegalMoveError, match=r"P1 may not put 2-Blue pile2 now: rule 'deal' \(Deal\) says the card must "
                                               r"be in hand\(seat\(1\)\) and the zone must be in zones\(pile\) and satisfy"):
        apply(s, "put 2-Blue pile2")
    with pytest.raises(InvalidMoveError, match="action 'put' takes a card and a zone, written one after another: "
                                               "put 3-Blue pile1"):
        apply(s, "put 2-Blue")
    with pytest.raises(RulesetError, match=r"pairs.cards:13:44: error: action put: the parameter 'c' is named twice"):
        loads_ruleset(PAIRS.replace("z in zones(pile) where", "c in zones(pile) where"), "pairs.cards")


SECRET = """game secret "Secret"
players 3
deck d:
    suits Red, Blue
    ranks 1..3
zone stock shared hidden
zone hand per player owner
var bid(p: player): int = 0
var log: int = 0
phase play "Play":
    rule deal "Deal":
        deal 1 from stock to each hand
    rule bids "Bids":
        choose {how} by each p in players:
            action bid n in 1..3 "Bid this much.":
                set bid(p) = n
                set log = log * 10 + n
            action pass:
                set log = log * 10 + 9
    rule done "Done":
        end game
"""


def _bids(how="secretly"):
    return new_game(loads_ruleset(SECRET.format(how=how).replace("choose  by", "choose by"), "secret.cards"), 3)


def _move(s, player, text):
    return next(m for m in legal_moves(s) if m.player == player and str(m) == text)


def test_a_secret_choice_is_hidden_until_everyone_has_chosen_then_carried_out_in_order():
    from interpreter.engine import in_secret, public_vars
    s = _bids()
    assert in_secret(s) and {m.player for m in legal_moves(s)} == {0, 1, 2}
    views = {p: observe(s, p) for p in (0, 2)}
    apply(s, _move(s, 1, "bid 3"))  # P2 first
    # nothing shows: the others see exactly what they saw, their own moves included
    assert {p: observe(s, p) for p in (0, 2)} == views and public_vars(s)["bid"]["P2"] == 0
    apply(s, _move(s, 2, "pass"))
    apply(s, _move(s, 0, "bid 1"))
    # all chosen: carried out in the players' order (P1, P2, P3), whatever the order of choosing
    assert public_vars(s)["bid"] == {"P1": 1, "P2": 3, "P3": 0} and public_vars(s)["log"] == 139
    assert s.finished and not in_secret(s)
    assert [str(m) for m in s.history] == ["bid 3", "pass", "bid 1"]  # the record keeps the order of choosing
    again = _bids()
    for m in s.history:  # replayed move by move, each with its player
        apply(again, Move(m.player, m.action, m.arg))
    assert public_vars(again) == public_vars(s) and again.finished


def test_without_secretly_each_choice_is_carried_out_at_once():
    from interpreter.engine import in_secret, public_vars
    s = _bids("")
    assert not in_secret(s)
    apply(s, _move(s, 1, "bid 3"))
    assert public_vars(s)["bid"]["P2"] == 3 and public_vars(s)["log"] == 3


def test_a_search_player_cannot_see_a_sealed_choice():
    """Two games that differ only in what another player chose in secret: the same decision."""
    from interpreter.players.search import ISMCTSBot
    # the first player scores only by matching the second player's bid (a pass counts 0)
    rs = loads_ruleset(SECRET.format(how="secretly").replace("phase play", (
        "define score(p: player) = if p == seat(1) then (if bid(seat(1)) == bid(seat(2)) then 10 else 0) else bid(p)\n"
        "winner most score\nphase play")), "secret.cards")
    a, b = new_game(rs, 3), new_game(rs, 3)
    apply(a, _move(a, 1, "bid 3"))
    apply(b, _move(b, 1, "pass"))
    for s in (a, b):
        assert {m.player for m in legal_moves(s)} == {0, 2}
    assert ISMCTSBot(seed=4, iterations=60).choose(a) == ISMCTSBot(seed=4, iterations=60).choose(b)


@pytest.mark.parametrize("plain", [False, True])
def test_a_definition_takes_a_computed_set_or_a_zone_for_a_set_of_cards(plain):
    from interpreter.compiler import compile_ruleset
    from interpreter.engine import evaluate
    text = MINI.replace("define points(p: player) = count(hand(p))", (
        "define points(p: player) = count(hand(p))\n"
        "define ones(g: cards) = count c in g where c.rank == 1\n"
        "define reds(p: player) = ones(those c in hand(p) where c.suit == Red)\n"
        "define all_ones(p: player) = ones(hand(p))")).replace("        shuffle stock\n", "")
    program = compile_ruleset(loads_ruleset(text.replace("{body}", "    rule stop:\n        end game"), "mini.cards"),
                              fast=not plain)
    s = new_game(program, 2)
    # unshuffled: P1 holds 3-Blue, 2-Blue, 1-Blue; P2 holds 3-Red, 2-Red, 1-Red
    assert [evaluate(s, name, p) for name in ("reds", "all_ones") for p in (0, 1)] == [0, 1, 1, 1]


def test_a_card_offered_through_two_routes_is_one_move():
    """`hand(p) + pile` joins zones of two kinds, each card once; `hand(p) + hand(q)` is the same
    hand twice when q is p, and then each of its cards must still be offered only once."""
    s = game("""    rule pick "Pick":
        choose by turn:
            action take c in hand(turn) + hand(seat(1)) "Take a card.":
                move c to pile
        choose by turn:
            action give c in hand(turn) + pile "Give a card.":
                move c to hand(seat(2))""")
    hand = cards_in(s, "hand-P1")
    assert sorted(str(m) for m in legal_moves(s)) == sorted(f"take {c}" for c in hand)
    apply(s, f"take {hand[0]}")
    assert sorted(str(m) for m in legal_moves(s)) == sorted(f"give {c}" for c in hand)


def test_the_meld_search_finds_by_masks_the_groups_it_finds_by_testing_each():
    """The verdicts kept as bit masks (one first card, groups of three; a start and a last card
    otherwise) give the same groups as testing every combination, whatever was asked before."""
    import random
    from itertools import combinations

    from interpreter.compiler.runtime import _groups_by_combinations, _groups_by_masks, _triples
    rng = random.Random(9)
    for trial in range(20):
        salt = rng.random()
        def test(st, group, salt=salt):  # any verdict, a function of the cards alone
            return random.Random(hash((salt, group))).random() < 0.3
        table = {}
        for _ in range(60):
            cards = tuple(sorted(rng.choice(range(30)) for _ in range(rng.randrange(1, 12))))
            first, rest = cards[0], cards[1:]
            for size in range(1, min(5, len(cards)) + 1):
                want = _groups_by_combinations(None, test, first, rest, size)
                mask = twice = 0
                for c in rest:
                    twice |= mask & (1 << c)
                    mask |= 1 << c
                got = _triples(None, test, table, first, mask, twice) if size == 3 else \
                    _groups_by_masks(None, test, table, first, rest, size, mask)
                assert sorted(got) == sorted(want), (cards, size)
                assert len(set(got)) == len(got)
                assert all(g[0] == first and list(g[1:]) in [list(c) for c in combinations(rest, size - 1)] for g in got)


TABLES = """game tables "Definitions of one card as tables"
players 1
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone hand per player owner
var seen: bool = false
define high(c: card) = c.order > 1
define third(c: card) = 6 / (c.order - 1) > 2
define missing(c: card) = c == none
define top_high(p: player) = high(lowest c in hand(p))
define top_third(p: player) = third(highest c in hand(p))
define top_missing(p: player) = missing(lowest c in hand(p))
phase play "Play":
    rule look "Look":
        set seen = top_missing(seat(1))
        set seen = {test}
"""


@pytest.mark.parametrize("test", ["top_high(seat(1))", "top_third(seat(1))", "top_missing(seat(1))"])
def test_a_definition_of_one_card_as_a_table_fails_and_answers_as_its_call(test):
    """The fast path reads a definition of one card by its face from a table over the cards;
    one that fails for a card is called as before, and a card that is none fails (or not)
    with the same message."""
    from interpreter.compiler import compile_ruleset
    rs = loads_ruleset(TABLES.replace("{test}", test), "tables.cards")
    fast, plain = compile_ruleset(rs, fast=True), compile_ruleset(rs, fast=False)
    assert "TAB_high" in fast.namespace and "TAB_missing" in fast.namespace and "TAB_third" not in fast.namespace
    assert fast.namespace["TAB_missing"][None] is True and None not in fast.namespace["TAB_high"]
    assert not any(k.startswith("TAB_") for k in plain.namespace)
    outcomes = []
    for program in (fast, plain):
        try:
            s = new_game(program, 1)
            outcomes.append(("ok", s.finished))
        except GameRuntimeError as e:
            outcomes.append(("error", e.render()))
    assert outcomes[0] == outcomes[1]
    if test.startswith("top_missing"):
        assert outcomes[0][0] == "ok"
    else:
        assert outcomes[0][0] == "error" and "none here" in outcomes[0][1]


def test_split_sizes_may_be_any_collection_of_numbers():
    from interpreter.engine import evaluate, position
    text = MELDS.replace("meld of 3..4", "meld of (those k in 1..4 where k > 2)")
    rs = loads_ruleset(text, "melds.cards")
    s = position(rs, 1, "play", zones={"hand": {0: ["1-Red#1", "2-Red#1", "3-Red#1", "4-Blue#1", "5-Blue#1",
                                                   "6-Blue#1", "6-Red#1", "6-Red#2"]}})
    assert evaluate(s, "out", 0) is True and evaluate(s, "best", 0) == 3


def test_a_record_is_written_as_json_with_an_indent_of_1_writes_it(tmp_path):
    """The records file's text is json.dumps(..., indent=1)'s, written several times faster (a log
    of many games spent most of its time in json's pure-Python encoder)."""
    import json

    from interpreter.engine import make_record
    from interpreter.engine.records import write_record
    from interpreter.files import dumps_indented
    s = game("""    rule discard "Discard":
        choose by turn:
            action discard c in hand(turn):
                move c to pile""")
    apply(s, legal_moves(s)[0])
    many = {"format": "cardrules-records/1", "records": [make_record(s, "mini.cards"), make_record(s, None)]}
    write_record(many, tmp_path / "r.json")
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == json.dumps(many, indent=1) + "\n"
    odd = {"é": ["ü\n\"", 1.5, float("nan"), float("-inf"), -0.0, 10 ** 30, None, True, False], "": {}, "l": [],
           "n": [[], [{}], {"a": {"b": [1, {"c": 2}]}, "d": 3}], 1: "key", None: 2, 2.5: True}
    for indent in (1, 2, 4):
        assert dumps_indented(odd, indent) == json.dumps(odd, indent=indent)
    with pytest.raises(TypeError):
        dumps_indented({"x": {1, 2}}, 1)
