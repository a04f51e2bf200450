"""Rummy 4x3x2's: collect groups of one rank (RULES.md section 3)."""

from .rules import NUM_ACTIONS, OBS_FIELDS, HandEval, Rummy432Game, Rummy432View, State

__all__ = ["NUM_ACTIONS", "OBS_FIELDS", "HandEval", "Rummy432Game", "Rummy432View", "State"]
