"""Dou Dizhu (rulesets/classic/dou-dizhu.cards) against OpenSpiel's `dou_dizhu` (no parameters).

First one small game per rule (the deal and the face-up card, the auction, the spare cards, each
kind of combination, beating a play, bombs and the rocket, a new lead after two passes, the end
of the game and its stake: bombs, the spring); then hands made up to hold every kind of play,
including the airplanes random play never reaches, with our legal moves compared to OpenSpiel's
from the same deal; then OpenSpiel's own random games replayed move by move in our ruleset (the
same legal moves at every decision, the same returns at the end), and statistics of our own
random games against OpenSpiel's.

Cards: OpenSpiel's card c < 52 is rank c % 13 (3, 4, ..., King, Ace, 2) of suit c // 13 (clubs,
diamonds, hearts, spades); 52 and 53 are the black and the red joker. OpenSpiel first picks a
position 0..50 for the face-up card, then deals 51 cards, card i to player i % 3; the three left
over are the spare cards. Our games are set up from the same deal with `engine.position` at the
auction. Moves are compared by what OpenSpiel prints for them: the ranks played, lowest first
("34567", "(BWJ)(CJ)"), an airplane's chain, a dash and its added cards ("333444-56"), "Bid 2",
"Pass". Ours name the kind of play and its ranks ("chain 3 5": a chain of five from the Three);
an airplane that carries cards is one move for the chain ("airplane_singles 3 2") and then one
move per rank added, lowest first ("add 5", "add 6"), so OpenSpiel's "333444-56" is three of our
moves: `plays_of` follows every way to finish such a play and names the whole play."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

from classic_stats import mean_se
from interpreter import load_ruleset
from interpreter.engine import apply, cards_in, fired_counts, legal_moves, new_game, observe, outcome, position, public_vars

RULESET = Path(__file__).resolve().parent.parent / "rulesets" / "classic" / "dou-dizhu.cards"
RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace", "2", "BlackJoker", "RedJoker"]
SHOWN = list("3456789TJQKA2") + ["(BWJ)", "(CJ)"]  # how OpenSpiel prints each rank
LETTER = "3456789TJQKA2BR"  # our shorthand in these tests: B and R for the jokers
SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]


@cache
def rules():
    return load_ruleset(RULESET)


def card(c: int) -> str:
    """OpenSpiel's card c as our card's name."""
    if c >= 52:
        return ("BlackJoker", "RedJoker")[c - 52] + "-Jokers"
    return f"{RANKS[c % 13]}-{SUITS[c // 13]}"


def index(name: str) -> int:
    rank, suit = name.split("-")
    return 52 + ("BlackJoker", "RedJoker").index(rank) if suit == "Jokers" else SUITS.index(suit) * 13 + RANKS.index(rank)


def hands(*texts: str) -> list[list[str]]:
    """Hands by rank letters ('333456'), each card of a rank taking the next suit not yet used
    in any of the hands, so that together they are distinct cards of the pack."""
    used = {r: 0 for r in LETTER}
    out = []
    for text in texts:
        cards = []
        for r in text:
            rank = RANKS[LETTER.index(r)]
            cards.append(f"{rank}-Jokers" if r in "BR" else f"{rank}-{SUITS[used[r]]}")
            used[r] += 1
        out.append(cards)
    return out


def rest_of_pack(*hs: list[str]) -> list[str]:
    taken = {c for h in hs for c in h}
    return [card(c) for c in range(54) if card(c) not in taken]


def _shown(counts, chain=None) -> str:
    text = "".join(SHOWN[i] * n for i, n in enumerate(counts))
    return text if chain is None else "".join(SHOWN[i] * n for i, n in enumerate(chain)) + "-" + text


def shown(m) -> str:
    """A move that is a whole play, as OpenSpiel prints it."""
    args = m.arg.split() if m.arg else []
    if m.action in ("pass", "no_bid"):
        return "Pass"
    if m.action == "bid":
        return f"Bid {args[0]}"
    ranks = [RANKS.index(a) for a in args if a in RANKS]
    counts = [0] * 15
    if m.action == "rocket":
        return "(BWJ)(CJ)"
    if m.action in ("solo", "pair", "trio", "bomb"):
        counts[ranks[0]] = ("solo", "pair", "trio", "bomb").index(m.action) + 1
    elif m.action in ("chain", "pairs", "airplane"):
        for i in range(ranks[0], ranks[0] + int(args[1])):
            counts[i] = ("chain", "pairs", "airplane").index(m.action) + 1
    elif m.action in ("trio_single", "trio_pair"):
        counts[ranks[0]], counts[ranks[1]] = 3, (1 if m.action == "trio_single" else 2)
    else:
        raise ValueError(f"{m} is not a whole play")
    return _shown(counts)


def plays_of(s) -> dict[str, list]:
    """Our legal plays, by OpenSpiel's name for them, each with the moves that make it: one
    move, or for an airplane carrying cards, the airplane and then each rank added."""
    out = {}
    for m in legal_moves(s):
        if m.action.startswith("airplane_"):
            head, n = RANKS.index(m.arg.split()[0]), int(m.arg.split()[1])
            chain = [3 if head <= i < head + n else 0 for i in range(15)]
            width = 1 if m.action == "airplane_singles" else 2

            def extend(state, path, added):
                if len(added) == n:
                    counts = [0] * 15
                    for k in added:
                        counts[k] += width
                    out[_shown(counts, chain)] = path
                    return
                for a in legal_moves(state):
                    assert a.action == "add" and a.player == m.player
                    nxt = state.clone()
                    apply(nxt, a)
                    extend(nxt, path + [a], added + [RANKS.index(a.arg)])

            first = s.clone()
            apply(first, m)
            extend(first, [m], [])
        else:
            name = shown(m)
            assert name not in out
            out[name] = [m]
    return out


def moves_of(s) -> dict[str, object]:
    """Our legal moves, each a whole play, by OpenSpiel's name for them (each name once)."""
    ms = legal_moves(s)
    out = {shown(m): m for m in ms}
    assert len(out) == len(ms)
    return out


