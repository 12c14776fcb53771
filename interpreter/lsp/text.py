"""The lexical side of the language server: what can be said of a ruleset's text without
parsing it. Tokens of one line, the split of a file into top-level chunks (so that an edit
re-parses only the chunk it touches), and the ranges diagnostics underline.

Positions here are 0-based lines and 0-based columns counted in code points (Python string
indexes), as Lark counts them less one; the server converts columns to the client's units.
Lines are what Lark counts as lines: the text split at "\\n" (a "\\r" before it stays on the line)."""

from __future__ import annotations

import re
from dataclasses import dataclass

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
NAME_FULL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

_TOKEN = re.compile(r"""
    (?P<string>"(?:[^"\\\n]|\\.)*"?)
  | (?P<comment>\#[^\n]*)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<int>[0-9]+)
  | (?P<op>\.\.|==|!=|<=|>=|[-+*/<>=.,:()\[\]])
  | (?P<cont>\\[\t \f]*\r?$)
  | (?P<space>[\t \f\r]+)
  | (?P<other>.)
""", re.X)


@dataclass(frozen=True)
class Tok:
    kind: str     # string, comment, name, int, op, cont, other (spaces are left out)
    text: str
    line: int
    col: int

    @property
    def end(self) -> int:
        return self.col + len(self.text)


def line_tokens(line: str, number: int = 0) -> list[Tok]:
    """The tokens of one line (strings cannot span lines, so a line is a unit)."""
    out = []
    for m in _TOKEN.finditer(line):
        kind = m.lastgroup
        if kind != "space":
            out.append(Tok(kind, m.group(), number, m.start()))
    return out


def split_lines(text: str) -> list[str]:
    return text.split("\n")


def _scan(line: str) -> tuple[int, bool]:
    """How much a line changes the bracket depth, and whether it ends in a continuation
    backslash; strings and comments are skipped."""
    depth, cont = 0, False
    for m in _TOKEN.finditer(line):
        kind = m.lastgroup
        if kind == "op":
            t = m.group()
            if t in "([":
                depth += 1
            elif t in ")]":
                depth -= 1
        elif kind == "cont":
            cont = True
    return depth, cont


_QUICK = re.compile(r'[(\[\])"#\\]')


def chunk_starts(lines: list[str]) -> list[int]:
    """The first line of every top-level chunk: line 0 (the comments before the header and the
    header), then every later line that starts in the first column with something other than a
    comment, outside brackets and not continuing the line before. Each chunk holds one or more whole top-level items when the file parses
    (a chunk that Lark would see as more than one item is harmless: it is parsed as a whole)."""
    starts = [0]
    depth, cont, header = 0, False, False
    for i, line in enumerate(lines):
        if depth == 0 and not cont and line[:1] not in ("", " ", "\t", "#", "\r", "\f"):
            if header:
                starts.append(i)
            header = True  # the first chunk runs to the line after the header's
        if _QUICK.search(line):
            d, cont = _scan(line)
            depth = max(0, depth + d)
        else:
            cont = False
    return starts


def code_key(text: str) -> str:
    """A chunk's text without what the parser never sees (blank lines, comments, trailing
    spaces): two chunks with the same key parse to the same items but for their positions.
    A chunk with a continuation backslash keeps its whole text (a comment may follow one)."""
    if "\\" in text:
        return text
    out = []
    for line in text.split("\n"):
        if "#" in line:
            toks = line_tokens(line)
            if toks and toks[-1].kind == "comment":
                line = line[:toks[-1].col]
        line = line.rstrip()
        if line.strip():
            out.append(line)
    return "\n".join(out)


def token_at(lines: list[str], line: int, col: int) -> Tok | None:
    """The token under (or just before) the position: a name the cursor touches from either end."""
    if not 0 <= line < len(lines):
        return None
    toks = line_tokens(lines[line], line)
    for t in toks:
        if t.col <= col < t.end:
            if t.kind != "name" and col > t.col:
                prev = [x for x in toks if x.end == col and x.kind == "name"]
                if prev:
                    return prev[0]
            return t
    for t in toks:
        if t.end == col and t.kind == "name":
            return t
    return None


def error_range(lines: list[str], line: int | None, column: int | None) -> tuple[int, int, int, int]:
    """(line, start, line, end) to underline for an error at 1-based line and column: the token
    that starts there, or else the rest of the line (a line that ends there: its last character)."""
    if not line or line < 1:
        return (0, 0, 0, 0)
    ln = min(line, max(1, len(lines))) - 1
    text = lines[ln].rstrip("\r\n") if lines else ""
    col = max(0, (column or 1) - 1)
    if col >= len(text):
        if text:
            return (ln, max(0, len(text) - 1), ln, len(text))
        return (ln, 0, ln, 0)
    for t in line_tokens(text, ln):
        if t.col == col and t.kind not in ("comment",):
            return (ln, col, ln, t.end)
    return (ln, col, ln, len(text))


def indent_of(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))
