"""The committed diff pages: every variant under rulesets/ against its base, as Markdown and as
printable HTML, in generated_docs/diffs/."""

from __future__ import annotations

import dataclasses

from pathlib import Path

from ..language import graph as g
from ..files import variant_base_ref
from ..render import write_file
from .compare import diff_rulesets
from .report import render_diff

REGENERATE = "python -m interpreter.diff"  # how the committed pages are made again


def variant_base(path: Path) -> Path | None:
    """The base file a variant names in its header (`variant NAME "Title" of "base.cards"`), or None."""
    from ..language.build import read_text
    ref = variant_base_ref(read_text(Path(path), str(path)))
    from ..bundled import base_file
    return base_file(ref, path) if ref is not None else None


def variant_pages(rulesets_dir: Path, out_dir: Path) -> list[tuple[Path, str]]:
    """(path, text) of every diff page: each variant under rulesets_dir against its base, as
    out_dir/<folder>/<variant>.md and .html. Nothing is written."""
    from .. import load_ruleset

    rulesets_dir, out_dir = Path(rulesets_dir), Path(out_dir)
    loaded: dict[Path, g.Ruleset] = {}

    def load(p: Path) -> g.Ruleset:
        key = p.resolve()
        if key not in loaded:
            loaded[key] = load_ruleset(p)
        return loaded[key]

    def label(p: Path) -> str:
        try:
            return (Path(rulesets_dir.name) / p.resolve().relative_to(rulesets_dir.resolve())).as_posix()
        except ValueError:
            return p.name

    pages = []
    for path in sorted(rulesets_dir.glob("**/*.cards")):
        base = variant_base(path)
        if base is None:
            continue
        a, b = load(base), load(path)
        # (the words to read again are the author's to-do, not a reader's: the bundled variants' were read)
        diff = dataclasses.replace(diff_rulesets(a, b), kept_words=())
        labels = (label(base), label(path))
        folder = out_dir / path.parent.relative_to(rulesets_dir)
        pages.append((folder / f"{path.stem}.md", render_diff(diff, a, b, "md", labels)))
        pages.append((folder / f"{path.stem}.html", render_diff(diff, a, b, "html", labels)))
    return pages


def write_variant_diffs(rulesets_dir: Path, out_dir: Path) -> list[Path]:
    """Write the diff page of every variant against its base (Markdown and HTML) under out_dir;
    everything is rendered before anything is written, each file atomically."""
    pages = variant_pages(rulesets_dir, out_dir)
    for path, text in pages:
        write_file(path, text)
    return [p for p, _ in pages]


def main(argv: list[str] | None = None) -> int:
    """Regenerate every variant's diff page into generated_docs/diffs/ (run from anywhere)."""
    from ..files import report_written

    root = Path(__file__).resolve().parent.parent.parent
    return report_written(lambda: write_variant_diffs(root / "rulesets", root / "generated_docs" / "diffs"), root)
