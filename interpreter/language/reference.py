"""The card-game language's vocabulary as data: every construct of the grammar, every built-in
function and name, and the attributes of cards and zones, each with its form, a few plain words
and one example. `interpreter.render.reference` prints it as generated_docs/language.md and .html.

A form writes what the author types in lower case, what they fill in in CAPITALS (NAME, ZONE,
COND, ...), optional parts in [brackets], alternatives with |, and repetition with ...

Each example is checked by tests/language/test_language_reference.py: it is placed, according to its
entry's `place`, into a small game (the one EXAMPLE_SETTING describes) and must load. The places:

* `header`: the first line of a game file, in place of the game's own;
* `variant_header`: the first line of a variant of that game (written to the file it names);
* `item`: at the top level of the game, before its phase (a `deck` or `players` example takes the place
  of the game's own deck or players line);
* `variant_item`: at the top level of a variant of the game;
* `deck_line`: a line inside the game's deck block;
* `statement`: in the body of a rule, where `p` is a player, `c` and `d` are cards;
* `expression`: as the body of a definition with parameters `p: player`, `c: card`, `d: card`.

Nothing here is read by the parser, the compiler or the engine.
"""

from __future__ import annotations

from typing import NamedTuple


class Entry(NamedTuple):
    """One thing an author can write."""

    name: str     # what the entry is called: a keyword, a built-in's name or a short phrase
    form: str     # the syntax
    words: str    # what it does and why one uses it, in plain words
    example: str  # one example in the language (several lines for a block)
    place: str    # where the example goes in a game (see the module's docstring)


class Section(NamedTuple):
    id: str
    title: str
    intro: str
    entries: tuple[Entry, ...]


PLACES = ("header", "variant_header", "item", "variant_item", "deck_line", "statement", "expression")

EXAMPLE_SETTING = (
    "The examples are written for one small game, so that they can be tried as they stand: a standard "
    "deck (suits Clubs, Diamonds, Hearts, Spades; ranks 2..10, Jack, Queen, King, Ace, lowest first; the "
    "group `courts` and the card value `points`), the zones `stock` (shared and face down; all cards start "
    "there), `hand` and `won` (one of each per player), `pile` (shared, face up) and `spot(1)` ... `spot(4)`, "
    "the option `target`, the variables `dealer`, `leader` and `chips(p)`, the definitions `score(p)`, "
    "`meld(g)`, `pair(g)`, `meld_score(g)` and `adds_to(g, v)`, and the procedure `draw(p)`. Its one phase is `play`, with "
    "the rule `turn`. Inside an expression or a statement, `p` is a player and `c` and `d` are cards.")

LIMITS_INTRO = (
    "Every size a file can state has a limit, far above what card games need, so that checking or playing "
    "any file stays within a few hundred megabytes and a few seconds. `cardrules check` says where a file "
    "passes one, before anything that size is made. A range worked out while playing (`1..x`, with `x` a "
    "variable) that is longer than its limit stops the game with an error at its statement, on both engines.")

NOTATION = (
    "In a form, words in lower case and signs (`:`, `=`, `(`, `,` ...) are typed as they stand; words in "
    "CAPITALS stand for something you fill in (NAME a name, N a number, COND a condition, ZONE a zone, SET a "
    "collection, ...); [brackets] mark an optional part, | separates alternatives ({braces} group them) and "
    "... means \u201cas many more as you like\u201d. A line ending in a colon opens a block: the lines below "
    "it, indented further.")


# ------------------------------------------------------------------ the constructs

_FILE = Section("file", "File and header", "A file is one game, or one variant of a game. Its first line says which.", (
    Entry("game", 'game NAME ["TITLE"]',
          "The first line of a game's file: the name the game is known by (one word of letters, digits and _) "
          "and the title its rulebook prints.",
          'game whist "Whist"', "header"),
    Entry("variant", 'variant NAME ["TITLE"] of "FILE"',
          "The first line of a variant: the game is the one in FILE (a path from this file's folder, or "
          "bundled:NAME for a game that comes with cardrules, as `cardrules list` names it, found wherever "
          "cardrules is installed), and the rest of this file says only what is different. See the section "
          "on variants.",
          'variant short_game "The short game" of "example.cards"', "variant_header"),
    Entry("players", "players N | players N..M",
          "How many players the game is for: exactly N, or any number from N to M. Seats are numbered from 1.",
          "players 3..5", "item"),
    Entry("turn order", "turn order clockwise | turn order anticlockwise",
          "Which way round the table play passes; clockwise when not said. Seats are numbered in the "
          "order of play either way, so `next(p)` is always the player who plays after `p`.",
          "turn order anticlockwise", "item"),
    Entry("at most", "at most N decisions",
          "A promise that no game takes more than N decisions. The rulebook states it, the fuzzer "
          "plays many games to check it, and play stops with an error, at the rule asking for one "
          "decision more, in a game that is not over after N. Without it the bound is 100,000 "
          "decisions.",
          "at most 400 decisions", "item"),
    Entry("comments", "# COMMENT",
          "Everything from # to the end of the line is for people only; the rules ignore it.",
          "# The dealer's left-hand neighbour leads to the first trick.", "item"),
    Entry("long lines", "... \\",
          "A backslash at the very end of a line joins the next line to it, so that a long condition can be "
          "written over several lines.",
          "define strong(p: player) = count(hand(p)) >= 5 and \\\n"
          "    (count c in hand(p) where c.rank in courts) >= 2", "item"),
))