def names(s) -> set[str]:
    return {str(m) for m in legal_moves(s)}


def play(s, *moves: str) -> None:
    for name in moves:
        apply(s, next(m for m in legal_moves(s) if str(m) == name))


def chips(s) -> tuple[int, int, int]:
    c = public_vars(s)["chips"]
    return c["P1"], c["P2"], c["P3"]


def auction(h1: str, h2: str, h3: str, opener: int = 0):
    """A game at the start of the auction: the three hands of 17 cards, the spare cards the rest."""
    hs = hands(h1, h2, h3)
    return position(rules(), 3, "auction", zones={"hand": dict(enumerate(hs)), "kitty": rest_of_pack(*hs)},
                    vars={"opener": opener}, shuffle=False)


def at_play(h1: str, h2: str, h3: str, landlord: int = 0, bid: int = 1, to_play: int | None = None, **table):
    """A game in the play: the hands as given (the landlord's with the spare cards), the stake the
    bid, `to_play` to play (the landlord if not said) with the table as `table` sets it (no
    play to beat if not said); the cards not in a hand lie on the table."""
    hs = hands(h1, h2, h3)
    vars = {"landlord": landlord, "high_bid": bid, "stake": bid, "to_play": landlord if to_play is None else to_play}
    vars.update(table)
    return position(rules(), 3, "play", zones={"hand": dict(enumerate(hs))}, rest="table", vars=vars, shuffle=False)


# ================================================================== the deal and the auction

@pytest.mark.parametrize("seed", range(3))
def test_the_deal(seed):
    s = new_game(rules(), 3, seed=seed)
    held = [cards_in(s, "hand", p) for p in range(3)]
    assert [len(h) for h in held] == [17, 17, 17] and len(cards_in(s, "kitty")) == 3
    opener = public_vars(s)["opener"]
    seat = int(opener[1]) - 1
    assert names(s) == {"no_bid", "bid 1", "bid 2", "bid 3"} and {m.player for m in legal_moves(s)} == {seat}
    seen = observe(s, (seat + 1) % 3)["zones"]["hand"][opener]["known"]  # the face-up card: the opener's, seen by all
    assert len(seen) == 1 and seen[0] in held[seat]


def test_a_bid_of_three_ends_the_auction_and_the_landlord_takes_the_spare_cards():
    s = auction("3" * 4 + "4" * 4 + "5" * 4 + "6" * 4 + "7", "8" * 4 + "9" * 4 + "T" * 4 + "J" * 4 + "7",
                "Q" * 4 + "K" * 4 + "A" * 4 + "2" * 4 + "7", opener=1)
    assert {m.player for m in legal_moves(s)} == {1}
    play(s, "bid 3")
    assert len(cards_in(s, "hand", 1)) == 20 and cards_in(s, "kitty") == []
    assert observe(s, 0)["zones"]["hand"]["P2"]["known"] == []  # the spare cards are not shown
    assert public_vars(s)["landlord"] == "P2" and public_vars(s)["stake"] == 3
    assert {m.player for m in legal_moves(s)} == {1} and "pass" not in names(s)  # the landlord leads


