"""Card pictures for the browser table: every card face and back as an inline SVG string.

`card_face(program, name)` draws one card face up, `card_back(count)` a face-down card (with the
size of a pile on it when given), `suit_palette(deck)` the colour of every suit. Nothing here
knows a game: a face is drawn from the deck's own names, whatever they are.

A face (60 x 90 units; CSS gives the size, the drawing has no width or height of its own):

* the rank in the top-left corner and, turned round, in the bottom-right one, large and in the
  suit's colour; a rank name longer than two characters is cut to the shortest prefix of one to
  three letters that no other rank of the deck shares (a number stays whole), and is then also
  written in full, smaller, across the middle;
* under each corner rank a small geometric mark, and in the middle the same mark large: circle,
  square, triangle, diamond, star, ring, cross, bar, hexagon, ... one per suit, chosen by the
  suit's place in the deck, so that suits can be told apart without their colours;
* a band in the suit's colour across the card, with the suit's name in it.

Every text is fitted to its room: its width is estimated from its characters and the font size
lowered until it fits (a text too long even at the smallest size is cut, with an ellipsis; the
full name is always in the `<title>` and the `aria-label`). Every name is escaped. The same
arguments always give the same bytes; nothing is read or written.
"""

from __future__ import annotations

import colorsys
import html
import math
import re
import unicodedata
import weakref
from dataclasses import dataclass, field

__all__ = ["suit_palette", "card_face", "card_back"]

WIDTH, HEIGHT = 60, 90
PAPER = "#fffdf8"
EDGE = "#8c8c8c"
BACK = "#2f4b6e"
FONT = "Georgia, 'Times New Roman', serif"

# Dark, well separated colours, each at least 4.5:1 against white (so text in them is readable,
# and white text on them too), ordered so that the first few suits differ most.
_COLOURS = ("#2b2b2b",  # near black
            "#b8271d",  # red
            "#1d5fa8",  # blue
            "#1e7a3c",  # green
            "#7a3aa3",  # purple
            "#b35300",  # burnt orange
            "#0e7680",  # teal
            "#a81c6a",  # magenta
            "#66680a",  # olive
            "#7a4a22",  # brown
            "#33408f",  # indigo
            "#8a6800")  # ochre

# The marks, in the order suits get them: (shape, filled).
_MARKS = (("circle", True), ("square", True), ("triangle", True), ("diamond", True), ("star", True),
          ("circle", False), ("cross", True), ("bar", True), ("hexagon", True), ("triangle_down", True),
          ("plus", True), ("square", False), ("diamond", False), ("triangle", False), ("star", False),
          ("hexagon", False), ("triangle_down", False))

_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_COPY = re.compile(r"#\d+$")


# ---- colours -------------------------------------------------------------------------------

def _contrast_on_white(rgb: tuple[float, float, float]) -> float:
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb)
    return 1.05 / (0.2126 * r + 0.7152 * g + 0.0722 * b + 0.05)


def _extra_colour(i: int) -> str:
    """The i-th colour past the fixed list: hues a golden angle apart, darkened until readable."""
    hue = (i * 137.508 + 17) % 360 / 360
    light = 0.30 if i % 2 else 0.36
    while True:
        rgb = colorsys.hls_to_rgb(hue, light, 0.6)
        if _contrast_on_white(rgb) >= 4.5 or light <= 0.1:
            return "#" + "".join(f"{round(c * 255):02x}" for c in rgb)
        light -= 0.02


def suit_palette(deck) -> dict[str, str]:
    """Suit name -> CSS colour (#rrggbb), by the suit's place in the deck: distinct, dark enough
    to read on white, the same for the same deck."""
    out: dict[str, str] = {}
    used: set[str] = set()
    extra = 0
    for i, suit in enumerate(deck.suits):
        if i < len(_COLOURS):
            colour = _COLOURS[i]
        else:
            colour = _extra_colour(extra)
            extra += 1
            while colour in used:
                colour = _extra_colour(extra)
                extra += 1
        used.add(colour)
        out.setdefault(suit, colour)
    return out


# ---- text ----------------------------------------------------------------------------------

def _char_width(ch: str) -> float:
    """A generous estimate of a character's advance, in ems, in a bold serif."""
    if unicodedata.combining(ch):
        return 0.0
    if unicodedata.east_asian_width(ch) in "WF":
        return 1.0
    if ch in "MWmw@%":
        return 0.92
    if ch.isupper():
        return 0.74
    if ch in "iljtfr.,;:'|!" or ch == " ":
        return 0.36
    if ch.islower():
        return 0.58
    return 0.62