_DECK = Section("deck", "The deck", "Which cards there are, how they rank, and what they are worth.", (
    Entry("deck", 'deck NAME ["TITLE"]:',
          "Declares the cards, in a block of the lines below. `suits` and `ranks` are required; every other "
          "line is optional. A game has one deck; a variant may declare another in its place.",
          'deck piquet "Piquet pack":\n'
          "    suits Clubs, Diamonds, Hearts, Spades\n"
          "    ranks 7..10, Jack, Queen, King, Ace", "item"),
    Entry("suits", "suits SUIT, ...",
          "The names of the suits. Each is a value in expressions (`c.suit == Hearts`), and `suits` is the "
          "collection of them, in this order.",
          "suits Clubs, Diamonds, Hearts, Spades", "deck_line"),
    Entry("ranks", "ranks RANK, ... (a RANK may be a range N..M)",
          "The ranks from lowest to highest: the ranking every suit follows unless an `order for` line gives it "
          "its own. `2..10` stands for the numbers 2 to 10.",
          "ranks 2..10, Jack, Queen, King, Ace", "deck_line"),
    Entry("copies", "copies N",
          "Every card of the deck N times over (1 when not said). The copies are separate cards in play.",
          "copies 2", "deck_line"),
    Entry("cards", "cards RANK, ... of SUIT, ... [copies N]",
          "For a deck that is not every rank in every suit: the deck is then exactly the cards its `cards` "
          "lines list, each line with its own number of copies. The ranks and suits named must be declared.",
          "cards 9..10, Jack, Queen, King, Ace of Clubs, Diamonds, Hearts, Spades copies 2", "deck_line"),
    Entry("order for", "order for SUIT, ...: RANK, ...",
          "Gives the suits named a ranking of their own, lowest to highest, listing every rank once. Card "
          "comparisons, `.order`, `highest`, `lowest`, `above` and `below` follow each card's own suit.",
          "order for Hearts, Diamonds: Ace, 2..10, Jack, Queen, King", "deck_line"),
    Entry("group", "group NAME: RANK, ...",
          "Names a set of ranks, to test a card's rank against (`c.rank in honours`).",
          "group honours: 10, Jack, Queen, King, Ace", "deck_line"),
    Entry("value", "value NAME: RANK = N, ...",
          "Gives every card a number by its rank, read as `c.NAME`: points to count, or a number to add "
          "up. Ranks not listed are worth 0; a value may be negative (`Jack = -1`).",
          "value honour: Ace = 4, King = 3, Queen = 2, Jack = 1", "deck_line"),
))

_ZONES = Section("zones", "Zones, options and variables", "Where cards can lie, the choices agreed before a game, "
                 "and what the game keeps track of.", (
    Entry("zone", 'zone NAME {shared | per player} {hidden | owner | others | public} ["TITLE"]',
          "A place where cards lie in a pile: one for the table (`shared`) or one for each player "
          "(`per player`). `hidden` cards lie face down, `owner` cards are seen by their owner only (a hand), "
          "`others` cards by everyone but their owner (a hand held facing the table), "
          "`public` cards lie face up. Every card starts in the first zone declared.",
          'zone tricks per player hidden "tricks won"', "item"),
    Entry("zone family", 'zone NAME[N] shared {hidden | owner | others | public} ["TITLE"]',
          "N shared zones of one kind, `NAME(1)` to `NAME(N)`: the columns of a patience, the places on a "
          "table. The brackets around N are typed. `zones(NAME)` is the collection of them.",
          'zone foundation[4] shared public "foundation"', "item"),
    Entry("option (yes or no)", 'option NAME: bool = {true | false} ["WHAT IT DOES"]',
          "A house rule that is on or off, chosen before a game (`--option NAME=true` on the command line). "
          "In expressions the name is its value.",
          'option must_overtake: bool = false "A player who follows suit must beat the trick if able."', "item"),
    Entry("option (one of)", 'option NAME: one of VALUE, ... = VALUE ["WHAT IT DOES"]',
          "A choice among named values; test it with `NAME == VALUE`.",
          'option length: one of short, long = short "Play to 5 points or to 10."', "item"),
    Entry("option (a number)", 'option NAME: N..M = N ["WHAT IT DOES"] | option NAME: int = N ["WHAT IT DOES"]',
          "A whole number chosen before the game: from N to M, or any with `int`.",
          'option hand_size: 5..10 = 7 "How many cards each player is dealt."', "item"),
    Entry("var", "var NAME: TYPE [= VALUE]",
          "A value the game keeps and the rules change with `set`, such as the dealer or the trump suit. "
          "Everyone can see it. It starts as VALUE, or as `none` (a collection, such as `cards`, starts empty). "
          "Indented `text` and `note` lines below it say what it is for; the rulebook prints them.",
          'var trumps: suit\n    text "The suit that beats every other suit this deal."', "item"),
    Entry("private var", "private var NAME: TYPE [= VALUE]",
          "A variable only the rules read: the rules' own bookkeeping (a limit, a card being tested, a flag). "
          "It plays as any other variable, but no player sees it: it is in no player's view, at the table, "
          "at the terminal or in the adapters' observations, and the rulebook lists it as the rules' own. "
          "`private var NAME(p: player): TYPE` keeps one per player, seen by nobody, that player included.",
          "private var draws_left: int = 3", "item"),
    Entry("var per player", "var NAME(p: player): TYPE [= VALUE]",
          "One value for each player, read as `NAME(p)` and changed with `set NAME(p) = ...`; VALUE may use `p`.",
          "var bid(p: player): int = 0", "item"),
    Entry("types", "card | cards | player | players | int | ints | bool | suit | rank | zone | zones",
          "The kinds of value a variable or a parameter holds: a card, a player, a whole number, true or false, "
          "a suit, a rank, a zone; the plural kinds are collections of them.",
          "define beats(c: card, d: card, trump: suit) = if c.suit == d.suit then c > d else c.suit == trump",
          "item"),
))

