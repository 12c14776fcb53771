"""Rulebook picture: how play flows, drawn from the rule graph as a standalone SVG.

`turn_svg(ruleset)` draws every phase as a titled frame, in the order of play (from the first
phase along `then`): side by side while they fit the page, else one below another, joined by
arrows. A phase that leads back to an earlier one has an arrow up the left-hand side ("then
phase 1"); after a last phase, a bull's-eye says the game ends. Inside a frame, the phase's
statements are cut down to their skeleton and laid out top to bottom as a layered graph
(grandalf's Sugiyama layout):

* a rule is a box with its number and title, numbered as the rulebook numbers it;
* a decision (`choose by ...`, `choose by each ...`, `choose secretly ...`) is an orange hexagon
  saying who decides and among how many actions; when its actions lead to different places,
  the arrows carry the actions' names (actions drawn alike share one arrow);
* a loop (`while`, `repeat`, `for each ...`) is a blue frame headed by what it repeats over
  ("While the leader's holding is not empty"; a loop that only holds another loop shares its
  frame), its body laid out inside; a blue line runs from the end of the body back up to the
  head, and a `break` leaves through the frame's bottom;
* an `if` is a small diamond, its branches the arrows leaving it; when just one thing happens
  only under a condition (a rule with `when`, or the single statement of an `if`), that box is
  dashed instead, and where it could end the game the way on is labelled "otherwise";
* a performed procedure is one box where it is performed (the flowchart's "predefined
  process", with double sides); a procedure that holds rules, decisions or the end of the
  game gets a dashed green frame of its own, placed wherever it first fits;
* `end game` is a dark pill and `declare winner` a light one; a legend names the shapes used.

Statements that only move cards or set values (`move`, `deal`, `let`, `set`, ...), procedures
with nothing of the above, and loops and `if`s with nothing of the above inside are left out.
Every word comes from the graph's titles and names and from `English`, as in the rulebook.

The drawing is measured in points and is at most 16 cm wide (the text column of an A4 page):
labels wrap onto several lines, and a phase too wide for the page gets narrower lines or has
the branches of a wide decision in rows, one below another; only a picture that is still too
wide is scaled down, and never so far that its smallest text falls below 8 pt. The same ruleset
always gives the same bytes.

The modules are the stages, each callable alone: `measure` (sizes, colours, text widths),
`flow` (the skeleton built from the rule graph), `layout` (sizing and grandalf's layout), `draw`
(a laid-out block as SVG) and `page` (the whole picture: `turn_svg`).
"""

from .measure import MIN_TEXT, PAGE_WIDTH, text_width, wrap
from .page import turn_svg

__all__ = ["MIN_TEXT", "PAGE_WIDTH", "text_width", "turn_svg", "wrap"]