def text_width(text: str, size: float) -> float:
    """Estimated width of `text` at font size `size` (never less than 0.6 em a character)."""
    return max(sum(_char_width(c) for c in text), 0.6 * len(text)) * size


def _fit(text: str, room: float, largest: float, smallest: float) -> tuple[str, float]:
    """The text and the largest font size (at most `largest`) at which it fits in `room`; below
    `smallest` the text is cut and ends in an ellipsis instead."""
    if not text:
        return text, largest
    size = min(largest, room / text_width(text, 1.0))
    if size >= smallest or len(text) == 1:
        return text, math.floor(size * 10) / 10
    while len(text) > 1 and text_width(text + "\u2026", smallest) > room:
        text = text[:-1]
    return text + "\u2026", smallest


def _clean(text: str) -> str:
    return _NOT_XML.sub("", str(text))


def _esc(text: str) -> str:
    return html.escape(_clean(text), quote=True)


def _n(x: float) -> str:
    """A coordinate as short, stable text."""
    s = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


# ---- marks ---------------------------------------------------------------------------------

def _polygon(cx: float, cy: float, r: float, n: int, start: float, inner: float | None = None) -> str:
    points = []
    for k in range(n * (2 if inner else 1)):
        radius = r if inner is None or k % 2 == 0 else r * inner
        a = math.radians(start + k * 360 / (n * (2 if inner else 1)))
        points.append(f"{_n(cx + radius * math.cos(a))},{_n(cy + radius * math.sin(a))}")
    return " ".join(points)


def mark_svg(index: int, cx: float, cy: float, r: float, colour: str) -> str:
    """The geometric mark of the suit at `index`, centred on (cx, cy), about r from centre to edge."""
    shape, filled = _MARKS[index % len(_MARKS)]
    paint = f'fill="{colour}"' if filled else f'fill="none" stroke="{colour}" stroke-width="{_n(r * 0.3)}"'
    if not filled:
        r *= 0.86  # the stroke's outer half brings it back to about r
    line = f'stroke="{colour}" stroke-width="{_n(r * 0.42)}" fill="none"'
    if shape == "circle":
        return f'<circle class="card-mark" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r * 0.92)}" {paint}/>'
    if shape == "square":
        s = r * 0.82
        return (f'<rect class="card-mark" x="{_n(cx - s)}" y="{_n(cy - s)}" width="{_n(2 * s)}" '
                f'height="{_n(2 * s)}" {paint}/>')
    if shape == "bar":
        return (f'<rect class="card-mark" x="{_n(cx - r)}" y="{_n(cy - r * 0.34)}" width="{_n(2 * r)}" '
                f'height="{_n(r * 0.68)}" {paint}/>')
    if shape == "triangle":
        return f'<polygon class="card-mark" points="{_polygon(cx, cy + r * 0.18, r * 1.05, 3, -90)}" {paint}/>'
    if shape == "triangle_down":
        return f'<polygon class="card-mark" points="{_polygon(cx, cy - r * 0.18, r * 1.05, 3, 90)}" {paint}/>'
    if shape == "diamond":
        pts = f"{_n(cx)},{_n(cy - r)} {_n(cx + r * 0.72)},{_n(cy)} {_n(cx)},{_n(cy + r)} {_n(cx - r * 0.72)},{_n(cy)}"
        return f'<polygon class="card-mark" points="{pts}" {paint}/>'
    if shape == "star":
        return f'<polygon class="card-mark" points="{_polygon(cx, cy + r * 0.06, r * 1.05, 5, -90, 0.45)}" {paint}/>'
    if shape == "hexagon":
        return f'<polygon class="card-mark" points="{_polygon(cx, cy, r * 0.96, 6, 0)}" {paint}/>'
    d = r * 0.7
    if shape == "cross":
        path = (f"M{_n(cx - d)} {_n(cy - d)}L{_n(cx + d)} {_n(cy + d)}"
                f"M{_n(cx - d)} {_n(cy + d)}L{_n(cx + d)} {_n(cy - d)}")
    else:  # plus
        d = r * 0.92
        path = f"M{_n(cx - d)} {_n(cy)}L{_n(cx + d)} {_n(cy)}M{_n(cx)} {_n(cy - d)}L{_n(cx)} {_n(cy + d)}"
    return f'<path class="card-mark" d="{path}" {line}/>'