_DEFINITIONS = Section("definitions", "Definitions and advice", "Naming what the rules talk about, and saying "
                       "what a good position looks like.", (
    Entry("define", "define NAME[(PARAM: TYPE, ...)] = EXPRESSION",
          "Gives a name to a value or a test, worked out afresh each time it is used; the rulebook prints it "
          "under \u201cTerms\u201d, in the author's words (an indented `text` line) and then precisely. "
          "Definitions may use one another, but cannot change the game.",
          "define void(p: player, s: suit) = no c in hand(p) where c.suit == s\n"
          '    text "the player holds no card of the suit"', "item"),
    Entry("advice", 'advice NAME(p: player) = NUMBER "AIM"',
          "How well a player stands, as a number: the higher, the better. The rules never read it; the "
          "rulebook prints it as advice, and the computer players steer by it. Several advice lines add up.",
          'advice high_cards(p: player) = sum c in hand(p): c.order "Keep your high cards for later."', "item"),
    Entry("procedure", "procedure NAME[(PARAM: TYPE, ...)]:",
          "A named block of statements that several rules share; `perform NAME(...)` runs it.",
          "procedure discard(q: player, x: card):\n"
          "    move x to pile face up", "item"),
))

_PLAY = Section("play", "Phases and rules", "The play itself: phases that follow one another, made of rules.", (
    Entry("phase", 'phase NAME ["TITLE"] [then NEXT]:',
          "A stage of the game, such as the deal or the play. The game starts with the first phase declared, "
          "runs its statements in order and then goes on with phase NEXT, or ends when there is none.",
          'phase deal "Dealing" then play:\n'
          "    shuffle stock\n"
          "    deal 5 from stock to each hand", "item"),
    Entry("rule", 'rule NAME ["TITLE"] [when COND]:',
          "A rule of the game, as the rulebook numbers it and the statistics count it: its statements run "
          "when play reaches it, and, with `when`, only if COND holds then. Rule names are unique.",
          'rule draw "Drawing" when count(stock) > 0:\n'
          '    text "Draw the top card of the stock."\n'
          "    move top(stock) to hand(p)", "statement"),
))

_STATEMENTS = Section("statements", "Statements", "What happens: the lines inside phases, rules, procedures and "
                      "actions, run from top to bottom.", (
    Entry("shuffle", "shuffle ZONE",
          "Puts the cards of ZONE in a random order (seeded, so a game can be replayed).",
          "shuffle stock", "statement"),
    Entry("deal", "deal N from ZONE to each ZONE [in play] [starting {after | from} PLAYER] [face up [if COND]]",
          "Gives N cards from the top of the first zone to each zone of a per-player kind (or of a family), "
          "N at a time, in seat order: from seat 1, from PLAYER, or from the player after PLAYER. "
          "`in play` passes over the players dropped from play (`drop P from the round`). "
          "`face up` deals them face up (when COND holds). A first zone that runs out is no error: the "
          "players dealt to after that get fewer cards, or none (6 cards dealt 4 each give 4 and 2), so a "
          "game whose pack may be too small for its players tests count(ZONE) first, or bounds an option.",
          "deal 5 from stock to each hand starting after dealer", "statement"),
    Entry("move", "move CARDS to ZONE [face up [if COND]]",
          "Puts a card, or every card of a collection, on top of ZONE. The zone decides who sees them; "
          "`face up` shows them to everyone (when COND holds) until they go to a hidden zone.",
          "move c to pile face up", "statement"),
    Entry("move under", "move CARDS under ZONE [face up [if COND]]",
          "Like `move ... to`, but puts the cards at the bottom of ZONE.",
          "move top(pile) under stock", "statement"),
    Entry("reveal", "reveal CARDS",
          "Turns a card, or cards, face up where they lie, so that everyone sees them.",
          "reveal top(stock)", "statement"),
    Entry("turn face down", "turn CARDS face down",
          "Turns a card, or cards, face down where they lie (closing the stock, say): from then on only the "
          "players who may look into their zone see them (nobody, in a hidden zone; their owner, in a hand). "
          "Cards lying face down already stay so.",
          "turn bottom(stock) face down", "statement"),
    Entry("tell", "tell {suit | rank} of CARDS to PLAYER",
          "A hint: PLAYER is told the suit (or the rank) of a card, or of each card of a collection. It is "
          "kept with each card for that player, wherever the card goes, and shown in that player's view of "
          "the card where they cannot see it (place by place, in zones they cannot look into). Only what is "
          "told is kept: that the other cards are not red is for the player to work out.",
          "tell suit of those c in hand(next(p)) where c.suit == Hearts to next(p)", "statement"),
    Entry("let", "let NAME = VALUE",
          "A name for a value, for the rest of the block. A zone is taken as the cards in it now.",
          "let lead = first(pile)", "statement"),
    Entry("set", "set NAME = VALUE | set NAME(PLAYER) = VALUE",
          "Changes a variable (`var`), or one player's value of a per-player variable.",
          "set chips(p) = chips(p) - 1", "statement"),
    Entry("perform", "perform NAME[(VALUE, ...)]",
          "Runs a procedure with the values given for its parameters.",
          "perform draw(p)", "statement"),
    Entry("if", "if COND: ... [elif COND: ...] ... [else: ...]",
          "Runs the first block whose condition holds, or the `else` block when none does.",
          "if count(stock) > 0:\n"
          "    move top(stock) to hand(p)\n"
          "elif count(pile) > 1:\n"
          "    move bottom(pile, count(pile) - 1) to stock\n"
          "    shuffle stock\n"
          "else:\n"
          "    end game", "statement"),
    Entry("while", "while COND:",
          "Runs its block again and again as long as COND holds, testing it before each time.",
          "while count(hand(p)) < 5 and count(stock) > 0:\n"
          "    move top(stock) to hand(p)", "statement"),
    Entry("repeat", "repeat:",
          "Runs its block again and again until a `break`, or until the game ends.",
          "repeat:\n"
          "    move top(stock) to pile\n"
          "    if top(pile).suit == Hearts or count(stock) == 0:\n"
          "        break", "statement"),
    Entry("for each player", "for each player NAME [in play] [{after | from} PLAYER]:",
          "Runs its block once for each player in the order of play: from seat 1, from PLAYER, or for every "
          "other player beginning after PLAYER. With `in play`, a player who is out of play (see `drop`) when "
          "their turn comes is passed over.",
          "for each player q after p:\n"
          "    set chips(q) = chips(q) - 1\n"
          "    set chips(p) = chips(p) + 1", "statement"),
    Entry("for each", "for each NAME in SET:",
          "Runs its block once for each element of a collection, in its order, with NAME standing for it. "
          "The collection is taken as it is when the loop starts.",
          "for each x in hand(p):\n"
          "    if x.suit == Hearts:\n"
          "        move x to won(p)", "statement"),
    Entry("break", "break",
          "Leaves the innermost loop (`while`, `repeat`, `for each`) at once.",
          "while count(stock) > 0:\n"
          "    move top(stock) to hand(p)\n"
          "    if top(hand(p)).rank == Ace:\n"
          "        break", "statement"),
    Entry("pass", "pass",
          "Does nothing: for a block that must say something but has nothing to do.",
          "if any x in hand(p) where x.suit == Hearts:\n"
          "    pass\n"
          "else:\n"
          "    move top(stock) to hand(p)", "statement"),
    Entry("drop", "drop PLAYERS from the {round | game}",
          "Takes a player (or players) out of play: for the round (folded, gone out, safe), until the next "
          "`new round`, or for the rest of the game. A player out of play is passed over by `for each player "
          "... in play`, is not in `players_in_play`, fails `in_play(p)` and is skipped by `next q after p "
          "where in_play(q)`; `players`, `next(p)` and `for each player` without `in play` still count "
          "everyone. Who is out is public: every seat's view shows it.",
          "drop p from the round", "statement"),
    Entry("new round", "new round",
          "The next deal in this language's terms: every player dropped from the round is in play again "
          "(those dropped from the game stay out). Write it where a new hand begins, before the deal.",
          "new round\n"
          "deal 5 from stock to each hand", "statement"),
    Entry("end game", "end game",
          "Ends the game at once. The winners are then the ones declared, or else those the `winner` line picks.",
          "if count(stock) == 0:\n"
          "    end game", "statement"),
))

