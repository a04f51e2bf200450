"""Picture of a Line table (``render_mode="rgb_array"``), built from the position JSON.

The 4x4 grid on the left, rows arranged tidily (runs ascending with a joker at its gap,
sets in suit order, as the text rendering); the draw pile and the discard beside it; the
hands on the right.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardenvs.core.cards import JOKER, SUIT_SYMBOLS, card_str, card_value, parse_card
from cardenvs.core.picture import Picture, Pile

from .render import order_row
from .state import NUM_ROWS, ROW_LEN

if TYPE_CHECKING:
    from .rules import LineGame

__all__ = ["picture", "tidy_row"]


def tidy_row(row: list[str]) -> list[str]:
    """A row in reading order: runs ascending with the joker at its gap (else after the
    top, or before it when the top is a king), sets in suit order with the joker at the
    missing suit."""
    return [card_str(c) for c in order_row([parse_card(t, allow_joker=True) for t in row])]


def _row_kind(row: list[str]) -> str:
    """``set``, ``run`` and its suit, or nothing while a row has fewer than two real cards."""
    reals = [parse_card(c) for c in row if c != "X"]
    if len(reals) < 2:
        return ""
    if len({c // 4 for c in reals}) == 1:
        return "set"
    return f"run {SUIT_SYMBOLS[reals[0] % 4]}"


def _hand_order(hand: list[str]) -> list[str]:
    """By suit then rank (as the text render), jokers last."""
    def key(text: str) -> tuple[int, int]:
        c = parse_card(text, allow_joker=True)
        return (1, 0) if c == JOKER else (0, (c % 4) * 13 + c // 4)

    return sorted(hand, key=key)


def _value(text: str, joker_points: int) -> int:
    """Hand-total value of a card text."""
    return joker_points if text == "X" else card_value(parse_card(text))


def _row_piles(js: dict[str, Any]) -> list[Pile]:
    """One pile per grid row, tidy, empty squares blank."""
    rows = []
    for r, row in enumerate(js["rows"]):
        kind = _row_kind(row)
        label = f"Row {r + 1}" + (f" \u00b7 {kind}" if kind else "")
        note = "complete" if len(row) == ROW_LEN else ""
        rows.append(Pile(label, tidy_row(row) + [""] * (ROW_LEN - len(row)), note=note))
    return rows


def _side_piles(js: dict[str, Any]) -> list[Pile]:
    """The draw pile, the discard, the drawn card that must go down, and a spacer."""
    discard = js["discard"]
    side = [
        Pile("Draw", backs=len(js["draw_pile"]), stack=True, note="cards left"),
        Pile("Discard", discard[-1:], note=f"{len(discard)} card{'s' * (len(discard) != 1)}"),
        Pile("Drawn", [js["pending"] + "*"], note="must go down") if js["pending"] else Pile(""),
        Pile(""),
    ]
    for pile in side:
        pile.slots = 1
    return side


def _hand_pile(js: dict[str, Any], p: int, viewer: int | None) -> Pile:
    """Seat ``p``'s hand: face up for everyone at the end, else only for its viewer."""
    hand = js["hands"][p]
    known: list[int] = js.get("known_jokers") or [0] * js["num_players"]
    over = js["phase"] == "over"
    you = " (you)" if viewer == p else ""
    tag = " \u00b7 \u25b6 to move" if p == js["current"] and not over else ""
    if viewer is None or viewer == p or over:
        total = sum(_value(c, js["options"]["joker_points"]) for c in hand)
        note = f"{len(hand)} cards \u00b7 total {total}"
        if known[p]:
            note += f" \u00b7 {known[p]} joker(s) known"
        return Pile(f"player_{p}{you}{tag}", _hand_order(hand), note=note, slots=7, highlight=bool(tag))
    note = f"{len(hand)} cards" + (f" \u00b7 {known[p]} known joker(s)" if known[p] else "")
    return Pile(f"player_{p}{tag}", ["X"] * known[p], backs=len(hand) - known[p], note=note,
                highlight=bool(tag))


def _footer(game: LineGame, state: Any, js: dict[str, Any]) -> str:
    """The result at the end, else who is to move and what they must do."""
    if js["phase"] == "over":
        winners = ", ".join(f"player_{p}" for p in game.winners(state))
        return "Game over \u00b7 lowest hand total wins \u00b7 winner(s): " + winners
    what = {"turn": "play, upgrade, shift, take or draw",
            "place_drawn": f"the drawn {js['pending']} must go down",
            "discard": "discard back to seven"}.get(js["phase"], js["phase"])
    bonus = " \u00b7 bonus turn" if js["bonus_turn"] else ""
    return f"player_{js['current']} to move: {what}{bonus}"


def picture(game: LineGame, state: Any, viewer: int | None) -> Picture:
    """The table of a Line position as a :class:`Picture`.

    ``viewer=None`` shows every hand face up; a seat shows its own hand face up and the
    others face down, except the jokers known to be in them (freed by an upgrade).
    """
    js: dict[str, Any] = game.to_json(state)
    n: int = js["num_players"]
    rows, side = _row_piles(js), _side_piles(js)
    bands = []
    for r in range(NUM_ROWS):
        band = [rows[r], side[r]]
        if r < n:
            band.append(_hand_pile(js, r, viewer))
        bands.append(band)
    title = f"Line \u00b7 {n} players \u00b7 joker {js['options']['joker_points']} points"
    return Picture(title, bands, footer=_footer(game, state, js))
