"""Standard playing cards as small ints, and the shared card notation (docs/rules/).

A card is an int ``0..51``: ``(rank - 1) * 4 + suit`` with suits in suit order
``c d h s`` (0..3) and ranks ``A=1 … K=13``.  The Line joker is :data:`JOKER` (52).
Text form is rank then suit (``7s``, ``Th``, ``Ac``; ``10h`` parses as ``Th``) and
``X`` for the joker.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "cdhs"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("\u2663", "\u2666", "\u2665", "\u2660")
NUM_CARDS = 52
JOKER = 52
JOKER_TEXT = "X"


def make_card(rank: int, suit: int) -> int:
    """Card id of ``rank`` (1..13) and ``suit`` (0..3)."""
    return (rank - 1) * 4 + suit


def rank_of(card: int) -> int:
    """Rank 1..13 of a real card."""
    return card // 4 + 1


def suit_of(card: int) -> int:
    """Suit 0..3 (c d h s) of a real card."""
    return card % 4


def card_value(card: int) -> int:
    """Hand-total value of a real card: Ace 1, 2-10 their number, J Q K 10."""
    r = card // 4 + 1
    return 10 if r > 10 else r


#: value of each real card, indexed by card id
CARD_VALUES: tuple[int, ...] = tuple(card_value(c) for c in range(NUM_CARDS))


def card_str(card: int) -> str:
    """Text of a card id (``JOKER`` prints as ``X``)."""
    if card == JOKER:
        return JOKER_TEXT
    if not 0 <= card < NUM_CARDS:
        raise ValueError(f"card id {card!r} is out of range 0..52")
    return RANKS[card // 4] + SUITS[card % 4]


def parse_card(text: str, allow_joker: bool = False) -> int:
    """Card id of a text card (``7s``, ``Th``, ``10h``, ``X``).

    Raises ``ValueError`` naming the accepted forms when ``text`` is not a card.
    """
    if not isinstance(text, str):
        raise ValueError(f"a card must be a string like '7s', got {text!r}")
    t = text.strip()
    if allow_joker and t.upper() == JOKER_TEXT:
        return JOKER
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) == 2:
        r = RANKS.find(t[0].upper())
        s = SUITS.find(t[1].lower())
        if r >= 0 and s >= 0:
            return r * 4 + s
    forms = "rank A 2-9 T(10) J Q K then suit c d h s, e.g. '7s', 'Th', '10h'"
    if allow_joker:
        forms += ", or 'X' for a joker"
    raise ValueError(f"{text!r} is not a card: expected {forms}")


def cards_str(cards: Iterable[int]) -> str:
    """Space-separated text of several cards."""
    return " ".join(card_str(c) for c in cards)