_CHOICES = Section("choices", "Choices", "Where players decide. Every legal way to take an action is one move; "
                   "the action's block then runs.", (
    Entry("choose by", "choose by PLAYER:",
          "PLAYER decides, picking one move among the actions listed in the block. Make sure one action is "
          "always legal (an action to pass is the usual way).",
          "choose by p:\n"
          '    action play x in hand(p) "Play a card.":\n'
          "        move x to pile face up\n"
          '    action knock "Knock.":\n'
          "        end game", "statement"),
    Entry("action", 'action NAME [NAME in SET] [where COND] [when COND] ["LABEL"]:',
          "One kind of move. With a parameter, each element of SET for which the `where` condition holds is a "
          "separate move; `when` allows the whole action only while COND holds. The label is what a player "
          "at the table reads.",
          "choose by p:\n"
          '    action follow x in hand(p) where x.suit == d.suit when count(pile) > 0 "Follow suit.":\n'
          "        move x to pile face up", "statement"),
    Entry("action with several parameters", "action NAME NAME in SET, NAME in SET, ... [where COND] ...:",
          "A move made of several choices at once, such as a card and where it goes: each combination for "
          "which the `where` condition holds is one move.",
          "choose by p:\n"
          '    action place x in hand(p), z in zones(spot) where count(z) == 0 "Put a card on an empty spot.":\n'
          "        move x to z face up", "statement"),
    Entry("subset", "action NAME [NAME in SET, ...] NAME subset of CARDS [, ...] [where COND] ...:",
          "A move that takes a set of cards: every set of one or more cards of CARDS (a zone, or any collection "
          "of cards) for which the `where` condition holds is one move, written with its cards in the deck's "
          "order (`capture 7-Hearts 3-Spades 4-Clubs`). An empty set is never offered: write another action "
          "for taking nothing. Inside, the set is a collection of cards (`count`, `sum`, `those`, `all`, `in`, "
          "`move S to ...`). The sets are listed by their masks over the cards of CARDS, in its order, lowest "
          "first. A part of `where` that says `(sum x in S: VALUE) == TOTAL` finds the sets that add up "
          "without trying the others (put the set after the parameters TOTAL names), and `count(S) <= N` (or "
          "`==`, `<`, `>=`, `>`) tries only sets of so many cards. A set is chosen among at most 20 cards, "
          "the search tries at most 16384 sets (every set of 14 cards, when nothing cuts it) and one decision "
          "offers at most 4096 sets for it: past any of these, the game stops with an error that names the action.",
          "choose by p:\n"
          '    action capture c in hand(p), S subset of pile where (sum x in S: x.points) == c.points "Capture.":\n'
          "        move S to won(p)\n"
          "        move c to won(p)", "statement"),
    Entry("choose by each", "choose by each NAME in PLAYERS:",
          "Several players decide at the same point, in any order: each player of the collection picks one "
          "of the actions, and its block runs for that player (NAME). For claims on a discard, say.",
          "choose by each q in players:\n"
          '    action claim when q != p and count(pile) > 0 "Claim the discard.":\n'
          "        set chips(q) = chips(q) - 1\n"
          '    action decline "Let it go.":\n'
          "        pass", "statement"),
    Entry("choose by any", "choose by any NAME in PLAYERS:",
          "Any of several players may act next, whoever is first (throw-ins): each player of the collection "
          "who has a legal move may make it, or `pass`; the block of the move made runs for its player (NAME), "
          "and then everyone may act again. The decision ends when every player who still has a move has "
          "passed since the last move (or nobody has one). Bots, search and the adapters ask the players in "
          "the order of the collection, so the first of it who wants to move always moves first; the "
          "browser table offers the move to all of them at once and takes the first that arrives. For a race "
          "that nobody wins by their seat (a slap, a snap), ask in an order drawn afresh each time the decision "
          "opens: `choose by any q in shuffled(players)`. No action may be called `pass`.",
          "choose by any q in players:\n"
          '    action throw c in hand(q) where c.suit == d.suit when q != p and count(pile) < 6 "Throw in a card.":\n'
          "        move c to pile face up", "statement"),
    Entry("choose secretly", "choose secretly by each NAME in PLAYERS:",
          "Like `choose by each`, but nobody sees another player's choice until all have chosen; then the "
          "chosen actions are carried out together, in the order of the collection. For sealed bids, or "
          "cards laid down at the same moment.",
          "choose secretly by each q in players:\n"
          '    action bid n in 0..3 "Bid this many tricks.":\n'
          "        set chips(q) = chips(q) - n", "statement"),
))

