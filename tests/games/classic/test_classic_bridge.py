"""Contract Bridge (rulesets/classic/bridge.cards) against OpenSpiel's `bridge`.

OpenSpiel's default game (use_double_dummy_result=true, dealer 0, nobody vulnerable) ends with
the auction and scores the contract by a double-dummy solver; our ruleset plays the cards, as
OpenSpiel does with use_double_dummy_result=false. So:
- the auction of the default game is replayed call by call (the same legal calls at every
  decision), and its returns are checked against our scoring of the final contract for the
  double-dummy number of tricks, which OpenSpiel's own score table gives;
- the game with the play (use_double_dummy_result=false) is replayed move by move, auction and
  play, with every dealer and vulnerability: the same legal calls and cards, the same returns;
- random play on both sides gives the same statistics within sampling error.

Seats: OpenSpiel's North, East, South, West are our P1..P4 (seats 0..3). Calls map one to one:
Pass, Dbl, RDbl are our `pass`, `double`, `redouble`; '3♥' is our `hearts 3` and '3NT' our
`notrump 3`; a card '♥10' is our `play 10-Hearts`. When it is the dummy's turn OpenSpiel's
current player is the declarer, and so is ours."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from classic_stats import assert_same_statistics, random_games

from scenario import moves_of, play as do
from interpreter.engine import card_info, fired_counts, cards_in, evaluate, new_game, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "bridge.cards"
RANK = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
SUIT = {"♣": "Clubs", "♦": "Diamonds", "♥": "Hearts", "♠": "Spades", "C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
DENOM = {"Clubs": 1, "Diamonds": 2, "Hearts": 3, "Spades": 4}
DECK = [s + r for s in "CDHS" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]


rules = loader(RULESET)


def c(short: str) -> str:
    """'♠A' or 'SA' -> 'Ace-Spades', 'H10' -> '10-Hearts' (OpenSpiel's card strings, suit first)."""
    return f"{RANK.get(short[1:], short[1:])}-{SUIT[short[0]]}"


def call(openspiel: str) -> str:
    """OpenSpiel's call -> our move: 'Pass' -> 'pass', '2♥' -> 'hearts 2', '3NT' -> 'notrump 3'."""
    if openspiel in ("Pass", "Dbl", "RDbl"):
        return {"Pass": "pass", "Dbl": "double", "RDbl": "redouble"}[openspiel]
    if openspiel.endswith("NT"):
        return f"notrump {openspiel[0]}"
    return f"{SUIT[openspiel[1]].lower()} {openspiel[0]}"


def openspiel_name(s, a: int) -> str:
    x = s.action_to_string(a)
    return call(x) if a >= 52 else "play " + c(x)


def auction(hands, *, options=None):
    """A position at the start of the auction, `hands[seat]` as card strings ('SA', 'H10')."""
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}}
    return position(rules(), 4, "auction", zones=zones, vars={"dealer": (options or {}).get("dealer_seat", 1) - 1},
                    options=options, rest="stock")


def contract_position(hands, *, level, trump, declarer, doubled=False, redoubled=False, tricks=None, options=None):
    """A position at a lead in the play: the contract as given (trump None for no trumps),
    `tricks[seat]` taken already, made up of cards nobody holds."""
    zones = {"hand": {p: [c(x) for x in h] for p, h in enumerate(hands)}}
    spare = [c(x) for x in DECK if not any(x in h for h in hands)]
    zones["won"] = {}
    for p, n in enumerate(tricks or [0, 0, 0, 0]):
        zones["won"][p], spare = spare[:4 * n], spare[4 * n:]
    vars = {"level": level, "denomination": DENOM.get(trump, 5), "trump": trump, "declarer": declarer,
            "doubled": doubled or redoubled, "redoubled": redoubled,
            "dealer": (options or {}).get("dealer_seat", 1) - 1}
    return position(rules(), 4, "play", zones=zones, vars=vars, options=options, rest="stock")


