"""Line-it's vocabulary: cards, action ids, phases, the state and the per-player View.

Every other module of the game (rules, encoding, serialization, render) and the agents'
heuristics import these names, so a rule's number is written once, here.

Cards are small ints: number cards are ``1..100`` (their own value), the Bet kinds are
``101`` (``B3``), ``102`` (``B4``) and ``103`` (``B5``); the two copies of a Bet kind are
identical and share one int.  A card's *index* ``card - 1`` (``0..102``) numbers the
action ids, which name cards, never market slots, so an id means the same in every state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

# ----------------------------------------------------------------------------- cards
NUM_NUMBERS = 100
B3, B4, B5 = 101, 102, 103
BET_KINDS = (B3, B4, B5)
BET_COPIES = 2  # identical copies of each Bet kind
NUM_KINDS = 103  # distinct card kinds (ids 1..103)
DECK: tuple[int, ...] = (
    tuple(range(1, NUM_NUMBERS + 1)) + tuple(b for b in BET_KINDS for _ in range(BET_COPIES))
)
COLOUR_KEYS = ("red", "blue", "green", "yellow")
COLOUR_SYMBOLS = ("heart", "diamond", "leaf", "star")
MAX_PLAYERS = 5
HAND_LIMIT = 2
#: number cards of a line that are discarded when it is scored (the rest are banked)
DISCARDED_PER_LINE = 3
#: the card of a colour that claims that colour's jackpot (the third in the line)
JACKPOT_CLAIM = 3
#: the bet tokens, in the order the observation counts them
TOKEN_VALUES = (-5, -4, -3, 3, 4, 5)

# ----------------------------------------------------------------------------- actions
A_LINE, A_HAND, A_NEW, A_PLAY = 0, NUM_KINDS, 2 * NUM_KINDS, 3 * NUM_KINDS
A_SCORE, A_PASS = 4 * NUM_KINDS, 4 * NUM_KINDS + 1
NUM_ACTIONS = A_PASS + 1
#: the kinds of action, in id order: ``pick <c> line|hand|new``, ``play <c>``, ``score``, ``pass``
K_LINE, K_HAND, K_NEW, K_PLAY, K_SCORE, K_PASS = range(6)
PICK_MODES = ("line", "hand", "new")
#: ``ACTIONS[a]`` is ``(kind, card)`` of action id ``a`` (card 0 for score and pass)
ACTIONS: tuple[tuple[int, int], ...] = tuple(
    [(k, i + 1) for k in (K_LINE, K_HAND, K_NEW, K_PLAY) for i in range(NUM_KINDS)]
    + [(K_SCORE, 0), (K_PASS, 0)]
)

PHASES = ("pick", "play", "score", "final", "over")
PICK, PLAY, SCORE, FINAL, OVER = range(5)

# absolute location codes of a number card (kept in ``State.loc``): seat slots of 5
L_DECK, L_MARKET, L_LINE, L_HAND, L_JACKPOT, L_SCORED, L_DISCARD = 0, 1, 2, 7, 12, 13, 18
NUM_LOC = 19
# location codes of the Bet cards (copies of a kind are counted per code)
BL_DECK, BL_MARKET, BL_LINE, BL_HAND, BL_DISCARD = 0, 1, 2, 7, 12
NUM_BLOC = 13


def bet_slot(card: int, code: int) -> int:
    """The entry of :attr:`State.bet_loc` counting copies of Bet ``card`` at place ``code`` (``BL_*``)."""
    return (card - B3) * NUM_BLOC + code


def action_id(kind: int, card: int = 0) -> int:
    """The action id of ``(kind, card)`` (inverse of :data:`ACTIONS`)."""
    return kind * NUM_KINDS + card - 1 if kind <= K_PLAY else A_SCORE + kind - K_SCORE


def is_bet(card: int) -> bool:
    """Whether ``card`` is a Bet (``B3``, ``B4``, ``B5``) rather than a number card."""
    return card > NUM_NUMBERS


def bet_value(card: int) -> int:
    """The value of a Bet card: 3, 4 or 5 (the cards it needs after it, and its token)."""
    return card - (B3 - 3)


def colour_of(card: int) -> int:
    """Colour index of a number card: 0 red, 1 blue, 2 green, 3 yellow (n mod 4 = 1,2,3,0)."""
    return (card - 1) & 3


def card_text(card: int) -> str:
    """Notation of a card: ``57`` or ``B4``."""
    return f"B{bet_value(card)}" if card > NUM_NUMBERS else str(card)


def market_size(n: int) -> int:
    """Cards revealed in the market at the start of a round with ``n`` players."""
    return n + 2


def score(scored: Sequence[int], tokens: Sequence[int]) -> int:
    """A player's score: cards in their scoring pile plus their bet tokens."""
    return len(scored) + sum(tokens)


