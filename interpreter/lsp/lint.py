"""The fuzzer's static checks as diagnostics (warnings on what they are about)."""

from __future__ import annotations



from ..language import graph as g
from .index import Span
from .model import WARNING, Diag, Analysis, norm, _err_span


def static_raw(graph: g.Ruleset, path: str, base: g.Ruleset | None = None, base_path: str | None = None) -> list:
    """The fuzzer's static checks (nothing is played): [(kind, sentence, location)], leaving out
    the findings placed in another file that the base (`base`, read from `base_path`) has on its
    own. Plain data in and out, so that the server can run it in another process."""
    from ..fuzz import Static
    findings = Static(graph, path).findings
    foreign = [f for f in findings if _split_location(f.location)[0] is not None
               and norm(_split_location(f.location)[0]) != norm(path)]
    in_base: set = set()
    if base is not None and base_path and foreign:
        in_base = {(f.kind, f.location) for f in Static(base, base_path).findings}
    return [(f.kind, f.sentence, f.location) for f in findings if (f.kind, f.location) not in in_base]


def static_diags(a: Analysis, raw: list) -> list[Diag]:
    """Findings as warnings: on the name of what they are about; a finding placed in a base file
    goes on the variant's header, linked to its place."""
    out = []
    header = a.index.header
    for kind, sentence, location in raw:
        file, line, col = _split_location(location)
        if file is None or norm(file) == a.path:
            out.append(Diag(_finding_span(a, line, col), WARNING, sentence, kind))
        else:
            span = header.sel if header else Span(0, 0, 0, 0)
            out.append(Diag(span, WARNING, sentence, kind, [(norm(file), Span(line - 1, col - 1, line - 1, col),
                                                             sentence)]))
    return out


def static_findings(a: Analysis, base: g.Ruleset | None = None) -> list[Diag]:
    """The static checks of a compiled analysis as warnings, in this process."""
    if a.graph is None or not a.compiled:
        return []
    return static_diags(a, static_raw(a.graph, a.path, base, a.base))


def _finding_span(a: Analysis, line: int, col: int) -> Span:
    """Where a finding is underlined: the name of what it is about (a definition's name rather
    than the word `define`), else the token at its place."""
    for s in a.index.symbols:
        if s.full.line == line - 1 and s.full.col == col - 1 and s.ns != "local":
            return s.sel
    return _err_span(a.lines, line, col)



def _split_location(loc: str | None) -> tuple[str | None, int, int]:
    if not loc:
        return None, 1, 1
    parts = loc.rsplit(":", 2)
    try:
        return parts[0], int(parts[1]), int(parts[2])
    except (IndexError, ValueError):
        return None, 1, 1
