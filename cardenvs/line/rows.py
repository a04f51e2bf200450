"""Line's row tables, built once at import: what a row accepts and which moves it offers.

A row is known by its *row key*: the bitmask of its cards, the joker at bit 52 (see
:mod:`cardenvs.line.state`).  Only finishable rows exist (docs/rules/line.md: a row must stay
finishable as a run or a set), so each table below is a dict over every possible row
key, and a card set is a bitmask of the same kind (``1 << card``, joker included).
"""

from __future__ import annotations

from collections.abc import Sequence

from .state import JOKER, JOKER_BIT, NUM_KINDS, PAIR_INDEX, ROW_LEN

__all__ = [
    "ADDABLE", "CARD_BIT", "FINISHABLE", "ROW_FIT", "ROW_MOVES", "ROW_PLAY", "ROW_SHIFT_IN", "ROW_UPGRADE",
    "RowMoves", "SHIFT_TABLE", "finishable_cards",
]

#: ``1 << card`` of every card kind (a look-up is cheaper than the shift)
CARD_BIT: tuple[int, ...] = tuple(1 << c for c in range(NUM_KINDS))


def finishable_cards(reals: Sequence[int]) -> bool:
    """docs/rules/line.md finishability of a row's real cards (at most one joker never matters)."""
    if len(reals) <= 1:
        return True
    ranks = {c >> 2 for c in reals}
    if len(ranks) == 1:
        return True
    suits = {c & 3 for c in reals}
    return len(suits) == 1 and max(ranks) - min(ranks) <= 3


def _finishable_masks() -> set[int]:
    """Every finishable set of real cards, as bitmasks: subsets of a set or of a run window."""
    masks = {0}
    for c in range(52):
        masks.add(1 << c)
    for rank in range(13):
        cards = [rank * 4 + s for s in range(4)]
        for sub in range(1, 16):
            masks.add(sum(1 << cards[i] for i in range(4) if sub >> i & 1))
    for suit in range(4):
        for lo in range(13):
            window = [(lo + k) * 4 + suit for k in range(4) if lo + k < 13]
            for sub in range(1, 1 << len(window)):
                masks.add(sum(1 << window[i] for i in range(len(window)) if sub >> i & 1))
    return masks


#: the finishable real-card masks (a row's real cards are always one of them)
FINISHABLE: frozenset[int] = frozenset(_finishable_masks())


def _addable() -> dict[int, int]:
    """For each finishable real-card mask of at most 3 cards: the real cards addable."""
    out = {}
    for m in FINISHABLE:
        if m.bit_count() > 3:
            continue
        add = 0
        for c in range(52):
            b = 1 << c
            if not m & b and (m | b) in FINISHABLE:
                add |= b
        out[m] = add
    return out


#: real cards that keep a row finishable, per real-card mask (size permitting)
ADDABLE: dict[int, int] = _addable()


def _shift_entry(reals: list[int], jok: bool) -> dict[int, tuple[int, ...]]:
    """Card in -> shift pair indices, for a full run row of ``reals`` (and the joker)."""
    row = reals + ([JOKER] if jok else [])
    entry: dict[int, list[int]] = {}
    for c in range(NUM_KINDS):
        if c in row or (c != JOKER and c & 3 != reals[0] & 3):
            continue
        for o in row:
            rest = [x for x in row if x != o] + [c]
            if rest.count(JOKER) > 1:
                continue
            if finishable_cards([x for x in rest if x != JOKER]):
                entry.setdefault(c, []).append(PAIR_INDEX[(c, o)])
    return {c: tuple(v) for c, v in entry.items()}


def _shift_table() -> dict[int, dict[int, tuple[int, ...]]]:
    """Per full run row (row key): card in -> shift pair indices."""
    table: dict[int, dict[int, tuple[int, ...]]] = {}
    for m in FINISHABLE:
        for jok in (False, True):
            if m.bit_count() + jok != ROW_LEN:
                continue
            reals = [c for c in range(52) if m >> c & 1]
            if len({c >> 2 for c in reals}) == 1:
                continue  # a set: never shifts
            table[m | (JOKER_BIT if jok else 0)] = _shift_entry(reals, jok)
    return table


#: per full run row (row key): the card shifted in -> the shift pair indices it may use
SHIFT_TABLE: dict[int, dict[int, tuple[int, ...]]] = _shift_table()


def _row_keys() -> list[int]:
    """Every possible row key: a finishable real-card mask, with or without the joker."""
    keys: list[int] = []
    for m in FINISHABLE:
        n = m.bit_count()
        keys.extend(m | j for j in (0, JOKER_BIT) if n + (j > 0) <= ROW_LEN)
    return keys


def _move_tables() -> tuple[dict[int, int], dict[int, int], dict[int, int], dict[int, int]]:
    """ROW_PLAY, ROW_UPGRADE, ROW_SHIFT_IN and ROW_FIT (see their comments)."""
    play, upgrade, shift_in, fit = {}, {}, {}, {}
    for k in _row_keys():
        m, jok = k & ~JOKER_BIT, bool(k & JOKER_BIT)
        full = m.bit_count() + jok == ROW_LEN
        play[k] = 0 if full else ADDABLE[m] | (0 if jok else JOKER_BIT)
        upgrade[k] = ADDABLE[m] if full and jok else 0
        shift_in[k] = sum(1 << c for c in SHIFT_TABLE.get(k, ()))
        fit[k] = play[k] | upgrade[k] | shift_in[k]
    return play, upgrade, shift_in, fit


_TABLES = _move_tables()
#: per row key: the cards (bit 52: the joker) that Play may put into the row (0: full)
ROW_PLAY: dict[int, int] = _TABLES[0]
#: per row key: the real cards that may replace the row's joker by an upgrade (full rows)
ROW_UPGRADE: dict[int, int] = _TABLES[1]
#: per row key: the cards (bit 52: the joker) that may be shifted into the row (full runs)
ROW_SHIFT_IN: dict[int, int] = _TABLES[2]
#: per row key: the cards (bit 52: the joker) with any move (play, upgrade, shift) there
ROW_FIT: dict[int, int] = _TABLES[3]

#: ``(fit, play, upgrade, shift_in, {card in: shift pair indices})`` of one row
RowMoves = tuple[int, int, int, int, dict[int, tuple[int, ...]]]
#: per row key, the four tables above and the shift entry in one look-up (for the legal moves)
ROW_MOVES: dict[int, RowMoves] = {
    k: (ROW_FIT[k], ROW_PLAY[k], ROW_UPGRADE[k], ROW_SHIFT_IN[k], SHIFT_TABLE.get(k, {})) for k in ROW_FIT
}
