"""Line-it (docs/rules/lineit.md): the rules core and its state."""

from .rules import LineItGame, LineItView, State

__all__ = ["LineItGame", "LineItView", "State"]
