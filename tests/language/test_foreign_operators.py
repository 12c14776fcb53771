"""A designer who writes an operator or a name the way another language spells it (`x % 2`,
`a && b`, `n = 4` in a condition, `True`, `len(...)`) is told, at its line and column, what this
language writes instead: the message a habit from Python, C or JavaScript meets."""

from __future__ import annotations

import pytest

from interpreter import RulesetError, RulesetSyntaxError, loads_ruleset

BASE = """game g
players 2
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone hand per player owner
define score(p: player) = {expr}
winner most score
phase deal "Deal":
    rule deal "Deal":
        deal 2 from stock to each hand
"""


def error_of(expr: str) -> tuple[int, int, str, str]:
    """(line, column, message, the rendered error) of the ruleset whose score is `expr`."""
    with pytest.raises((RulesetSyntaxError, RulesetError)) as info:
        loads_ruleset(BASE.format(expr=expr), "habit.cards")
    e = info.value
    rendered = e.render()
    head = rendered.splitlines()[0]
    prefix = "habit.cards:8:"
    assert head.startswith(prefix), rendered
    col, _, message = head[len(prefix):].partition(": error: ")
    assert "Traceback" not in rendered
    return 8, int(col), message, rendered


AT = len("define score(p: player) = ") + 1  # the column the expression starts at

# (the expression, where in it the error points (0-based), what the message must say)
CASES = [
    ("count(hand(p)) % 2", 15, "'%' is not an operator here: the remainder of a division is written with the word mod"),
    ("count(hand(p)) // 2", 15, "'//' is not an operator here: whole numbers are divided with one '/'"),
    ("count(hand(p)) ** 2", 15, "'**' is not an operator here: a power is written A ^ N"),
    ("if count(hand(p)) > 1 && true then 1 else 0", 22, "'&&' is not an operator here: both conditions are written with the word and"),
    ("if count(hand(p)) > 1 || true then 1 else 0", 22, "'||' is not an operator here: either condition is written with the word or"),
    ("if count(hand(p)) > 1 & true then 1 else 0", 22, "'&' is not an operator here: both conditions are written with the word and"),
    ("if !(count(hand(p)) > 1) then 1 else 0", 3, "'!' is not an operator here: a condition is negated with the word not"),
    ("if count(hand(p)) <> 1 then 1 else 0", 18, "'<>' is not an operator here: 'not equal' is written !="),
    ("if count(hand(p)) === 1 then 1 else 0", 18, "'===' is not an operator here: equality is written =="),
    ("if count(hand(p)) = 1 then 1 else 0", 18, "unexpected '='; a comparison is written with two: =="),
    ("count(hand(p)) > 1 ? 1 : 0", 19, "'?' is not an operator here: a value chosen by a condition is written if A then X else Y"),
    ("if True then 1 else 0", 3, "unknown name 'True'; write true"),
    ("if count(hand(p)) == None then 1 else 0", 21, "unknown name 'None'; write none"),
    ("len(hand(p))", 0, "unknown function 'len'; the number of cards in a zone or a collection is count(...)"),
    ("if known(top(hand(p))) then 1 else 0", 3, "unknown function 'known'; whether a card lies face up is its attribute face_up (c.face_up)"),
    ("top(hand(p)).pips", 0, "cards have no attribute 'pips'; they have suit, rank, order, owner, played_by, zone, face_up, "
     "depth, beneath. A number for each rank is a table in the deck: value pips: 1 = 1, 2 = 2, 3 = 3, ... (then c.pips)"),
    ("count(hand(P2))", 11, "unknown name 'P2'; the tools call the seats P1, P2, ...; in the rules a seat is seat(2)"),
]


@pytest.mark.parametrize("expr,at,message", CASES, ids=[c[0] for c in CASES])
def test_another_languages_spelling_says_what_to_write_at_its_place(expr, at, message):
    line, col, said, rendered = error_of(expr)
    assert said.startswith(message), rendered
    assert col == AT + at, rendered
    lines = rendered.splitlines()
    assert lines[1].strip() == f"define score(p: player) = {expr}"
    assert lines[2] == "    " + " " * (col - 1) + "^"


