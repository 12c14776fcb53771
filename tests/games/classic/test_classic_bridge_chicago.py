"""Chicago, or four-deal bridge (rulesets/classic/bridge-chicago.cards, a variant of bridge.cards).

First a scenario per rule that changed: the vulnerability of each of the four deals, the deal
passing to the left, no premium for a part score, part scores carried over to a game and wiped
out by either side's game, the premium of 100 for a part score on the fourth deal, the slams, a
passed-out deal dealt again by the same dealer, and the end after four deals. Each scenario sets
up a deal whose thirteen tricks are taken and lets the score run.

Then whole Chicago games replayed deal by deal against OpenSpiel's bridge (the play with the
cards, use_double_dummy_result=false), each deal with its own dealer and vulnerability: the same
hands, the same legal calls and cards at every decision, and each deal's score equal to
OpenSpiel's duplicate score of the deal changed only where Chicago differs (no 50 for a part
score; a game completed from part scores; the 100 on the fourth deal)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from interpreter.engine import apply, cards_in, fired_counts, legal_moves, new_game, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "bridge-chicago.cards"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace"]
SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]
DENOM = {"Clubs": 1, "Diamonds": 2, "Hearts": 3, "Spades": 4, None: 5}
SYMBOL = {"♣": "Clubs", "♦": "Diamonds", "♥": "Hearts", "♠": "Spades"}
RANK = {"J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}
DECK = [f"{r}-{s}" for s in SUITS for r in RANKS]


rules = loader(RULESET)


def seats(v) -> tuple:
    return tuple(v[f"P{i}"] for i in range(1, 5))


def after_deal(level, trump, tricks, *, deal=1, dealer=0, declarer=0, below=(0, 0), total=(0, 0), doubled=False):
    """A deal of `deal_number` `deal` whose contract (`level` in `trump`, None for no trumps) by
    `declarer` has been played out, the declaring side taking `tricks`; North-South have
    `below[0]` standing towards game, East-West `below[1]`. The state after its score: the next
    deal's first call, or the end."""
    won = {declarer: DECK[:4 * tricks], (declarer + 1) % 4: DECK[4 * tricks:]}
    vars = {"level": level, "denomination": DENOM[trump], "trump": trump, "declarer": declarer, "doubled": doubled,
            "dealer": dealer, "deal_number": deal,
            "below": {p: below[p % 2] for p in range(4)}, "total": {p: total[p % 2] for p in range(4)}}
    return position(rules(), 4, "play", zones={"won": won}, vars=vars, rest="stock")


def result(s) -> tuple[int, int]:
    """North-South's total and their part score standing (East-West's are the opposite total)."""
    v = public_vars(s)
    return seats(v["total"])[0], seats(v["below"])[0]


# ================================================================== vulnerability, deal by deal

@pytest.mark.parametrize("deal,dealer,declarer,made,down", [
    (1, 0, 0, 420, -50),    # first deal: nobody vulnerable
    (2, 1, 0, 420, -50),    # second deal, East deals: North-South not vulnerable
    (2, 1, 1, 620, -100),   # ... East-West are
    (3, 2, 0, 620, -100),   # third deal, South deals: North-South vulnerable
    (3, 2, 3, 420, -50),    # ... East-West not
    (4, 3, 0, 620, -100),   # fourth deal: both vulnerable
    (4, 3, 1, 620, -100)])
def test_vulnerability_follows_the_deal(deal, dealer, declarer, made, down):
    sign = 1 if declarer % 2 == 0 else -1
    assert result(after_deal(4, "Spades", 10, deal=deal, dealer=dealer, declarer=declarer))[0] == sign * made
    assert result(after_deal(4, "Spades", 9, deal=deal, dealer=dealer, declarer=declarer))[0] == sign * down


def test_the_deal_passes_to_the_left_and_the_game_ends_after_four():
    s = after_deal(1, None, 7, deal=1, dealer=0)
    v = public_vars(s)
    assert v["deal_number"] == 2 and v["dealer"] == "P2" and not s.finished
    assert all(len(cards_in(s, "hand", p)) == 13 for p in range(4)) and all(cards_in(s, "won", p) == [] for p in range(4))
    assert {m.player for m in legal_moves(s)} == {1}  # the new dealer calls first
    s = after_deal(1, None, 7, deal=4, dealer=3, total=(500, -500))  # 40 + 100 on the fourth deal
    assert s.finished and fired_counts(s)["fourth_deal"] == 1
    assert outcome(s).scores == (640, -640, 640, -640) and outcome(s).winners == (0, 2)


