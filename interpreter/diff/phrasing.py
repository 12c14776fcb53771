"""The small wording helpers of a diff: the inline mark-up of the rulebook's phrases and how to
convert or strip it, quoting and lists, and the words for players, winners, options,
variables, signatures and deck orders."""

from __future__ import annotations

import re
from typing import Iterable

from ..language import graph as g
from ..render import code, em, link, to_html
from ..language.unparse import unparse


# ------------------------------------------------------------------ inline mark-up
# render.py writes phrases with a tiny inline mark-up (code, emphasis, links); find its brackets
# from its public helpers, so the three output formats here can convert or strip it.
_C0, _C1 = code("\x00").split("\x00")
_E0, _E1 = em("\x00").split("\x00")
_L0, _LS, _L1 = link("\x00", "\x00").split("\x00")
_LINK_RE = re.compile(re.escape(_L0) + "[^" + re.escape(_LS) + "]*" + re.escape(_LS) + "(.*?)" + re.escape(_L1), re.S)
_CODE_RE = re.compile(re.escape(_C0) + "(.*?)" + re.escape(_C1), re.S)
_MARKS = re.compile("[" + re.escape(_C0 + _C1 + _E0 + _E1 + _L0 + _LS + _L1) + "]")


def _unlink(text: str) -> str:
    """Links (to a rulebook's own anchors, which a diff page lacks) reduced to their text."""
    return _LINK_RE.sub(r"\1", text)


def _plain(text: str) -> str:
    """Marked-up text as plain text: code spans keep their backticks, emphasis goes."""
    return _MARKS.sub("", _CODE_RE.sub(lambda m: "`" + m.group(1) + "`", _unlink(text)))


def _md(text: str) -> str:
    out = _CODE_RE.sub(lambda m: ("`" + m.group(1) + "`") if "`" not in m.group(1) else f"`` {m.group(1)} ``",
                       _unlink(text))
    out = out.replace(_E0, "*").replace(_E1, "*")
    return _MARKS.sub("", out)


def _html(text: str) -> str:
    return str(to_html(_unlink(text)))


def _q(text: str) -> str:
    """A phrase in quotation marks, without a closing full stop or colon of its own."""
    return "\u201c" + text.strip().rstrip(".:") + "\u201d"


def _and(items: Iterable[str], word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "none" if v is None else str(v)


def _human(name: str) -> str:
    return name.replace("_", " ")


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text and text[0].islower() else text


def _src(text: str, limit: int = 0) -> str:
    text = " ".join(text.split())
    if limit and len(text) > limit:
        text = text[: limit - 1].rstrip() + "\u2026"
    return code(text)


# ------------------------------------------------------------------ the parts of a game in words


def _players(lo: int, hi: int, short: bool = False) -> str:
    if lo == hi:
        text = f"{lo}"
    elif hi == lo + 1:
        text = f"{lo} or {hi}"
    else:
        text = f"{lo} to {hi}"
    return text if short else text + (" player" if lo == hi == 1 else " players")


def _sides(sd: g.Sides | None) -> str:
    if sd is None:
        return "each player for themself"
    return f"players with the same {code(sd.by)} play together"


def _winner(w: g.Winner | None) -> str:
    if w is None:
        return "no winner rule"
    return f"the player(s) with the {w.rule} {code(w.score)}"


def _allowed(o: g.Option) -> str:
    if o.type == "bool":
        return "true or false"
    if o.type == "enum":
        return "one of " + ", ".join(o.choices)
    if o.low is not None and o.high is not None:
        return f"a whole number from {o.low} to {o.high}"
    return "a whole number"


def _var(v: g.Var) -> str:
    text = f"{'private, ' if v.private else ''}{'one per player, ' if getattr(v, 'params', ()) else ''}of type {v.type}"
    if v.init is not None:
        text += f", at first {code(unparse(v.init))}"
    return text


def _params_words(params) -> str:
    if not params:
        return "nothing"
    return _and(f"{p.name}: {p.type}" for p in params)


def _define_source(d: g.Define) -> str:
    sig = d.name + (f"({', '.join(f'{p.name}: {p.type}' for p in d.params)})" if d.params else "")
    return f"define {sig} = {unparse(d.body)}"


def _advice_source(a: g.Advice) -> str:
    sig = f"{a.name}({', '.join(f'{p.name}: {p.type}' for p in a.params)})"
    return f"advice {sig} = {unparse(a.body)} {_q(a.summary)}"


# ------------------------------------------------------------------ deck orders in words


def _is_num(r: str) -> bool:
    return r.isdigit()


def _order_phrase(order) -> str:
    """Ranks low to high, with runs of numerals shortened: '10 down to 1, Jack, King'."""
    order = list(order)
    out, i = [], 0
    while i < len(order):
        if _is_num(order[i]):
            j, step = i, 0
            while j + 1 < len(order) and _is_num(order[j + 1]):
                d = int(order[j + 1]) - int(order[j])
                if d not in (1, -1) or (step and d != step):
                    break
                step, j = d, j + 1
            if j - i >= 2:
                out.append(f"{order[i]} {'up' if step == 1 else 'down'} to {order[j]}")
                i = j + 1
                continue
        out.append(order[i])
        i += 1
    return ", ".join(out)


def _segment_name(seg: list[str], deck: g.Deck) -> str:
    if sorted(seg) == sorted(deck.ranks):
        return "all the ranks"
    numerals = [r for r in deck.ranks if _is_num(r)]
    if sorted(seg) == sorted(numerals) and seg:
        return "the numerals"
    for name, ranks in sorted(deck.groups.items()):
        if sorted(ranks) == sorted(seg):
            return f"the {_human(name)}"
    return f"the ranks {seg[0]} to {seg[-1]}" if len(seg) > 2 else f"{seg[0]} and {seg[-1]}"


def _order_change(old, new, deck: g.Deck) -> str:
    """What a change from one order (low to high) to another means, in words."""
    old, new = list(old), list(new)
    was = f"low to high {_order_phrase(new)} (was {_order_phrase(old)})"
    if sorted(old) != sorted(new) or old == new:
        return f"the ranks now run {was}"
    i = next(k for k in range(len(old)) if old[k] != new[k])
    j = max(k for k in range(len(old)) if old[k] != new[k])
    seg = old[i:j + 1]
    if new[i:j + 1] == seg[::-1] and len(seg) >= 3:
        what = _segment_name(seg, deck)
        single = {"the numerals": "numeral"}.get(what)
        kept = [r for r in old if r not in seg]
        text = f"{what} now rank upside down, {seg[0]} high: {seg[0]} is now the highest" + \
               (f" {single}" if single else "") + f" and {seg[-1]} the lowest"
        if kept:
            text += f", while {_and(kept)} keep{'s' if len(kept) == 1 else ''} {'its' if len(kept) == 1 else 'their'} place" \
                    + ("" if len(kept) == 1 else "s")
        return f"{text}; {was}"
    for r in old:  # one rank taken out and put elsewhere
        if [x for x in old if x != r] == [x for x in new if x != r]:
            k = new.index(r)
            where = "lowest" if k == 0 else "highest" if k == len(new) - 1 else f"between {new[k - 1]} and {new[k + 1]}"
            return f"{r} now ranks {where}: the ranks now run {was}"
    moved = [r for r in new if old.index(r) != new.index(r)]
    return f"{_and(moved)} change places: the ranks now run {was}"
