"""The diagram's sizes, colours and words: every length in points, text measured and wrapped
with DejaVu Sans widths, coordinates written the same way every time."""

from __future__ import annotations

from ..markup import _ANY_MARK, _LINK_RE

# ------------------------------------------------------------------ sizes (points)

PAGE_WIDTH = 453.5          # 16 cm: the text column of an A4 page
MIN_TEXT = 8.0              # no text smaller than this at print size
TEXT = 9.0                  # node labels
SMALL = 8.5                 # arrow labels, the legend
TITLE = 10.0                # frame titles
LEADING = 1.2               # line height, in font sizes
MARGIN = 4.0
SECTION_PAD = 8.0           # inside a phase's or procedure's frame
SECTION_GAP = 24.0          # between two frames stacked
GUTTER = 18.0               # left of the phases, for an arrow back to an earlier phase
LOOP_SIDE = 8.0             # inside a loop frame, left and right (one side carries the return line)
LOOP_BOTTOM = 7.0           # inside a loop frame, below the body (the return line runs here)
XSPACE = 12.0               # between neighbours in a layer
YSPACE = 10.0               # between layers

INK = "#333333"
MUTED = "#555555"
BLUE = "#2f5d8a"
STYLE = {  # fill, stroke
    "rule": ("#ffffff", INK),
    "decision": ("#fbe3b4", "#8a5a00"),
    "frame": ("#f3f7fc", BLUE),
    "perform": ("#e5f0dd", "#4a7a3a"),
    "branch": ("#ffffff", MUTED),
    "end": (INK, INK),
    "winner": ("#fff3c4", INK),
    "empty": ("#ffffff", "#999999"),
}

# DejaVu Sans advance widths (1/1000 em) for ' ' .. '~': the widest common sans-serif, so a label
# measured with them fits whatever sans-serif face the browser or printer picks.
_WIDTHS = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636,
    636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 631, 575, 775,
    752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390,
    337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 279, 579, 278, 974, 634, 611,
    635, 635, 412, 521, 392, 634, 592, 818, 592, 592, 525, 637, 337, 636, 838)
_OTHER_WIDTHS = {"\u00a0": 318, "\u2026": 1000, "\u2014": 1000, "\u2013": 500, "\u2018": 318,
                 "\u2019": 318, "\u201c": 521, "\u201d": 521}


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of a line of text in points: a generous estimate for any sans-serif face."""
    units = 0
    for ch in text:
        o = ord(ch)
        units += _WIDTHS[o - 32] if 32 <= o < 127 else _OTHER_WIDTHS.get(ch, 700)
    return units * size / 1000 * (1.1 if bold else 1.0)


def wrap(text: str, size: float, width: float, max_lines: int = 0, bold: bool = False) -> list[str]:
    """Words (split at plain spaces only) into lines at most `width` wide, a longer word on a
    line of its own; with max_lines, what does not fit is cut off with an ellipsis."""
    lines: list[str] = []
    for word in (w for w in text.split(" ") if w):
        if lines and text_width(lines[-1] + " " + word, size, bold) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    if max_lines and len(lines) > max_lines:
        last = lines[max_lines - 1]
        while last and text_width(last + "\u2026", size, bold) > width:
            last = last.rsplit(" ", 1)[0] if " " in last else last[:-1]
        lines = lines[:max_lines - 1] + [last.rstrip(",;: ") + "\u2026"]
    return lines or [""]


def _plain(text: str) -> str:
    """The rulebook's marked-up words as plain text."""
    return _ANY_MARK.sub("", _LINK_RE.sub(r"\2", text))


def _n(x: float) -> str:
    """A coordinate, written the same way every time."""
    s = f"{x:.1f}"
    return "0" if s in ("0.0", "-0.0") else s.removesuffix(".0")
