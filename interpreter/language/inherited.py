"""A variant's words that may no longer hold: the rules whose text it takes from its base,
unchanged, while they name a definition or procedure the variant replaces.
New users' Twenty-Nine and Jass each replaced a definition (who may lead a trump, whether one may
undertrump) and printed the base's rule text, which still stated the old rule. `cardrules diff`
lists them as words to read again; the author restates a rule's words or keeps them knowingly."""

from __future__ import annotations

from . import graph as g


def words_to_check(rs: g.Ruleset) -> list[tuple[str, str, str, list[str]]]:
    """(kind, name, title, the changed names it uses) for each rule of the base whose words the
    variant keeps but which names a definition or procedure the variant replaces; [] for a game of
    its own. (A definition's words sit beside its 'Precisely' line in the rulebook: left out.)"""
    if not rs.base:
        return []
    changed = {c.name for c in rs.changes if c.what in ("definition", "procedure") and c.action == "replaced"}
    if not changed:
        return []

    def names_in(x) -> set:
        """The names x uses (a rule inside it speaks for itself)."""
        return {n.name if isinstance(n, (g.Name, g.Perform)) else n.func
                for n in g.nodes_below(x, skip=lambda y: isinstance(y, g.Rule))
                if isinstance(n, (g.Name, g.Call, g.Perform))}

    def hits(node) -> list[str]:
        """The changed names a rule names itself (one it reaches only through other definitions
        is left to their words: a rule stated in general terms seldom names the detail)."""
        return sorted(names_in(node) & changed)

    own = rs.source
    out = []
    for node in g.nodes_below((rs.phases, rs.procedures)):
        if isinstance(node, g.Rule) and node.texts and node.loc is not None and node.loc.file != own:
            found = hits(node)
            if found:
                out.append(("rule", node.name, node.title or node.name, found))
    return out
