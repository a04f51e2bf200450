"""Line (docs/rules/line.md): the legality core :class:`LineGame`."""

from .rules import LineGame, LineState, LineView

__all__ = ["LineGame", "LineState", "LineView"]
