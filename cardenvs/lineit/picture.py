"""Picture of a Line-it table (``render_mode="rgb_array"``), from the position JSON.

Top: the deck (face down, a count), the market and the discarded cards.  Then the four
colour jackpots.  Then one band per player: scoring pile and score, hand, and the line
with its direction, colour counts and Bet.  Everything but the deck is public.
"""

from __future__ import annotations

from typing import Any

from cardenvs.core.picture import Pile, Table

_COLOURS = ("red", "blue", "green", "yellow")
_GLYPHS = ("\u2665", "\u2666", "\u2618", "\u2605")  # heart, diamond, leaf, star
_JACKPOT_SHOWN = 6


def _text(card: int | str) -> str:
    return str(card)


def line_stats(line: list[int | str]) -> tuple[int, list[int], str | None, int]:
    """(direction +1/-1/0, number cards per colour, the Bet or None, numbers after it)."""
    last = direction = count = 0
    colours = [0, 0, 0, 0]
    bet: str | None = None
    before = 0
    for c in line:
        if isinstance(c, str):
            bet, before = c, count
            continue
        count += 1
        if count == 2:
            direction = 1 if c > last else -1
        last = c
        colours[(c - 1) % 4] += 1
    return direction, colours, bet, count - before if bet else 0


def picture(game: Any, state: Any, viewer: int | None) -> Table:
    """The table of a Line-it position as a :class:`Table`.

    Every hand is public in Line-it, so ``viewer`` only marks that seat ``(you)``; the
    deck is always face down.
    """
    js: dict[str, Any] = game.to_json(state)
    n: int = js["num_players"]
    over = js["phase"] == "over"
    current = js["current"]

    discarded = [_text(c) for c in js["discarded"]]
    top = [
        Pile("Deck", backs=len(js["deck"]), stack=True, note="cards left"),
        Pile("Market", [_text(c) for c in js["market"]], slots=n + 2,
             note=f"{len(js['market'])} card{'s' * (len(js['market']) != 1)}"),
        Pile("Discarded", discarded[-1:], note=f"{len(discarded)} cards"),
    ]
    jackpots = []
    for k, name in enumerate(_COLOURS):
        cards = sorted(js["jackpots"][name])
        shown = [_text(c) for c in cards[-_JACKPOT_SHOWN:]]
        more = len(cards) - len(shown)
        note = f"{len(cards)} card{'s' * (len(cards) != 1)}" + (f" ({more} more not shown)" if more else "")
        jackpots.append(Pile(f"Jackpot {_GLYPHS[k]} {name}", shown, note=note))

    bands = [top, jackpots]
    for s in range(n):
        scored = len(js["scored"][s])
        tokens = js["tokens"][s]
        score = scored + sum(tokens)
        tok = " ".join(f"{t:+d}" for t in tokens) or "none"
        you = " (you)" if viewer == s else ""
        to_move = not over and s == current
        line = js["lines"][s]
        direction, colours, bet, after = line_stats(line)
        dtxt = {1: "\u2191 ascending", -1: "\u2193 descending", 0: "no direction yet"}[direction]
        ctxt = "  ".join(f"{_GLYPHS[k]}{colours[k]}" for k in range(4) if colours[k])
        btxt = f"bet {bet}: {after} after" if bet else "no bet"
        bands.append([
            Pile(f"player_{s}{you}" + (" \u25b6" if to_move else ""), backs=scored, stack=True,
                 note=f"score {score} \u00b7 tokens {tok}", highlight=to_move, slots=2),
            Pile("hand", [_text(c) for c in js["hands"][s]], slots=2),
            Pile(f"line \u00b7 {dtxt}", [_text(c) for c in line],
                 note=f"{btxt}" + (f" \u00b7 colours {ctxt}" if ctxt else "")),
        ])

    if over:
        scores = [len(js["scored"][s]) + sum(js["tokens"][s]) for s in range(n)]
        best = max(scores)
        win = [f"player_{s}" for s in range(n) if scores[s] == best]
        footer = ("Winner: " if len(win) == 1 else "Shared win: ") + ", ".join(win)
    else:
        what = "round" if js["phase"] != "final" else "final phase"
        footer = (f"Phase {js['phase']} \u00b7 player_{current} to move ({js['picks_left']} to act "
                  f"this {what}) \u00b7 first player: player_{js['first']}")
    return Table(f"Line-it \u00b7 {n} players", bands, footer=footer)
