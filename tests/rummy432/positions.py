"""Build exact Rummy 4x3x2's JSON positions for tests (docs/rules/rummy432.md schema)."""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import card_str, parse_card
from cardenvs.rummy432.rules import Rummy432Game


def cards(text: str) -> list[str]:
    """``"7c 7d Kh"`` -> ``["7c", "7d", "Kh"]`` (normalised card text)."""
    return [card_str(parse_card(t)) for t in text.split()]


def position(
    hands: list[str],
    discard: str,
    *,
    pile_top: str = "",
    pile: str | None = None,
    pack: str = "mixed",
    hand_size: int | None = None,
    run_out_limit: int | None = 3,
    rounds_to_win: int = 3,
    known: list[str] | None = None,
    current: int | None = 0,
    phase: str = "pick",
    taken: str | None = None,
    dealer: int | None = None,
    run_outs: int = 0,
    finished_by: int | None = None,
    last_turns_left: list[int] | None = None,
    scores: list[int] | None = None,
    max_turns_per_round: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A JSON state: ``hands`` as card texts per seat, ``discard`` bottom to top.

    The pile is ``pile`` exactly when given (top first), else ``pile_top`` then every
    card not placed elsewhere, in card order.  ``hand_size`` defaults to the size of
    the hands of the seats not throwing.
    """
    n = len(hands)
    hs = [cards(h) for h in hands]
    disc = cards(discard)
    if hand_size is None:
        hand_size = min(len(h) for h in hs)
    if pile is not None:
        pl = cards(pile)
    else:
        top = cards(pile_top)
        used = {c for h in hs for c in h} | set(disc) | set(top)
        pl = top + [card_str(c) for c in range(52) if card_str(c) not in used]
    opts: dict[str, Any] = {
        "pack": pack,
        "hand_size": hand_size,
        "run_out_limit": run_out_limit,
        "rounds_to_win": rounds_to_win,
    }
    if max_turns_per_round is not None:
        opts["max_turns_per_round"] = max_turns_per_round
    obj = {
        "game": "rummy432",
        "num_players": n,
        "options": opts,
        "hands": hs,
        "pile": pl,
        "discard": disc,
        "known": [cards(k) for k in known] if known is not None else [[] for _ in range(n)],
        "current": current,
        "phase": phase,
        "taken": taken,
        "dealer": n - 1 if dealer is None else dealer,
        "run_outs": run_outs,
        "finished_by": finished_by,
        "last_turns_left": last_turns_left or [],
        "scores": scores or [0] * n,
    }
    obj.update(extra)
    return obj


def game_for(obj: dict[str, Any]) -> Rummy432Game:
    """The game whose options match a JSON position."""
    return Rummy432Game(obj["num_players"], **obj["options"])


def load(obj: dict[str, Any]) -> tuple[Rummy432Game, Any]:
    """``(game, state)`` of a JSON position."""
    g = game_for(obj)
    return g, g.from_json(obj)


def legal_strs(game: Rummy432Game, state: Any) -> set[str]:
    """The legal moves as a set of move texts."""
    return {game.action_to_str(a) for a in game.legal_actions(state)}


def play(game: Rummy432Game, state: Any, *moves: str, rng: Any = None) -> None:
    """Apply move texts in order."""
    for m in moves:
        game.apply(state, game.str_to_action(m), rng)
