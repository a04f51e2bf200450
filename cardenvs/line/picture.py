"""Picture of a Line table (``render_mode="rgb_array"``), built from the RULES.md JSON.

The 4x4 grid on the left, rows arranged tidily (runs ascending with a joker at its gap,
sets in suit order); the draw pile and the discard beside it; the hands on the right.
"""

from __future__ import annotations

from typing import Any

from cardenvs.core.cards import parse_card
from cardenvs.core.picture import Pile, Table

_SUITS = "cdhs"


def _rank(text: str) -> int:
    return parse_card(text) // 4


def _suit(text: str) -> int:
    return parse_card(text) % 4


def tidy_row(row: list[str]) -> list[str]:
    """A row in reading order: runs ascending with the joker at its gap (else after the
    top, or before it when the top is a king), sets in suit order with the joker at the
    missing suit."""
    reals = sorted((c for c in row if c != "X"), key=parse_card)
    jokers = [c for c in row if c == "X"]
    if not jokers:
        return reals
    if len(reals) >= 2 and len({_rank(c) for c in reals}) == 1:
        suits = [_suit(c) for c in reals]
        missing = next(s for s in range(4) if s not in suits)
        at = sum(1 for s in suits if s < missing)
        return reals[:at] + jokers + reals[at:]
    if len(reals) >= 2:
        ranks = [_rank(c) for c in reals]
        for i in range(len(ranks) - 1):
            if ranks[i + 1] - ranks[i] > 1:
                return reals[: i + 1] + jokers + reals[i + 1:]
        if ranks[-1] == 12:
            return jokers + reals
    return reals + jokers


def _row_kind(row: list[str]) -> str:
    reals = [c for c in row if c != "X"]
    if len(reals) < 2:
        return ""
    if len({_rank(c) for c in reals}) == 1:
        return "set"
    return f"run {_SUIT_GLYPH[_suit(reals[0])]}"


_SUIT_GLYPH = {0: "\u2663", 1: "\u2666", 2: "\u2665", 3: "\u2660"}


def _hand_order(hand: list[str]) -> list[str]:
    """By suit then rank (as the text render), jokers last."""
    return sorted(hand, key=lambda c: (1, 0) if c == "X" else (0, _suit(c) * 13 + _rank(c)))


def _value(text: str, joker_points: int) -> int:
    if text == "X":
        return joker_points
    return min(_rank(text) + 1, 10)


def picture(game: Any, state: Any, viewer: int | None) -> Table:
    """The table of a Line position as a :class:`Table`.

    ``viewer=None`` shows every hand face up; a seat shows its own hand face up and the
    others face down, except the jokers known to be in them (freed by an upgrade).
    """
    js: dict[str, Any] = game.to_json(state)
    n: int = js["num_players"]
    jp: int = js["options"]["joker_points"]
    known: list[int] = js.get("known_jokers") or [0] * n
    over = js["phase"] == "over"
    current: int = js["current"]

    rows: list[Pile] = []
    for r, row in enumerate(js["rows"]):
        kind = _row_kind(row)
        label = f"Row {r + 1}" + (f" \u00b7 {kind}" if kind else "")
        note = "complete" if len(row) == 4 else ""
        rows.append(Pile(label, tidy_row(row) + [""] * (4 - len(row)), note=note))

    discard = js["discard"]
    side = [
        Pile("Draw", backs=len(js["draw_pile"]), stack=True, note="cards left"),
        Pile("Discard", discard[-1:], note=f"{len(discard)} card{'s' * (len(discard) != 1)}"),
        Pile("Drawn", [js["pending"] + "*"], note="must go down") if js["pending"] else Pile(""),
        Pile(""),
    ]
    for p in side:
        p.slots = 1

    hands: list[Pile] = []
    for p in range(n):
        hand = js["hands"][p]
        you = " (you)" if viewer == p else ""
        tag = " \u00b7 \u25b6 to move" if p == current and not over else ""
        if viewer is None or viewer == p or over:
            cards = _hand_order(hand)
            total = sum(_value(c, jp) for c in hand)
            note = f"{len(hand)} cards \u00b7 total {total}"
            if known[p]:
                note += f" \u00b7 {known[p]} joker(s) known"
            hands.append(Pile(f"player_{p}{you}{tag}", cards, note=note, slots=7,
                              highlight=bool(tag)))
        else:
            shown = ["X"] * known[p]
            note = f"{len(hand)} cards" + (f" \u00b7 {known[p]} known joker(s)" if known[p] else "")
            hands.append(Pile(f"player_{p}{tag}", shown, backs=len(hand) - known[p], note=note,
                              highlight=bool(tag)))

    bands = []
    for r in range(4):
        band = [rows[r], side[r]]
        if r < n:
            band.append(hands[r])
        bands.append(band)

    if over:
        hands_json = js["hands"]
        totals = [sum(_value(c, jp) for c in h) for h in hands_json]
        best = min((totals[p], len(hands_json[p])) for p in range(n))
        winners = [f"player_{p}" for p in range(n) if (totals[p], len(hands_json[p])) == best]
        footer = "Game over \u00b7 lowest hand total wins \u00b7 winner(s): " + ", ".join(winners)
    else:
        what = {"turn": "play, upgrade, shift, take or draw",
                "place_drawn": f"the drawn {js['pending']} must go down",
                "discard": "discard back to seven"}.get(js["phase"], js["phase"])
        bonus = " \u00b7 bonus turn" if js["bonus_turn"] else ""
        footer = f"player_{current} to move: {what}{bonus}"
    title = f"Line \u00b7 {n} players \u00b7 joker {jp} points"
    return Table(title, bands, footer=footer)