def test_bids_must_rise_and_two_passes_after_a_bid_end_the_auction():
    s = auction("3" * 4 + "4" * 4 + "5" * 4 + "6" * 4 + "7", "8" * 4 + "9" * 4 + "T" * 4 + "J" * 4 + "7",
                "Q" * 4 + "K" * 4 + "A" * 4 + "2" * 4 + "7")
    play(s, "bid 1")
    assert names(s) == {"no_bid", "bid 2", "bid 3"}
    play(s, "no_bid", "no_bid")
    assert public_vars(s)["landlord"] == "P1" and public_vars(s)["stake"] == 1
    assert len(cards_in(s, "hand", 0)) == 20


def test_a_player_who_passed_may_bid_again():
    s = auction("3" * 4 + "4" * 4 + "5" * 4 + "6" * 4 + "7", "8" * 4 + "9" * 4 + "T" * 4 + "J" * 4 + "7",
                "Q" * 4 + "K" * 4 + "A" * 4 + "2" * 4 + "7")
    play(s, "no_bid", "bid 1", "no_bid")
    assert {m.player for m in legal_moves(s)} == {0} and names(s) == {"no_bid", "bid 2", "bid 3"}
    play(s, "bid 2", "no_bid", "no_bid")
    assert public_vars(s)["landlord"] == "P1" and public_vars(s)["stake"] == 2


def test_three_passes_void_the_deal():
    s = auction("3" * 4 + "4" * 4 + "5" * 4 + "6" * 4 + "7", "8" * 4 + "9" * 4 + "T" * 4 + "J" * 4 + "7",
                "Q" * 4 + "K" * 4 + "A" * 4 + "2" * 4 + "7", opener=2)
    play(s, "no_bid", "no_bid", "no_bid")
    assert s.finished and chips(s) == (0, 0, 0) and fired_counts(s)["turn"] == 0


# ================================================================== the combinations

def test_what_a_leader_may_play():
    s = at_play("3334445556789TJQK", "88", "99")
    got = names(s)
    assert {"solo 3", "pair 3", "trio 3", "chain 3 5", "chain 3 11", "chain 9 5", "pairs 3 3",
            "airplane 3 2", "airplane 3 3", "trio_single 3 4", "trio_pair 3 4", "airplane_singles 3 2",
            "airplane_singles 4 2", "airplane_singles 3 3"} <= got
    assert "airplane_pairs 3 2" not in got  # one pair only outside the chain, the Fives
    whole = set(plays_of(s))
    assert {"333444-56", "333444-55", "444555-33", "444555-67", "333444555-678"} <= whole
    assert "333444-5566" not in whole  # one Six only
    assert "pass" not in got and "chain 3 12" not in got and "bomb 3" not in got
    assert "chain 10 5" not in got  # 10 J Q K A: no Ace
    assert "333444555-555" not in whole  # the Fives are in the chain


def test_chains_stop_at_the_ace():
    s = at_play("TJQKA2", "88", "99")
    assert "chain 10 5" in names(s) and "chain 10 6" not in names(s) and not any(n.startswith("chain Jack") for n in names(s))


def test_a_chain_does_not_start_on_a_rank_held_four_times():
    s = at_play("33334567899", "88", "99")
    assert "chain 4 5" in names(s) and "chain 4 6" in names(s) and not any(n.startswith("chain 3 ") for n in names(s))
    assert "bomb 3" in names(s) and "trio_single 3 4" in names(s)
    s = at_play("333344455566", "88", "99")  # no plain airplane from the Threes, but one with added cards
    assert "airplane 4 2" in names(s) and "airplane 3 2" not in names(s)
    assert {"333444-55", "333444-56", "333444-66"} <= set(plays_of(s))
    assert "333444-35" not in set(plays_of(s))  # the fourth Three is of a rank in the chain


def test_following_needs_the_same_kind_and_size_and_a_higher_rank():
    s = at_play("456789", "55667789TJQKA", "3", landlord=0)
    play(s, "chain 4 5")
    assert names(s) == {"pass", "chain 5 5", "chain 6 5", "chain 7 5", "chain 8 5", "chain 9 5", "chain 10 5"}
    play(s, "chain 6 5")
    assert names(s) == {"pass"}  # P3 holds one card