def suit_marks(deck) -> dict[str, str]:
    """Suit name -> the name of its mark ("circle", "ring", "open square", ...)."""
    def name(i: int) -> str:
        shape, filled = _MARKS[i % len(_MARKS)]
        shape = shape.replace("_", " ")
        if shape == "circle" and not filled:
            return "ring"
        return shape if filled else f"open {shape}"
    out: dict[str, str] = {}
    for i, suit in enumerate(deck.suits):
        out.setdefault(suit, name(i))
    return out


# ---- ranks ---------------------------------------------------------------------------------

def _short(rank: str) -> bool:
    return len(rank) <= 2 or rank.isdigit()


def rank_abbreviations(ranks) -> dict[str, str]:
    """Rank name -> what the corners show: a short name or a number as it is, a longer name cut
    to the first one to three letters that no other rank of the deck shares at that length."""
    ranks = list(dict.fromkeys(ranks))
    out = {r: r for r in ranks if _short(r)}
    taken = {v.casefold() for v in out.values()}
    long = [r for r in ranks if not _short(r)]
    for r in long:
        others = [o.casefold() for o in long if o != r]
        cands = [r[:n] for n in (1, 2, 3) if all(o[:n] != r[:n].casefold() for o in others)]
        cands += [r[0] + r[-1], r[:2] + r[-1]]
        choice = next((c for c in cands if c.casefold() not in taken), r[:3])
        choice = choice[0].upper() + choice[1:]
        out[r] = choice
        taken.add(choice.casefold())
    return out


# ---- the deck, once per program --------------------------------------------------------------

@dataclass
class _Deck:
    index: dict[str, int]
    suits: tuple[str, ...]
    ranks: tuple[str, ...]
    colours: dict[str, str]
    abbreviations: dict[str, str]
    faces: dict[tuple[str, bool], str] = field(default_factory=dict)


_CACHE: dict[int, tuple[weakref.ref, object, _Deck]] = {}


def _deck_of(program) -> _Deck:
    key = id(program)
    hit = _CACHE.get(key)
    if hit is not None and hit[0]() is program and hit[1] is program.card_names:
        return hit[2]
    deck = program.ruleset.deck
    info = _Deck(index={name: i for i, name in enumerate(program.card_names)}, suits=tuple(deck.suits),
                 ranks=tuple(deck.ranks), colours=suit_palette(deck), abbreviations=rank_abbreviations(deck.ranks))
    try:
        def forget(ref, key=key):
            if _CACHE.get(key, (None,))[0] is ref:
                _CACHE.pop(key, None)
        ref = weakref.ref(program, forget)
    except TypeError:  # an object without weak references is drawn afresh every time
        return info
    _CACHE[key] = (ref, program.card_names, info)
    return info


def _find(program, info: _Deck, card_name: str) -> tuple[int, int]:
    """(suit index, rank index) of a card, by its name; a copy's name without its `#n` works too."""
    i = info.index.get(card_name)
    if i is not None:
        return program.card_suit[i], program.card_rank[i]
    base = _COPY.sub("", card_name)
    for si, suit in enumerate(info.suits):
        if base.endswith("-" + suit):
            rank = base[:-len(suit) - 1]
            if rank in info.ranks:
                return si, info.ranks.index(rank)
    raise KeyError(f"no card {card_name!r} in the deck")


# ---- drawing -------------------------------------------------------------------------------