# ----------------------------------------------------------------------------- lines
class LineStats:
    """What the rules need of one line, kept in step with its cards.

    ``num`` number cards, the ``last`` of them, the direction ``dir`` (0 unset, +1
    ascending, -1 descending, set by the first two numbers), the Bet card ``bet`` (0 if
    none) at 1-based position ``betpos``, the number cards ``after`` it and the number
    cards of each colour ``col`` (a bytearray).  :meth:`fits` and :meth:`add` are the line rules; the
    heuristics use them on copies to try moves.
    """

    __slots__ = ("num", "last", "dir", "bet", "betpos", "after", "col")

    def __init__(self) -> None:
        self.num = self.last = self.dir = self.bet = self.betpos = self.after = 0
        self.col = bytearray(4)

    @classmethod
    def of(cls, cards: Iterable[int]) -> LineStats:
        """The statistics of a line holding ``cards`` in order."""
        s = cls()
        for length, c in enumerate(cards, 1):
            if c > NUM_NUMBERS:
                s.bet, s.betpos = c, length
            else:
                s.add(c)
        return s

    def copy(self) -> LineStats:
        """An independent copy (to try a move on)."""
        o = LineStats.__new__(LineStats)
        o.num, o.last, o.dir, o.bet, o.betpos = self.num, self.last, self.dir, self.bet, self.betpos
        o.after, o.col = self.after, self.col[:]
        return o

    def fits(self, card: int) -> bool:
        """Whether ``card`` may go at the end of the line.

        A Bet fits a line holding no Bet; a number fits a line with fewer than two
        numbers, else it must be strictly beyond the last one in the line's direction.
        """
        if card > NUM_NUMBERS:
            return not self.bet
        if self.num < 2:
            return True
        return card > self.last if self.dir > 0 else card < self.last

    def add(self, card: int, length: int = 0) -> int:
        """Count ``card`` put at the end of the line (which then holds ``length`` cards,
        for a Bet's position); the colour index whose jackpot it claims, else -1."""
        if card > NUM_NUMBERS:
            self.bet, self.betpos, self.after = card, length, 0
            return -1
        num = self.num + 1
        self.num = num
        if num == 2:
            self.dir = 1 if card > self.last else -1
        self.last = card
        if self.bet:
            self.after += 1
        k = colour_of(card)
        col = self.col
        col[k] += 1
        return k if col[k] == JACKPOT_CLAIM else -1

    def bet_token(self) -> int:
        """The token the line's Bet settles to when scored: +value when at least value
        number cards follow it, else -value; 0 without a Bet."""
        if not self.bet:
            return 0
        v = self.bet - (B3 - 3)
        return v if self.after >= v else -v

    def banked(self) -> int:
        """Number cards the line banks when scored (all but the first three)."""
        return max(self.num - DISCARDED_PER_LINE, 0)