_EXPRESSIONS = Section("expressions", "Expressions", "Values and conditions, as written after `=`, `when`, "
                       "`where`, `if` and inside statements.", (
    Entry("literals", "N | true | false | none",
          "Whole numbers, the two truth values, and `none`: nothing, the value of a variable not yet set or "
          "of `top` of an empty zone.",
          "if top(pile) == none then 0 else 1", "expression"),
    Entry("names", "NAME",
          "A suit, a rank, a group, an option, a variable, a definition without parameters, a zone, a name "
          "given by `let` or a parameter, or one of the built-in names (`cards`, `players`, ...).",
          "c.suit == Hearts and c.rank == Queen", "expression"),
    Entry("zones as values", "ZONE | KIND(PLAYER) | FAMILY(N) | KIND",
          "A shared zone by its name, a player's zone of a per-player kind, one zone of a family; a per-player "
          "kind's bare name is every card in all zones of that kind. A zone stands for its cards in a collection.",
          "count(hand) - count(hand(p)) + count(spot(1))", "expression"),
    Entry("calls", "NAME(VALUE, ...)",
          "Uses a definition with parameters, a per-player variable (`chips(p)`), a zone of a kind or a "
          "built-in function.",
          "score(next(p)) + chips(p)", "expression"),
    Entry("lists", "[VALUE, ...]",
          "A collection written out, in square brackets (typed as they stand); its elements are all of one "
          "kind.",
          "c.suit in [Hearts, Diamonds]", "expression"),
    Entry("ranges", "N..M",
          "The whole numbers from N to M, both included. After `in` in an aggregate, an action or `for each` it "
          "stands as it is; elsewhere put it in parentheses.",
          "count(hand(p)) in (1..3)", "expression"),
    Entry("arithmetic", "A + B | A - B | A * B | A / B | A mod B | -A",
          "Sums, differences and products of whole numbers; `/` divides and drops the remainder, `mod` "
          "gives the remainder.",
          "(score(p) * 2 - chips(p)) / 3 + count(won(p)) mod 2", "expression"),
    Entry("power", "A ^ N",
          "A to the power N, in whole numbers: `2 ^ 3` is 8 and `A ^ 0` is 1. It binds tighter than `*` and `-` "
          "(`-2 ^ 2` is -4, `3 * 2 ^ e` is 3 times 2 ^ e) and reads right to left (`2 ^ 3 ^ 2` is 2 ^ 9). N must "
          "be 0 or more: a negative exponent written in the file is an error at load, one worked out while "
          "playing stops the game, as does a power larger than the engines count (64 bits).",
          "(count(hand(p)) + 1) * 2 ^ count(won(p))", "expression"),
    Entry("joining collections", "SET + SET",
          "Two collections of the same kind, one after the other.",
          "count(hand(p) + pile)", "expression"),
    Entry("comparisons", "A == B | A != B | A < B | A <= B | A > B | A >= B",
          "Whether two values are the same, or how two numbers compare.",
          "chips(p) >= target", "expression"),
    Entry("comparing cards and ranks", "CARD < CARD | CARD.rank >= RANK",
          "Cards compare by their places in their suits' rankings, so `c > d` means `c.order > d.order`. A "
          "card's rank is read in the ranking of its suit (`c.rank >= 8`); bare ranks compare only when every "
          "suit ranks alike.",
          "c > d and c.rank >= 8", "expression"),
    Entry("in", "VALUE in SET | VALUE not in SET",
          "Whether a value is an element of a collection: a card of a zone, a rank of a group, a number of "
          "a range.",
          "c.rank in courts and c not in hand(p)", "expression"),
    Entry("and, or, not", "COND and COND | COND or COND | not COND",
          "Both, either, or the opposite.",
          "not (c.suit == Hearts or c.suit == Diamonds) and chips(p) > 0", "expression"),
    Entry("if then else", "if COND then VALUE [elif COND then VALUE] ... else VALUE",
          "A value that depends on conditions: the first whose condition holds.",
          "if c.suit == Hearts then 1 elif c == card(Queen, Spades) then 13 else 0", "expression"),
    Entry("any, no", "any NAME in SET [where COND] | no NAME in SET [where COND]",
          "Whether some element of SET (for which COND holds, with NAME standing for it) exists, or none does.",
          "any x in hand(p) where x.suit == d.suit", "expression"),
    Entry("all", "all NAME in SET [where COND]: COND",
          "Whether the condition after the colon holds for every element of SET (that passes `where`).",
          "all x in hand(p) where x.suit == Hearts: x.rank in courts", "expression"),
    Entry("count", "count NAME in SET [where COND]",
          "How many elements of SET pass the condition.",
          "count x in won(p) where x.suit == Hearts", "expression"),
    Entry("sum", "sum NAME in SET [where COND]: NUMBER",
          "Adds up the number after the colon over the elements of SET (that pass `where`).",
          "sum x in won(p): x.points", "expression"),
    Entry("max, min", "max NAME in SET [where COND]: NUMBER | min NAME in SET [where COND]: NUMBER",
          "The greatest (least) value of the number after the colon over the elements of SET that pass "
          "`where`. Over no element it is an error that stops the game at its statement, on both engines: "
          "say what it is then with `if any ... then ... else`. (`max(A, B)` and `min(A, B)` are the larger "
          "and smaller of two numbers.)",
          "max q in players: count(won(q))", "expression"),
    Entry("highest, lowest", "highest NAME in SET [where COND] [by NUMBER] | lowest NAME in SET [where COND] [by NUMBER]",
          "The highest (lowest) element that passes the condition, or `none`: cards by their ranking, "
          "numbers by size. With `by`, the element for which the number after it is greatest (least), the "
          "first of the collection's order among equals: the card that takes a trick by a strength of the "
          "game's own, as `highest c in trick by strength(c)`.",
          "highest x in pile where x.suit == d.suit", "expression"),
    Entry("next where", "next NAME after PLAYER where COND",
          "The first player after PLAYER in the order of play for whom COND holds (NAME standing for each in "
          "turn), coming round to PLAYER itself last; `none` when nobody does. The next player still in the "
          "round is `next q after p where in_play(q)`.",
          "next q after p where in_play(q) and chips(q) > 0", "expression"),
    Entry("previous where", "previous NAME before PLAYER where COND",
          "The same the other way round: the first player before PLAYER against the order of play for whom "
          "COND holds, coming round to PLAYER itself last; `none` when nobody does (the player to draw from "
          "in Old Maid, the one before you still holding cards).",
          "previous q before p where count(hand(q)) > 0", "expression"),
    Entry("those", "those NAME in SET [where COND]",
          "The elements of SET that pass the condition, as a collection.",
          "those q in players where chips(q) > 0", "expression"),
    Entry("parentheses", "(EXPRESSION)",
          "Groups a part of an expression. An aggregate (`all`, `any`, `count`, ...), `if ... then` or "
          "`split` reaches as far right as it can, so it needs parentheses unless it comes last.",
          "(count x in hand(p) where x.suit == Hearts) >= 2 and chips(p) > 0", "expression"),
))

