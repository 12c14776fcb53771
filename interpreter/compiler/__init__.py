"""Stage 3, the front door: `compile_ruleset(graph) -> Program`."""

from .compiler import Compiler, compile_ruleset
from .program import (CALL, CHOOSE, CHOOSE_EACH, END, EXEC, JIF, JUMP, RET, TRACE, Alt, Choice, Program, ZoneInfo,
                      word)

__all__ = ["compile_ruleset", "Compiler", "Program", "Alt", "Choice", "ZoneInfo", "word",
           "EXEC", "JUMP", "JIF", "CHOOSE", "CALL", "RET", "END", "CHOOSE_EACH", "TRACE"]
