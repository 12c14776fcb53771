"""Stage 1: text -> Lark parse tree, with located, readable syntax errors."""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import re
import sys
from functools import lru_cache
from pathlib import Path

import lark
from lark import Lark, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter
from lark.lexer import PatternStr

from ..bundled import grammar_path, tables_path
from .cache import grammar_cache_path
from ..errors import RulesetSyntaxError

GRAMMAR = grammar_path()  # the checkout's grammar/, or the copy inside an installed wheel
TABLES = tables_path()  # the grammar as Lark analysed it, beside the grammar in both places
WRITE_TABLES = "python -m interpreter.language.parse --write-tables"  # how TABLES is made again


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


_OPTIONS = dict(parser="lalr", strict=True, propagate_positions=True, maybe_placeholders=True)


def _build(**cache) -> Lark:
    return Lark.open(str(GRAMMAR), postlex=_Indenter(), **_OPTIONS, **cache)


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser. Analysing the grammar takes about half a second, longer than the rest of
    a first `check`, so the package ships the analysed grammar (TABLES). When that file does not
    fit (another Lark or Python, an edited grammar) or is damaged, the grammar is analysed here
    and Lark keeps the result in the user's cache folder (cache.py); a damaged cache file is
    rebuilt. The shipped file belongs to the package, not to the cache, so CARDRULES_NO_CACHE=1
    still uses it; CARDRULES_NO_SHIPPED_TABLES=1 passes it by (to measure or test the path
    without it)."""
    if os.environ.get("CARDRULES_NO_SHIPPED_TABLES", "") in ("", "0"):
        shipped = load_tables(TABLES)
        if shipped is not None:
            return shipped
    path = grammar_cache_path()
    if path is not None:
        try:
            return _build(cache=path)
        except Exception:  # an unreadable or corrupt cache file: start again without it
            try:
                Path(path).unlink()
            except OSError:
                pass
    return _build()


def tables_stamp() -> bytes:
    """What analysed tables are only good for: this grammar's text (as Lark reads it, so line
    ends do not count), these options, this Lark, and this Python (the tables are a pickle).
    The first line of TABLES; a file stamped otherwise is never loaded."""
    grammar = hashlib.sha256(GRAMMAR.read_text(encoding="utf-8").encode("utf-8")).hexdigest()
    options = " ".join(f"{k}={v!r}" for k, v in sorted(_OPTIONS.items()))
    indenter = ", ".join(f"{k}={getattr(_Indenter, k)!r}" for k in
                         ("NL_type", "OPEN_PAREN_types", "CLOSE_PAREN_types", "INDENT_type", "DEDENT_type", "tab_len"))
    return (f"cardrules grammar tables 1; grammar sha256 {grammar}; {options} postlex=_Indenter({indenter}); "
            f"lark {lark.__version__}; python {sys.version_info[0]}.{sys.version_info[1]}").encode()


def load_tables(path: Path) -> Lark | None:
    """The parser saved in `path` by write_tables, or None when the file is missing, damaged
    (its second line is the sha256 of the rest), or stamped for another grammar, Lark or Python.
    Lark.load restores the options and the postlexer from the file without analysing anything."""
    try:
        stamp, digest, body = Path(path).read_bytes().split(b"\n", 2)
        if stamp != tables_stamp() or digest != hashlib.sha256(body).hexdigest().encode():
            return None
        return Lark.load(io.BytesIO(body))
    except Exception:  # unreadable, truncated, not a pickle of a parser: analyse instead
        return None


def write_tables(path: Path = TABLES) -> list[Path]:
    """Analyse the grammar and save it to `path` (stamp, digest, then Lark.save's pickle); nothing
    when the file there is already current, since every analysis numbers its states afresh and
    would change the file for no reason."""
    from ..files import write_atomic
    if load_tables(path) is not None:
        return []
    saved = io.BytesIO()
    _build().save(saved)
    body = saved.getvalue()
    write_atomic(path, tables_stamp() + b"\n" + hashlib.sha256(body).hexdigest().encode() + b"\n" + body)
    return [Path(path)]


def main(argv: list[str] | None = None) -> int:
    """`python -m interpreter.language.parse --write-tables`: make TABLES again after the grammar changed."""
    from lark.exceptions import LarkError
    from ..files import report_written
    ap = argparse.ArgumentParser(prog="python -m interpreter.language.parse", description=main.__doc__)
    ap.add_argument("--write-tables", action="store_true", required=True,
                    help=f"analyse the grammar and save it to {TABLES.name} beside it")
    ap.parse_args(argv)

    def write() -> list[Path]:
        written = write_tables()
        if not written:
            print(f"{TABLES.name} is current")
        return written
    try:
        return report_written(write, TABLES.parent.parent)
    except (LarkError, OSError) as e:  # a grammar Lark cannot analyse, a folder not writable
        print(f"error: {TABLES} not written: {str(e).strip()}", file=sys.stderr)
        return 1


_FRIENDLY = {
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the indented block",
    "NAME": "a name",
    "INT": "a number",
    "STRING": 'a quoted string ("...")',
    "CMP": "a comparison (==, !=, <, <=, >, >=)",
    "AGG": "any, no, count, highest, lowest or those",
    "$END": "the end of the file",
}


def _describe(terminal: str) -> str:
    if terminal in _FRIENDLY:
        return _FRIENDLY[terminal]
    for t in parser().terminals:
        if t.name == terminal and isinstance(t.pattern, PatternStr):
            return f"'{t.pattern.value}'"
    return terminal.lower()


_EXPR_START = {"NAME", "INT", "LPAR"}


def _expected(names) -> str:
    names = set(names)
    if _EXPR_START <= names:
        names = (names - _EXPR_START - {"LSQB", "MINUS", "TRUE", "FALSE", "NONE", "STRING", "NOT",
                                        "AGG", "ALL", "SUM", "MAX", "MIN", "IF", "SPLIT", "NEXT", "PREVIOUS"}) | {"<expr>"}
    # words before symbols, so that a missing 'then' or 'else' is named even in a long list
    words = sorted({"an expression" if n == "<expr>" else _describe(n) for n in names},
                   key=lambda w: (not w.strip("'").isalpha(), w))
    if not words:
        return "something else"
    if len(words) > 8:
        words = words[:8] + ["..."]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


_AGG_WORDS = ("any", "no", "count", "highest", "lowest", "those", "all", "sum", "max", "min")
_AFTER_OPERAND = {"CMP", "AND", "OR", "STAR", "SLASH", "MOD", "IN", "NOT", "DOT"}
_AGG_OPENING = re.compile(r"\b(?:any|no|count|highest|lowest|those|all|sum)\s+[A-Za-z_]\w*\s+in\b")


_WHERE_AGG = re.compile(r"\b(any|no|count|highest|lowest|those)\s+([A-Za-z_]\w*)\s+in\b")


def _colon_aggregate(text: str) -> str | None:
    """What to write where a ':' ends `text` after an aggregate that takes its condition after
    'where' (`any x in attack: x.rank == r`, by analogy with `all x in S: ...`): None when the
    last such opening is closed before the ':'."""
    for m in reversed(list(_WHERE_AGG.finditer(text))):
        depth = _depth_after(text[m.end():])
        if depth is None:  # (closed before the ':': an earlier opening may be the one)
            continue
        if depth:
            return None
        agg, name, domain = m.group(1), m.group(2), text[m.end():].strip() or "..."
        write = f"{domain} and ..." if " where " in f" {domain} " else f"{domain} where ..."
        return (f"'{agg} {name} in ...' takes its condition after 'where', not after ':': write "
                f"{agg} {name} in {write}; only all, sum, max and min take a ':' "
                f"(all {name} in ...: condition, sum {name} in ...: value)")
    return None


def _open_aggregate(text: str) -> str | None:
    """The last aggregate opening ('count c in') in `text` that no parenthesis closes before
    its end: the one a token at the end of `text` would have to follow."""
    for m in reversed(list(_AGG_OPENING.finditer(text))):
        if _depth_after(text[m.start():]) == 0 and not text[:m.start()].rstrip().endswith("("):
            return " ".join(m.group(0).split())
    return None


def _habit_hint(tok, text: str, at: int, accepts) -> str | None:
    """What to write for a line a designer's habit wrote otherwise (new users' Doppelkopf,
    Cheat, Rook and Old Maid): None when the line is none of these."""
    value, head = str(tok.value), text[:at]
    if value == "if" and re.match(r"\s*action\b", text):
        return ("unexpected 'if': an action's condition on its value is written with where, and one on the "
                "moment with when: action NAME c in ZONE where TEST when TEST \"Label.\":")
    if value == "if" and "IF" not in accepts and head.strip() and head.split()[-1] != "else":
        return ("unexpected 'if': a value chosen by a condition is written if C then X else Y, the condition "
                "first (not X if C else Y)")
    if re.match(r"\s*winner\s+(most|fewest)\s+\w+\s*$", head) and value == "(":
        name = head.split()[-1]
        if name in ("count", "sum", "max", "min", "highest", "lowest", "top", "bottom", "card"):
            rest = text[at:].strip()
            return (f"unexpected '(': the winner line names a definition, worked out for each player p: "
                    f"define held(p: player) = {name}{rest.replace('(hand)', '(hand(p))')}, then winner "
                    f"{head.split()[1]} held")
        return (f"unexpected '(': the winner line names the definition, which is worked out for each player: "
                f"winner {head.split()[1]} {name}")
    if re.match(r"\s*(private\s+)?var\s+\w+(\([^)]*\))?\s*:\s*one\s*$", head) and value == "of":
        return ("unexpected 'of': only an option takes one of named values (option NAME: one of a, b = a); a "
                "variable is a number, a yes or no, a player, a card...: var contract: int = 0, with a "
                "definition or a comment saying what each number means")
    if re.match(r"\s*deal\s+all\b", text):
        return (f"unexpected {value!r}: deal takes how many cards each player gets (deal 5 from stock to each "
                "hand); to deal out the whole pack, deal count(stock) / player_count to each, then the rest one by "
                "one (for each player q after dealer: if count(stock) > 0: move top(stock) to hand(q))")
    if value == "up" and re.match(r"\s*turn\b", text):
        return ("unexpected 'up': cards are turned face up with reveal CARDS (or move them face up); "
                "turn CARDS face down turns them back")
    if tok.type == "STRING" and head.rstrip().endswith(":") and re.match(r"\s*action\b", text):
        return "unexpected label: an action's label goes before its colon: action NAME ... \"Label.\":"
    if value == "[" and re.search(r"\w$", head):
        return ("'[' is not an operator here: nothing is taken by its position in brackets; a card in place N "
                "of a zone is at(ZONE, N), and the element of a collection with some property is "
                "first(those x in X where ...), like the rank after r: first(those s in ranks where "
                "s.index == r.index + 1)")
    if tok.type == "NAME" and re.match(r"\s*\w+\s*\(\s*[^)]*\)\s*$", text) and not head.strip() \
            and "PERFORM" in accepts:
        name, args = text.split("(")[0].strip(), text.split("(", 1)[1].rsplit(")", 1)[0].strip()
        return f"unexpected {name!r}: a procedure is carried out with perform: perform {name}" + (f"({args})" if args else "")
    if re.match(r"\s*new\s+rule\s+\w+", head) and value not in ("after", "before") and not re.search(r"\b(after|before)\b", head):
        return (f"unexpected {value!r}: a new rule says where in the base game's play it goes: "
                "new rule NAME \"Title\" after RULE (or before RULE), then when ... if it has a condition")
    if value == ")" and (m := re.match(r"\s*(new\s+)?(define|advice|procedure)\s+\w+\s*\((.*?)(\w+)\s*$", head)):
        return (f"unexpected ')': each parameter says what it is, with a colon: {m.group(4)}: card (or player, "
                "int, suit, rank, zone, cards, players, ...)")
    if value in ("+", "-", "*", "/") and text[at + 1:at + 2] == "=" and (m := re.match(r"\s*set\s+(\w+(?:\([^)]*\))?)\s*$", head)):
        return (f"unexpected '{value}=': a variable is changed with set and the whole new value: "
                f"set {m.group(1)} = {m.group(1)} {value} ...")
    if value == ".." and re.search(r"\bin\s+[^\s()]+\s*$", head) and head.count("(") == head.count(")"):
        return ("unexpected '..': a range tested against is written in parentheses: x in (0..4) (or 0 <= x and "
                "x <= 4)")
    if value == "after" and (m := re.match(r"\s*for\s+each\s+(\w+)\s+in\s+(players|players_in_play)\s*$", head)):
        return (f"unexpected 'after': to go round the players from the one after someone, write for each player "
                f"{m.group(1)} after ...: (every other player; from ... starts with that player and ends before them)")
    if re.match(r"\s*repeat\s*$", head) and tok.type in ("INT", "NAME"):
        return (f"unexpected {value!r}: repeat has no count (it goes on until a break or the end of the game); "
                f"to do something {value} times, write for each i in 1..{value}:")
    if value == "step":
        return ("unexpected 'step': a range has no step; keep every fifth value with where: action bid n in "
                "50..200 where (n - 50) mod 5 == 0")
    if value in ("==", "!=", "<", "<=", ">", ">=") and (m := re.search(r"(\S+)\s*(==|!=|<=|>=|<|>)\s*(\S+)\s*$", head)):
        return (f"unexpected {value!r}: comparisons do not chain; join two with and: "
                f"{m.group(1)} {m.group(2)} {m.group(3)} and {m.group(3)} {value} ...")
    if value == "," and re.match(r"\s*move\s", text) and not re.search(r"\b(to|under)\b", head):
        return ("unexpected ',': move takes one card or one collection; write a move line for each card, or "
                "join collections with + (move top(stock, 2) + top(pile, 1) to hand(p))")
    if tok.type == "NAME" and re.match(r"\s*ranks\b.*\b\d+$", head):
        word = re.search(r"\d+$", head).group(0) + value
        return (f"{word!r} is not a rank: a rank is a number (2..10) or a name that starts with a letter "
                f"(Jack, Two, R{word})")
    return None


def _where_hint(text: str, at: int) -> str | None:
    """What an unexpected 'where' (at column `at` of the line) should have been."""
    before = text[:at]
    if re.match(r"\s*action\b", before) and re.search(r"\bwhen\b", before):
        return ("in an action, 'where' (a condition on what is chosen) comes before 'when' (a condition on "
                "offering the action at all): action NAME x in ZONE where ... when ...")
    m = re.match(r"\s*declare\s+(winners?|losers?)\s+(\w+)\s+in\b", before)
    if m:
        return (f"the players who meet a condition are written those {m.group(2)} in ... where ...: "
                f"declare {m.group(1)} those {m.group(2)} in ... where ...")
    if re.search(r"\bnext\s*\(", before):
        return "the next player for whom a condition holds is written next q after P where COND"
    if not re.search(r"\b(those|any|all|no|count|sum|highest|lowest)\s+\w+\s+in\b", before):
        return ("'where' filters a collection, after 'x in ZONE' in those, any, all, no, count, sum, highest "
                "or lowest: (those q in players where ...), (lowest c in hand(p) where ...)")
    return None


def _depth_after(rest: str) -> int | None:
    """How many brackets what follows an aggregate's opening leaves open at its end (0: the
    aggregate reaches the end); None when a bracket opened before it closes there."""
    depth = 0
    for ch in rest:
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(ch, 0)
        if depth < 0:
            return None
    return depth


# operators other languages spell otherwise, said in this language's words (a designer who writes
# `x % 2` or `a && b` from habit is told what to write, not only what was expected)
_CHAR_HINTS = {
    "%": "the remainder of a division is written with the word mod (A mod B)",
    "&": "both conditions are written with the word and (A and B)",
    "|": "either condition is written with the word or (A or B)",
    "!": "a condition is negated with the word not (not A); 'not equal' is written !=",
    "?": "a value chosen by a condition is written if A then X else Y",
}
# (the token the parser did not expect, the character just before it): the operator they make and
# what to write instead (`===`: the two characters before it are `==`)
_TOKEN_HINTS = {
    ("/", "/"): ("//", "whole numbers are divided with one '/', which drops the remainder (A / B)"),
    ("*", "*"): ("**", "a power is written A ^ N"),
    (">", "<"): ("<>", "'not equal' is written !="),
    ("=", "="): ("===", "equality is written =="),
}


def _operator_hint(tok, before: str, accepts) -> tuple[str, int] | None:
    """What to write instead of another language's operator at an unexpected token, and the
    column its first character is at (the token's own, or one or two before it): None when the
    token is not such an operator. `before` is the line up to the token."""
    value, col = str(tok.value), tok.column
    spelled, hint = _TOKEN_HINTS.get((value, before[-1:]), ("", ""))
    if hint and before.endswith(spelled[:-1]):
        return f"{spelled!r} is not an operator here: {hint}", col - len(spelled) + 1
    if value == "=" and "CMP" in accepts:
        return "unexpected '='; a comparison is written with two: == (c.rank == 8)", col
    return None


def parse_text(text: str, filename: str = "<text>") -> Tree:
    """Parse ruleset text; raise RulesetSyntaxError naming the file, line and column."""
    if not text.endswith("\n"):
        text += "\n"
    lines = text.splitlines()

    def line_of(n: int | None) -> str | None:
        return lines[n - 1] if n and 0 < n <= len(lines) else None

    try:
        return parser().parse(text)
    except UnexpectedCharacters as e:
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        msg = f"unexpected character {ch!r}"
        if ch == '"':
            msg = "this quoted string is not closed on the same line"
        elif ch in _CHAR_HINTS:
            doubled = text[e.pos_in_stream:e.pos_in_stream + 2] == ch * 2 and ch in "&|"
            msg = f"{ch * 2 if doubled else ch!r} is not an operator here: {_CHAR_HINTS[ch]}"
        raise RulesetSyntaxError(msg, filename, e.line, e.column, line_of(e.line)) from None
    except UnexpectedToken as e:
        tok = e.token
        expected = _expected(e.accepts or e.expected)
        line, col = tok.line, tok.column
        if tok.type == "_INDENT":
            msg = "this line is indented, but the line before it does not open a block (a block follows a line ending in ':')"
        elif tok.type == "_DEDENT":
            msg = f"the block ends too early; expected {expected}"
        elif tok.type == "$END":
            msg = f"the file ends too early; expected {expected}"
        elif tok.type == "_NL":
            msg = f"the line ends too early; expected {expected}"
            if line and line_of(line) is not None:
                col = len(line_of(line).split("#")[0].rstrip()) + 1
                if (agg := re.search(r"\b(min|max)\s+(\w+)\s+in\b[^:]*\bwhere\b[^:]*$", line_of(line).split("#")[0])):
                    least = agg.group(1) == "min"
                    msg = (f"the line ends too early: {agg.group(1)} {agg.group(2)} in ... where ...: VALUE is the "
                           f"{'least' if least else 'greatest'} VALUE, written after a ':'; the element itself is "
                           f"{'lowest' if least else 'highest'} {agg.group(2)} in ... where ...")
                elif (m := re.match(r"\s*option\s+(\w+)\s*:\s*(\w+)\s*$", line_of(line).split("#")[0])):
                    msg += (f": an option is declared with its type and default (option {m.group(1)}: one of "
                            f"{m.group(2)}, ... = {m.group(2)}); a variant changes a base game's default with "
                            f"option {m.group(1)} = {m.group(2)}")
                elif re.match(r"\s*(new\s+)?advice\b", line_of(line)) and "STRING" in (e.accepts or e.expected):
                    msg += (": an advice ends with what it values, in quotes "
                            '(advice reach(p: player) = count(won(p)) "more tricks taken is better")')
        else:
            msg = f"unexpected {tok.value!r}; expected {expected}"
            before = (line_of(line) or "")[: (col or 1) - 1].split()
            if tok.type == "NAME" and before and before[-1] in _AGG_WORDS:
                where = "inside a 'where' condition" if len(before) > 1 and before[-2] == "where" else "here"
                msg = (f"'{before[-1]} {tok.value} in ...' must be wrapped in parentheses {where}: "
                       f"write ({before[-1]} {tok.value} in ...)")
                col = len(line_of(line)[: col - 1].rstrip()) - len(before[-1]) + 1
            elif (hint := _operator_hint(tok, (line_of(line) or "")[: (col or 1) - 1], e.accepts or e.expected)):
                msg, col = hint
            elif tok.type == "COLON" and (hint := _colon_aggregate((line_of(line) or "")[: (col or 1) - 1])):
                msg = hint
            elif (m := re.match(r"\s*move\s+all\s+(?:of\s+|the\s+cards\s+of\s+)?(\w+)", line_of(line) or "")) \
                    and not re.match(r"\s*move\s+all\s+\w+\s+in\b", line_of(line) or ""):
                msg = (f"unexpected {tok.value!r}: to move every card of a place, name the place, "
                       f"move {m.group(1)} to ... (its cards keep their order)")
                col = (line_of(line) or "").index("all") + 1
            elif col == 1 and tok.type == "NAME" and "DEFINE" in (e.accepts or e.expected) and \
                    (m := re.match(r"(\w+)\s+(\w+)\s*([(=])", line_of(line) or "")):
                word, name = m.group(1), m.group(2)
                msg = (f"unexpected {word!r} at the start of a line: to name a value, write "
                       f"define {name}{'(p: player)' if m.group(3) == '(' else ''} = ...")
                if word in ("score", "scores", "points"):
                    msg += f" (a score is such a value: 'winner most {name}' ranks the players by it)"
            elif (m := re.match(r"(\s*)(\w+)\s*([-+*/]?)=(?!=)", line_of(line) or "")) and \
                    m.group(2) not in ("set", "let", "define", "var", "option", "value") and col <= m.end():
                name, op = m.group(2), m.group(3)
                value = f"{name} {op} ..." if op else "..."
                msg = (f"unexpected {name!r}: a variable is given a value with set: set {name} = {value} "
                       f"(declared with var; a local of the rule: let {name} = ...)")
                col = len(m.group(1)) + 1
            elif str(tok.value) == ".." and re.match(r"\s*(ranks|cards)\b", line_of(line) or ""):
                msg = ("unexpected '..': a range of ranks is written only between numbers (2..10); name the "
                       "others one by one: ranks Ace, 2..10, Jack, Queen, King")
            elif str(tok.value) == "is" and before:
                rest = (line_of(line) or "")[col + 1:].split()
                op = "!=" if rest[:1] == ["not"] else "=="
                value = (rest[1:] if op == "!=" else rest)[:1] or ["none"]
                msg = f"unexpected 'is': a comparison is written {op} ({before[-1]} {op} {value[0].rstrip(':')})"
            elif re.match(r"\s*deal\b", line_of(line) or "") and "EACH" in (e.accepts or e.expected) and before \
                    and before[-1] == "to":
                msg = (f"unexpected {tok.value!r}: a deal goes to each player's zone (deal N from Z to each hand); "
                       f"cards for one player are moved: move top(Z, N) to {tok.value}(p)")
            elif str(tok.value) == "where" and (hint := _where_hint(line_of(line) or "", (col or 1) - 1)):
                msg = f"unexpected 'where': {hint}"
            elif len(before) >= 3 and before[-3] in ("==", "!=") and before[-2] in ("highest", "lowest", "max", "min",
                                                                                 "sum", "count", "any", "no", "all"):
                msg = (f"unexpected {tok.value!r}: '{before[-2]}' begins an expression ({before[-2]} x in ...), so it "
                       f"cannot be a value to compare with: an option's value needs another name")
            elif (hint := _habit_hint(tok, line_of(line) or "", (col or 1) - 1, e.accepts or e.expected)):
                msg = hint
            elif str(tok.value) == "if" and before and before[-1] == "else":
                msg, col = "'else if' is written elif: elif COND:", col - len("else ")
            elif re.match(r"\s*tell\s+(?!suit\b|rank\b)", line_of(line) or "") and "OF" in (e.accepts or e.expected):
                msg = ("a tell says the suit or the rank of cards to a player: tell suit of CARDS to PLAYER "
                       "(or tell rank of ...)")
            elif (m := re.match(r"\s*for\s+each\s+player\s+(\w+)\s+in\s+$", (line_of(line) or "")[: (col or 1) - 1])) \
                    and str(tok.value) != "play":
                rest = (line_of(line) or "")[(col or 1) - 1:].rstrip().rstrip(":")
                msg = (f"unexpected {tok.value!r}: 'for each player {m.group(1)} in' is followed by play (the players "
                       f"still in play); to go over another collection, write for each {m.group(1)} in {rest}:")
            elif str(tok.value) == "starting" and (m := re.match(r"\s*for\s+each\s+(?:player\s+)?(\w+)",
                                                                  line_of(line) or "")):
                msg = (f"unexpected 'starting'; to go round the players from one of them, write "
                       f"for each player {m.group(1)} after X (or from X): 'starting' belongs to deal")
            elif (upto := (line_of(line) or "")[: (col or 1) - 1].rstrip()).endswith(":") and \
                    (hint := _colon_aggregate(upto[:-1])):  # the ':' taken as the block's (`if any c in h: ok(c):`)
                msg, col = hint, len(upto)
            elif tok.type in _AFTER_OPERAND and (agg := _open_aggregate((line_of(line) or "")[: (col or 1) - 1])):
                msg += (f". '{agg} ...' reaches to the end of the expression, so nothing can follow it: "
                        f"wrap it in parentheses, ({agg} ...) {tok.value} ..., or put it last")
        if line is None or tok.type in ("$END",):
            line, col = len(lines), 1
        if tok.type == "_INDENT" and line is not None:
            # the indent token sits at the end of the previous line; point at the indented one
            nxt = line + 1
            while nxt <= len(lines) and not lines[nxt - 1].strip():
                nxt += 1
            if nxt <= len(lines):
                line = nxt
                col = len(lines[nxt - 1]) - len(lines[nxt - 1].lstrip()) + 1
        raise RulesetSyntaxError(msg, filename, line, col, line_of(line)) from None
    except UnexpectedEOF as e:
        raise RulesetSyntaxError(f"the file ends too early; expected {_expected(e.expected)}",
                                 filename, len(lines), 1, line_of(len(lines))) from None
    except DedentError:
        # lark does not say where; find the first line whose indent matches no open block
        line_no = _bad_dedent_line(lines)
        raise RulesetSyntaxError("this line's indentation matches no enclosing block",
                                 filename, line_no, 1, line_of(line_no)) from None
    except UnexpectedInput as e:  # pragma: no cover - any other lark input error
        raise RulesetSyntaxError(str(e).splitlines()[0], filename, getattr(e, "line", None),
                                 getattr(e, "column", None), line_of(getattr(e, "line", None))) from None


def _bad_dedent_line(lines: list[str]) -> int:
    stack = [0]
    depth = 0
    for i, raw in enumerate(lines, 1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#") or depth:
            depth += raw.count("(") + raw.count("[") - raw.count(")") - raw.count("]")
            continue
        ind = len(raw) - len(raw.lstrip(" "))
        if ind > stack[-1]:
            stack.append(ind)
        else:
            while ind < stack[-1]:
                stack.pop()
            if ind != stack[-1]:
                return i
        depth += raw.count("(") + raw.count("[") - raw.count(")") - raw.count("]")
    return len(lines)


if __name__ == "__main__":
    # Run as a script this file is the module __main__, and the saved postlexer would be named
    # __main__._Indenter, which no later run can find: write from the module under its own name.
    from interpreter.language.parse import main as _main
    sys.exit(_main())
