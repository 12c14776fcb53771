"""Sentences of the rulebook that once could not apply: a one-player game's book names no
"player with the most score" to win (there is nobody to beat), in the quick reference or in
"Winning"; a game for several players keeps the sentence."""

from __future__ import annotations

from pathlib import Path

from small_games import DISCARDS, MINI_DEAL, MINI_HEAD, TURNS, written

from interpreter import load_ruleset
from interpreter.render.book import render_markdown

ROOT = Path(__file__).resolve().parents[2]


def test_a_one_player_game_reads_its_score_as_its_result():
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "classic" / "blackjack.cards"))
    assert "the player with the most" not in md and "player(s) with the most" not in md
    assert "your result is your *score*" in md and "the higher the better" in md


def test_a_game_for_several_players_names_the_winner_by_score():
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "classic" / "hearts.cards"))
    assert "the winner is the player with the" in md and "tied players share the win" in md


# MINI with a yes-no definition, compared in the moves' conditions
BOOL_GAME = MINI_HEAD + "define red(c: card) = c.suit == Red\n" + MINI_DEAL + TURNS.replace("ACTIONS", """\
action match c in hand(turn) where count(pile) == 0 or red(c) == red(top(pile)):
                    move c to pile
                action clash c in hand(turn) where count(pile) > 0 and red(c) != red(top(pile)):
                    move c to pile
                action plain c in hand(turn) where red(c) == false:
                    move c to pile""")


def test_two_yes_no_values_compared_read_as_a_sentence(tmp_path):
    md = render_markdown(written(tmp_path, "bool.cards", BOOL_GAME))
    assert "*c* is *red* exactly when the top card of the pile is *red*" in md
    assert "either *c* is *red* or the top card of the pile is *red*, but not both" in md
    assert "is *red* is" not in md and "is *red* is not" not in md
    assert "*c* is not *red*" in md or "*c* is not red" in md


def test_the_quick_reference_keeps_a_rules_whole_opening_paragraph(tmp_path):
    from interpreter.render.quick import opening
    layout = ("Shuffle the pack. Deal seven piles from left to right, the first of one card and each next of one "
              "more. Turn the top card of each pile face up. The rest of the pack is the stock.")
    setup = f'phase layout "Laying out" then play:\n    rule deal "Deal":\n        text "{layout}"\n'
    text = BOOL_GAME.replace('phase play "Play":\n    rule deal "Deal":\n', setup).replace(
        "        deal 3 from stock to each hand\n    while", "        deal 3 from stock to each hand\n"
                                                          'phase play "Play":\n    while')
    md = render_markdown(written(tmp_path, "layout.cards", text))
    quick = md[md.index("## Quick reference"):md.index("## ", md.index("## Quick reference") + 3)]
    assert "Deal seven piles from left to right" in quick and "The rest of the pack is the stock." in quick
    long = " ".join(f"Sentence number {i} says a little more." for i in range(40))
    cut = opening((long,))
    assert cut.endswith("\u2026") and len(cut) <= 430 and cut.startswith("Sentence number 0")
    assert ". \u2026" in cut  # whole sentences, never half of one


# MINI dealt one card each, then topped up to two by one procedure in both phases
PROC_GAME = MINI_HEAD + """procedure refill:
    rule top_up "Topping up":
        text "Each player draws back to two cards."
        for each player p:
            if count(hand(p)) < 2 and count(stock) > 0:
                move top(stock) to hand(p)
phase first "First half" then second:
    rule deal "Deal":
        shuffle stock
        deal 1 from stock to each hand
    perform refill
phase second "Second half":
    perform refill
""" + DISCARDS


def test_a_rule_of_a_procedure_performed_from_two_phases_is_listed_once(tmp_path):
    from interpreter.render.book import render_html
    html = render_html(written(tmp_path, "twice.cards", PROC_GAME))
    assert html.count("Topping up</h4>") == 1, html.count("Topping up</h4>")
    first = html.index("Topping up</h4>")
    assert html.index('id="phase-first"') < first < html.index('id="phase-second"')


