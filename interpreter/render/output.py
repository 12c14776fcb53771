"""Rulebook output, the ground of the render room: the Jinja environment the templates run in,
heading anchors, tidy Markdown, where a ruleset's books go and how a file is written (whole or
not at all)."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2

from ..errors import CardRulesError
from ..files import write_atomic
from .markup import TEMPLATES, _md_cell, _md_steps, to_html, to_markdown


def slug(title: str) -> str:
    """GitHub's heading anchor for a title (the Markdown contents links to these)."""
    s = re.sub(r"[^\w\- ]", "", title.lower())
    return s.replace(" ", "-")



ENV: jinja2.Environment | None = None


def env() -> jinja2.Environment:
    global ENV
    if ENV is None:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(TEMPLATES)),
            autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"),
                                                default_for_string=False),
            undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
            keep_trailing_newline=True)
        env.filters["md"] = to_markdown
        env.filters["mdcell"] = _md_cell
        env.filters["mdsteps"] = _md_steps
        env.filters["html"] = to_html
        env.filters["slug"] = slug
        ENV = env
    return ENV


def tidy_markdown(text: str) -> str:
    text = re.sub(r"[ \t]+\n", "\n", text)
    text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n") + "\n"


def book_paths(ruleset_path: Path, out_dir: Path) -> tuple[Path, Path]:
    """Where a ruleset's books go: rulesets/<dir>/<stem>.cards -> out_dir/<dir>/<stem>.md and .html
    (a ruleset not under a `rulesets` folder: out_dir/<stem>.md and .html)."""
    ruleset_path, out_dir = Path(ruleset_path), Path(out_dir)
    parts = ruleset_path.parts
    if "rulesets" not in parts[:-1]:
        parts = ruleset_path.absolute().parts
    rel: tuple[str, ...] = ()
    if "rulesets" in parts[:-1]:
        i = len(parts) - 2 - parts[:-1][::-1].index("rulesets")
        rel = parts[i + 1:-1]
    folder = out_dir.joinpath(*rel)
    stem = ruleset_path.stem
    return folder / f"{stem}.md", folder / f"{stem}.html"


def write_file(path: Path, text: str | bytes) -> None:
    try:
        write_atomic(path, text, mode=0o644)
    except OSError as e:
        raise CardRulesError(f"cannot write {path}: {e.strerror}", str(path)) from None