HANDS = [[s + r for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]] for s in "CDHS"]
ALL_BIDS = {f"{s.lower()} {n}" for n in range(1, 8) for s in DENOM} | {f"notrump {n}" for n in range(1, 8)}


def bids_above(n: int, d: int) -> set[str]:
    return {f"{s.lower()} {m}" for m in range(1, 8) for s, e in DENOM.items() if (m, e) > (n, d)} | \
           {f"notrump {m}" for m in range(1, 8) if (m, 5) > (n, d)}


# ================================================================== the deal and the auction

@pytest.mark.parametrize("seed", range(3))
def test_the_deal_gives_thirteen_cards_each_and_the_dealer_calls_first(seed):
    s = new_game(rules(), 4, seed=seed)
    assert [len(cards_in(s, "hand", p)) for p in range(4)] == [13] * 4
    assert cards_in(s, "stock") == []
    assert s.rule == "call" and set(moves_of(s).values()) == {0}
    s = new_game(rules(), 4, seed=seed, options={"dealer_seat": 3})
    assert set(moves_of(s).values()) == {2}


def test_the_opening_call_is_a_pass_or_any_bid():
    s = auction(HANDS)
    assert set(moves_of(s)) == {"pass"} | ALL_BIDS


def test_a_bid_must_outrank_the_last_and_only_the_other_side_may_double():
    s = auction(HANDS)
    do(s, "hearts 2")
    assert moves_of(s) == {m: 1 for m in {"pass", "double"} | bids_above(2, 3)}
    do(s, "pass")
    assert set(moves_of(s)) == {"pass"} | bids_above(2, 3)  # South may not double partner's bid
    do(s, "pass")
    assert set(moves_of(s)) == {"pass", "double"} | bids_above(2, 3)  # West may double in the pass-out seat


def test_a_doubled_bid_may_be_redoubled_by_its_side_and_a_new_bid_cancels_the_double():
    s = auction(HANDS)
    do(s, "notrump 1")
    do(s, "double")
    assert set(moves_of(s)) == {"pass", "redouble"} | bids_above(1, 5)  # South, partner of the bidder
    do(s, "pass")
    assert set(moves_of(s)) == {"pass"} | bids_above(1, 5)  # West, partner of the doubler
    do(s, "pass")
    assert set(moves_of(s)) == {"pass", "redouble"} | bids_above(1, 5)  # North, the bidder
    do(s, "redouble")
    assert set(moves_of(s)) == {"pass"} | bids_above(1, 5)  # no double of a redouble
    do(s, "clubs 2")
    assert set(moves_of(s)) == {"pass", "double"} | bids_above(2, 1)
    v = public_vars(s)
    assert (v["level"], v["denomination"], v["doubled"], v["redoubled"], v["declarer"]) == (2, 1, False, False, "P2")


def test_seven_no_trumps_leaves_only_pass_double_and_redouble():
    s = auction(HANDS)
    do(s, "notrump 7")
    assert set(moves_of(s)) == {"pass", "double"}
    do(s, "double")
    assert set(moves_of(s)) == {"pass", "redouble"}


def test_four_passes_pass_the_hand_out():
    s = auction(HANDS)
    for _ in range(3):
        do(s, "pass")
    assert not s.finished
    do(s, "pass")
    assert s.finished and outcome(s).scores == (0, 0, 0, 0)


def test_three_passes_after_a_bid_end_the_auction_and_the_player_after_the_declarer_leads():
    s = auction(HANDS)
    do(s, "pass")
    do(s, "spades 1")  # East
    for _ in range(3):
        do(s, "pass")
    assert s.rule == "lead" and public_vars(s)["declarer"] == "P2"
    assert moves_of(s) == {f"play {c(x)}": 2 for x in HANDS[2]}  # South leads


