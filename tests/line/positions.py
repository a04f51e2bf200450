"""Build exact Line positions (position JSON) for tests.

Only the cards that matter are named; every other card of the 56 is put into the draw
pile (below the named ``draw`` cards) or, with ``fill="discard"``, at the bottom of the
discard pile (below the named ``discard`` cards), so the draw pile can be left empty.
"""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import card_str, parse_card
from cardenvs.line import LineGame, LineState

ALL_CARDS = [card_str(c) for c in range(52)] + ["X"] * 4


def canon(text: str) -> str:
    """Canonical text of a card (``10h`` -> ``Th``)."""
    return card_str(parse_card(text, allow_joker=True))


def position(
    rows: list[list[str]],
    hands: list[list[str]],
    draw: list[str] = (),  # type: ignore[assignment]
    discard: list[str] = (),  # type: ignore[assignment]
    fill: str = "draw",
    current: int = 0,
    bonus: bool = False,
    phase: str = "turn",
    pending: str | None = None,
    joker_points: int = 25,
) -> dict[str, Any]:
    """A position (docs/rules/ format) with the unnamed cards filled in."""
    rows = [[canon(c) for c in r] for r in rows]
    hands = [[canon(c) for c in h] for h in hands]
    draw = [canon(c) for c in draw]
    discard = [canon(c) for c in discard]
    used = [c for r in rows for c in r] + [c for h in hands for c in h] + draw + discard
    if pending is not None:
        pending = canon(pending)
        used.append(pending)
    rest = list(ALL_CARDS)
    for c in used:
        rest.remove(c)
    if fill == "draw":
        draw = draw + rest
    else:
        discard = rest + discard
    return {
        "game": "line",
        "num_players": len(hands),
        "rows": rows,
        "hands": hands,
        "draw_pile": draw,
        "discard": discard,
        "current": current,
        "bonus_turn": bonus,
        "phase": phase,
        "pending": pending,
        "options": {"joker_points": joker_points},
    }


def load(obj: dict[str, Any], **options: Any) -> tuple[LineGame, LineState]:
    """The game (seat count and options from the JSON) and the loaded state."""
    g = LineGame(obj["num_players"], **{**obj["options"], **options})
    return g, g.from_json(obj)


def legal(g: LineGame, s: LineState) -> set[str]:
    """The legal moves as text."""
    return {g.action_to_str(a) for a in g.legal_actions(s)}


def do(g: LineGame, s: LineState, move: str) -> None:
    """Apply a move given as text."""
    g.apply(s, g.str_to_action(move))
