"""The greedy player's look-ahead (bots.py, GreedyBot) in C: each of the acting player's moves
played on a copy of the game to the next decision, and there the value Python's look-ahead gives
it (the sum of the player's advice values, and how far ahead of its best rival the scores put it).
Python keeps the choice among the values (ties broken by the cards' order and the bot's coin), by
the same code on both engines.

A look-ahead C cannot answer as Python would (a move whose rules fail; a none or a number past
64 bits, where Python's arithmetic differs from C's) is given back whole to Python.

The look-ahead's C is runtime/unit/greedy.c; here is what each program adds to it."""

from __future__ import annotations


def greedy_parts(module, advice: list[str]) -> tuple[dict, str]:
    """The defines and generated C the look-ahead needs: the advice functions (`advice`, the C
    names search_c.py made for them) called one after another into an array."""
    calls = "".join(f" cr_epoch++; x->top = 0; out[{k}] = {fn}(x, S, C, seat);" for k, fn in enumerate(advice))
    each = f"#define GR_ADVICE_EACH(x, S, C, seat, out) do {{{calls} }} while (0)" if advice else ""
    return {"GR_NADVICE": len(advice)}, each