def test_the_declarer_is_the_first_of_the_side_to_name_the_denomination():
    s = auction(HANDS)
    for x in ["hearts 1", "pass", "hearts 2", "pass", "pass", "pass"]:  # North then South bid hearts
        do(s, x)
    assert public_vars(s)["declarer"] == "P1"
    s = auction(HANDS)
    for x in ["clubs 1", "pass", "hearts 1", "pass", "clubs 2", "pass", "hearts 4", "pass", "pass", "pass"]:
        do(s, x)
    assert public_vars(s)["declarer"] == "P3"  # South named hearts first, though North bid last
    # a suit named first by the other side does not count
    s = auction(HANDS)
    for x in ["hearts 1", "hearts 2", "pass", "pass", "hearts 3", "pass", "pass", "pass"]:
        do(s, x)
    assert public_vars(s)["declarer"] == "P1"


# ================================================================== the play

MIXED = [["C2", "C9", "D4", "SA", "S3"],
         ["C3", "H5", "H6", "S2", "D2"],
         ["CA", "D3", "D9", "HK", "S9"],
         ["H2", "H3", "D5", "DA", "SK"]]


def test_the_dummy_is_shown_after_the_opening_lead_and_the_declarer_plays_its_cards():
    hands = [[s + r for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]] for s in "HSDC"]
    s = auction(hands)
    for x in ["spades 1", "pass", "pass", "pass"]:  # North declares, South is the dummy
        do(s, x)
    assert moves_of(s) == {f"play {c(x)}": 1 for x in hands[1]}  # East leads
    assert not any(card_info(s, c(x))["face_up"] for x in hands[2])
    do(s, "play Ace-Spades")
    assert all(card_info(s, c(x))["face_up"] for x in hands[2])  # the dummy's hand is on the table
    assert moves_of(s) == {f"play {c(x)}": 0 for x in hands[2]}  # the declarer plays from the dummy
    do(s, "play 2-Diamonds")
    assert moves_of(s) == {f"play {c(x)}": 3 for x in hands[3]}  # West plays his own cards
    do(s, "play 2-Clubs")
    assert moves_of(s) == {f"play {c(x)}": 0 for x in hands[0]}  # the declarer's own hand


def test_following_suit_is_compulsory_and_a_void_player_plays_anything():
    s = contract_position(MIXED, level=1, trump="Spades", declarer=3, tricks=[2, 2, 2, 2])
    do(s, "play 2-Clubs")  # North leads (after West, the declarer)
    assert set(moves_of(s)) == {"play 3-Clubs"}
    do(s, "play 3-Clubs")
    assert moves_of(s) == {"play Ace-Clubs": 2}
    do(s, "play Ace-Clubs")
    assert set(moves_of(s)) == {f"play {c(x)}" for x in MIXED[3]}


@pytest.mark.parametrize("trump,west,winner", [("Spades", "SK", 3), ("Spades", "DA", 2), ("Hearts", "H2", 3),
                                               ("Diamonds", "DA", 3), (None, "SK", 2), (None, "H2", 2)])
def test_the_highest_trump_wins_else_the_highest_card_of_the_suit_led(trump, west, winner):
    s = contract_position(MIXED, level=1, trump=trump, declarer=3, tricks=[2, 2, 2, 2])
    for x in ["C2", "C3", "CA", west]:
        do(s, f"play {c(x)}")
    assert len(cards_in(s, "won", winner)) == 12
    assert public_vars(s)["leader"] == f"P{winner + 1}"


# ================================================================== the score

def score(level, trump, t, *, doubled=False, redoubled=False, vulnerable=False, declarer=0):
    """Our score for the declaring side: `level` in `trump` (None: no trumps), `t` tricks taken."""
    opts = {"dealer_vulnerable": vulnerable} if declarer % 2 == 0 else {"non_dealer_vulnerable": vulnerable}
    s = contract_position(MIXED, level=level, trump=trump, declarer=declarer, doubled=doubled, redoubled=redoubled,
                          tricks=[2, 2, 2, 2], options=opts)
    return evaluate(s, "declarer_score", t)


