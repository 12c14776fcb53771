"""Mutants of ruleset text: small edits a typing hand or a careless merge makes (characters and
lines deleted, inserted, doubled, swapped, indented, a word replaced by a keyword, a number
changed, up to ten to the ninth). Every mutant is a list of `Edit`s applied in turn, so a
finding can be shrunk to the fewest edits that still show it (`apply_edits` on a subset), and
every edit says the line it was made at.

`mutate(text, rng)` draws a mutant with any object that has `randint` and `choice` (a
random.Random, or hypothesis's `st.randoms()`, which then shrinks it); `number_mutants(text,
powers)` is every whole number of a file set to 10**k in turn, for the limits' proof
(benchmarks/sizes.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from ..language.parse import GRAMMAR

INSERTS = (":", " ", "  ", "\n", "    ", "\t", "(", ")", "[", "]", '"', "#", "-", ".", "..", ",", "=", "0", "7",
           "a", "_", "\\\n", "\r\n", "é", "\x00", "\ufeff")
OPS = ("delete", "insert", "dup_line", "del_line", "swap_lines", "indent", "dedent", "keyword", "number")
# numbers a `number` edit writes: the small ones a game turns on, and sizes far past every limit
NUMBERS = ("0", "1", "2", "3", "7", "13", "64", "65", "2001", "10000", "10001", "1000000000", "10000000000")

# a string, a comment, a number or a name: numbers inside names and strings are not numbers
_TOKENS = re.compile(r'"(?:[^"\\\n]|\\[^\n])*"|#[^\n]*|(?P<num>\d+)|[A-Za-z_]\w*')


@lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """The grammar's words (every quoted word of grammar/cards.lark), and the aggregates."""
    text = GRAMMAR.read_text(encoding="utf-8")
    words = set(re.findall(r'"([a-z_]+)"', text)) | {"any", "no", "count", "highest", "lowest", "those"}
    return tuple(sorted(words))


@dataclass(frozen=True)
class Edit:
    """One edit: `op` at character `at` (a line number for the line edits), with `n` (a length,
    a second line, the spaces taken off) and `text` (what is written)."""

    op: str
    at: int
    n: int = 0
    text: str = ""

    def apply(self, text: str) -> str:
        """The edited text; an edit whose place a smaller set of edits no longer has is
        made at the nearest place there is."""
        if self.op in ("delete", "insert", "keyword", "number"):
            i = min(self.at, len(text))
            if self.op == "delete":
                return text[:i] + text[i + self.n:]
            if self.op == "insert":
                return text[:i] + self.text + text[i:]
            return text[:i] + self.text + text[i + self.n:]
        lines = text.split("\n")
        i = min(self.at, len(lines) - 1)
        if self.op == "dup_line":
            lines.insert(i, lines[i])
        elif self.op == "del_line":
            del lines[i]
        elif self.op == "indent":
            lines[i] = "    " + lines[i]
        elif self.op == "dedent":
            lines[i] = lines[i][self.n:]
        elif self.op == "swap_lines":
            j = min(self.n, len(lines) - 1)
            lines[i], lines[j] = lines[j], lines[i]
        return "\n".join(lines)

    def line(self, text: str) -> int:
        """The line (from 1) of `text` this edit is made at."""
        if self.op in ("delete", "insert", "keyword", "number"):
            return text.count("\n", 0, min(self.at, len(text))) + 1
        return min(self.at, text.count("\n")) + 1

    def describe(self, text: str) -> str:
        """The edit in a few words, as made on `text`: 'line 12: delete "ranks"'."""
        where = f"line {self.line(text)}"
        if self.op == "delete":
            return f"{where}: delete {text[self.at:self.at + self.n]!r}"
        if self.op == "insert":
            return f"{where}: insert {self.text!r}"
        if self.op in ("keyword", "number"):
            return f"{where}: {text[self.at:self.at + self.n]!r} -> {self.text!r}"
        if self.op == "swap_lines":
            return f"{where}: swap with line {min(self.n, text.count(chr(10))) + 1}"
        if self.op == "dedent":
            return f"{where}: dedent by {self.n}"
        return f"{where}: {self.op.replace('_', ' ')}"


def random_edit(text: str, rng, words: tuple[str, ...] | None = None) -> Edit:
    """One edit of `text`, drawn with rng (random.Random or hypothesis's st.randoms())."""
    op = rng.choice(OPS)
    n_lines = text.count("\n") + 1
    if op == "delete" and text:
        return Edit("delete", rng.randint(0, len(text) - 1), rng.randint(1, 12))
    if op in ("dup_line", "del_line", "indent"):
        return Edit(op, rng.randint(0, n_lines - 1))
    if op == "dedent":
        return Edit(op, rng.randint(0, n_lines - 1), rng.choice((1, 2, 4)))
    if op == "swap_lines":
        return Edit(op, rng.randint(0, n_lines - 1), rng.randint(0, n_lines - 1))
    if op in ("keyword", "number"):
        spans = numbers_of(text) if op == "number" else [
            m.span() for m in _TOKENS.finditer(text) if m.group("num") is None and m.group(0)[0] not in '"#']
        if spans:
            a, b = rng.choice(spans)
            new = rng.choice(NUMBERS) if op == "number" else rng.choice(words or keywords())
            return Edit(op, a, b - a, new)
    return Edit("insert", rng.randint(0, len(text)), text=rng.choice(INSERTS))


def apply_edits(text: str, edits) -> str:
    for e in edits:
        text = e.apply(text)
    return text


def mutate(text: str, rng, edits: int | None = None, words: tuple[str, ...] | None = None) -> tuple[str, list[Edit]]:
    """A mutant of `text`: 1 to 4 edits (or `edits`), each drawn on the text the ones before made."""
    out: list[Edit] = []
    for _ in range(edits if edits is not None else rng.randint(1, 4)):
        e = random_edit(text, rng, words)
        out.append(e)
        text = e.apply(text)
    return text, out


def numbers_of(text: str) -> list[tuple[int, int]]:
    """Where the whole numbers of a ruleset's text are, as (start, end) spans (not those in names,
    strings or comments)."""
    return [m.span("num") for m in _TOKENS.finditer(text) if m.group("num") is not None]


def number_mutants(text: str, powers=(3, 5, 9, 10, 18, 30)) -> Iterator[tuple[Edit, str]]:
    """Each whole number of `text` set to 10**k for each k in powers, one at a time, then every
    number at once for each k: (the edit, or None for all at once, and the mutant's text)."""
    spans = numbers_of(text)
    for a, b in spans:
        for k in powers:
            e = Edit("number", a, b - a, "1" + "0" * k)
            yield e, e.apply(text)
    for k in powers:
        out = text
        for a, b in reversed(spans):
            out = out[:a] + "1" + "0" * k + out[b:]
        yield None, out
