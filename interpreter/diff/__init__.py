"""What changes between two rulesets: compared on the rule graph, never on the text.

`cardrules diff A B` (usually a base game and one of its variants) says what B adds, removes
or changes relative to A, by the stable names of rules, definitions, options, zones, phases
and procedures, in the game's own terms ("In Matsya, Kurma ... the numerals now rank upside
down, 1 high"), and then shows the two printed rulebooks as a redline.

How the comparison works:

* Locations (`loc`) are dropped, and everything that has a name is matched by name, so
  reformatting, comments and reordering definitions, options, zones, phases or
  interpretations change nothing.
* Bound names are alpha-normalised: an aggregate's variable, a definition's or procedure's
  parameter, a `let`, an action's parameter and a `for each` variable are replaced by
  positional names, so renaming them changes nothing.
* Phases and procedures are flattened into lines (one statement header per line, with its
  depth), aligned line by line (difflib), and each differing line is attributed to the
  innermost rule it belongs to. Two lines are the same when they say the same thing and any
  local they use is bound by corresponding lines, so reordering statements inside a rule is
  a change (it changes play) and renaming a local is not.
* Prose (titles, `text`, `note`, option descriptions, action labels, interpretations) is
  reported apart from changes to play.

Exit codes of the command: 0 identical in meaning, 1 different, 2 an error (a file that cannot
be read, a ruleset that does not load). Output is deterministic.

`python -m interpreter.diff` regenerates the committed pages in generated_docs/diffs/: every
variant against its base, as Markdown and as printable HTML.

The parts, from the ground up: `words` (wording helpers and the inline mark-up), `model`
(Detail, Change, Diff), `lines` (canonical keys; a ruleset flattened into lines), `align`
(two blocks of lines matched), `items` and `rules` (what changed, in words: the named items,
then phases, procedures and their rules), `compare` (`diff_rulesets`), `report`
(`render_diff`: text, Markdown, HTML and the redline) and `variants` (the committed pages,
`main`). The command, `cardrules diff`, is interpreter/commands/diff.py. The names are imported
from here when first asked for, so the command line starts without the comparison.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__all__ = ["Change", "Detail", "Diff", "diff_rulesets", "render_diff", "write_variant_diffs", "variant_base",
           "REGENERATE"]

# where each public name lives
_HOMES = {"Change": "changes", "Detail": "changes", "Diff": "changes", "SECTIONS": "changes",
          "diff_rulesets": "compare", "render_diff": "report",
          "variant_base": "variants", "variant_pages": "variants", "write_variant_diffs": "variants",
          "REGENERATE": "variants", "main": "variants"}

if TYPE_CHECKING:
    from .compare import diff_rulesets
    from .changes import SECTIONS, Change, Detail, Diff
    from .report import render_diff
    from .variants import REGENERATE, main, variant_base, variant_pages, write_variant_diffs


def __getattr__(name: str):
    """The stage's names, imported from their part when first asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{home}", __name__), name)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_HOMES))