@pytest.mark.parametrize("contract,t,vul,expected", [
    ((4, "Spades"), 11, False, 450), ((3, None), 9, False, 400), ((3, None), 9, True, 600),
    ((2, "Diamonds"), 8, False, 90), ((1, None), 7, False, 90), ((5, "Clubs"), 11, True, 600),
    ((6, "Hearts"), 12, False, 980), ((6, "Hearts"), 13, True, 1460), ((7, None), 13, True, 2220),
    ((4, "Hearts"), 8, False, -100), ((4, "Hearts"), 8, True, -200), ((7, "Clubs"), 0, True, -1300)])
def test_undoubled_contracts(contract, t, vul, expected):
    assert score(*contract, t, vulnerable=vul) == expected


@pytest.mark.parametrize("contract,t,vul,dbl,expected", [
    ((2, "Diamonds"), 8, False, 1, 180), ((2, "Diamonds"), 9, False, 1, 280), ((2, "Diamonds"), 9, True, 1, 380),
    ((2, "Diamonds"), 8, False, 2, 560), ((1, None), 8, True, 2, 1160),
    ((4, "Spades"), 9, False, 1, -100), ((4, "Spades"), 8, False, 1, -300), ((4, "Spades"), 7, False, 1, -500),
    ((4, "Spades"), 6, False, 1, -800), ((4, "Spades"), 9, True, 1, -200), ((4, "Spades"), 7, True, 1, -800),
    ((4, "Spades"), 8, False, 2, -600), ((4, "Spades"), 8, True, 2, -1000),
    ((7, None), 0, False, 2, -7000), ((7, None), 0, True, 2, -7600), ((7, None), 13, True, 2, 2980)])
def test_doubled_and_redoubled_contracts(contract, t, vul, dbl, expected):
    assert score(*contract, t, vulnerable=vul, doubled=dbl == 1, redoubled=dbl == 2) == expected


def test_the_defenders_score_the_opposite_and_vulnerability_follows_the_dealer():
    # East (not the dealer's side) declares 1 no trumps and goes one down, vulnerable
    hands = [["C2"], ["SA"], ["C4"], ["C5"]]
    s = contract_position(hands, level=1, trump=None, declarer=1, tricks=[4, 3, 3, 2],
                          options={"non_dealer_vulnerable": True})
    for x in ["C4", "C5", "C2", "SA"]:  # South leads
        do(s, f"play {c(x)}")
    assert s.finished and outcome(s).scores == (100, -100, 100, -100) and outcome(s).winners == (0, 2)
    s = contract_position(hands, level=1, trump=None, declarer=1, tricks=[4, 3, 3, 2],
                          options={"dealer_vulnerable": True})
    for x in ["C4", "C5", "C2", "SA"]:
        do(s, f"play {c(x)}")
    assert outcome(s).scores == (50, -50, 50, -50)


# ================================================================== the same game as OpenSpiel's

def _game(**params):
    pyspiel = pytest.importorskip("pyspiel")
    return pyspiel.load_game("bridge", params)


def test_openspiels_parameters():
    game = _game()
    assert game.get_type().parameter_specification == {
        "dealer": 0, "dealer_vul": False, "non_dealer_vul": False, "num_tricks_in_observation": 2,
        "use_double_dummy_result": True}


def _deal(s, rng):
    hands = [[], [], [], []]
    dealt = 0
    while s.is_chance_node():
        a = rng.choice([a for a, _ in s.chance_outcomes()])
        hands[dealt % 4].append(s.action_to_string(a).replace("♣", "C").replace("♦", "D").replace("♥", "H").replace("♠", "S"))
        dealt += 1  # OpenSpiel deals round the table from North
        s.apply_action(a)
    return hands