_MELDS = Section("melds", "Melds", "Whether a set of cards divides into groups, as in rummy games.", (
    Entry("split", "split CARDS into N TEST [of SIZE] [and N TEST [of SIZE]] ...",
          "True when the cards can be divided into exactly the groups listed, every card used once: N groups "
          "that pass the definition TEST(g: cards), each of SIZE cards when `of` says so (a number, or a "
          "range A..B). A group holds at least one card: a size below 1 is never made.",
          "split hand(p) into 4 meld of 3..4 and 1 pair of 2", "expression"),
    Entry("split with values", "split CARDS into N TEST(VALUE, ...) [of SIZE] ...",
          "A group test given values: each group must pass TEST(g, VALUE, ...), a definition that takes the "
          "group first and then one single value (a number, a card, a player, a suit, a rank or a zone) for "
          "each VALUE, at most 4. For cards that divide into sets each adding up to a number the split does "
          "not know in advance, as a fishing game's capture of several sets at once.",
          "split won(p) into (sum x in won(p): x.order) / c.order adds_to(c.order)", "expression"),
    Entry("split by", "split CARDS into ... by SCORE",
          "The best total of SCORE(g: cards) over the groups, among all the ways to divide the cards, or -1 "
          "when there is none.",
          "split hand(p) into 3 meld and 1 pair by meld_score", "expression"),
))

_WINNING = Section("winning", "Winning", "Who wins when the game ends.", (
    Entry("winner", "winner most SCORE | winner fewest SCORE",
          "When the game ends, the players with the highest score win (with `fewest`, the lowest); SCORE names "
          "a definition with one player parameter, or a whole-number variable kept per player "
          "(`var score(p: player): int = 0`). Tied players share the win.",
          "winner fewest score", "item"),
    Entry("sides", "sides by NAME",
          "Who plays together: NAME is a definition with one player parameter, and players for whom it gives the "
          "same value are partners, on one side. It is worked out where it is asked, so a side can change from "
          "hand to hand (a declarer against the others). The rules never read it; the solver (`cardrules solve`) "
          "and the rulebook do. Without it, every player plays for themself.",
          "sides by score", "item"),
    Entry("declare winner", "declare winner PLAYER | declare winner PLAYERS | declare winner none",
          "Names the winner, or winners, outright; that decides the game whatever the `winner` line says. "
          "Usually followed by `end game`.",
          "if count(hand(p)) == 0:\n"
          "    declare winner p\n"
          "    end game", "statement"),
    Entry("declare loser", "declare loser PLAYER | declare losers PLAYERS",
          "Names the loser, or losers, outright: every other player wins, sharing the win (Durak's fool, "
          "Old Maid's holder of the odd Queen). Like `declare winner`, it decides the game whatever the "
          "`winner` line says.",
          "if count(players_in_play) == 1:\n"
          "    declare loser first(players_in_play)\n"
          "    end game", "statement"),
))

_PROSE = Section("prose", "Prose", "The author's own words, which the rulebook prints beside the rules.", (
    Entry("text", 'text "WORDS" ["WORDS"] ...',
          "Says in plain words what the game, or the rule, phase, procedure, deck, definition or option it "
          "belongs to, is about. In a block it is one of the block's lines; under a definition, an advice or "
          "an option it is indented below it.",
          'text "A trick-taking game for four players in two partnerships."', "item"),
    Entry("about", 'about "WORDS" ["WORDS"] ...',
          "In a variant: the game described anew as a whole, printed under *About the game* in place of the "
          "base game's description, which otherwise stays (a three-player variant of a partnership game "
          "would still read \"partners sit across the table\"). The variant's own `text` says what it "
          "changes. Written once; a game describes itself with `text`.",
          'about "A trick-taking game for three, each playing alone, in which spades are always trumps."',
          "variant_item"),
    Entry("quotes in a string", '"... \\"WORDS\\" ..."',
          "A string runs from one double quote to the next on the same line. To put a double quote inside "
          "it, write a backslash before it; to put a backslash before a quote, or two in a row, write two. "
          "Any other backslash is printed as it stands.",
          'text "Players call this card the \\"fool\\"."', "item"),
    Entry("note", 'note "WORDS" ["WORDS"] ...',
          "A remark printed apart from the rules: a source, a hint, a regional habit.",
          'note "Some tables let the dealer look at the bottom card."', "item"),
    Entry("interpretation", 'interpretation NAME "QUESTION":',
          "A question the source rules leave open and the answer this ruleset gives, in `text` and `note` "
          "lines; the rulebook prints them together.",
          'interpretation empty_stock "What happens when the stock runs out?":\n'
          '    text "The discard pile, but for its top card, is shuffled to make a new stock."', "item"),
))