def test_this_languages_own_spellings_load():
    """The operators the hints name are the language's: each loads and is a score."""
    for expr in ("count(hand(p)) mod 2", "count(hand(p)) / 2", "count(hand(p)) ^ 2",
                 "if count(hand(p)) > 1 and not (count(hand(p)) != 1 or true) then 1 else 0",
                 "if count(hand(p)) == 1 then 1 else 0"):
        loads_ruleset(BASE.format(expr=expr), "habit.cards")


def test_a_name_the_ruleset_defines_is_its_own_not_a_habit():
    """`size` is a hint only where the ruleset has no such name: a definition of it is used."""
    text = BASE.format(expr="size(p)").replace("define score", "define size(p: player) = count(hand(p))\ndefine score")
    loads_ruleset(text, "habit.cards")
    with pytest.raises(RulesetError) as info:
        loads_ruleset(BASE.format(expr="sise(p)").replace("define score", "define size(p: player) = count(hand(p))\ndefine score"),
                      "habit.cards")
    assert "unknown function 'sise'; did you mean 'size'?" in str(info.value)


# `all x in S: cond` takes its condition after ':', so a designer writes `any` and `count` alike
COLON_CASES = [
    # (the expression, where the ':' is (0-based), what the message must say)
    ("if (any c in hand(p): c.rank == 1) then 1 else 0", 20,
     "'any c in ...' takes its condition after 'where', not after ':': write any c in hand(p) where ...; "
     "only all, sum, max and min take a ':'"),
    ("count c in hand(p): c.rank > 2", 18,
     "'count c in ...' takes its condition after 'where', not after ':': write count c in hand(p) where ..."),
    ("if (no c in hand(p) where c.rank > 1: c.suit == Red) then 1 else 0", 36,
     "'no c in ...' takes its condition after 'where', not after ':': write no c in hand(p) where c.rank > 1 and ..."),
]


@pytest.mark.parametrize("expr,at,message", COLON_CASES, ids=[c[0] for c in COLON_CASES])
def test_a_condition_after_a_colon_where_the_aggregate_takes_where_says_so(expr, at, message):
    line, col, said, rendered = error_of(expr)
    assert said.startswith(message), rendered
    assert col == AT + at, rendered


def test_a_colon_taken_for_the_blocks_says_the_same():
    """`if any c in hand(p): ok(c):` reads the first ':' as the block's, and stops at `ok`: the
    error still points at that ':' and says what to write."""
    text = BASE.format(expr="0") + "        if any c in hand(seat(1)): c.rank == 1:\n            deal 1 from stock to each hand\n"
    with pytest.raises(RulesetSyntaxError) as info:
        loads_ruleset(text, "habit.cards")
    head = info.value.render().splitlines()[0]
    assert head.startswith(f"habit.cards:13:{len('        if any c in hand(seat(1))') + 1}: error: "
                           "'any c in ...' takes its condition after 'where'"), head
    loads_ruleset(text.replace("hand(seat(1)): c.rank == 1:", "hand(seat(1)) where c.rank == 1:"), "habit.cards")


def test_all_and_sum_keep_their_colon():
    for expr in ("if (all c in hand(p): c.rank == 1) then 1 else 0", "sum c in hand(p) where c.rank > 1: 2"):
        loads_ruleset(BASE.format(expr=expr), "habit.cards")


def test_moving_to_a_card_says_its_zone_is_written_c_zone():
    text = BASE.format(expr="0") + "        move top(stock) to top(hand(seat(1)))\n"
    with pytest.raises(RulesetError) as info:
        loads_ruleset(text, "habit.cards")
    assert ("where to move the cards must be one zone; 'top(hand(seat(1)))' is a card: the zone it lies in is "
            "top(hand(seat(1))).zone") in str(info.value)
    loads_ruleset(text.replace("to top(hand(seat(1)))", "to top(hand(seat(1))).zone"), "habit.cards")


def test_an_advice_without_its_description_says_it_ends_with_one():
    text = BASE.format(expr="0").replace("winner most score\n", "winner most score\nadvice more(p: player) = count(hand(p))\n")
    with pytest.raises(RulesetSyntaxError) as info:
        loads_ruleset(text, "habit.cards")
    assert "the line ends too early; expected a quoted string" in str(info.value)
    assert "an advice ends with what it values, in quotes" in str(info.value)
    loads_ruleset(text.replace("count(hand(p))\n", 'count(hand(p)) "more is better"\n'), "habit.cards")