# MINI's turns: a card and every card of its rank go to the pile at once (`move those ...`)
THOSE_GAME = MINI_HEAD + MINI_DEAL + TURNS.replace("ACTIONS", """action lay c in hand(turn):
                    move those d in hand(turn) where d.rank == c.rank to pile""")


def test_cards_picked_out_of_a_zone_are_moved_as_those_cards_not_as_all_cards_of_a_zone(tmp_path):
    md = render_markdown(written(tmp_path, "those.cards", THOSE_GAME))
    assert "move the cards *d* in the turn's hand such that *d*'s rank is *c*'s rank to the pile." in md, md
    assert "all cards of the cards" not in md


PLACES_GAME = """game places "Places"
players 2
deck d:
    suits Red, Blue
    ranks 1..3
zone stock shared hidden "the stock"
zone left per player hidden "the left place"
zone right per player hidden "the right place"
zone pile shared public "the pile"
define score(p: player) = count c in pile where c.played_by == p
winner most score
phase play "Play":
    rule deal "Deal":
        deal 1 from stock to each left
        deal 1 from stock to each right
    for each player p:
        rule show "Show":
            choose by p:
                action show z in [left(p), right(p)] where not top(z).face_up "Turn up the card there.":
                    reveal top(z)
                action pick r in [1, 3] "Pick a number.":
                    move top(stock) to pile
"""


def test_a_choice_among_places_named_one_by_one_reads_as_places(tmp_path):
    """A list of zones is a choice of a place among them, and a card not face up is face down
    (not "a item z in ..." and "it is not the case that ... is face up")."""
    md = render_markdown(written(tmp_path, "places.cards", PLACES_GAME))
    assert ("a place *z* among *p*'s left place and *p*'s right place such that the top card of *z* is face down"
            in md), md
    assert "a number *r* among 1 and 3" in md
    assert "a item" not in md and "it is not the case that" not in md


def test_a_yes_no_definition_named_by_a_verb_reads_as_one(tmp_path):
    """`define follows(c: card) = ...` reads 'c follows' and, negated, 'c does not follow', not
    'c is follows' (Skat's, Ekrang's, Gin Rummy's and Hanabi's rulebooks said so)."""
    game = MINI_HEAD + "define follows(c: card) = c.suit == Red\n" + MINI_DEAL + TURNS.replace("ACTIONS", """\
action play c in hand(turn) where follows(c):
                    move c to pile
                action other c in hand(turn) where not follows(c):
                    move c to pile""")
    md = render_markdown(written(tmp_path, "verb.cards", game))
    assert "such that *c* [*follows*](#term-follows)" in md or "such that *c* *follows*" in md, md
    assert "*c* does not" in md and "*follow*" in md
    assert "is *follows*" not in md and "is [*follows*]" not in md


# two shared piles a card may go to (zones of two kinds joined), and a yes-or-no variable
PILES_GAME = MINI_HEAD.replace("zone pile shared public\n", "zone pile shared public\nzone spare shared public\n"
                               ).replace("var turn: player = seat(1)\n", "var turn: player = seat(1)\nvar played: bool = false\n") \
    + MINI_DEAL + TURNS.replace("ACTIONS", """action lay c in hand(turn), z in zones(pile) + zones(spare) where not played:
                    move c to z
                    set played = true
                action join y in zones(spare), z in zones(pile) + zones(spare) where y != z:
                    move y to z""")


def test_places_joined_are_places_and_a_yes_no_variable_is_named_without_an_article(tmp_path):
    md = render_markdown(written(tmp_path, "piles.cards", PILES_GAME))
    assert "a place *z* in (the pile together with the spare)" in md, md
    assert "a card *z*" not in md
    assert "Set *played* to true." in md and "such that *played* is false" in md, md
    assert "the played" not in md
    assert "- *played* (`played`), true or false, at first false" in md


