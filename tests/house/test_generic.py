"""Nothing game-specific lives in interpreter/: if the engine needed a game's own word, the
language would be too weak. This test fails when a game's name or term appears there."""

import re
from pathlib import Path

GAME_WORDS = re.compile(r"ganjifa|\bdeni\b|udvasa|ekrang|\bkomi\b|nakash|hamrang|shakti|\bsama\b|jongg|kendra"
                        r"|\btome\b|\braja\b|\bmantri\b|dashavatara"
                        # the classic card games (rulesets/classic)
                        r"|hanabi|euchre|cribbage|goofspiel|\bskat\b|tarok|dou ?dizhu|\bkuhn\b|leduc|gin rummy"
                        r"|oh hell|blackjack|hold'?em|crazy eights|freecell|klondike|pinochle|cassino|president|\bscum\b", re.I)


def test_the_interpreter_names_no_game():
    root = Path(__file__).resolve().parents[2] / "interpreter"
    hits = [f"{p.relative_to(root.parent)}:{i}: {line.strip()}"
            for p in sorted(root.rglob("*")) if p.suffix in (".py", ".j2", ".css", ".lark")
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if GAME_WORDS.search(line)]
    assert not hits, "game-specific words in interpreter/:\n" + "\n".join(hits)
