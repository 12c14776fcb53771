"""Balance reports: is a ruleset fair to every seat, how long does it last, does skill matter,
and what does a change do? `cardrules balance` plays K seeded games per configuration with
the bots asked for and writes DIR/report.html (plots embedded as SVG) and DIR/report.json.

The parts: `games` (playing, and the facts kept per game), `stats` (intervals and tests),
`analysis` (facts to answers; two configurations side by side), `plots` (one matplotlib
figure per question), `solve` (what the games cannot tell: each configuration's value under
best play, `--solve`, and the strongest player its game allows, `--strong auto`), and this
`report` (the games played, the report made and written; two rulesets side by side). The
command, `cardrules balance`, is interpreter/commands/balance.py."""

from __future__ import annotations

from .summary import analyse, compare
from .games import Config, GameFacts, GameFailed, play_config
from .report import (FORMAT, ReportInterrupted, comparison_table, engine_line, make_report, play_comparison,
                     render_html, runs_of, write_report)

__all__ = ["Config", "FORMAT", "GameFacts", "GameFailed", "ReportInterrupted", "analyse", "compare", "comparison_table",
           "engine_line", "make_report", "play_comparison", "play_config", "render_html", "runs_of", "write_report"]