def test_a_hint_is_told_to_one_player_only():
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "classic" / "hanabi.cards"))
    assert "remembers it for each of those cards, seen or not. The others are not told." in md
    assert "the others hear it" not in md


def test_the_quick_reference_says_which_rules_of_a_phase_repeat():
    """Oh Hell's play phase opens the first trick once, loops over the tricks and scores once:
    only the loop's rules repeat. A phase that is one loop, the rules of the procedures it
    performs included, repeats whole."""
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "classic" / "oh-hell.cards"))
    quick = md[md.index("## Quick reference"):md.index("## Contents")]
    assert "**Phase 3: Play.** Rules 2 to 4 repeated as long as the leader's hand is not empty." in quick, quick
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "classic" / "crazy-eights.cards"))
    quick = md[md.index("## Quick reference"):md.index("## Contents")]
    assert "**Phase 2: Play.** Repeated until the rules end it." in quick, quick


# yes-or-no terms of several shapes, a negated pair of conditions, a condition kept in a name,
# and a score named in the singular
WORDS_GAME = MINI_HEAD.replace("define points(p: player) = count(hand(p))\nwinner fewest points\n", """\
define points(p: player) = count(hand(p))
define wins_round(p: player) = count(hand(p)) == 0
define adds_up(v: int) = v > 2
define behind = count(pile) > 3
define score(p: player) = if wins_round(p) then 1 else 0
winner most score
""") + MINI_DEAL + TURNS.replace("ACTIONS", """action discard c in hand(turn) where not (adds_up(c.order) and wins_round(turn)):
                    let late = behind
                    move c to pile""")


def test_yes_no_terms_read_as_sentences(tmp_path):
    md = render_markdown(written(tmp_path, "words.cards", WORDS_GAME))
    assert "1 if *p* *wins round*, otherwise 0" in md, md            # a verb's term: no 'is'
    assert "it is not the case that both *adds up* holds for *c*'s rank position and the turn *wins round*" in md, md
    assert "*c*'s rank position is *adds up*" not in md               # a number is not 'is' a term
    assert "Let *late* be whether *behind* holds." in md
    assert "The player(s) with the highest *score* win" in md and "the most *score*" not in md


def test_a_variable_described_as_a_thing_is_named_by_its_description(tmp_path):
    """Three new users named the player to move `turn`, as bundled games do, and read 'The turn
    chooses one of' and 'Set the turn to the next player after the turn'."""
    text = (MINI_HEAD.replace("var turn: player = seat(1)\n",
                              'var turn: player = seat(1)\n    text "the player whose turn it is"\n')
            + MINI_DEAL + DISCARDS)
    md = render_markdown(written(tmp_path, "turns.cards", text))
    assert "The player whose turn it is chooses:" in md, md
    assert "a card *c* in the hand of the player whose turn it is" in md
    assert "Set the player whose turn it is to the next player after the player whose turn it is." in md
    assert "- the turn (`turn`), a player, at first the player in seat 1. The player whose turn it is." in md
    plain = render_markdown(written(tmp_path, "plain.cards", MINI_HEAD + MINI_DEAL + DISCARDS))
    assert "The turn chooses:" in plain and "the turn's hand" in plain


def test_a_yes_no_term_denied_does_not_reach_over_what_follows():
    """'only when it is not the case that *may draw* holds and ...' could be read as not (A and B)."""
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "classic" / "crazy-eights.cards"))
    assert "*Pass.* (`pass`): only when *may draw* does not hold. Then:" in md
    assert "it is not the case that *may draw* holds" not in md


def test_a_players_own_zones_number_is_their_seat(tmp_path):
    text = MINI_HEAD.replace("define points(p: player) = count(hand(p))\n",
                             "define points(p: player) = count(hand(p)) + hand(p).index\n") + MINI_DEAL + DISCARDS
    md = render_markdown(written(tmp_path, "seat.cards", text))
    assert "the number of cards in *p*'s hand plus *p*'s seat number" in md, md


