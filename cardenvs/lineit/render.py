"""Line-it's text picture of the table (``render_mode="ansi"``)."""

from __future__ import annotations

from .state import (
    COLOUR_KEYS,
    COLOUR_SYMBOLS,
    FINAL,
    NUM_NUMBERS,
    OVER,
    PHASES,
    State,
    card_text,
    colour_of,
    score,
)


def _card(c: int) -> str:
    """A card with its colour symbol: ``57-heart``, or ``B4``."""
    return card_text(c) if c > NUM_NUMBERS else f"{c}-{COLOUR_SYMBOLS[colour_of(c)]}"


def _cards(cards: list[int]) -> str:
    """Cards separated by spaces, ``-`` for none."""
    return " ".join(_card(c) for c in cards) if cards else "-"


def _header(st: State) -> list[str]:
    """The phase, the player to move, the deck, the market and the jackpots."""
    to_move = ("" if st.phase == OVER else
               f", player_{st.current} to move ({st.picks_left} to act this "
               f"{'round' if st.phase != FINAL else 'final phase'})")
    jackpots = ", ".join(f"{COLOUR_SYMBOLS[k]} ({COLOUR_KEYS[k]}) {len(st.jackpots[k])} "
                         f"[{_cards(sorted(st.jackpots[k]))}]" for k in range(4))
    return [f"Line-it, {st.n} players. Phase {PHASES[st.phase]}{to_move}. First player: player_{st.first}.",
            f"Deck: {len(st.deck)} cards.  Market: {_cards(st.market)}",
            f"Jackpots: {jackpots}"]


def _seat(st: State, s: int, viewer: int | None) -> list[str]:
    """Seat ``s``'s line (direction, Bet, colours), hand, scoring pile, tokens and score."""
    tag = f"player_{s}" + (" (you)" if viewer == s else "") + (
        " *" if s == st.current and st.phase != OVER else "")
    ls = st.stats[s]
    dtxt = "no direction yet" if ls.dir == 0 else ("ascending" if ls.dir > 0 else "descending")
    bet = f"bet {card_text(ls.bet)} with {ls.after} after" if ls.bet else "no bet"
    colours = ", ".join(f"{COLOUR_SYMBOLS[k]} {ls.col[k]}" for k in range(4) if ls.col[k])
    toks = " ".join(f"{t:+d}" for t in st.tokens[s]) or "-"
    return [f"{tag}: line [{_cards(st.lines[s])}] ({dtxt}; {bet}" + (f"; {colours}" if colours else "") + ")",
            f"    hand: {_cards(st.hands[s])}  scored {len(st.scored[s])} cards, "
            f"tokens {toks}, score {score(st.scored[s], st.tokens[s])}"]


def render(state: State, viewer: int | None = None) -> str:
    """Text of the table.  Everything but the deck order is public, so every hand is
    shown whatever ``viewer`` is; the viewer's seat is marked ``(you)``."""
    st = state
    out = _header(st)
    for s in range(st.n):
        out += _seat(st, s, viewer)
    if st.phase == OVER:
        sc = [score(st.scored[s], st.tokens[s]) for s in range(st.n)]
        best = [f"player_{s}" for s in range(st.n) if sc[s] == max(sc)]
        out.append(("Winner: " if len(best) == 1 else "Shared win: ") + ", ".join(best))
    return "\n".join(out)
