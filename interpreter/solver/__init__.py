"""Solving positions with every card shown (`cardrules solve`): the perfect-information value
of a position and the best line, in Python (`minimax`)."""

from .minimax import Solution, Solver, solve, utilities

__all__ = ["Solution", "Solver", "solve", "utilities"]