def _text(x: float, y: float, text: str, size: float, colour: str, anchor: str = "start", weight: int = 700,
          cls: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    return (f'<text{c} x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{colour}">{_esc(text)}</text>')


def _corner(text: str, size: float, suit_index: int, colour: str) -> str:
    return (f'<g class="card-corner">{_text(4, 15.5, text, size, colour, cls="card-rank")}'
            f'{mark_svg(suit_index, 8.5, 21.8, 3.5, colour)}</g>')


def card_face(program, card_name: str, *, selectable: bool = False) -> str:
    """An inline SVG string for one card face up (`class="card"`, `data-card` its name); with
    `selectable`, also `class="card selectable"` and `tabindex="0"`."""
    info = _deck_of(program)
    key = (card_name, selectable)
    cached = info.faces.get(key)
    if cached is not None:
        return cached
    si, ri = _find(program, info, card_name)
    suit, rank = info.suits[si], info.ranks[ri]
    colour = info.colours[suit]
    abbr = info.abbreviations[rank]
    name = _esc(card_name)
    cls = "card selectable" if selectable else "card"
    tab = ' tabindex="0"' if selectable else ""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="{cls}"{tab} data-card="{name}" viewBox="0 0 60 90" '
             f'role="img" aria-label="{name}" font-family="{FONT}">',
             f"<title>{name}</title>",
             f'<rect class="card-edge" x="0.5" y="0.5" width="59" height="89" rx="4.5" fill="{PAPER}" '
             f'stroke="{EDGE}" stroke-width="0.8"/>']
    short, size = _fit(abbr, 23, 16, 7)
    corner = _corner(short, size, si, colour)
    parts.append(corner)
    parts.append(f'<g transform="rotate(180 30 45)">{corner}</g>')
    full = short != rank  # a rank cut short in the corners is written in full in the middle
    parts.append(mark_svg(si, 30, 33.5 if full else 37, 9 if full else 11.5, colour))
    if full:
        text, size = _fit(rank, 50, 10, 5)
        parts.append(_text(30, 50.5, text, size, colour, "middle", cls="card-rank-name"))
    parts.append(f'<rect class="card-band" x="0.9" y="53" width="58.2" height="11.6" fill="{colour}"/>')
    text, size = _fit(suit, 54, 9.5, 4.5)
    parts.append(_text(30, 58.8 + size * 0.36, text, size, PAPER, "middle", 600, cls="card-suit"))
    parts.append("</svg>")
    svg = "".join(parts)
    info.faces[key] = svg
    return svg


def _lattice(x0: float, y0: float, x1: float, y1: float, step: float) -> str:
    """A diamond lattice filling the rectangle exactly, as one path."""
    d = []
    k = y0 - x1 + step / 2
    while k < y1 - x0:  # lines y = x + k
        lo, hi = max(x0, y0 - k), min(x1, y1 - k)
        if lo < hi:
            d.append(f"M{_n(lo)} {_n(lo + k)}L{_n(hi)} {_n(hi + k)}")
        k += step
    k = x0 + y0 + step / 2
    while k < x1 + y1:  # lines y = k - x
        lo, hi = max(x0, k - y1), min(x1, k - y0)
        if lo < hi:
            d.append(f"M{_n(lo)} {_n(k - lo)}L{_n(hi)} {_n(k - hi)}")
        k += step
    return "".join(d)


_BACK_PATTERN = _lattice(4, 4, 56, 86, 6.5)


def card_back(count: int | None = None) -> str:
    """An inline SVG for a face-down card (`class="card back"`); with a count, the number in a
    circle in the middle (a pile of that many), also given as `data-count`."""
    if count is not None:
        count = int(count)
    label = "face-down card" if count is None else f"pile of {count} face-down card{'' if count == 1 else 's'}"
    data = "" if count is None else f' data-count="{count}"'
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="card back"{data} viewBox="0 0 60 90" role="img" '
             f'aria-label="{label}" font-family="{FONT}">',
             f"<title>{label}</title>",
             f'<rect class="card-edge" x="0.5" y="0.5" width="59" height="89" rx="4.5" fill="{PAPER}" '
             f'stroke="{EDGE}" stroke-width="0.8"/>',
             f'<rect x="4" y="4" width="52" height="82" rx="2.5" fill="{BACK}"/>',
             f'<path d="{_BACK_PATTERN}" stroke="{PAPER}" stroke-opacity="0.28" stroke-width="0.7" fill="none"/>',
             f'<rect x="6.5" y="6.5" width="47" height="77" rx="1.5" fill="none" stroke="{PAPER}" '
             f'stroke-opacity="0.55" stroke-width="0.7"/>']
    if count is None:
        parts.append(f'<circle cx="30" cy="45" r="7" fill="{BACK}" stroke="{PAPER}" stroke-opacity="0.55" '
                     f'stroke-width="0.7"/>')
        parts.append(mark_svg(3, 30, 45, 3.6, PAPER).replace('class="card-mark" ', ""))
    else:
        text, size = _fit(str(count), 23, 14, 0)  # a number is never cut, however small it gets
        parts.append(f'<circle cx="30" cy="45" r="13" fill="{PAPER}" stroke="{BACK}" stroke-width="1.2"/>')
        parts.append(_text(30, 45 + size * 0.35, text, size, BACK, "middle", cls="card-count"))
    parts.append("</svg>")
    return "".join(parts)
