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
"Pass". Ours make a play in steps: the kind and its lowest rank ("chain 3"), then, for a chain
led with a choice of lengths, the length ("length 5"), then, for trios that carry cards, each
rank added, lowest first ("add 5", "add 6"): OpenSpiel's "333444-56" is "airplane_singles 3",
"length 2" (when longer chains are possible), "add 5" and "add 6". `plays_of` follows every
way to finish a play and names the whole play as OpenSpiel does; the legal plays are compared
by those names."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bundled_games import loader

from classic_stats import mean_se
from interpreter.engine import apply, cards_in, fired_counts, legal_moves, new_game, observe, outcome, position, public_vars

RULESET = Path(__file__).resolve().parents[3] / "rulesets" / "classic" / "dou-dizhu.cards"
RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace", "2", "BlackJoker", "RedJoker"]
SHOWN = list("3456789TJQKA2") + ["(BWJ)", "(CJ)"]  # how OpenSpiel prints each rank
LETTER = "3456789TJQKA2BR"  # our shorthand in these tests: B and R for the jokers
SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]


rules = loader(RULESET)


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


FOLLOW_UPS = ("length", "add")  # the choices that finish a play begun by a move
SINGLE_RANK = {"solo": 1, "pair": 2, "trio": 3, "bomb": 4}


def _named(before: list[str], after, chain) -> str:
    """The play that put the cards of `after` not in `before` on the table, as OpenSpiel names
    it; `chain` (the lowest rank and the length) for an airplane that carried cards."""
    counts = [0] * 15
    for c in after:
        if c not in before:
            counts[RANKS.index(c.split("-")[0])] += 1
    if chain is None:
        return _shown(counts)
    head, n = chain
    trios = [3 if head <= i < head + n else 0 for i in range(15)]
    return _shown([a - b for a, b in zip(counts, trios)], trios)


def plays_of(s) -> dict[str, list]:
    """Our legal plays, by OpenSpiel's name for them, each with the moves that make it: a move,
    and for a chain the length chosen and for trios carrying cards each rank added (every way of
    finishing the play is followed on a copy of the game)."""
    out = {}

    def finish(state, path, table):
        nxt = legal_moves(state)
        if not state.finished and nxt and nxt[0].action in FOLLOW_UPS:
            for m in nxt:
                assert m.player == path[0].player
                copy = state.clone()
                apply(copy, m)
                finish(copy, path + [m], table)
            return
        v = public_vars(state)
        chain = None
        if v["top_kicker"] and v["top_length"] > 1:
            chain = (RANKS.index(v["top_rank"]), v["top_length"])
        name = _named(table, cards_in(state, "table"), chain)
        assert name not in out, name
        out[name] = path

    for m in legal_moves(s):
        if m.action in ("pass", "no_bid", "bid"):
            out["Pass" if m.arg is None else f"Bid {m.arg}"] = [m]
            continue
        if m.action in SINGLE_RANK:  # a play of one move and one rank: named without playing it
            counts = [0] * 15
            counts[RANKS.index(m.arg)] = SINGLE_RANK[m.action]
            out[_shown(counts)] = [m]
            continue
        if m.action == "rocket":
            out["(BWJ)(CJ)"] = [m]
            continue
        copy = s.clone()
        apply(copy, m)
        finish(copy, [m], cards_in(s, "table"))
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

def whole(s) -> set[str]:
    """The whole plays open to the player, as OpenSpiel names them ("34567", "333444-56")."""
    return set(plays_of(s))


def go(s, *plays: str) -> None:
    """Make these whole plays (OpenSpiel's names), each with the moves that make it."""
    for name in plays:
        for m in plays_of(s)[name]:
            apply(s, m)


def test_what_a_leader_may_play():
    s = at_play("3334445556789TJQK", "88", "99")
    got = whole(s)
    assert {"3", "33", "333", "34567", "3456789TJQK", "9TJQK", "334455", "333444", "333444555",
            "3334", "33344", "333444-56", "333444-55", "444555-33", "444555-67", "333444555-678"} <= got
    assert "Pass" not in got and "3333" not in got
    assert "333444-5566" not in got  # one Six only
    assert "333444555-555" not in got  # the Fives are in the chain
    assert "TJQKA" not in got  # no Ace


def test_a_play_is_made_in_steps():
    s = at_play("345678999TTTJQ", "88", "JJ")
    assert {"chain 3", "airplane_singles 9", "trio_single 9", "airplane 9"} <= names(s)
    play(s, "chain 3")  # a chain's length is chosen next
    assert names(s) == {f"length {n}" for n in range(5, 11)} and {m.player for m in legal_moves(s)} == {0}
    play(s, "length 6")
    assert (public_vars(s)["top_width"], public_vars(s)["top_length"]) == (1, 6)
    assert {m.player for m in legal_moves(s)} == {1}
    s = at_play("345678999TTTJQ", "88", "JJ")
    play(s, "airplane_singles 9")  # only two trios in a row: no length to choose; the added cards, lowest first
    assert names(s) == {"add 3", "add 4", "add 5", "add 6", "add 7", "add 8", "add Jack"}  # a Queen first leaves nothing to follow
    play(s, "add 5")
    assert names(s) == {"add 6", "add 7", "add 8", "add Jack", "add Queen"}
    play(s, "add Queen")
    assert {m.player for m in legal_moves(s)} == {1} and public_vars(s)["top_kicker"] == 1
    assert "Queen-Clubs" in cards_in(s, "table") and len(cards_in(s, "hand", 0)) == 6


