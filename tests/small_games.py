"""Small games the tests of several rooms write their cases into: `BASE` is a two-player game
with a deal and a turn whose VARS and ACTIONS a test replaces (the engines' agreement tests,
the batches of games)."""

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
