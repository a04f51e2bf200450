"""Picture of a Rummy 4x3x2's table (``render_mode="rgb_array"``), from the position JSON.

As the app shows it: the other players across the top (face down, except the cards they
took from the discard, which everyone saw), the face-down pile and the discard pile in
the middle, and your cards at the bottom grouped by rank.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardenvs.core.cards import parse_card
from cardenvs.core.picture import Picture, Pile

from .state import GROUP, RANK_VALUES, State

if TYPE_CHECKING:
    from .rules import Rummy432Game


def _rank(text: str) -> int:
    return parse_card(text) // 4


def _value(rank: int) -> int:
    """Card value of a rank index (A 1, number cards their number, J Q K 10)."""
    return RANK_VALUES[rank]


def _group_size(count: int, pack: str) -> int:
    """The biggest allowed group that ``count`` cards of one rank make (0: none)."""
    return GROUP[pack][count]


def _mark(cards: list[str], marked: set[str]) -> list[str]:
    return [c + "*" if c in marked else c for c in cards]


def hand_piles(hand: list[str], pack: str, marked: set[str]) -> tuple[list[Pile], str]:
    """A hand as piles grouped by rank (groups first, biggest first; then the loose
    cards) and a summary: complete or how many loose, and the card value."""
    by_rank: dict[int, list[str]] = {}
    for c in sorted(hand, key=parse_card):
        by_rank.setdefault(_rank(c), []).append(c)
    piles, loose = [], []
    value = 0
    for r in sorted(by_rank, key=lambda r: (-len(by_rank[r]), r)):
        cards = by_rank[r]
        g = _group_size(len(cards), pack)
        value += g * _value(r) - (len(cards) - g) * _value(r)
        if g:
            extra = f" + {len(cards) - g} loose" if len(cards) > g else ""
            piles.append(Pile(f"group of {g}{extra}", _mark(cards, marked)))
        else:
            loose.extend(cards)
    if loose:
        piles.append(Pile("loose", _mark(loose, marked)))
    n_loose = sum(len(c) - _group_size(len(c), pack) for c in by_rank.values())
    status = "complete" if n_loose == 0 else f"incomplete, {n_loose} loose"
    return piles, f"{status}, value {value}"


def picture(game: Rummy432Game, state: State, viewer: int | None) -> Picture:
    """The table of a Rummy 4x3x2's position as a :class:`Picture`.

    ``viewer=None`` shows every hand face up (seat 0 at the bottom); a seat sees its own
    hand at the bottom and the others face down except the cards they took from the
    discard (gold-edged where every card is shown).  At the end every hand is shown.
    """
    js: dict[str, Any] = game.to_json(state)
    opts = js["options"]
    pack: str = opts["pack"]
    current, taken = js["current"], js["taken"]
    me = 0 if viewer is None else viewer
    top = _others(js, me, open_all=viewer is None or js["phase"] == "over")

    discard = js["discard"]
    limit = "never" if opts["run_out_limit"] is None else str(opts["run_out_limit"])
    middle = [
        Pile("Pile", backs=len(js["pile"]), stack=True,
             note=f"run-outs {js['run_outs']} of {limit}"),
        Pile("Discard (top at the right)", discard,
             note=f"{len(discard)} card{'s' * (len(discard) != 1)}" if discard else "empty"),
    ]

    marked = {taken} if taken and me == current else set()
    bottom, summary = hand_piles(js["hands"][me], pack, marked)
    you = "you, " if viewer is not None else ""
    took = " ".join(js["known"][me]) or "-"
    mine = (f"{you}player_{me} \u00b7 score {js['scores'][me]}{_tags(js, me)} \u00b7 {summary}"
            f" \u00b7 took from discard: {took}")
    title = (f"Rummy 4x3x2's \u00b7 pack {pack}, {opts['hand_size']} cards \u00b7 round "
             f"{js.get('round', 1)}, first to {opts['rounds_to_win']} \u00b7 dealer player_{js['dealer']}")
    footer = f"{mine}\n{_status(js)}"
    return Picture(title, [top, middle, bottom], footer=footer, centered=True)


def _tags(js: dict[str, Any], s: int) -> str:
    """`` · to move, finished, last turn`` as they apply to seat ``s``."""
    t = []
    if js["phase"] != "over" and s == js["current"]:
        t.append("\u25b6 to move")
    if s == js["finished_by"]:
        t.append("finished")
    if s in js["last_turns_left"]:
        t.append("last turn")
    return (" \u00b7 " + ", ".join(t)) if t else ""


def _others(js: dict[str, Any], me: int, open_all: bool) -> list[Pile]:
    """The other seats across the top, in seat order after ``me``: face up when
    ``open_all``, else face down but for the cards they took from the discard."""
    n: int = js["num_players"]
    over = js["phase"] == "over"
    current, taken = js["current"], js["taken"]
    top: list[Pile] = []
    for k in range(1, n):
        s = (me + k) % n
        hand = js["hands"][s]
        known = js["known"][s]
        label = f"player_{s} \u00b7 score {js['scores'][s]}{_tags(js, s)}"
        took = " ".join(known) if known else "-"
        if open_all:
            marked = set(known) | ({taken} if taken and s == current else set())
            cards = _mark(sorted(hand, key=lambda c: (_rank(c), c)), marked)
            _, summary = hand_piles(hand, js["options"]["pack"], set())
            top.append(Pile(label, cards, note=summary, highlight=s == current and not over))
        else:
            top.append(Pile(label, _mark(known, set()), backs=len(hand) - len(known),
                            note=f"{len(hand)} cards \u00b7 took {took}",
                            highlight=s == current and not over))
    return top


def _status(js: dict[str, Any]) -> str:
    """Who won, or who is to do what."""
    current, taken, discard = js["current"], js["taken"], js["discard"]
    if js["phase"] == "over":
        best = max(js["scores"])
        win = [f"player_{p}" for p in range(js["num_players"]) if js["scores"][p] == best]
        return f"Game over: {' and '.join(win)} {'wins' if len(win) == 1 else 'share the win'}"
    if js["phase"] == "pick":
        top_card = discard[-1] if discard else "-"
        how = f"draw or take {top_card}" if js["pile"] else f"take {top_card} (the pile is empty)"
        return f"player_{current} to pick up: {how}"
    extra = f" (not {taken}, just taken)" if taken else ""
    return f"player_{current} to throw or finish{extra}"
