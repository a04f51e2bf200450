"""Picture of a Line-it table (``render_mode="rgb_array"``).

Top: the deck (face down, a count), the market and the discarded cards.  Then the four
colour jackpots.  Then one band per player: scoring pile and score, hand, and the line
with its direction, colour counts and Bet.  Everything but the deck is public.
"""

from __future__ import annotations

from typing import Any

from cardenvs.core.picture import Picture, Pile

from .state import COLOUR_KEYS, FINAL, HAND_LIMIT, OVER, PHASES, State, card_text, market_size, score

_GLYPHS = ("\u2665", "\u2666", "\u2618", "\u2605")  # heart, diamond, leaf, star
_DIRECTIONS = {1: "\u2191 ascending", -1: "\u2193 descending", 0: "no direction yet"}
_JACKPOT_SHOWN = 6


def _texts(cards: list[int]) -> list[str]:
    """The notation of each card."""
    return [card_text(c) for c in cards]


def _plural(k: int) -> str:
    """``1 card``, ``2 cards``."""
    return f"{k} card{'s' * (k != 1)}"


def _top(st: State) -> list[Pile]:
    """The deck, the market and the discard."""
    return [
        Pile("Deck", backs=len(st.deck), stack=True, note="cards left"),
        Pile("Market", _texts(st.market), slots=market_size(st.n), note=_plural(len(st.market))),
        Pile("Discarded", _texts(st.discarded[-1:]), note=f"{len(st.discarded)} cards"),
    ]


def _jackpots(st: State) -> list[Pile]:
    """The four jackpots, the highest cards of each shown."""
    piles = []
    for k, name in enumerate(COLOUR_KEYS):
        cards = sorted(st.jackpots[k])
        shown = _texts(cards[-_JACKPOT_SHOWN:])
        more = len(cards) - len(shown)
        note = _plural(len(cards)) + (f" ({more} more not shown)" if more else "")
        piles.append(Pile(f"Jackpot {_GLYPHS[k]} {name}", shown, note=note))
    return piles


def _seat(st: State, s: int, viewer: int | None) -> list[Pile]:
    """Seat ``s``'s band: scoring pile and score, hand, and the line."""
    tokens = st.tokens[s]
    tok = " ".join(f"{t:+d}" for t in tokens) or "none"
    to_move = st.phase != OVER and s == st.current
    ls = st.stats[s]
    colours = "  ".join(f"{_GLYPHS[k]}{ls.col[k]}" for k in range(4) if ls.col[k])
    bet = f"bet {card_text(ls.bet)}: {ls.after} after" if ls.bet else "no bet"
    name = f"player_{s}" + (" (you)" if viewer == s else "") + (" \u25b6" if to_move else "")
    return [
        Pile(name, backs=len(st.scored[s]), stack=True, highlight=to_move, slots=2,
             note=f"score {score(st.scored[s], tokens)} \u00b7 tokens {tok}"),
        Pile("hand", _texts(st.hands[s]), slots=HAND_LIMIT),
        Pile(f"line \u00b7 {_DIRECTIONS[ls.dir]}", _texts(st.lines[s]),
             note=bet + (f" \u00b7 colours {colours}" if colours else "")),
    ]


def _footer(st: State) -> str:
    """The winners at the end, else the phase and the player to move."""
    if st.phase == OVER:
        scores = [score(st.scored[s], st.tokens[s]) for s in range(st.n)]
        win = [f"player_{s}" for s in range(st.n) if scores[s] == max(scores)]
        return ("Winner: " if len(win) == 1 else "Shared win: ") + ", ".join(win)
    what = "round" if st.phase != FINAL else "final phase"
    return (f"Phase {PHASES[st.phase]} \u00b7 player_{st.current} to move ({st.picks_left} to act "
            f"this {what}) \u00b7 first player: player_{st.first}")


def picture(game: Any, state: State, viewer: int | None) -> Picture:
    """The table of a Line-it position as a :class:`Picture`.

    Every hand is public in Line-it, so ``viewer`` only marks that seat ``(you)``; the
    deck is always face down.
    """
    bands = [_top(state), _jackpots(state)] + [_seat(state, s, viewer) for s in range(state.n)]
    return Picture(f"Line-it \u00b7 {state.n} players", bands, footer=_footer(state))