def test_a_family_of_zones_per_player_says_how_to_have_places_per_player():
    text = BASE.format(expr="0").replace("zone hand per player owner\n", "zone hand per player owner\nzone spot[6] per player hidden\n")
    with pytest.raises(RulesetError) as info:
        loads_ruleset(text, "habit.cards")
    said = str(info.value)
    assert "a family of zones (NAME[N]) is shared; there is no family per player. For 6 places per player" in said
    assert "(spot1, spot2, spot3, ..., each 'per player')" in said and "z in [spot1(p), spot2(p)]" in said
    assert (info.value.line, info.value.column) == (8, 1)


def test_a_score_declared_with_its_own_word_says_to_define_it():
    text = BASE.format(expr="0").replace("define score(p: player) = 0", "score score(p: player) = 0")
    with pytest.raises(RulesetSyntaxError) as info:
        loads_ruleset(text, "habit.cards")
    assert (info.value.line, info.value.column) == (8, 1)
    assert ("unexpected 'score' at the start of a line: to name a value, write define score(p: player) = ... "
            "(a score is such a value: 'winner most score' ranks the players by it)") in str(info.value)


@pytest.mark.parametrize("written", ["move all of stock to hand(seat(1))", "move all stock to hand(seat(1))",
                                     "move all the cards of stock to hand(seat(1))"])
def test_moving_all_of_a_place_says_to_name_the_place(written):
    text = BASE.format(expr="0") + f"        {written}\n"
    with pytest.raises(RulesetSyntaxError) as info:
        loads_ruleset(text, "habit.cards")
    assert "to move every card of a place, name the place, move stock to ... (its cards keep their order)" \
        in str(info.value), str(info.value)
    assert (info.value.line, info.value.column) == (13, 14)
    loads_ruleset(BASE.format(expr="0") + "        move stock to hand(seat(1))\n", "habit.cards")


CHOICE = BASE.format(expr="0") + """    rule pick "Pick":
        choose by seat(1):
            ACTION:
                move c to stock
"""


@pytest.mark.parametrize("action, at, message", [
    ("action give c in hand(seat(1)) when c.rank == 1", None,
     "unknown name 'c' in the 'when' condition: 'c' is this action's own choice, and 'when' is checked before "
     "anything is chosen; a condition on it goes after 'where' (action give c in ... where ...)"),
    ("action give c in hand(seat(1)) when count(stock) > 0 where c.rank == 1", "where",
     "in an action, 'where' (a condition on what is chosen) comes before 'when'"),
])
def test_an_actions_conditions_in_the_wrong_place_say_where_they_go(action, at, message):
    text = CHOICE.replace("ACTION", action)
    with pytest.raises((RulesetError, RulesetSyntaxError)) as info:
        loads_ruleset(text, "habit.cards")
    assert message in str(info.value), str(info.value)
    line = text.splitlines()[info.value.line - 1]
    assert line.lstrip().startswith("action give")
    if at:
        assert line[info.value.column - 1:].startswith(at)
    loads_ruleset(CHOICE.replace("ACTION", "action give c in hand(seat(1)) where c.rank == 1 when count(stock) > 0"),
                  "habit.cards")


