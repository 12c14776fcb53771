"""Mutations of real ruleset texts, drawn by hypothesis (the grammar fuzz and the engines'
agreement on mutants share them). The mutator is the package's (interpreter/fuzz/mutants.py,
which the differential fuzz of the engines uses too); hypothesis draws its choices, so a failing
mutant shrinks. Numbers of any size are kept: the language bounds every size
(interpreter/language/sizes.py)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import strategies as st

from interpreter.fuzz.mutants import mutate

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(ROOT.glob("rulesets/**/*.cards")) + sorted((ROOT / "tests" / "fuzz" / "targets").glob("*.cards"))


@st.composite
def mutants(draw):
    path = draw(st.sampled_from(SOURCES))
    text, _ = mutate(path.read_text(encoding="utf-8"), draw(st.randoms(use_true_random=False)))
    return path, text
