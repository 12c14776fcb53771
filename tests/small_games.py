"""Small games the tests of several rooms share: `BASE` is a two-player game with a deal and a
turn whose VARS and ACTIONS a test replaces (the engines' agreement tests, the batches of
games); `TINY`, a whole two-player game of three cards a hand, each trick to its highest card
(the command line's tests, the bots'); `MINI`, two players discarding in turn, a definition with
its text (the studio's tests, in the server and in the browser)."""

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
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
    while count(hand(turn)) > 0:
        rule discard "Discard":
            choose by turn:
                ACTIONS
            set turn = next(turn)
"""

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

MINI = """game mini "Mini"
players 2
deck d:
    suits Red, Blue
    ranks 1..3
zone stock shared hidden
zone hand per player owner
zone pile shared public
var turn: player = seat(1)
define points(p: player) = count(hand(p))
    text "the cards a player still holds"
winner fewest points
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 3 from stock to each hand
    while count(hand(turn)) > 0:
        rule discard "Discard":
            choose by turn:
                action discard c in hand(turn):
                    move c to pile
            set turn = next(turn)
"""