@pytest.mark.parametrize("seed", range(2))
def test_a_game_is_four_deals_each_dealer_once(seed):
    s = new_game(rules(), 4, seed=seed)
    rng = random.Random(seed)
    dealers = []
    while not s.finished:
        v = public_vars(s)
        if not dealers or dealers[-1][0] != v["deal_number"]:
            dealers.append((v["deal_number"], v["dealer"]))
        moves = legal_moves(s)
        passes = [m for m in moves if str(m) == "pass"]
        apply(s, passes[0] if passes and rng.random() < 0.7 else rng.choice(moves))
    assert dealers == [(1, "P1"), (2, "P2"), (3, "P3"), (4, "P4")] or fired_counts(s)["passed_out"] > 0
    assert fired_counts(s)["the_end"] == 4 and fired_counts(s)["deal"] == 4 + fired_counts(s)["passed_out"]


# ================================================================== part scores and game

def test_a_part_score_earns_no_premium_and_stands_towards_game():
    assert result(after_deal(2, "Hearts", 9)) == (90, 60)         # 60 + 30, and 60 standing
    assert result(after_deal(1, "Hearts", 7, doubled=True)) == (110, 60)  # 60 + 50 for the double
    assert result(after_deal(3, None, 9)) == (400, 0)              # a game at once: 100 + 300


def test_part_scores_add_up_to_a_game():
    # 60 standing; two diamonds (40) on the second deal, East dealing: North-South not vulnerable
    assert result(after_deal(2, "Diamonds", 8, deal=2, dealer=1, below=(60, 0))) == (340, 0)
    # the same on the third deal, South dealing: vulnerable
    assert result(after_deal(2, "Diamonds", 8, deal=3, dealer=2, below=(60, 0))) == (540, 0)
    # 30 standing is not enough: the part scores add up
    assert result(after_deal(2, "Diamonds", 8, deal=2, dealer=1, below=(30, 0))) == (40, 70)


def test_a_game_wipes_out_the_other_sides_part_score():
    s = after_deal(3, None, 9, deal=2, dealer=1, declarer=1, below=(60, 40))
    v = public_vars(s)
    assert seats(v["below"]) == (0, 0, 0, 0) and seats(v["total"])[1] == 600  # East-West vulnerable


def test_a_failed_contract_leaves_the_part_scores():
    s = after_deal(4, "Hearts", 8, deal=1, dealer=0, declarer=1, below=(60, 40))
    assert result(s) == (100, 60) and seats(public_vars(s)["below"])[1] == 40


def test_a_part_score_on_the_fourth_deal_earns_100():
    assert result(after_deal(2, "Hearts", 8, deal=4, dealer=3)) == (160, 60)  # 60 + 100
    # ... whoever has a part score standing
    assert result(after_deal(2, "Hearts", 8, deal=4, dealer=3, below=(0, 90))) == (160, 60)
    # ... but a part score that completes a game earns the game's premium instead
    assert result(after_deal(2, "Hearts", 8, deal=4, dealer=3, below=(40, 0))) == (560, 0)


def test_slams_are_scored_as_before():
    assert result(after_deal(6, "Spades", 12))[0] == 980
    assert result(after_deal(7, None, 13, deal=4, dealer=3))[0] == 2220


# ================================================================== a deal passed out

def test_a_passed_out_deal_is_dealt_again_by_the_same_dealer():
    s = after_deal(1, None, 7, deal=1, dealer=0)  # second deal, East deals
    first = [sorted(cards_in(s, "hand", p)) for p in range(4)]
    for _ in range(4):
        apply(s, next(m for m in legal_moves(s) if str(m) == "pass"))
    v = public_vars(s)
    assert not s.finished and v["deal_number"] == 2 and v["dealer"] == "P2" and result(s) == (40, 40)
    assert fired_counts(s)["passed_out"] == 1 and fired_counts(s)["the_end"] == 1
    assert [sorted(cards_in(s, "hand", p)) for p in range(4)] != first
    assert {m.player for m in legal_moves(s)} == {1}


# ================================================================== the deals as OpenSpiel's bridge plays them

def _our_name(theirs, a: int) -> str:
    x = theirs.action_to_string(a)
    if a >= 52:
        if x in ("Pass", "Dbl", "RDbl"):
            return {"Pass": "pass", "Dbl": "double", "RDbl": "redouble"}[x]
        if x.endswith("NT"):
            return f"notrump {x[0]}"
        return f"{SYMBOL[x[1]].lower()} {x[0]}"
    return f"play {RANK.get(x[1:], x[1:])}-{SYMBOL[x[0]]}"


