"""Small games the tests of several rooms share: `BASE` is a two-player game with a deal and a
turn whose VARS and ACTIONS a test replaces (the engines' agreement tests, the batches of
games); `TINY`, a whole two-player game of three cards a hand, each trick to its highest card
(the command line's tests, the bots'); `MINI`, two players discarding in turn, a definition with
its text (the studio's tests, in the server and in the browser). MINI's pieces (`MINI_HEAD`,
`MINI_DEAL`, `TURNS`, `DISCARDS`) start the engine's and the rulebook's own small games;
`ROADS`, a patience whose advice favours a road that cannot be won, and `DRAWS`, one where the
cards hidden decide (the planning player's tests, on both engines); `KEEPING`, a game for one
that names no winner and keeps a score, and `KEEPING_ADVISED`, the same with advice (the players'
and balance's tests of a game whose every end is the player's "win"); `written` and `HtmlChecker`
serve the rooms that load a game from a file or read an HTML page."""

from __future__ import annotations

from html.parser import HTMLParser

# MINI's players, six cards, a hand each and a pile, whose turn it is, and the fewest cards held
# wins: a test adds its own definitions, procedures and phases
MINI_HEAD = """game mini "Mini"
players 2
deck d:
    suits Red, Blue
    ranks 1..3
zone stock shared hidden
zone hand per player owner
zone pile shared public
var turn: player = seat(1)
define points(p: player) = count(hand(p))
winner fewest points
"""

# the one phase of MINI and BASE: three cards each, then TURNS
MINI_DEAL = """phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
"""

# turns round the table until the player to move holds nothing, each a choice of ACTIONS
TURNS = """    while count(hand(turn)) > 0:
        rule discard "Discard":
            choose by turn:
                ACTIONS
            set turn = next(turn)
"""

# MINI's turns: discard any card
DISCARDS = TURNS.replace("ACTIONS", """action discard c in hand(turn):
                    move c to pile""")

BASE = """game agree "Agree"
players 2
deck d:
    suits Red, Blue
    ranks 1..4
zone stock shared hidden
zone hand per player owner
zone pile shared public
var turn: player = seat(1)
VARS
define hit(g: cards) = (count x in g where x.suit == Red) >= 1
define rest(g: cards) = true
define points(p: player) = count(hand(p))
winner fewest points
""" + MINI_DEAL + TURNS

TINY = '''game tiny "Tiny"
players 2

deck small "Small pack":
    suits Red, Blue
    ranks 1..3

zone stock shared hidden "pack"
zone hand per player owner "hand"
zone pile shared public "pile"
zone won per player public "won"

var leader: player

define cards_won(p: player) = count(won(p))

winner most cards_won

phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
    while any c in cards where c in hand:
        rule turn "A turn":
            for each player p:
                choose by p:
                    action play c in hand(p) "Play a card.":
                        move c to pile
            let best = highest c in pile
            set leader = best.played_by
            move pile to won(leader)
'''

MINI = MINI_HEAD.replace("define points(p: player) = count(hand(p))\n", """define points(p: player) = count(hand(p))
    text "the cards a player still holds"
""") + MINI_DEAL + DISCARDS


def written(tmp_path, name: str, text: str):
    """The ruleset of TEXT written to the file NAME and loaded from it, as a player's file is."""
    from interpreter import load_ruleset
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_ruleset(path)


class HtmlChecker(HTMLParser):
    """Reads a page, keeping what makes it well formed or not: `errors` (an end tag that closes
    another, a void element closed, a self-closing element outside SVG), `stack` (the elements
    left open), `doctype`, the `ids`, and the links within the page (`hrefs`; `toc_hrefs`, those of
    the contents)."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.toc_hrefs: list[str] = []
        self.in_toc = 0
        self.doctype = False

    def handle_decl(self, decl):
        self.doctype = decl.lower() == "doctype html"

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "nav" and "toc" in (a.get("class") or ""):
            self.in_toc = len(self.stack) + 1
        if tag == "a" and a.get("href", "").startswith("#"):
            self.hrefs.append(a["href"][1:])
            if self.in_toc:
                self.toc_hrefs.append(a["href"][1:])
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if "svg" in self.stack:  # inline SVG is foreign content: <path/> is well-formed there
            a = dict(attrs)
            if "id" in a:
                self.ids.append(a["id"])
            return
        if tag not in self.VOID:
            self.errors.append(f"self-closing <{tag}/>")

    def handle_endtag(self, tag):
        if tag in self.VOID:
            self.errors.append(f"end tag for void <{tag}>")
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
            return
        self.stack.pop()
        if self.in_toc and len(self.stack) < self.in_toc:
            self.in_toc = 0


# two players discard four cards each, the last one played kept: a score the test writes (SCORE:
# may be none before a card is played, or past 64 bits), for the players' look-ahead in C and
# in Python; ADVICE a line of advice, or nothing
SCORED = """game look "Look"
players 2
deck d:
    suits Red, Blue
    ranks 1..5
    value pips: 1 = 1, 2 = 2, 3 = 3, 4 = 4, 5 = 5
zone stock shared hidden
zone hand per player owner
zone pile shared public
var turn: player = seat(1)
var last: card
define points(p: player) = SCORE
winner WINNER points
ADVICE
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 4 from stock to each hand
    while count(hand(turn)) > 0:
        rule discard "Discard":
            choose by turn:
                action discard c in hand(turn):
                    move c to pile
                    set last = c
            set turn = next(turn)