def _replay(game, rng, options):
    """One of OpenSpiel's random games replayed in ours, decision by decision; both states."""
    theirs = game.new_initial_state()
    ours = auction(_deal(theirs, rng), options=options)
    n = 0
    while not theirs.is_terminal():
        legal = theirs.legal_actions()
        expected = {openspiel_name(theirs, a): theirs.current_player() for a in legal}
        assert moves_of(ours) == expected
        a = rng.choice(legal)
        do(ours, openspiel_name(theirs, a))
        theirs.apply_action(a)
        n += 1
    return theirs, ours, n


@pytest.mark.parametrize("dealer,dealer_vul,non_dealer_vul,games", [
    (0, False, False, 600), (1, True, False, 150), (2, False, True, 150), (3, True, True, 150)])
def test_openspiels_games_with_the_play_replayed_move_by_move(dealer, dealer_vul, non_dealer_vul, games):
    game = _game(use_double_dummy_result=False, dealer=dealer, dealer_vul=dealer_vul, non_dealer_vul=non_dealer_vul)
    options = {"dealer_seat": dealer + 1, "dealer_vulnerable": dealer_vul, "non_dealer_vulnerable": non_dealer_vul}
    rng = random.Random(30 + dealer)
    for _ in range(games):
        theirs, ours, _ = _replay(game, rng, options)
        assert ours.finished
        assert tuple(float(x) for x in outcome(ours).scores) == tuple(theirs.returns())


def test_openspiels_default_game_auction_replayed_and_scored_for_the_double_dummy_tricks():
    """The default game: the same calls at every decision; when OpenSpiel's auction ends, ours
    goes on to the play. OpenSpiel's return is our score of the final contract for the number of
    tricks the double-dummy table gives the declarer, read off OpenSpiel's score for one of the
    same denomination by the same declarer, undoubled."""
    game = _game()
    rng = random.Random(7)
    for _ in range(6):  # the solver takes most of a second a deal
        theirs, ours, _ = _replay(game, rng, None)
        v = public_vars(ours)
        if v["level"] == 0:
            assert ours.finished and theirs.returns() == [0.0] * 4
            continue
        assert ours.rule == "lead"
        declarer = int(v["declarer"][1:]) - 1
        denom = v["denomination"] - 1 if v["denomination"] < 5 else 4
        # OpenSpiel's contract index: level, denomination, declarer, double state (0 is passed out)
        index = 1 + (((v["level"] - 1) * 5 + denom) * 4 + declarer) * 3 + (2 if v["redoubled"] else 1 if v["doubled"] else 0)
        assert theirs.contract_index() == index
        one_level = 1 + (denom * 4 + declarer) * 3
        sign = 1 if declarer % 2 == 0 else -1
        table = theirs.score_by_contract()  # North-South's score for every contract
        trump = v["trump"]
        ones = [t for t in range(14) if score(1, trump, t, declarer=declarer) == sign * table[one_level]]
        assert len(ones) == 1  # one level undoubled tells the tricks apart
        ours_score = evaluate(ours, "declarer_score", ones[0])
        assert theirs.returns()[declarer] == ours_score and sign * table[index] == ours_score


OPENSPIEL_GAMES = 2000
OUR_GAMES = 2000


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    game = _game(use_double_dummy_result=False)
    rng = random.Random(20240531)
    theirs = []
    for _ in range(OPENSPIEL_GAMES):
        s = game.new_initial_state()
        _deal(s, rng)
        n = 0
        while not s.is_terminal():
            s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        theirs.append((tuple(s.returns()), n, sum(1 for a in s.history()[52:] if a >= 52)))
    ours = []
    rng = random.Random(8)
    for s, n in random_games(rules(), 4, OUR_GAMES, rng):
        ours.append((tuple(float(x) for x in outcome(s).scores), n, fired_counts(s)["call"]))
    stats = [("decisions", lambda g: g[1]), ("North-South mean return", lambda g: g[0][0]),
             ("North-South ahead", lambda g: 1.0 if g[0][0] > 0 else 0.0),
             ("calls in the auction", lambda g: g[2])]
    assert_same_statistics(ours, theirs, stats)
