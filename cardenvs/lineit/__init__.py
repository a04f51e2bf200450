"""Line-it (RULES.md section 2): the rules core and its state."""

from .rules import LineItGame, LineItView, State

__all__ = ["LineItGame", "LineItView", "State"]
