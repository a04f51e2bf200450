"""Line's text rendering (``render_mode="ansi"``): the grid, the piles and the hands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardenvs.core.cards import card_str

from .state import JOKER, OVER, PHASES, PLACE_DRAWN, ROW_LEN, LineState

if TYPE_CHECKING:
    from .rules import LineGame

__all__ = ["order_row", "render"]


def order_row(cards: list[int]) -> list[int]:
    """Tidy order of a row for display: runs ascending with the joker at its gap,
    sets in suit order with the joker at the missing suit."""
    reals = sorted(c for c in cards if c != JOKER)
    if JOKER not in cards:
        if len({c >> 2 for c in reals}) <= 1:
            return sorted(reals, key=lambda c: (c >> 2, c & 3))
        return reals
    if len(reals) >= 2 and len({c >> 2 for c in reals}) == 1:
        suits = [c & 3 for c in reals]
        missing = next(s for s in range(4) if s not in suits)
        out = list(reals)
        out.insert(sum(1 for s in suits if s < missing), JOKER)
        return out
    if len(reals) >= 2:  # a run: the joker at the first inner gap, else after the top
        ranks = [c >> 2 for c in reals]
        for i in range(len(ranks) - 1):
            if ranks[i + 1] - ranks[i] > 1:
                return reals[: i + 1] + [JOKER] + reals[i + 1:]
        if ranks[-1] == 12:
            return [JOKER] + reals
        return reals + [JOKER]
    return reals + [JOKER]


def _row_lines(s: LineState) -> list[str]:
    """One line per row: its cards in tidy order, empty squares as ``..``, run or set."""
    lines = []
    for r, row in enumerate(s.rows):
        cells = [card_str(c) for c in order_row(row)]
        cells += [".."] * (ROW_LEN - len(cells))
        tag = ""
        if len(row) == ROW_LEN:
            reals = [c for c in row if c != JOKER]
            tag = "  set" if len({c >> 2 for c in reals}) == 1 else "  run"
        lines.append(f"r{r + 1}  " + " ".join(f"{x:>2}" for x in cells) + tag)
    return lines


def _status_line(game: LineGame, s: LineState) -> str:
    """Who is to move in which phase, or the result."""
    if s.phase == OVER:
        totals = ", ".join(f"player_{p} {game.hand_total(s, p)}" for p in range(game.num_players))
        return f"game over; totals: {totals}; winner(s): " + ", ".join(
            f"player_{p}" for p in game.winners(s)
        )
    what = PHASES[s.phase]
    if s.phase == PLACE_DRAWN and s.pending is not None:
        what += f" (drawn {card_str(s.pending)} must go down)"
    bonus = ", bonus turn" if s.bonus else ""
    return f"to move: player_{s.current}, phase {what}{bonus}"


def _hand_line(s: LineState, p: int, shown: bool) -> str:
    """Seat ``p``'s hand, face up or as a count (with the jokers known to be in it)."""
    h = s.hands[p]
    if shown:
        cards = " ".join(card_str(c) for c in sorted(h, key=lambda c: (c & 3, c))) or "-"
        known = f" ({s.known[p]} joker(s) known)" if s.known[p] else ""
        return f"player_{p} hand ({len(h)}): {cards}{known}"
    known = f", {s.known[p]} known joker(s)" if s.known[p] else ""
    return f"player_{p}: {len(h)} cards{known}"


def render(game: LineGame, state: LineState, viewer: int | None = None) -> str:
    """Text picture of the table; ``viewer=None`` shows every hand."""
    s = state
    lines = _row_lines(s)
    top = card_str(s.discard[-1]) if s.discard else "--"
    lines.append(f"discard top {top} ({len(s.discard)} cards)   draw pile {len(s.draw)}")
    lines.append(_status_line(game, s))
    lines += [_hand_line(s, p, viewer is None or viewer == p) for p in range(game.num_players)]
    return "\n".join(lines)
