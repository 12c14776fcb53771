"""The language's front end: a `.cards` text to its rule graph, and back.

parse (text -> Lark tree) -> transform (tree -> the file's items) -> assemble (a game, or a
variant merged onto its base; removal takes out what a variant drops) -> graph (the frozen
rule graph every later stage reads). build is the front door of those steps, with the cache
of graphs already built and the limits a file may state; unparse writes an expression back as
text; reference holds the language's vocabulary as data (the language reference is printed
from it); highlight colours the language for Pygments. Nothing here runs a game."""