def test_chains_stop_at_the_ace():
    s = at_play("TJQKA2", "88", "99")
    assert "TJQKA" in whole(s) and "TJQKA2" not in whole(s) and "JQKA2" not in whole(s)


def test_a_chain_does_not_start_on_a_rank_held_four_times():
    s = at_play("33334567899", "88", "99")
    assert {"45678", "456789", "56789", "3333", "3334"} <= whole(s) and "34567" not in whole(s)
    s = at_play("333344455566", "88", "99")  # no plain airplane from the Threes, but one with added cards
    assert "444555" in whole(s) and "333444" not in whole(s)
    assert {"333444-55", "333444-56", "333444-66"} <= whole(s)
    assert "333444-35" not in whole(s)  # the fourth Three is of a rank in the chain


def test_following_needs_the_same_kind_and_size_and_a_higher_rank():
    s = at_play("456789", "55667789TJQKA", "3", landlord=0)
    go(s, "45678")
    assert whole(s) == {"Pass", "56789", "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"}
    assert names(s) == {"pass", "chain 5", "chain 6", "chain 7", "chain 8", "chain 9", "chain 10"}  # no length to choose
    go(s, "6789T")
    assert whole(s) == {"Pass"}  # P3 holds one card


def test_a_bomb_beats_anything_but_a_higher_bomb_and_doubles_the_stake():
    s = at_play("KKQ", "3333J", "AAAA5", landlord=0, bid=2)
    go(s, "KK")
    assert whole(s) == {"Pass", "3333"}
    go(s, "3333")
    assert public_vars(s)["stake"] == 4
    assert whole(s) == {"Pass", "AAAA"}
    go(s, "AAAA", "Pass")
    assert whole(s) == {"Pass"}  # the Jack does not beat a bomb
    go(s, "Pass")
    assert public_vars(s)["stake"] == 8 and {m.player for m in legal_moves(s)} == {2}
    assert whole(s) == {"5"}  # a new lead


def test_the_rocket_beats_everything_and_a_bomb_may_follow_it():
    s = at_play("BR3", "22225", "44", landlord=0)
    assert "rocket" in names(s)
    go(s, "(BWJ)(CJ)")
    assert public_vars(s)["stake"] == 2 and whole(s) == {"Pass", "2222"}
    go(s, "2222")
    assert public_vars(s)["stake"] == 4 and whole(s) == {"Pass"}


def test_two_passes_give_the_lead_to_the_last_player():
    s = at_play("3A9", "45", "67", landlord=0)
    go(s, "3", "5", "7", "A", "Pass", "Pass")
    assert {m.player for m in legal_moves(s)} == {0} and whole(s) == {"9"}


def test_trios_with_added_cards_follow_only_the_same_kind():
    s = at_play("33345", "444566", "7", landlord=0)
    go(s, "3335")
    assert whole(s) == {"Pass", "4445", "4446"}
    s = at_play("333557", "444566", "7", landlord=0)
    go(s, "33355")
    assert whole(s) == {"Pass", "44466"}


# ================================================================== the end and the stake

def test_the_landlord_wins_double_the_stake():
    s = at_play("3", "45", "67", landlord=0, bid=3, plays={0: 1, 1: 1, 2: 1})
    go(s, "3")
    assert s.finished and chips(s) == (6, -3, -3) and outcome(s).winners == (0,)


def test_a_peasant_wins_for_both_peasants():
    s = at_play("45", "3", "67", landlord=0, bid=2, to_play=1, plays={0: 2, 1: 1, 2: 1})
    go(s, "3")
    assert s.finished and chips(s) == (-4, 2, 2) and outcome(s).winners == (1, 2)


def test_a_spring_doubles_the_stake():
    s = at_play("34", "56", "78", landlord=0, bid=1, plays={0: 3})  # the peasants never played
    go(s, "3", "Pass", "Pass", "4")
    assert s.finished and chips(s) == (4, -2, -2)


def test_a_landlord_who_played_once_is_a_spring_too():
    s = at_play("34", "5", "78", landlord=0, bid=1)
    go(s, "3", "5")
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


# the default run replays 100 of them; the slow tests all 300
@pytest.mark.parametrize("games", [100, pytest.param(300, marks=pytest.mark.slow)])
def test_openspiels_random_games_replayed_move_by_move(games):
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("dou_dizhu")
    assert game.get_parameters() == {}
    rng = random.Random(30)
    for _ in range(games):
        theirs, chance, decisions = _random_openspiel_game(game, rng)
        s = _replay(chance, decisions)
        assert tuple(float(x) for x in outcome(s).scores) == tuple(theirs.returns())


@pytest.mark.slow  # a soak of thousands of games: the replays against OpenSpiel check these rules in the default run
def test_random_play_has_openspiels_statistics():
    """Our own games (our shuffle, our face-up card) against OpenSpiel's, random players in
    both: the mean length and each seat's mean return agree within sampling error."""
    pyspiel = pytest.importorskip("pyspiel")
    game = pyspiel.load_game("dou_dizhu")
    rng = random.Random(31)
    theirs = [[], [], [], []]
    for _ in range(300):
        s, _, decisions = _random_openspiel_game(game, rng)
        theirs[0].append(len(decisions))
        for p in range(3):
            theirs[p + 1].append(s.returns()[p])
    ours = [[], [], [], []]
    for seed in range(300):
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