_VARIANTS = Section("variants", "Variants", "A variant names its base (see `variant` above) and says only what "
                    "changes; everything is matched by name.", (
    Entry("replacing",
          "define NAME ... | advice NAME ... | procedure NAME ... | phase NAME ... | zone NAME ...",
          "An item with a NAME the base already has replaces the base's one; options, zones, "
          "variables and interpretations with new names are added.",
          "define score(p: player) = count(won(p)) + chips(p)", "variant_item"),
    Entry("new", "new define ... | new advice ... | new procedure ...",
          "Adds a definition, an advice or a procedure the base does not have. Without `new` such a name is "
          "an error, so that a misspelt name cannot slip in as a new one.",
          "new define short_suit(p: player, s: suit) = (count x in hand(p) where x.suit == s) <= 1",
          "variant_item"),
    Entry("option default", "option NAME = VALUE",
          "Changes the default value of an option of the base.",
          "option target = 10", "variant_item"),
    Entry("rule at the top level", 'rule NAME ["TITLE"] [when COND]:',
          "Replaces the base's rule of that name, wherever in the play it stands.",
          'rule turn "A turn":\n'
          "    move top(stock) to hand(leader)", "variant_item"),
    Entry("new rule", 'new rule NAME ["TITLE"] {after | before} RULE [when COND]:',
          "Adds a rule the base does not have, played just after (or just before) the base's rule RULE, "
          "wherever in the play that stands and as often as it is played: a variant states the one rule it "
          "adds, not the whole phase around it. A name the base already has is an error (to replace that "
          "rule, write it without `new`), and so is a RULE the base does not have.",
          'new rule bonus "A bonus for the leader" after turn when count(stock) == 0:\n'
          "    set chips(leader) = chips(leader) + 1", "variant_item"),
    Entry("remove",
          "remove {option | define | var | procedure | advice | interpretation | rule} NAME, ...",
          "Takes out of the game something of the base that the variant no longer uses: an option that no "
          "longer does anything, a definition or a procedure nothing calls any more, a rule that is not "
          "played (wherever in the play it stands). A name the base does not have, or one that something "
          "left in the game still uses, is an error that says where it is used; remove or replace that too. "
          "The rulebook lists what was removed.",
          "remove option target\nremove define meld_score, pair", "variant_item"),
    Entry("order at the top level", "order for SUIT, ...: RANK, ...",
          "Changes the ranking of some suits of the base's deck.",
          "order for Clubs, Spades: 2..10, Jack, Queen, Ace, King", "variant_item"),
))

CONSTRUCTS: tuple[Section, ...] = (_FILE, _DECK, _ZONES, _DEFINITIONS, _PLAY, _STATEMENTS, _CHOICES,
                                   _EXPRESSIONS, _MELDS, _WINNING, _PROSE, _VARIANTS)


# ------------------------------------------------------------------ built-ins