def test_none_reads_as_there_is_no():
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "classic" / "euchre.cards"))
    assert "0 if there is no maker, otherwise" in md and "the maker does not exist" not in md


def test_a_choice_of_two_inside_a_conjunction_keeps_its_brackets(tmp_path):
    """Schnapsen and Tichu, by a new user: '(A or B) and C' read 'either A, or B and C' (B and C
    together as the second way), 'not f(p) and B' read 'it is not the case that p's f and B'."""
    text = MINI_HEAD.replace("var turn: player = seat(1)\n", "var turn: player = seat(1)\nvar called(p: player): bool = false\n"
                             ).replace("define points(p: player) = count(hand(p))\n", """define points(p: player) = count(hand(p))
define pairs(c: card) = (c.order == 1 or c.order == 2) and c.owner == seat(1)
define may_call(p: player) = not called(p) and count(hand(p)) == 2
define either_way(c: card) = c.order > 0 and (if called(seat(1)) then true else c.order == 2)
""") + MINI_DEAL + DISCARDS
    md = render_markdown(written(tmp_path, "brackets.cards", text))
    assert "(either *c*'s rank position is 1, or *c*'s rank position is 2) and *c*'s owner is" in md, md
    assert "*p*'s called is false and the number of cards in *p*'s hand is 2" in md
    assert "and (true if the called of the player in seat 1 is true, otherwise" in md, md  # (as 'is false' reads)


# the topping-up procedure followed by two rules of the first phase (2 and 4: it is shown as rule 3) and by the second phase's rule
PROC_USERS = MINI_HEAD + """procedure refill:
    rule top_up "Topping up":
        text "Each player draws back to two cards."
        for each player p:
            if count(hand(p)) < 2 and count(stock) > 0:
                move top(stock) to hand(p)
phase first "First half" then second:
    rule deal "Deal":
        shuffle stock
        deal 1 from stock to each hand
    rule again "Again":
        perform refill
    rule once_more "Once more":
        perform refill
phase second "Second half":
    rule last "Last":
        perform refill
""" + DISCARDS


def test_a_procedures_rule_names_every_rule_that_follows_it(tmp_path):
    """A new user's Piquet: "part of the procedure check repique, which rule 1 follows", though
    rules 1, 3 and 4 did, and rules of another phase too."""
    md = render_markdown(written(tmp_path, "users.cards", PROC_USERS))
    assert ("This rule is part of the procedure *refill*, which rules 2 and 4 of this phase and rules of "
            "Second half follow.") in md, md
    one = PROC_USERS.replace('''    rule once_more "Once more":
        perform refill
''', "").replace('''    rule last "Last":
        perform refill''', '''    rule last "Last":
        shuffle stock''')
    assert "This rule is part of the procedure *refill*, which rule 2 follows." in render_markdown(
        written(tmp_path, "one.cards", one))


# MINI with a yes-or-no kept: switched each turn, set to a test, and a round of the players left early
FLAGS = MINI_HEAD.replace("define points", "var flipped: bool = false\nvar clean: bool = false\ndefine points") + \
    MINI_DEAL + TURNS.replace("ACTIONS", """action discard c in hand(turn):
                    move c to pile
                    set flipped = not flipped
                    set clean = not (any x in pile where x.suit == Red)
                    for each player q after turn:
                        if count(hand(q)) == 0:
                            break""")


def test_a_yes_or_no_set_to_a_test_reads_as_one(tmp_path):
    """A new user's Cheat: `set caught = not honest` read "Set caught to honest does not hold";
    their Belote's `break` out of a round of the players read "Leave the round of players", as if
    a player left; Crazy Eights' `set reversed = not reversed`, "Set reversed to reversed is false"."""
    md = render_markdown(written(tmp_path, "flags.cards", FLAGS))
    assert "Switch *flipped* over: true becomes false, and false true." in md, md
    assert "Set *clean* to true if there is no card *x* in the pile such that *x*'s suit is Red, otherwise to false." in md
    assert "Stop going round the players." in md and "Leave the round of players" not in md


