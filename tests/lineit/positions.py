"""Build exact Line-it JSON positions for tests, and small helpers to drive the rules."""

from __future__ import annotations

from typing import Any

from cardenvs.lineit.rules import LineItGame, State

Card = int | str
ALL_CARDS: list[Card] = [*range(1, 101), "B3", "B3", "B4", "B4", "B5", "B5"]


def position(
    n: int = 2,
    *,
    deck: list[Card] | None = None,
    market: list[Card] = (),  # type: ignore[assignment]
    lines: list[list[Card]] | None = None,
    hands: list[list[Card]] | None = None,
    jackpots: dict[str, list[Card]] | None = None,
    scored: list[list[int]] | None = None,
    tokens: list[list[int]] | None = None,
    discarded: list[Card] = (),  # type: ignore[assignment]
    first: int = 0,
    current: int | None = None,
    phase: str = "pick",
    picks_left: int | None = None,
    played_hand: bool = False,
    rest: str = "deck",
) -> dict[str, Any]:
    """A position (docs/rules/ format); every card not placed goes to ``rest`` ("deck" or "discarded")
    in ascending order (numbers, then Bets), unless ``deck`` is given (then to discarded)."""
    lines = lines or [[] for _ in range(n)]
    hands = hands or [[] for _ in range(n)]
    scored = scored or [[] for _ in range(n)]
    tokens = tokens or [[] for _ in range(n)]
    jp: dict[str, list[Card]] = {"red": [], "blue": [], "green": [], "yellow": []}
    jp.update(jackpots or {})
    placed: list[Card] = [*market, *discarded, *(deck or [])]
    piles: list[list[Card]] = [*lines, *hands, *jp.values()]
    for pile in piles:
        placed += pile
    for scored_pile in scored:
        placed += scored_pile
    rest_cards = list(ALL_CARDS)
    for c in placed:
        rest_cards.remove(c)
    deck_out = list(deck) if deck is not None else []
    disc_out = list(discarded)
    if deck is None and rest == "deck":
        deck_out = rest_cards
    else:
        disc_out += rest_cards
    if picks_left is None:
        picks_left = 0 if phase == "over" else n
    if current is None and phase != "over":
        current = (first + n - picks_left) % n
    return {
        "game": "lineit", "num_players": n, "deck": deck_out, "market": list(market),
        "lines": [list(x) for x in lines], "hands": [list(x) for x in hands],
        "jackpots": jp, "scored": [list(x) for x in scored],
        "tokens": [list(x) for x in tokens], "discarded": disc_out,
        "first": first, "current": current, "phase": phase, "picks_left": picks_left,
        "played_hand": played_hand,
    }


def load(pos: dict[str, Any]) -> tuple[LineItGame, State]:
    """The game and state of a position."""
    g = LineItGame(pos["num_players"])
    return g, g.from_json(pos)


def legal(g: LineItGame, st: State) -> set[str]:
    """The legal moves as text."""
    return {g.action_to_str(a) for a in g.legal_actions(st)}


def play(g: LineItGame, st: State, *moves: str) -> None:
    """Apply moves given as text."""
    for m in moves:
        g.apply(st, g.str_to_action(m))