"""


def scored(score: str, winner: str = "most", advice: str | None = None) -> str:
    """SCORED with its score, its winner rule and an advice (a name and its value), if any."""
    return SCORED.replace("SCORE", score).replace("WINNER", winner).replace(
        "ADVICE\n", f'advice {advice} "Keep an eye on it."\n' if advice else "")


# MINI up to its deal (15 lines), then the rest of the phase a test writes as {body}: the engine's
# own small games (a test checking an error's line counts from here)
MINI_BODY = MINI_HEAD + MINI_DEAL + "{body}\n"


def mini_game(body: str, players: int = 2, **kw):
    """A new game of MINI_BODY with `body` as the rest of its phase."""
    from interpreter import loads_ruleset, new_game
    return new_game(loads_ruleset(MINI_BODY.replace("{body}", body), "mini.cards"), players, **kw)


# A patience for one: the first move takes the left road or the right. The advice favours the
# left, where fourteen cards may be laid down in any order (2**14 layouts) and the game is then
# lost; on the right, the next move wins. Nothing is shuffled: every seed deals the same game.
ROADS = """game roads "Two roads"
players 1
at most 200 decisions
deck tiny:
    suits Red, Blue, Green
    ranks 1..5
zone stock shared public
zone start shared public
zone left shared public
zone right shared public
zone done shared public
advice lure(p: player) = 10 * count(left) + count(done) "The left road looks the better."
phase deal "Deal" then play:
    rule deal "Deal":
        move card(1, Red) to start
phase play "Play":
    repeat:
        rule lost "Losing" when not can_move(seat(1), moves):
            declare winner none
            end game
        rule moves "Moving":
            choose by seat(1):
                action go_left when count(start) > 0:
                    move top(start) to left
                action go_right when count(start) > 0:
                    move top(start) to right
                action drop c in stock where count(left) > 0:
                    move c to done
                action arrive when count(right) > 0:
                    declare winner seat(1)
                    end game
"""


# A patience for one whose cards are hidden: four cards face down, and one decision. The long
# shot turns up one card and wins if it is the 4; the sure thing turns up two and wins whatever
# they are (SURE says when); then a look at them, and the game is judged. Before a card shows, the
# two moves look alike, and the long shot is offered first.
DRAWS = """game draws "Two draws"
players 1
deck tiny:
    suits Red
    ranks 1..4
zone stock shared hidden
zone drawn shared public
var route: int = 0
phase deal "Deal" then play:
    rule deal "Deal":
        shuffle stock
phase play "Play":
    rule choose "Choosing":
        choose by seat(1):
            action long_shot:
                set route = 1
                move top(stock) to drawn
            action sure_thing:
                set route = 2
                move top(stock) to drawn
                move top(stock) to drawn
    rule look "Looking":
        choose by seat(1):
            action look:
                pass
    rule judge "Judging":
        if (route == 1 and card(4, Red) in drawn) or (route == 2 and SURE):
            declare winner seat(1)
        else:
            declare winner none
        end game
"""


# three players, two of them asked at once (`choose by each`), a declared winner
CLAIMS = """game claims "Claims"
players 3
deck d:
    suits Red, Blue
    ranks 1..3, King
    cards 1..3 of Red, Blue copies 2
    cards King of Red
zone stock shared hidden
zone hand per player owner
zone pile shared public
var claim(p: player): int = 0
phase play "Play":
    rule deal "Deal":
        deal 2 from stock to each hand
    rule claims "Claims":
        choose by each p in (those q in players where q != seat(1)):
            action claim n in 1..2 "Claim.":
                set claim(p) = n
            action pass "Pass.":
                pass
        declare winner (those q in players where claim(q) == 2)
"""


# a game that ends when a player stops it: a random line through it mostly waits until the game's
# bound (six decisions), which the players here never reach
WAITING = '''game waiting "Waiting"
players 2
at most 6 decisions

deck small "Small pack":
    suits Red
    ranks 1..4

zone stock shared hidden "pack"
zone hand per player owner "hand"
var turn: player = seat(1)
var done: bool = false

define score(p: player) = sum c in hand(p): c.order
winner most score

phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 1 from stock to each hand
    while not done:
        rule turn "A turn":
            choose by turn:
                action stop "End the game.":
                    set done = true
                action wait k in 1..9 "Wait.":
                    set turn = next(turn)
'''


# P2's card is never the 1 (the pack is not shuffled: the 3 goes to P1, the 2 to P2, the 1 stays in
# the pack), but P1 cannot know it, and where P2 holds the 1 looking divides by zero: a failure only
# the players' samples meet
LATENT = '''game latent "Latent"
players 2
at most 10 decisions

deck small "Small pack":
    suits Red
    ranks 1..3

zone stock shared hidden "pack"
zone hand per player owner "hand"
var x: int = 0

define score(p: player) = x
winner most score

phase play "Play":
    rule deal "Deal":
        deal 1 from stock to each hand
    rule check "Check":
        choose by seat(1):
            action look "Look.":
                if top(hand(seat(2))).order == 0:
                    set x = 1 / 0
            action skip "Skip.":
                set x = 1
'''


# a game for one that names no winner and keeps a score, the fewer the better: `stop` ends it at
# once with every card left counted, `discard` throws one away. Every end is the player's "win",
# so only the score tells a careful player (four discards, then stop) from a careless one
KEEPING = """game keeping "Keeping count"
players 1
at most 20 decisions
deck d:
    suits Red
    ranks 1..4
zone stock shared hidden "stock"
zone pile shared public "pile"
define score(p: player) = count(stock)
winner fewest score
phase play "Play":
    repeat:
        rule turn "Turn":
            choose by seat(1):
                action discard when count(stock) > 0 "Throw a card away.":
                    move top(stock) to pile face up
                action stop "Stop.":
                    end game
"""

KEEPING_ADVISED = KEEPING.replace("winner fewest score\n", "winner fewest score\n"
                                  'advice fewer(p: player) = 0 - count(stock) "The fewer cards left, the better."\n')
