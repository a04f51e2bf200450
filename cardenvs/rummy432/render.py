"""Rummy 4x3x2's as text (``render_mode="ansi"``): the table seen by one seat or by all."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardenvs.core.cards import card_str

from .state import GROUP, OVER, PICK, State

if TYPE_CHECKING:
    from .rules import Rummy432Game


def hand_text(game: Rummy432Game, hand: list[int], taken: int = -1) -> str:
    """Cards grouped by rank, each rank marked as a group or loose, then the judgement."""
    by_rank: dict[int, list[int]] = {}
    for c in sorted(hand):
        by_rank.setdefault(c >> 2, []).append(c)
    group = GROUP[game.pack]
    parts = []
    loose_parts = []
    for r in sorted(by_rank, key=lambda r: (-len(by_rank[r]), r)):
        cards = by_rank[r]
        names = " ".join(card_str(c) + ("*" if c == taken else "") for c in cards)
        g = group[len(cards)]
        if g == len(cards):
            parts.append(f"[{names}] group of {g}")
        elif g:
            parts.append(f"[{names}] group of {g} + {len(cards) - g} loose")
        else:
            loose_parts.append(names)
    if loose_parts:
        parts.append("loose: " + " ".join(loose_parts))
    e = game.evaluate(hand)
    status = "complete" if e.complete else f"incomplete, {e.loose_count} loose"
    return "  ".join(parts) + f"   ({status}, value {e.value}: grouped card points less loose ones)"


def render(game: Rummy432Game, state: State, viewer: int | None = None) -> str:
    """Text of the table: opponents across the top, the piles, then the viewer's hand."""
    lines = [
        f"Rummy 4x3x2's - pack {game.pack}, {game.hand_size} cards, round {state.round} "
        f"(first to {game.rounds_to_win}), turn {state.turn}/{game.max_turns}, "
        f"dealer player_{state.dealer}"
    ]
    lines += _seat_lines(game, state, viewer)
    limit = "never" if game.run_out_limit is None else str(game.run_out_limit)
    top = card_str(state.discard[-1]) if state.discard else "(empty)"
    buried = " ".join(card_str(c) for c in state.discard[:-1]) or "-"
    lines.append(
        f"Pile: {len(state.pile)} cards   Discard top: {top}   buried: {buried}   "
        f"Run-outs: {state.run_outs} of {limit}"
    )
    if viewer is not None:
        took = _took(state, viewer)
        lines.append(f"You, player_{viewer}: score {state.scores[viewer]}, took from discard: {took}")
        lines.append("  " + hand_text(game, state.hands[viewer], _taken_by(state, viewer)))
    lines.append("Scores: " + "  ".join(f"player_{p} {state.scores[p]}" for p in range(game.num_players)))
    lines.append(_status(state, top))
    return "\n".join(lines)


def _took(state: State, seat: int) -> str:
    return " ".join(card_str(c) for c in sorted(state.known[seat])) or "-"


def _taken_by(state: State, seat: int) -> int:
    """The card ``seat`` just took (marked in its hand), ``-1`` if none."""
    return state.taken if seat == state.current else -1


def _seat_lines(game: Rummy432Game, state: State, viewer: int | None) -> list[str]:
    """One line per seat other than the viewer (every seat with no viewer), its hand
    under it when every hand is shown or the game is over."""
    n = game.num_players
    me = 0 if viewer is None else viewer
    order = [(me + k) % n for k in range(n)]
    lines = []
    for s in order if viewer is None else order[1:]:
        tag = []
        if state.phase != OVER and s == state.current:
            tag.append("to move")
        if s == state.finished_by:
            tag.append("finished")
        if s in state.last_left:
            tag.append("last turn")
        mark = f" ({', '.join(tag)})" if tag else ""
        lines.append(
            f"  player_{s}{mark}: {len(state.hands[s])} cards, score {state.scores[s]}, "
            f"took from discard: {_took(state, s)}"
        )
        if viewer is None or state.phase == OVER:
            lines.append("      " + hand_text(game, state.hands[s], _taken_by(state, s)))
    return lines


def _status(state: State, top: str) -> str:
    """The last line: who won, or who is to do what."""
    n = len(state.scores)
    if state.phase == OVER:
        top_score = max(state.scores)
        win = [f"player_{p}" for p in range(n) if state.scores[p] == top_score]
        return f"Game over: {' and '.join(win)} {'wins' if len(win) == 1 else 'share the win'}"
    if state.phase == PICK:
        how = "draw or take " + top if state.pile else "take " + top + " (the pile is empty)"
        return f"player_{state.current} to pick up: {how}"
    extra = f" (not {card_str(state.taken)}, just taken)" if state.taken >= 0 else ""
    return f"player_{state.current} to throw or finish{extra}"
