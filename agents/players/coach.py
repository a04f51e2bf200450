"""The coach: legal moves ranked with a value and a reason, from one player's View."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

import cardenvs
from cardenvs.core.game import Game

from ..types import S, V
from .base import Observation
from .heuristic import HeuristicAgent
from .knowledge import knowledge
from .ladder import make_agent
from .search import SearchAgent


@dataclass(frozen=True)
class Advice:
    """One suggested move: the action id, the move in the game's notation, a value and why.

    ``value`` is what the coach's engine gives the move from the player's own View:
    higher is better, and it compares the moves of one decision only (its scale changes
    from one decision to the next).  Its unit depends on the coach's level:

    * ``"greedy"`` and ``"planner"`` (the default): the level's heuristic score of the
      move, in the game's own scale: in Line about hand points (points shed, less the
      cost of what is kept, with a bonus turn and ending the game valued in points too);
      in Line-it the points the position after the move is expected to bring (the
      planner; the greedy scores count distances in card values); in Rummy 4x3x2's a
      unitless score of groups made and their potential.
    * ``"expert"``: the move's mean result over the sampled deals, about [-1, 1] from
      the player's seat (1 a win, -1 a loss, as the final reward; rollouts cut short are
      valued by the game's evaluation on the same scale; in Line the margin shades the
      result, and so does the planner's score, 0.02 per point below the best move's), or
      the planner's scores on decisions the expert does not search.  A move left out of
      the search is ``nan``, as is any value that is not finite.

    ``equals`` lists the other legal moves the coach values exactly as much (filled in
    grouped advice, where they are folded into this one instead of listed apart).
    """

    action: int
    move: str
    value: float
    reason: str
    equals: tuple[str, ...] = ()

    def __str__(self) -> str:
        also = f" (equally good: {', '.join(self.equals)})" if self.equals else ""
        return f"{self.move} ({self.value:+.2f}){also}: {self.reason}"


def _same(a: float, b: float) -> bool:
    """Two advice values that the coach cannot tell apart."""
    return (np.isnan(a) and np.isnan(b)) or abs(a - b) <= 1e-9


class Coach:
    """Advice for one player, from that player's own observation only.

    ``level`` picks the engine: ``"planner"`` (instant heuristic scores) or
    ``"expert"`` (search values; slower, stronger).  ``names`` (the players' names, by
    seat) are how the reasons name other seats; without them a reason says
    ``player <seat + 1>``, the seat number people see.
    """

    def __init__(self, env_name: str, level: str = "planner", seed: int | None = 0,
                 names: Sequence[str] | None = None) -> None:
        cardenvs.entry(env_name)
        if level not in ("greedy", "planner", "expert"):
            raise ValueError(f"coach level must be greedy, planner or expert, got {level!r}")
        self.env_name = env_name
        self.level = level
        self.knowledge = knowledge(env_name)
        self.names: tuple[str, ...] | None = None if names is None else tuple(str(x) for x in names)
        self._seed = seed
        engine = make_agent(env_name, level, seed)
        assert isinstance(engine, (HeuristicAgent, SearchAgent))
        self._engine: HeuristicAgent | SearchAgent = engine

    @property
    def engine(self) -> HeuristicAgent | SearchAgent:
        """The agent whose values rank the moves (it carries the seat's memory, if any)."""
        return self._engine

    @property
    def remembers(self) -> bool:
        """Whether the advice depends on the seat's memory (its engine's)."""
        return self._engine.remembers

    def observe(self, game: Game[S, V], view: V) -> None:
        """Take in the seat's View at one of its past decisions (rebuilds the engine's memory)."""
        self._engine.observe(game, view)

    def advise(self, observation: Observation, top: int | None = None) -> list[Advice]:
        """Legal moves ranked best first, from the observation dict ``env.last()`` gives."""
        return self.advise_view(*self._engine.read(observation), top=top)

    def advise_view(self, game: Game[S, V], view: V, legal: list[int],
                    top: int | None = None, group: bool = False) -> list[Advice]:
        """Legal moves ranked best first, each with a value and a reason in words.

        Computed from the player's View alone (their own information).  With
        ``group=True`` moves of exactly equal value are folded into the first of them
        (the others listed in ``equals``), so advice never ranks equal moves apart;
        ``top`` then counts groups.
        """
        self._engine.seed(self._seed)  # same information, same advice
        values = self._engine.values(game, view, legal)
        order = np.argsort(-np.asarray(values, float), kind="stable")
        ranked = [
            Advice(
                action=legal[i],
                move=game.action_to_str(legal[i]),
                value=float(values[i]) if np.isfinite(values[i]) else float("nan"),
                reason="",
            )
            for i in order
        ]
        out = _grouped(ranked) if group else ranked
        if top is not None:
            out = out[:top]
        return [replace(a, reason=self.knowledge.named_reason(game, view, a.action, self.names)) for a in out]

    def comment(self, observation: Observation, action: int) -> str:
        """A line on a move actually played (from the observation dict before it)."""
        return self.comment_view(*self._engine.read(observation), action=action)

    def comment_view(self, game: Game[S, V], view: V, legal: list[int], action: int) -> str:
        """A line on a move actually played: the coach's pick and, if different, why."""
        ranked = self.advise_view(game, view, legal)
        best = ranked[0]
        played = next((a for a in ranked if a.action == int(action)), None)
        if played is not None and (played.action == best.action or played.value >= best.value - 1e-9):
            return f"coach agrees: {_said(played)}"  # the best move, or one worth as much
        return f"coach would rather {_said(best)}"


def _grouped(ranked: list[Advice]) -> list[Advice]:
    """Fold each run of equally valued moves (ranked best first) into its first move."""
    out: list[Advice] = []
    for a in ranked:
        if out and _same(out[-1].value, a.value):
            out[-1] = replace(out[-1], equals=(*out[-1].equals, a.move))
        else:
            out.append(a)
    return out


def _said(advice: Advice) -> str:
    """The move and its reason in one phrase (reasons may already start with the move)."""
    if advice.reason.startswith(advice.move):
        return advice.reason
    return f"{advice.move}: {advice.reason}"
