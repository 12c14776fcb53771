"""A none met inside a definition is reported at the statement that asked it, as before, and the
message now names the definitions that statement asks, with their lines, on both engines. A new
user's 6 nimmt! was shown `rule too_low ... when target(c) == none:` as the culprit, where the none
was `top(z)` of an empty row in `fits`, two definitions down."""

from __future__ import annotations

import pytest

from interpreter import loads_ruleset
from interpreter.engine import apply, legal_moves, new_game
from interpreter.engines import new_game as new_game_on
from interpreter.errors import GameRuntimeError
from interpreter.native import find_compiler

TEXT = """game rows "Rows"
players 2
deck d:
    suits S
    ranks 1..8
zone stock shared hidden
zone row[2] shared public
zone hand per player owner
define fits(c: card, z: zone) = top(z) < c
define target(c: card) = highest z in zones(row) where fits(c, z) by top(z).order
phase play "Play":
    rule deal "Deal":
        shuffle stock
        deal 2 from stock to each hand
    rule low "Low" when target(top(hand(seat(1)))) == none:
        pass
"""


@pytest.mark.parametrize("engine", ["python", "native"])
def test_the_error_names_the_definitions_the_statement_asks(engine):
    if engine == "native" and find_compiler() is None:
        pytest.skip("no C compiler")
    rs = loads_ruleset(TEXT, "rows.cards")
    with pytest.raises(GameRuntimeError) as e:
        s = new_game(rs, 2, seed=1) if engine == "python" else new_game_on(rs, 2, seed=1, engine="native")
        while legal_moves(s):
            apply(s, legal_moves(s)[0])
    err = e.value
    assert err.line == 15 and "met a card or player that is none here" in err.message
    assert err.message.endswith("; it asks target (line 10) and fits (line 9): there too, the top, first, highest "
                                "or the like of nothing is none"), err.message