def test_a_bomb_beats_anything_but_a_higher_bomb_and_doubles_the_stake():
    s = at_play("KKQ", "3333J", "AAAA5", landlord=0, bid=2)
    play(s, "pair King")
    assert names(s) == {"pass", "bomb 3"}
    play(s, "bomb 3")
    assert public_vars(s)["stake"] == 4
    assert names(s) == {"pass", "bomb Ace"}
    play(s, "bomb Ace", "pass")
    assert names(s) == {"pass"}  # the Jack does not beat a bomb
    play(s, "pass")
    assert public_vars(s)["stake"] == 8 and {m.player for m in legal_moves(s)} == {2}
    assert "pass" not in names(s) and names(s) == {"solo 5"}  # a new lead


def test_the_rocket_beats_everything_and_a_bomb_may_follow_it():
    s = at_play("BR3", "22225", "44", landlord=0)
    assert "rocket" in names(s)
    play(s, "rocket")
    assert public_vars(s)["stake"] == 2 and names(s) == {"pass", "bomb 2"}
    play(s, "bomb 2")
    assert public_vars(s)["stake"] == 4 and names(s) == {"pass"}


def test_two_passes_give_the_lead_to_the_last_player():
    s = at_play("3A9", "45", "67", landlord=0)
    play(s, "solo 3", "solo 5", "solo 7", "solo Ace", "pass", "pass")
    assert {m.player for m in legal_moves(s)} == {0} and names(s) == {"solo 9"}


def test_trios_with_added_cards_follow_only_the_same_kind():
    s = at_play("33345", "444566", "7", landlord=0)
    play(s, "trio_single 3 5")
    assert names(s) == {"pass", "trio_single 4 5", "trio_single 4 6"}
    s = at_play("333557", "444566", "7", landlord=0)
    play(s, "trio_pair 3 5")
    assert names(s) == {"pass", "trio_pair 4 6"}


# ================================================================== the end and the stake

def test_the_landlord_wins_double_the_stake():
    s = at_play("3", "45", "67", landlord=0, bid=3, plays={0: 1, 1: 1, 2: 1})
    play(s, "solo 3")
    assert s.finished and chips(s) == (6, -3, -3) and outcome(s).winners == (0,)


def test_a_peasant_wins_for_both_peasants():
    s = at_play("45", "3", "67", landlord=0, bid=2, to_play=1, plays={0: 2, 1: 1, 2: 1})
    play(s, "solo 3")
    assert s.finished and chips(s) == (-4, 2, 2) and outcome(s).winners == (1, 2)


def test_a_spring_doubles_the_stake():
    s = at_play("34", "56", "78", landlord=0, bid=1, plays={0: 3})  # the peasants never played
    play(s, "solo 3", "pass", "pass", "solo 4")
    assert s.finished and chips(s) == (4, -2, -2)


def test_a_landlord_who_played_once_is_a_spring_too():
    s = at_play("34", "5", "78", landlord=0, bid=1)
    play(s, "solo 3", "solo 5")
    assert s.finished and chips(s) == (-4, 2, 2)


# ================================================================== made-up hands against OpenSpiel