def test_the_top_one_card_as_a_collection_is_not_the_top_1_cards(tmp_path):
    """A new user's Pyramid: `top(stock, 1)` read "the top 1 cards of the stock"."""
    text = FLAGS.replace("                    set flipped = not flipped\n",
                         "                    set flipped = not flipped\n                    move top(stock, 1) to pile\n")
    md = render_markdown(written(tmp_path, "top.cards", text))
    assert "the top card of the stock (as a set of one)" in md and "top 1 cards" not in md


def test_a_card_named_by_a_rank_phrase_and_a_player_to_act_read_as_english(tmp_path):
    """New users' Canfield: `card(base, c.suit)` read "the the base of c's suit"; Teen Patti's and
    Dou Dizhu's `var to_act: player`, "the to act decides"."""
    text = MINI_HEAD.replace("var turn: player = seat(1)\n", "var turn: player = seat(1)\nvar base: rank\n"
                             "var to_act: player\n") + MINI_DEAL + TURNS.replace("ACTIONS", """action discard c in hand(turn):
                    move c to pile
                    set to_act = turn
                    if card(base, c.suit) in pile:
                        move card(1, Red) to pile""")
    md = render_markdown(written(tmp_path, "words.cards", text))
    assert "the card of *c*'s suit whose rank is the base" in md and "the the base" not in md, md
    assert "the 1 of Red" in md
    assert "Set the player to act to " in md
    assert "the player to act (`to_act`), a player" in md and "the to act" not in md


def test_not_a_and_b_does_not_read_as_not_both(tmp_path):
    """A new user's Chemin de Fer: `not can_bank(banker) and count(players_in_play) >= 2` read
    "If it is not the case that the banker can bank and the number of players ... is at least 2",
    which says not (A and B)."""
    text = MINI_HEAD.replace("define points", "define can_bank(p: player) = count(hand(p)) > 1\ndefine points") + \
        MINI_DEAL + TURNS.replace("ACTIONS", """action discard c in hand(turn):
                    move c to pile
                    if not can_bank(turn) and count(pile) >= 2:
                        move top(stock) to pile""")
    md = render_markdown(written(tmp_path, "not.cards", text))
    assert "If (it is not the case that the turn *can bank*) and the number of cards" in md, \
        [ln for ln in md.splitlines() if "can bank" in ln]


def test_a_winner_named_in_a_procedure_is_in_how_to_win():
    """Jass, by a new user, names the winner in a procedure each scoring rule performs: 'How to win'
    said only 'at the end: the highest score'. Blackjack's Going over and Settling alike."""
    md = render_markdown(load_ruleset(ROOT / "rulesets" / "classic" / "blackjack.cards"))
    head = md.split("## Contents")[0]
    assert "- **Decided at once:** by one of these rules:" in head and "*Going over*" in head and "*Settling*" in head
    assert "The rules *Going over* and *Settling* can name the winner outright" in md


def test_no_player_in_play_reads_as_english(tmp_path):
    """A new user's Durak: count(players_in_play) == 0 read 'the players still in play is empty'."""
    text = MINI_HEAD + MINI_DEAL + TURNS.replace("ACTIONS", """action discard c in hand(turn):
                    move c to pile
                    if count(players_in_play) == 0 or count(players_in_play) > 0:
                        pass""")
    md = render_markdown(written(tmp_path, "nobody.cards", text))
    assert "If no player is still in play, or some player is still in play:" in md, \
        [ln for ln in md.splitlines() if "in play" in ln]


def test_an_authors_description_put_mid_sentence_loses_its_capital(tmp_path):
    """A new user's Schafkopf: "A player's total is The player's score over the deals so far."."""
    text = MINI_HEAD.replace("define points(p: player) = count(hand(p))\n",
                             "define points(p: player) = count(hand(p))\n    text \"The cards the player still holds.\"\n") \
        + MINI_DEAL + DISCARDS
    md = render_markdown(written(tmp_path, "mid.cards", text))
    assert "A player's *points* is the cards the player still holds:" in md, \
        [ln for ln in md.splitlines() if "A player's" in ln]


