"""A Pygments lexer for the card-game language, registered as `cards` (pyproject.toml's
`pygments.lexers` entry point), so that `pygmentize -l cards`, Sphinx, MkDocs or any Markdown
renderer using Pygments colour a `.cards` file or a ```cards code block.

It is a lexer of words, not a parser: keywords, built-ins, the names a line declares, strings,
numbers, comments, operators. Every ruleset in rulesets/ lexes without an error token
(tests/lsp/test_lsp.py checks it); a character the language does not have is an error token."""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

# the grammar's keywords (tests/lsp/test_lsp.py checks this against grammar/cards.lark)
KEYWORDS = (
    "about", "action", "advice", "after", "all", "and", "any", "at", "before", "break", "by", "choose", "copies", "count", "deal",
    "decisions", "deck", "declare", "define", "down", "drop", "each", "elif", "else", "end", "face", "for", "from",
    "game", "group", "highest", "if", "in", "interpretation", "into", "let", "loser", "losers", "lowest", "max", "min", "mod", "most", "move", "new",
    "next", "no", "not", "note", "of", "one", "option", "or", "order", "pass", "per", "perform", "phase", "play",
    "player", "previous", "private", "procedure", "remove", "repeat", "reveal", "round", "rule", "secretly", "set", "shuffle",
    "sides", "split", "starting", "subset", "sum", "tell", "text", "the", "then", "those", "to", "turn", "under", "up",
    "value", "var", "variant", "when", "where", "while", "winner", "zone",
)
# names the language gives a meaning without a declaration (interpreter/language/reference.py's built-ins)
BUILTINS = ("count", "any", "no", "first", "last", "highest", "lowest", "above", "below", "cards_of", "card",
            "next", "previous", "min", "max", "seat", "zones", "top", "bottom", "random", "shuffled", "players_from", "abs", "at", "in_play", "can_move")
BUILTIN_NAMES = ("cards", "players", "player_count", "suits", "ranks")
# words that are not keywords of the grammar but that the language reads in one place
CONTEXT_WORDS = ("shared", "hidden", "owner", "others", "public", "fewest", "clockwise", "anticlockwise", "counterclockwise",
                 "bool", "int")

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"


class CardsLexer(RegexLexer):
    """Rulesets of cardrules, the card-game language (`.cards` files)."""

    name = "Cards"
    aliases = ["cards", "cardrules"]
    filenames = ["*.cards"]
    mimetypes = ["text/x-cards"]

    tokens = {
        "root": [
            (r"\n", Whitespace),
            (r"[ \t\f\r]+", Whitespace),
            (r"\\[ \t\f]*\r?\n", Text),
            (r"#[^\n]*", Comment.Single),
            (r'"(?:[^"\\\n]|\\.)*"', String.Double),
            # a line that declares a name: the name is coloured as what it is
            (r"(new)(\s+)(define|procedure|advice)(\s+)(" + _NAME + ")",
             bygroups(Keyword, Whitespace, Keyword.Declaration, Whitespace, Name.Function)),
            (r"(define|procedure|advice)(\s+)(" + _NAME + ")", bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"(phase|rule|action)(\s+)(" + _NAME + ")", bygroups(Keyword.Declaration, Whitespace, Name.Label)),
            (r"(zone|option|var|deck|group|value|interpretation)(\s+)(" + _NAME + ")",
             bygroups(Keyword.Declaration, Whitespace, Name.Variable)),
            (r"(game|variant)(\s+)(" + _NAME + ")", bygroups(Keyword.Namespace, Whitespace, Name.Namespace)),
            (r"^(\s*)(suits|ranks|cards|copies)\b", bygroups(Whitespace, Keyword)),
            (words(("true", "false", "none"), suffix=r"\b"), Keyword.Constant),
            (words(BUILTINS, suffix=r"(?=\s*\()"), Name.Builtin),
            (words(KEYWORDS, suffix=r"\b"), Keyword),
            (words(BUILTIN_NAMES, suffix=r"\b"), Name.Builtin),
            (words(CONTEXT_WORDS, suffix=r"\b"), Keyword.Type),
            (r"\.\.", Operator),
            (r"(\.)(" + _NAME + ")", bygroups(Punctuation, Name.Attribute)),
            (r"==|!=|<=|>=|[<>=+\-*/^]", Operator),
            (r"[()\[\],:.]", Punctuation),
            (r"[0-9]+", Number.Integer),
            (_NAME, Name),
        ],
    }