def _chicago(duplicate: int, v: dict, deal: int) -> int:
    """A deal's score for the declaring side, from OpenSpiel's duplicate score of it: the same,
    but a contract made for a part score earns no 50; it earns a game premium if it completes a
    game with the side's part score standing, or 100 on the fourth deal."""
    level, denom = v["level"], v["denomination"]
    mult = 4 if v["redoubled"] else 2 if v["doubled"] else 1
    points = (level * (20 if denom <= 2 else 30) + (10 if denom == 5 else 0)) * mult
    if duplicate <= 0 or points >= 100:
        return duplicate
    declarer = int(v["declarer"][1:]) - 1
    vul = deal == 4 or (deal >= 2 and declarer % 2 == (int(v["dealer"][1:]) - 1) % 2)
    standing = seats(v["below"])[declarer]
    return duplicate - 50 + ((500 if vul else 300) if standing + points >= 100 else 100 if deal == 4 else 0)


def _low_auction(rng, theirs, legal):
    """Random cards, but a quiet auction, so that many contracts are part scores and made: the
    first bid is one of the three lowest, later calls pass three times in four."""
    if legal[0] < 52:
        return rng.choice(legal)
    bids = [a for a in legal if a >= 55]
    if 52 in legal and (not bids or rng.random() < (0.75 if len(bids) < 35 else 0.5)):
        return 52
    return rng.choice(bids[:3])


# quiet auctions: 100 games in the default run, 300 with the slow tests
@pytest.mark.parametrize("policy,n_games", [("random", 25), ("quiet auctions", 100),
                                          pytest.param("quiet auctions", 300, marks=pytest.mark.slow)])
def test_chicago_games_deal_by_deal_against_openspiel(policy, n_games):
    pyspiel = pytest.importorskip("pyspiel")
    games = {}
    rng = random.Random(30)
    deals = passed = 0
    count = {"made": 0, "part score made": 0, "game from part scores": 0, "fourth-deal part score": 0}
    for seed in range(n_games):
        s = new_game(rules(), 4, seed=seed)
        totals = 0
        while not s.finished:
            v = public_vars(s)
            deal, dealer = v["deal_number"], int(v["dealer"][1:]) - 1
            key = (dealer, deal >= 2, deal == 4)
            if key not in games:
                games[key] = pyspiel.load_game("bridge", {"use_double_dummy_result": False, "dealer": dealer,
                                                          "dealer_vul": deal >= 2, "non_dealer_vul": deal == 4})
            theirs = games[key].new_initial_state()
            names = {theirs.action_to_string(a): a for a in range(52)}
            hands = [cards_in(s, "hand", p) for p in range(4)]
            for i in range(52):  # OpenSpiel deals round the table from North
                short = hands[i % 4][i // 4].split("-")
                symbol = next(k for k, x in SYMBOL.items() if x == short[1])
                theirs.apply_action(names[symbol + {"Jack": "J", "Queen": "Q", "King": "K", "Ace": "A"}.get(short[0], short[0])])
            last = v
            while not theirs.is_terminal():
                legal = theirs.legal_actions()
                assert {str(m): m.player for m in legal_moves(s)} == {_our_name(theirs, a): theirs.current_player() for a in legal}
                a = rng.choice(legal) if policy == "random" else _low_auction(rng, theirs, legal)
                last = public_vars(s)
                name = _our_name(theirs, a)
                apply(s, next(m for m in legal_moves(s) if str(m) == name))
                theirs.apply_action(a)
            returns = theirs.returns()
            now = seats(public_vars(s)["total"])[0] if not s.finished else outcome(s).scores[0]
            if last["level"] == 0 and all(x == 0 for x in returns):
                assert now == totals  # passed out: nothing scored
                passed += 1
                continue
            declarer = int(last["declarer"][1:]) - 1
            expected = _chicago(int(returns[declarer]), last, deal)
            count["made"] += returns[declarer] > 0
            count["part score made"] += 0 < expected < 300
            count["game from part scores"] += expected - returns[declarer] > 100
            count["fourth-deal part score"] += expected - returns[declarer] == 50 and deal == 4
            assert now - totals == (expected if declarer % 2 == 0 else -expected)
            totals = now
            deals += 1
        assert fired_counts(s)["the_end"] == 4
    assert deals == 4 * n_games
    if policy != "random":  # every kind of deal that Chicago scores its own way, and some passed out
        assert passed > n_games // 30 and all(n > n_games // 20 for n in count.values()), (passed, count)