def test_words_found_wrong_by_new_users_in_6_nimmt_and_preferans(tmp_path):
    """`while any(chosen)` (one zone a player) read 'as long as every player's card chosen is not
    empty', the opposite quantifier; `(v / 2) * (a - b)` read 'v divided by 2 times (a minus b)';
    `while not (count(those q ...) == 3 or ...)` read 'as long as it is not the case that the number
    of players in the players q such that q's passed is 3, or (...)', the negation's reach unclear;
    `c.order + 1` did not say that a rank position counts from 0."""
    text = MINI_HEAD.replace("zone pile shared public\n", "zone pile shared public\nzone chosen per player public \"card chosen\"\n"
                             ).replace("var turn: player = seat(1)\n", "var turn: player = seat(1)\nvar passed(p: player): bool = false\n"
                                       "var v: int = 4\nvar x: int = 0\n") + MINI_DEAL + """    rule loop "Loop":
        while any(chosen):
            pass
        while no(chosen):
            set x = (v / 2) * (v - x)
        while not (count(those q in players where passed(q)) == 3 or (x > 2 and v > 0)):
            set x = x + top(pile).order + 1
"""
    md = render_markdown(written(tmp_path, "words.cards", text))
    assert "As long as some player's card chosen is not empty:" in md, md
    assert "As long as every player's card chosen is empty:" in md
    assert "Set the x to (the v divided by 2) times (the v minus the x)." in md, md
    assert ("Until there are exactly 3 players *q* such that *q*'s passed is true, or (the x is more than 2 and "
            "the v is more than 0), repeat:") in md
    assert "A card's rank position counts from 0: the lowest rank of its suit's ranking is at 0" in md


def test_words_found_ambiguous_by_a_new_user_in_tichu_and_big_two(tmp_path):
    """'2 if *kind of* holds for S and 2, otherwise ...' (the 2 read as a condition); 'n if A, or B,
    otherwise ...'; 'of the cards x in the hand such that x's suit is s such that the number of cards
    in S ...' (two such-thats, one inside the other)."""
    text = MINI_HEAD.replace("define points(p: player) = count(hand(p))\n", """define points(p: player) = count(hand(p))
define kind_of(S: cards, n: int) = count(S) == n
define charge(n: int) = if n > 5 or n < 2 then n elif kind_of(hand(turn), 2) then 2 * n else 3 * n
""") + MINI_DEAL + TURNS.replace("ACTIONS", """action lay S subset of (those x in hand(turn) where x.suit == Red) where count(S) >= 2:
                    move S to pile""")
    md = render_markdown(written(tmp_path, "tichu.cards", text))
    assert "*n* if (*n* is more than 5, or *n* is less than 2), otherwise (2 times *n*) if *kind of* holds for " \
        "(the turn's hand, 2), otherwise 3 times *n*" in md.replace("the *turn*'s", "the turn's"), md
    assert "any set *S* of one or more cards of (the cards *x* in the turn's hand such that *x*'s suit is Red) " \
        "such that the number of cards in *S* is at least 2" in md.replace("the *turn*'s", "the turn's"), md


def test_a_procedure_performed_by_another_says_so(tmp_path):
    """A new user's Love Letter: `knock_out`, performed by a rule and by the procedure `prince_effect`,
    read 'Used in: The match, rule 3', as if that rule alone used it."""
    text = MINI_HEAD + """procedure tidy(p: player):
    move top(hand(p)) to pile
procedure both(p: player):
    perform tidy(p)
    perform tidy(next(p))
""" + MINI_DEAL + TURNS.replace("ACTIONS", """action discard c in hand(turn):
                    perform both(turn)""")
    md = render_markdown(written(tmp_path, "procs.cards", text))
    assert "Used in: Play, rule 2; performed by the procedure *both*." in md.replace("[*both*](#procedure-both)", "*both*"), md