@pytest.mark.parametrize("statement, message", [
    ("declare winner q in players where count(hand(q)) == 0",
     "declare winner those q in ... where ..."),
    ("set turn = next(turn) where count(hand(turn)) > 0",
     "the next player for whom a condition holds is written next q after P where COND"),
    ("set turn = seat(1) where count(hand(turn)) > 0", "'where' filters a collection, after 'x in ZONE'"),
    ("tell hand(seat(2)) to seat(1)", "tell suit of CARDS to PLAYER (or tell rank of ...)"),
    ("if turn is none:\n            shuffle stock", "unexpected 'is': a comparison is written == (turn == none)"),
    ("if turn is not none:\n            shuffle stock", "unexpected 'is': a comparison is written != (turn != none)"),
    ("deal 2 from stock to hand(seat(1))", "cards for one player are moved: move top(Z, N) to hand(p)"),
    ("passes = passes + 1", "unexpected 'passes': a variable is given a value with set: set passes = ..."),  # (split as pass-es)
    ("turns += 1", "unexpected 'turns': a variable is given a value with set: set turns = turns + ..."),
    ("if count(stock) > 0:\n            shuffle stock\n        else if count(stock) == 0:\n            shuffle stock",
     "'else if' is written elif"),
    ("for each player q in shuffled(players):\n            shuffle stock",
     "'for each player q in' is followed by play (the players still in play); to go over another collection, "
     "write for each q in shuffled(players):"),
    ("for each player q in those x in players where x != turn:\n            shuffle stock",
     "write for each q in those x in players where x != turn:"),
])
def test_statements_written_as_habit_say_what_to_write(statement, message):
    text = BASE.format(expr="0").replace("define score", "var turn: player = seat(1)\ndefine score") \
        + f"        {statement}\n"
    with pytest.raises(RulesetSyntaxError) as info:
        loads_ruleset(text, "habit.cards")
    assert message in str(info.value), str(info.value)


def test_a_card_written_as_a_move_names_it_says_how_the_rules_write_it():
    with pytest.raises(RulesetError) as info:
        loads_ruleset(BASE.format(expr="if 3-Red in hand(p) then 1 else 0"), "habit.cards")
    assert "3-Red is how moves and records name a card; in the rules a card is written card(3, Red)" \
        in str(info.value)
    loads_ruleset(BASE.format(expr="if card(3, Red) in hand(p) then 1 else 0"), "habit.cards")


def test_an_advice_named_as_a_definition_or_a_zone_is_refused_as_a_define_would_be():
    for name, what in (("score", "a definition"), ("hand", "a zone")):
        text = BASE.format(expr="0").replace("winner most score\n",
                                              f'winner most score\nadvice {name}(p: player) = 1 "more"\n')
        with pytest.raises(RulesetError) as info:
            loads_ruleset(text, "habit.cards")
        assert f"'{name}' is already used as {what}; it cannot also be an advice" in str(info.value)


def test_a_range_of_named_ranks_says_ranges_are_between_numbers():
    text = BASE.format(expr="0").replace("    ranks 1..4\n", "    ranks Ace, 2..4, King\n    cards Ace..King of Red\n")
    with pytest.raises(RulesetSyntaxError) as info:
        loads_ruleset(text, "habit.cards")
    assert "a range of ranks is written only between numbers (2..10); name the others one by one" in str(info.value)


def test_can_move_of_a_choice_by_any_says_it_does_not_look_there():
    """Tichu, by a new user: "phase 'play' has no 'choose by q' in rule 'bombs'" of a choose by any."""
    text = BASE.format(expr="0") + """    if any q in players where can_move(q, throw):
        rule throw "Throw in":
            choose by any q in players:
                action drop c in hand(q):
                    move c to stock
"""
    with pytest.raises(RulesetError) as info:
        loads_ruleset(text, "habit.cards")
    assert ("can_move(q, throw): rule 'throw' is a 'choose by any q in ...', which can_move does not look into (it "
            "reads a 'choose by PLAYER'); a 'choose by any' asks only the players who have a move") in str(info.value)