# ----------------------------------------------------------------------------- state
class State:
    """Full truth of a Line-it game (mutable; the game advances it in place).

    The lists are the rules' data.  Indexes kept in step by every move: ``stats`` (a
    :class:`LineStats` per seat, for legality and scoring), and where the cards lie:
    ``loc`` (the absolute location code ``L_*`` of each number card), ``line_pos`` (the
    1-based position of each number card in its line, 0 when not in a line) and
    ``bet_loc`` (the copies of each Bet kind at each place ``BL_*``, see
    :func:`bet_slot`).  The observation reads these indexes; nothing of the
    observation is kept here.
    ``legal`` caches the legal actions of the current position.
    """

    __slots__ = (
        "n", "deck", "market", "lines", "hands", "jackpots", "scored", "tokens",
        "discarded", "first", "current", "phase", "picks_left", "played_hand",
        "loc", "line_pos", "bet_loc", "stats", "legal",
    )

    def __init__(self, n: int) -> None:
        self.n = n
        self.deck: list[int] = []
        self.market: list[int] = []
        self.lines: list[list[int]] = [[] for _ in range(n)]
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.jackpots: list[list[int]] = [[] for _ in range(4)]
        self.scored: list[list[int]] = [[] for _ in range(n)]
        self.tokens: list[list[int]] = [[] for _ in range(n)]
        self.discarded: list[int] = []
        self.first = 0
        self.current = 0
        self.phase = PICK
        self.picks_left = n
        self.played_hand = False
        self.loc = bytearray(NUM_NUMBERS + 1)  # index = card; [0] unused
        self.line_pos = bytearray(NUM_NUMBERS + 1)  # index = card; [0] unused
        self.bet_loc = bytearray(len(BET_KINDS) * NUM_BLOC)
        self.stats = [LineStats() for _ in range(n)]
        self.legal: list[int] | None = None

    @classmethod
    def build(cls, n: int, deck: list[int], market: list[int], lines: list[list[int]],
              hands: list[list[int]], jackpots: list[list[int]], scored: list[list[int]],
              tokens: list[list[int]], discarded: list[int], first: int, current: int,
              phase: int, picks_left: int, played_hand: bool) -> State:
        """A state from its piles and turn bookkeeping, with its indexes computed."""
        st = cls(n)
        st.deck, st.market, st.lines, st.hands = deck, market, lines, hands
        st.jackpots, st.scored, st.tokens, st.discarded = jackpots, scored, tokens, discarded
        st.first, st.phase, st.picks_left, st.played_hand = first, phase, picks_left, played_hand
        st.current = -1 if phase == OVER else current
        st.reindex()
        return st

    @classmethod
    def of_view(cls, view: LineItView, deck: list[int]) -> State:
        """The position ``view`` shows, with ``deck`` (the deck's cards, in some order)."""
        return cls.build(
            view.num_players, deck, list(view.market), [list(x) for x in view.lines],
            [list(x) for x in view.hands], [list(x) for x in view.jackpots],
            [list(x) for x in view.scored], [list(x) for x in view.tokens],
            list(view.discarded), view.first, view.current, PHASES.index(view.phase),
            view.picks_left, view.played_hand,
        )

    def reindex(self) -> None:
        """Recompute the indexes from the piles (a card in no pile is in the deck, whose
        cards are not needed: a position built from a View has only their number)."""
        loc = self.loc = bytearray([L_DECK]) * (NUM_NUMBERS + 1)
        piles: list[tuple[Iterable[int], int]] = [
            (self.market, L_MARKET), (self.discarded, L_DISCARD),
            *((pile, L_JACKPOT) for pile in self.jackpots),
        ]
        for s in range(self.n):
            piles += [(self.lines[s], L_LINE + s), (self.hands[s], L_HAND + s),
                      (self.scored[s], L_SCORED + s)]
        for pile, code in piles:
            for c in pile:
                if c <= NUM_NUMBERS:
                    loc[c] = code
        line_pos = self.line_pos = bytearray(NUM_NUMBERS + 1)
        for line in self.lines:
            for i, c in enumerate(line, 1):
                if c <= NUM_NUMBERS:
                    line_pos[c] = i
        bet_loc = self.bet_loc = bytearray(len(BET_KINDS) * NUM_BLOC)
        bet_piles = [(self.market, BL_MARKET), (self.discarded, BL_DISCARD)]
        for s in range(self.n):
            bet_piles += [(self.lines[s], BL_LINE + s), (self.hands[s], BL_HAND + s)]
        for pile, code in bet_piles:
            for c in pile:
                if c > NUM_NUMBERS:
                    bet_loc[bet_slot(c, code)] += 1
        for b in BET_KINDS:  # the deck holds the copies found nowhere else
            bet_loc[bet_slot(b, BL_DECK)] = BET_COPIES - sum(bet_loc[bet_slot(b, 0):bet_slot(b, NUM_BLOC)])
        self.stats = [LineStats.of(line) for line in self.lines]
        self.legal = None

    def clone(self) -> State:
        """An independent copy."""
        s = State.__new__(State)
        s.n = self.n
        s.deck = self.deck[:]
        s.market = self.market[:]
        s.lines = [x[:] for x in self.lines]
        s.hands = [x[:] for x in self.hands]
        s.jackpots = [x[:] for x in self.jackpots]
        s.scored = [x[:] for x in self.scored]
        s.tokens = [x[:] for x in self.tokens]
        s.discarded = self.discarded[:]
        s.first = self.first
        s.current = self.current
        s.phase = self.phase
        s.picks_left = self.picks_left
        s.played_hand = self.played_hand
        s.loc = self.loc[:]
        s.line_pos = self.line_pos[:]
        s.bet_loc = self.bet_loc[:]
        s.stats = [x.copy() for x in self.stats]
        s.legal = self.legal
        return s

    def hand_fits(self, seat: int) -> bool:
        """Whether a card of ``seat``'s hand fits their line (else their play step is skipped)."""
        return any(map(self.stats[seat].fits, self.hands[seat]))


# ------------------------------------------------------------------------------ view
@dataclass(frozen=True)
class LineItView:
    """What one player knows: everything but the deck order (seats are absolute).

    Unordered piles are sorted tuples; lines keep their order.  ``current`` is -1 at the end.
    """

    num_players: int
    seat: int
    deck_size: int
    market: tuple[int, ...]
    lines: tuple[tuple[int, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    jackpots: tuple[tuple[int, ...], ...]
    scored: tuple[tuple[int, ...], ...]
    tokens: tuple[tuple[int, ...], ...]
    discarded: tuple[int, ...]
    first: int
    current: int
    phase: str
    picks_left: int
    played_hand: bool

    @property
    def options(self) -> dict[str, Any]:
        """The game's options: Line-it has none."""
        return {}

    def deck_cards(self) -> list[int]:
        """The cards of the deck (known as a set: every other card is face up)."""
        rest = list(DECK)
        for pile in (self.market, self.discarded, *self.lines, *self.hands, *self.jackpots,
                     *self.scored):
            for c in pile:
                rest.remove(c)
        return rest
