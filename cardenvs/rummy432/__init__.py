"""Rummy 4x3x2's: collect groups of one rank (docs/rules/rummy432.md).

Modules: :mod:`.state` (constants, state, View, group tables), :mod:`.rules` (the
rules and :class:`Rummy432Game`), :mod:`.encoding` (the observation),
:mod:`.serialization` (JSON and move text), :mod:`.render` (text), :mod:`.picture`.
"""

from .encoding import OBS_FIELDS
from .rules import Rummy432Game
from .state import NUM_ACTIONS, HandEval, Rummy432View, State

__all__ = ["NUM_ACTIONS", "OBS_FIELDS", "HandEval", "Rummy432Game", "Rummy432View", "State"]