# (a change to BASE, what the message must say): lines new users' Doppelkopf, Cheat, Rook and Old
# Maid wrote from habit, each told what this language writes
HABITS = [
    (("define score(p: player) = count(hand(p))", "define score(p: player) = 1 if count(hand(p)) > 1 else 0"),
     "a value chosen by a condition is written if C then X else Y, the condition first"),
    (("winner most score", "winner most score(p)"),
     "the winner line names the definition, which is worked out for each player: winner most score"),
    (("winner most score", "var contract: one of normal, solo = normal\nwinner most score"),
     "only an option takes one of named values (option NAME: one of a, b = a)"),
    (("deal 2 from stock to each hand", "deal all from stock to each hand"),
     "deal takes how many cards each player gets (deal 5 from stock to each hand); to deal out the whole pack"),
    (("deal 2 from stock to each hand", "turn stock face up"),
     "cards are turned face up with reveal CARDS (or move them face up)"),
    (("deal 2 from stock to each hand", 'choose by seat(1):\n            action stop when count(stock) > 0: "Stop."\n'
      "                pass"), "an action's label goes before its colon"),
    (("deal 2 from stock to each hand", 'choose by seat(1):\n            action bid n in 0..20 where n > 5 step 5 "Bid.":\n'
      "                pass"), "a range has no step; keep every fifth value with where"),
    (("winner most score", "winner most score\ndefine nr(r: rank) = ranks[r.index]"),
     "nothing is taken by its position in brackets; a card in place N of a zone is at(ZONE, N)"),
    (("winner most score", "winner most score\ndefine nr(r: rank) = r + 1"),
     "its place in the deck's line is r.index, and the rank after it is first(those s in ranks where s.index == r.index + 1)"),
    (("winner most score", "winner most score\ndefine w = highest c in hand(seat(1)) by c.order.owner"),
     "put the aggregate in parentheses: (highest c in hand(seat(1)) by c.order).owner"),
    (("deal 2 from stock to each hand", 'choose by seat(1):\n            action king c in hand(seat(1)) if c.rank == 4 "K.":\n'
      "                pass"), "an action's condition on its value is written with where"),
    (("deal 2 from stock to each hand", "show_stock()\nprocedure show_stock:\n    rule s \"S\":\n        shuffle stock"),
     "a procedure is carried out with perform: perform show_stock"),
    (("define score(p: player) = count(hand(p))", "define score(p: player) = min r in 1..7 where r > 2"),
     "VALUE is the least VALUE, written after a ':'; the element itself is lowest r in ... where ..."),
    (("define score(p: player) = count(hand(p))", "define score(p: player) = count(hand(p) + top(stock))"),
     "+ joins two collections; 'top(stock)' is one card: top(stock, 1) is a collection of it"),
    (("define score(p: player) = count(hand(p))", "define score(p: player) = if count(hand(p)) == 2 == 2 then 1 else 0"),
     "comparisons do not chain; join two with and: count(hand(p)) == 2 and 2 == ..."),
    (("deal 2 from stock to each hand", "move top(stock), top(stock) to hand(seat(1))"),
     "move takes one card or one collection; write a move line for each card, or join collections with +"),
    (("ranks 1..4", "ranks 1..3, 4th"), "'4th' is not a rank: a rank is a number (2..10) or a name that starts"),
    (("winner most score", "winner fewest count(hand)"),
     "define held(p: player) = count(hand(p)), then winner fewest held"),
    (("define score(p: player) = count(hand(p))", "define score(p) = 1"),
     "each parameter says what it is, with a colon: p: card (or player"),
    (("deal 2 from stock to each hand", "deal 2 from stock to each hand\n        let q = seat(1)\n        set q = q + 1"),
     "the player after q in the order of play is next(q) (before: previous(q))"),
    (("deal 2 from stock to each hand", "deal 2 from stock to each hand\n        if player_count in 2..4:\n            pass"),
     "a range tested against is written in parentheses: x in (0..4)"),
    (("deal 2 from stock to each hand", "deal 2 from stock to each hand\n        let n = 0\n        set n += 1"),
     "unexpected '+=': a variable is changed with set and the whole new value: set n = n + ..."),
    (("deal 2 from stock to each hand", "deal 2 from stock to each hand\n        for each q in players after seat(1):\n"
      "            pass"), "write for each player q after ...: (every other player"),
    (("deal 2 from stock to each hand", "deal 2 from stock to each hand\n        repeat 6:\n            pass"),
     "repeat has no count (it goes on until a break or the end of the game); to do something 6 times, write for each "
     "i in 1..6:"),
    (("winner most score", "winner most score\noption speed: fast"),
     "a variant changes a base game's default with option speed = fast"),
]


@pytest.mark.parametrize("change, message", HABITS, ids=[m[:40] for _, m in HABITS])
def test_lines_written_from_habit_say_what_to_write(change, message):
    text = BASE.format(expr="count(hand(p))")
    assert change[0] in text
    with pytest.raises((RulesetSyntaxError, RulesetError)) as info:
        loads_ruleset(text.replace(change[0], change[1], 1), "habit.cards")
    assert message in str(info.value), str(info.value)
    assert info.value.line is not None and "Traceback" not in info.value.render()