def _same_game(h1: str, h2: str, kitty: str, bids: list[str], moves: list[str]):
    """P1 dealt h1, P2 h2 filled up to 17 with the lowest cards left, the spare cards `kitty`,
    P3 the rest; P1 bids first. In OpenSpiel's game and ours, bid and play the moves named
    (OpenSpiel's names), comparing the legal moves at every decision and after the last."""
    pyspiel = pytest.importorskip("pyspiel")
    one, spare = hands(h1, kitty)
    left = [c for c in (card(x) for x in sorted(range(54), key=lambda x: (x % 13 if x < 52 else x, x)))
            if c not in one and c not in spare]
    two = hands(h1 + kitty + h2)[0][len(h1) + len(kitty):]
    two += [c for c in left if c not in two][:17 - len(two)]
    three = [c for c in left if c not in two]
    hs = [one, two, three]
    assert [len(h) for h in hs] == [17, 17, 17] and len(spare) == 3
    theirs = pyspiel.load_game("dou_dizhu").new_initial_state()
    theirs.apply_action(0)  # the face-up card is the first dealt: P1's
    for i in range(51):
        theirs.apply_action(51 + index(hs[i % 3][i // 3]))
    ours = position(rules(), 3, "auction", zones={"hand": dict(enumerate(hs)), "kitty": spare},
                    vars={"opener": 0}, shuffle=False)
    for name in bids + moves + [None]:
        if theirs.is_terminal():
            assert ours.finished
            break
        legal = sorted(theirs.action_to_string(a) for a in theirs.legal_actions())
        mine = plays_of(ours)
        assert sorted(mine) == legal
        assert {m.player for path in mine.values() for m in path} == {theirs.current_player()}
        if name is None:
            break
        theirs.apply_action(next(a for a in theirs.legal_actions() if theirs.action_to_string(a) == name))
        for m in mine[name]:
            apply(ours, m)
    return theirs, ours


def test_long_airplanes_with_single_cards_as_openspiel():
    _, ours = _same_game("33344455566677789", "", "22R", ["Bid 3"], [])
    got = set(plays_of(ours))
    assert "333444555666777-8922(CJ)" in got
    assert "333444555666-7778" in got and "444555666777-322(CJ)" in got and "333444555-666" in got


def test_long_airplanes_with_pairs_as_openspiel():
    _, ours = _same_game("333444555666TTJJQ", "", "Q2B", ["Bid 3"], [])
    got = set(plays_of(ours))
    assert "333444555-TTJJQQ" in got and "444555666-TTJJQQ" in got
    assert "333444555666-TTJJQQ22" not in got and "333444555666-TTJJ(BWJ)" not in got  # one Two; pairs of jokers never


def test_airplanes_with_pairs_are_answered_as_openspiel():
    _same_game("333444TTJJQ56789A", "777888KKAA", "22B", ["Bid 1", "Pass", "Pass"],
               ["333444-TTJJ", "777888-KKAA", "Pass", "Pass"])


def test_bombs_and_the_rocket_as_openspiel():
    _same_game("333444567899JQKA9", "666777TTTT", "222", ["Bid 2", "Pass", "Pass"],
               ["333444-56", "TTTT", "(BWJ)(CJ)", "Pass", "Pass"])


# ================================================================== the same game as OpenSpiel's

def _random_openspiel_game(game, rng):
    """Random chance and random moves; the state, the chance outcomes and each decision as (the
    player, OpenSpiel's names of the legal moves, the name of the move taken)."""
    s = game.new_initial_state()
    chance, decisions = [], []
    while not s.is_terminal():
        if s.is_chance_node():
            a = rng.choice(s.legal_actions())
            chance.append(a)
        else:
            legal = s.legal_actions()
            a = rng.choice(legal)
            decisions.append((s.current_player(), sorted(s.action_to_string(x) for x in legal), s.action_to_string(a)))
        s.apply_action(a)
    return s, chance, decisions


def _replay(chance, decisions):
    pos, dealt = chance[0], [c - 51 for c in chance[1:]]
    hs = {p: [card(c) for i, c in enumerate(dealt) if i % 3 == p] for p in range(3)}
    s = position(rules(), 3, "auction", zones={"hand": hs, "kitty": [card(c) for c in range(54) if c not in dealt]},
                 vars={"opener": pos % 3}, face_up=[card(dealt[pos])], shuffle=False)
    for player, legal, name in decisions:
        assert not s.finished
        ours = plays_of(s)
        assert {m.player for path in ours.values() for m in path} == {player}
        assert sorted(ours) == legal
        for m in ours[name]:
            apply(s, m)
    assert s.finished
    return s


def test_openspiels_random_games_replayed_move_by_move():
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("dou_dizhu")
    assert game.get_parameters() == {}
    rng = random.Random(30)
    for _ in range(500):
        theirs, chance, decisions = _random_openspiel_game(game, rng)
        s = _replay(chance, decisions)
        assert tuple(float(x) for x in outcome(s).scores) == tuple(theirs.returns())


def test_random_play_has_openspiels_statistics():
    """Our own games (our shuffle, our face-up card) against OpenSpiel's, random players in
    both: the mean length and each seat's mean return agree within sampling error."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(31)
    theirs = [[], [], [], []]
    for _ in range(400):
        s, _, decisions = _random_openspiel_game(game, rng)
        theirs[0].append(len(decisions))
        for p in range(3):
            theirs[p + 1].append(s.returns()[p])
    ours = [[], [], [], []]
    for seed in range(400):
        s = new_game(rules(), 3, seed=seed)
        n = 0
        while not s.finished:  # a random player as OpenSpiel's: each whole play alike
            whole = plays_of(s)
            for m in whole[rng.choice(sorted(whole))]:
                apply(s, m)
            n += 1
        ours[0].append(n)
        for p in range(3):
            ours[p + 1].append(outcome(s).scores[p])
    for a, b in zip(ours, theirs):
        (ma, sa), (mb, sb) = mean_se(a), mean_se(b)
        assert abs(ma - mb) < 4 * (sa * sa + sb * sb) ** 0.5, (ma, mb)