BUILTINS: tuple[Entry, ...] = (
    Entry("count", "count(SET)", "How many elements a collection has: the cards in a zone, say.",
          "count(hand(p))", "expression"),
    Entry("any", "any(SET)", "Whether a collection has any element at all.",
          "any(pile)", "expression"),
    Entry("no", "no(SET)", "Whether a collection is empty.",
          "no(hand(p))", "expression"),
    Entry("first", "first(SET)", "The first element, or `none`: a zone's bottom card, the lowest seat.",
          "first(pile)", "expression"),
    Entry("last", "last(SET)", "The last element, or `none`: a zone's top card.",
          "last(hand(p))", "expression"),
    Entry("highest", "highest(SET)",
          "The highest card by its place in its suit's ranking (of two cards at the same place, the one "
          "whose suit is declared first), "
          "the largest number or the last seat; `none` for an empty collection.",
          "highest(hand(p))", "expression"),
    Entry("lowest", "lowest(SET)", "The lowest element, as `highest` reckons, or `none`.",
          "lowest(won(p))", "expression"),
    Entry("above", "above(CARD)", "The cards of the card's suit that rank above it, lowest first.",
          "count(above(c))", "expression"),
    Entry("below", "below(CARD)", "The cards of the card's suit that rank below it, lowest first.",
          "below(card(Ace, Spades))", "expression"),
    Entry("cards_of", "cards_of(SUIT)", "Every card of a suit in the deck, lowest first.",
          "count(cards_of(Hearts))", "expression"),
    Entry("card", "card(RANK, SUIT)", "The card of that rank and suit (with copies, the first of them).",
          "card(Queen, Spades)", "expression"),
    Entry("next", "next(PLAYER)", "The player who plays after PLAYER.",
          "next(dealer)", "expression"),
    Entry("can_move", "can_move(PLAYER) | can_move(PLAYER, RULE)",
          "Whether the choice by PLAYER in this phase (`choose by PLAYER`, the same words) would offer them a "
          "move now: some action whose `when` holds has a value its `where` allows, not counting an action "
          "that only passes (its body is `pass`). With several choices by "
          "PLAYER in the phase, RULE names the rule the one meant lies in. It is read in a rule, not a "
          "definition, and does not look into actions over sets of cards (`subset of`).",
          'if can_move(leader):\n    choose by leader:\n        action play c in hand(leader) "Play a card.":\n'
          '            move c to pile', "statement"),
    Entry("in_play", "in_play(PLAYER)",
          "Whether PLAYER is in play: not dropped from the round or the game (see `drop`).",
          "count q in players where in_play(q)", "expression"),
    Entry("previous", "previous(PLAYER)", "The player who plays before PLAYER.",
          "previous(leader)", "expression"),
    Entry("min", "min(A, B)", "The smaller of two numbers.",
          "min(chips(p), 5)", "expression"),
    Entry("max", "max(A, B)", "The larger of two numbers.",
          "max(0, score(p) - 10)", "expression"),
    Entry("seat", "seat(N)", "The player in seat N, counting from 1.",
          "seat(1)", "expression"),
    Entry("zones", "zones(KIND)", "The zones of a family, or of a per-player kind, as a collection of zones.",
          "zones(spot)", "expression"),
    Entry("top", "top(ZONE) | top(ZONE, N)", "The top card of a zone (`none` when it is empty), or its top N cards.",
          "top(stock, 3)", "expression"),
    Entry("bottom", "bottom(ZONE) | bottom(ZONE, N)", "The bottom card of a zone, or its bottom N cards.",
          "bottom(pile)", "expression"),
    Entry("at", "at(ZONE, N)",
          "The card in place N of a zone, counting from 1 at the bottom (the card that came first), or "
          "`none` when there is no such place. With an action over places (`action play i in "
          "1..count(hand(p))`) it lets a player choose a card they cannot see by where it lies, so the move "
          "names the place and gives nothing away.",
          "at(hand(p), 1)", "expression"),
    Entry("random", "random(SET)",
          "One element picked by the game's seeded chance (`none` from an empty collection). Only in "
          "statements, since a definition must give the same answer every time.",
          "let victim = random(those q in players where q != p)", "statement"),
    Entry("shuffled", "shuffled(PLAYERS)",
          "The players (or numbers) of a collection in an order drawn by the game's seeded chance. Only in "
          "statements and decisions, as `random`: `choose by any q in shuffled(players)` asks the players "
          "in a new random order each time the decision opens, so that a race is won by chance, not by the seat.",
          "for each q in shuffled(players):\n    move top(stock) to hand(q)", "statement"),
    Entry("players_from", "players_from(PLAYER)",
          "Every player in turn order, beginning with PLAYER (those out of play too: `in_play` tells them): "
          "`choose by any q in players_from(leader)` asks the leader first, then the others in turn, "
          "where `players` would ask seat 1 first.",
          "choose by any q in players_from(leader):\n    action throw c in hand(q):\n        move c to pile",
          "statement"),
    Entry("abs", "abs(N)", "A number without its sign.",
          "abs(chips(p) - chips(next(p)))", "expression"),
    Entry("cards", "cards", "Every card of the deck.",
          "count x in cards where x.face_up", "expression"),
    Entry("players", "players", "Every player, in seat order.",
          "those q in players where q != p", "expression"),
    Entry("players_in_play", "players_in_play",
          "The players in play (see `drop`), in seat order: `those q in players where in_play(q)`.",
          "count(players_in_play) == 1", "expression"),
    Entry("player_count", "player_count", "How many players this game has.",
          "player_count * 5", "expression"),
    Entry("suits", "suits", "The deck's suits, in the order declared.",
          "count s in suits where (no x in hand(p) where x.suit == s)", "expression"),
    Entry("ranks", "ranks", "The deck's ranks, lowest first.",
          "count r in ranks where card(r, Hearts) in hand(p)", "expression"),
)

CARD_ATTRIBUTES: tuple[Entry, ...] = (
    Entry("suit", "CARD.suit", "The card's suit.", "c.suit == d.suit", "expression"),
    Entry("rank", "CARD.rank", "The card's rank; compared with a rank, read in the ranking of the card's suit.",
          "c.rank == King", "expression"),
    Entry("order", "CARD.order", "The card's place in its suit's ranking, from 0 for the lowest.",
          "c.order + 1 == d.order", "expression"),
    Entry("owner", "CARD.owner", "The player whose zone the card lies in, or `none` in a shared zone.",
          "c.owner == p", "expression"),
    Entry("played_by", "CARD.played_by",
          "The last player whose zone the card left, or `none` if it never lay in one: who played it to the table.",
          "top(pile).played_by", "expression"),
    Entry("zone", "CARD.zone", "The zone the card lies in.",
          "c.zone == pile", "expression"),
    Entry("face_up", "CARD.face_up", "Whether everyone can see the card.",
          "not c.face_up", "expression"),
    Entry("depth", "CARD.depth", "How many cards lie on top of it in its zone: 0 for the top card.",
          "c.depth == 0", "expression"),
    Entry("beneath", "CARD.beneath", "The card it lies on in its zone, the one just below it; `none` for "
          "the bottom card.", "c.beneath != none and c.beneath.suit == c.suit", "expression"),
    Entry("deck values", "CARD.VALUE", "A value the deck declares (`value points: ...`), as a number.",
          "c.points >= 10", "expression"),
)

SUIT_RANK_ATTRIBUTES: tuple[Entry, ...] = (
    Entry("index", "SUIT.index, RANK.index, PLAYER.index", "A suit's place in the deck's `suits` line, or a rank's in its "
          "`ranks` line, counted from 1: the number that picks a zone of a family by suit; a player's seat "
          "number, from 1. (Where a rank is wanted, a rank written as a number may stand for it: "
          "`perform lay(p, 3)`.)",
          "card(7, c.suit).zone == spot(c.suit.index)", "expression"),
)

ZONE_ATTRIBUTES: tuple[Entry, ...] = (
    Entry("index", "ZONE.index", "A zone's number in its family (from 1), or its owner's seat number.",
          "c.zone.index == 2", "expression"),
    Entry("owner", "ZONE.owner", "The player a per-player zone belongs to, or `none` for a shared zone.",
          "c.zone.owner == p", "expression"),
)
