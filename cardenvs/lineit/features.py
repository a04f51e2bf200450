"""Line-it's learner observations: per-card planes and per-action facts (from the View only).

Two designs besides the flat vector (:mod:`.encoding`), chosen with
``observation="planes"`` or ``observation="action_features"`` (see
:mod:`cardenvs.core.observers`; the tables are printed in ``cardenvs/lineit_v0.py``):

* :func:`planes`: ``(86, 103)`` float32: one column per card kind (numbers 1..100, then
  the Bets B3, B4, B5) and one channel per place a card can be (seat-relative), where
  each line ends, which cards each line accepts, the cards' colours, and the scalars of
  the position as constant channels.  So a line and the market are laid out by value:
  the room a line has is the run of ``fits`` ones beyond its ``line_end``.
* :func:`action_features`: ``(len(legal), 51)`` float32 for the legal actions: what the
  move does (kind, card, does it fit, the gap it leaves, the room and the deck cards
  still beyond the line's end after it, a jackpot it claims, what a ``new`` or ``score``
  banks and settles, what it leaves the next seat), then the position's facts (phase,
  scores, my line, the next seat's line), repeated on every row.

Everything is computed from a :class:`LineItView` (the player's information set: all
but the deck order), so re-dealing the deck changes nothing here (tested).  Every entry
lies in its column's bounds (tested on random games): counts are divided by their
largest value or clipped where the table says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

import numpy as np

from cardenvs.core.game import ObsLayout

from .state import (
    ACTIONS,
    BET_COPIES,
    BET_KINDS,
    K_HAND,
    K_LINE,
    K_NEW,
    K_PASS,
    K_PLAY,
    K_SCORE,
    MAX_PLAYERS,
    NUM_NUMBERS,
    PHASES,
    LineItView,
    LineStats,
    bet_value,
    colour_of,
    market_size,
    score,
)

#: columns of a plane: number cards 1..100, then B3, B4, B5
PLANE_SHAPE = (NUM_NUMBERS + len(BET_KINDS),)
S = MAX_PLAYERS

PLANES = ObsLayout([
    ("deck", 1, "1 if the card is in the deck (a Bet: copies there / 2)"),
    ("market", 1, "1 if the card is in the market (a Bet: copies / 2)"),
    ("line", S, "per seat s (seat-relative): 1 if the card is in s's line"),
    ("line_end", S, "per seat s: 1 at the last number card of s's line"),
    ("fits", S, "per seat s: 1 if the card may go at the end of s's line now"),
    ("hand", S, "per seat s: 1 if the card is in s's hand (a Bet: copies / 2)"),
    ("jackpot", 1, "1 if the number card lies under its colour's jackpot"),
    ("scored", 1, "1 if the number card is in a scoring pile"),
    ("discarded", 1, "1 if the card is discarded (a Bet: copies / 2)"),
    ("colour", 4, "constant per column: the number card's colour red, blue, green, yellow (0 for Bets)"),
    ("value", 1, "constant per column: number / 100; a Bet: its value / 5"),
    ("num_players", 4, "constant: one-hot seat count 2..5"),
    ("phase", 5, "constant: one-hot pick, play, score, final, over"),
    ("current", S, "constant: one-hot seat-relative player to move (all 0 when over)"),
    ("first", S, "constant: one-hot seat-relative first player of the round"),
    ("picks_left", 1, "constant: players still to act this round / 5"),
    ("played_hand", 1, "constant: 1 if the player to move played a hand card this turn"),
    ("deck_size", 1, "constant: cards in the deck / 106"),
    ("jackpot_size", 4, "constant: cards under the red, blue, green, yellow jackpots / 25"),
    ("direction", 2 * S, "constant: per seat s, 1 in slot 2s if s's line ascends, in 2s+1 if it descends"),
    ("line_numbers", S, "constant: per seat, number cards in the line, min(count, 20) / 20"),
    ("bet_owed", S, "constant: per seat, number cards the line's Bet still needs / 5"),
    ("score", S, "constant: per seat, score (scoring pile + tokens) / 50, clipped to [-1, 1]"),
    ("hand_size", S, "constant: per seat, cards in hand / 2"),
], bounds={"score": (-1.0, 1.0)}, low=0.0, high=1.0)

ACTION_FEATURES = ObsLayout([
    ("kind", 6, "the move: pick to line, pick to hand, pick new, play, score, pass"),
    ("bet", 1, "1 if the card is a Bet"),
    ("bet_value", 1, "the Bet's value / 5"),
    ("card", 1, "the number card / 100"),
    ("fits", 1, "1 if the card fits my line now"),
    ("to_line", 1, "1 if the card ends at the end of my line (line, play, new)"),
    ("gap", 1, "numbers skipped between my line's last card and this one, over the values beyond it in "
               "that direction (0 if my line has no number)"),
    ("room_after", 1, "values beyond my line's end after the move in its direction / 99 (no direction "
                      "yet: the larger side)"),
    ("live_after", 1, "deck cards beyond my line's end after the move / cards in the deck (no direction: "
                      "the larger side)"),
    ("live_count", 1, "those deck cards, min(count, 50) / 50"),
    ("sets_direction", 1, "1 if the move gives my line its direction"),
    ("claims", 1, "1 if the card is the third of its colour in my line: it claims that jackpot"),
    ("jackpot", 1, "cards under the jackpot of the card's colour / 25"),
    ("colour_count", 1, "my line's number cards of the card's colour after the move, min(count, 3) / 3"),
    ("bet_progress", 1, "1 if the card goes on my line after a Bet that still needs cards"),
    ("banked", 1, "new and score: number cards the scored line banks, min(count, 20) / 20"),
    ("token", 1, "new and score: the token the scored line's Bet settles / 5 (signed)"),
    ("hand_after", 1, "cards in my hand after the move / 2"),
    ("hand_fit_after", 1, "cards of my hand that fit my line after the move / 2"),
    ("next_fits", 1, "1 if the card fits the next seat's line"),
    ("next_claims", 1, "if the card would claim a jackpot for the next seat: that jackpot's cards / 25"),
    ("market_claims", 1, "picks: the largest jackpot (cards / 25) the next seat could claim with a "
                         "market card this pick leaves"),
    ("phase", 4, "position: one-hot pick, play, score, final"),
    ("players", 1, "position: (seats - 2) / 3"),
    ("picks_left", 1, "position: players still to act this round / 5"),
    ("market_size", 1, "position: cards in the market / 7"),
    ("deck_size", 1, "position: cards in the deck / 106"),
    ("my_score", 1, "position: my score / 50, clipped to [-1, 1]"),
    ("lead", 1, "position: my score less the best other score, / 20, clipped to [-1, 1]"),
    ("line_numbers", 1, "position: number cards in my line, min(count, 20) / 20"),
    ("line_room", 1, "position: values beyond my line's end in its direction / 99"),
    ("line_live", 1, "position: deck cards beyond my line's end / cards in the deck"),
    ("line_direction", 2, "position: 1 if my line ascends, 1 if it descends"),
    ("line_bet", 1, "position: my line's Bet value / 5 (0 without one)"),
    ("line_owed", 1, "position: number cards my line's Bet still needs / 5"),
    ("line_banked", 1, "position: what scoring my line now banks, min(count, 20) / 20"),
    ("hand_size", 1, "position: cards in my hand / 2"),
    ("hand_fit", 1, "position: cards of my hand that fit my line / 2"),
    ("next_numbers", 1, "position: number cards in the next seat's line, min(count, 20) / 20"),
    ("next_room", 1, "position: values beyond the next seat's line end / 99"),
    ("next_live", 1, "position: deck cards beyond the next seat's line end / cards in the deck"),
    ("rounds_left", 1, "position: rounds the deck still fills, deck / (seats + 2) / 25, clipped to 1"),
], bounds={"token": (-1.0, 1.0), "my_score": (-1.0, 1.0), "lead": (-1.0, 1.0)}, low=0.0, high=1.0)

_P = {f.name: f.start for f in PLANES.fields}
_A = {f.name: f.start for f in ACTION_FEATURES.fields}
NUM_PLANES = PLANES.size
NUM_FEATURES = ACTION_FEATURES.size
_COLOURS = np.zeros((4, PLANE_SHAPE[0]), np.float32)
for _c in range(1, NUM_NUMBERS + 1):
    _COLOURS[colour_of(_c), _c - 1] = 1.0
_VALUES = np.array([c / 100 for c in range(1, NUM_NUMBERS + 1)] + [bet_value(b) / 5 for b in BET_KINDS],
                   np.float32)


def _col(card: int) -> int:
    """The plane column of a card: ``card - 1`` for numbers and Bets alike (B3 = 101 -> 100)."""
    return card - 1


class _Table:
    """What the encoders share of one View: line statistics per seat, and the deck's
    number cards (every card not seen elsewhere) as prefix counts by value."""

    __slots__ = ("view", "n", "me", "stats", "deck", "below", "deck_size")

    def __init__(self, view: LineItView) -> None:
        self.view = view
        self.n = view.num_players
        self.me = view.seat
        self.stats = [LineStats.of(line) for line in view.lines]
        deck = bytearray(b"\x01") * (NUM_NUMBERS + 1)
        deck[0] = 0
        for pile in (view.market, view.discarded, *view.lines, *view.hands, *view.jackpots, *view.scored):
            for c in pile:
                if c <= NUM_NUMBERS:
                    deck[c] = 0
        self.deck = deck
        #: below[x]: deck number cards of value <= x
        self.below = list(accumulate(deck))
        self.deck_size = view.deck_size

    def beyond(self, ln: LineStats) -> tuple[int, int]:
        """``(values, deck cards)`` beyond a line's end in its direction (no direction:
        the larger side; no number: everything)."""
        below = self.below
        total = below[NUM_NUMBERS]
        if ln.num == 0:
            return NUM_NUMBERS - 1, total
        x = ln.last
        up = (NUM_NUMBERS - x, total - below[x])
        down = (x - 1, below[x - 1])
        if ln.num == 1:
            return max(up, down)
        return up if ln.dir > 0 else down


def _seat_slots(n: int, me: int) -> list[int]:
    """The seat-relative slot of each absolute seat."""
    return [(s - me) % n for s in range(n)]


def _seat_planes(view: LineItView, t: _Table, s: int, r: int, out: np.ndarray) -> None:
    """Seat ``s``'s planes, on its seat-relative row ``r``: its line, the line's end and the
    cards that fit it, its hand and scored cards, the line's direction, numbers and bet still
    owed, its score and hand size."""
    p = _P
    ln = t.stats[s]
    for c in view.lines[s]:
        out[p["line"] + r, _col(c)] = 1.0
    if ln.num:
        out[p["line_end"] + r, _col(ln.last)] = 1.0
    fits = out[p["fits"] + r]
    if ln.num < 2:
        fits[:NUM_NUMBERS] = 1.0
    elif ln.dir > 0:
        fits[ln.last:NUM_NUMBERS] = 1.0
    else:
        fits[:ln.last - 1] = 1.0
    if not ln.bet:
        fits[NUM_NUMBERS:] = 1.0
    for c in view.hands[s]:
        out[p["hand"] + r, _col(c)] += 1.0 / BET_COPIES if c > NUM_NUMBERS else 1.0
    for c in view.scored[s]:
        out[p["scored"], _col(c)] = 1.0
    if ln.dir:
        out[p["direction"] + 2 * r + (0 if ln.dir > 0 else 1)] = 1.0
    out[p["line_numbers"] + r] = min(ln.num, 20) / 20
    if ln.bet:
        out[p["bet_owed"] + r] = max(bet_value(ln.bet) - ln.after, 0) / 5
    out[p["score"] + r] = max(-1.0, min(1.0, score(view.scored[s], view.tokens[s]) / 50))
    out[p["hand_size"] + r] = len(view.hands[s]) / 2


def planes(view: LineItView) -> np.ndarray:
    """The ``(86, 103)`` planes of a view (layout :data:`PLANES`)."""
    t = _Table(view)
    out = np.zeros((NUM_PLANES, PLANE_SHAPE[0]), np.float32)
    p = _P
    n, me = t.n, t.me
    slots = _seat_slots(n, me)
    deck = np.frombuffer(bytes(t.deck), np.uint8)[1:]
    out[p["deck"], :NUM_NUMBERS] = deck
    bet_copies = {b: BET_COPIES for b in BET_KINDS}
    for pile in (view.market, view.discarded, *view.lines, *view.hands):
        for c in pile:
            if c > NUM_NUMBERS:
                bet_copies[c] -= 1
    for b, k in bet_copies.items():
        out[p["deck"], _col(b)] = k / BET_COPIES
    for c in view.market:
        out[p["market"], _col(c)] += 1.0 / BET_COPIES if c > NUM_NUMBERS else 1.0
    for c in view.discarded:
        out[p["discarded"], _col(c)] += 1.0 / BET_COPIES if c > NUM_NUMBERS else 1.0
    for k in range(4):
        for c in view.jackpots[k]:
            out[p["jackpot"], _col(c)] = 1.0
    for s in range(n):
        _seat_planes(view, t, s, slots[s], out)
    out[p["colour"]:p["colour"] + 4] = _COLOURS
    out[p["value"]] = _VALUES
    out[p["num_players"] + n - 2] = 1.0
    phase = PHASES.index(view.phase)
    out[p["phase"] + phase] = 1.0
    if view.current >= 0:
        out[p["current"] + slots[view.current]] = 1.0
    out[p["first"] + slots[view.first]] = 1.0
    out[p["picks_left"]] = view.picks_left / 5
    out[p["played_hand"]] = float(view.played_hand)
    out[p["deck_size"]] = view.deck_size / 106
    for k in range(4):
        out[p["jackpot_size"] + k] = len(view.jackpots[k]) / 25
    return out


def _claim_value(ln: LineStats, c: int, jackpot_sizes: list[int]) -> float:
    """If number ``c`` fits line ``ln`` and is the third of its colour there: its jackpot / 25."""
    if c > NUM_NUMBERS or not ln.fits(c):
        return 0.0
    k = colour_of(c)
    return jackpot_sizes[k] / 25 if ln.col[k] == 2 else 0.0


def _position_block(view: LineItView, t: _Table, ctx: np.ndarray) -> None:
    """The position's columns, the same on every row (from ``phase`` on): the phase, the
    players, the picks left, the market and the deck, my score and lead, my line (numbers,
    room, live cards, direction, bet and what it still owes, banked points), my hand and
    how much of it fits, the next player's line, and the rounds left."""
    a = _A
    n, me = t.n, t.me
    ln, nl = t.stats[me], t.stats[(me + 1) % n]
    hand = view.hands[me]
    deck_n = max(t.deck_size, 1)
    phase = PHASES.index(view.phase)
    if phase < 4:
        ctx[a["phase"] + phase] = 1.0
    ctx[a["players"]] = (n - 2) / 3
    ctx[a["picks_left"]] = view.picks_left / 5
    ctx[a["market_size"]] = len(view.market) / market_size(MAX_PLAYERS)
    ctx[a["deck_size"]] = view.deck_size / 106
    scores = [score(view.scored[s], view.tokens[s]) for s in range(n)]
    ctx[a["my_score"]] = max(-1.0, min(1.0, scores[me] / 50))
    best_other = max(scores[s] for s in range(n) if s != me)
    ctx[a["lead"]] = max(-1.0, min(1.0, (scores[me] - best_other) / 20))
    room, live = t.beyond(ln)
    ctx[a["line_numbers"]] = min(ln.num, 20) / 20
    ctx[a["line_room"]] = room / 99
    ctx[a["line_live"]] = live / deck_n if t.deck_size else 0.0
    if ln.dir:
        ctx[a["line_direction"] + (0 if ln.dir > 0 else 1)] = 1.0
    if ln.bet:
        ctx[a["line_bet"]] = bet_value(ln.bet) / 5
        ctx[a["line_owed"]] = max(bet_value(ln.bet) - ln.after, 0) / 5
    ctx[a["line_banked"]] = min(ln.banked(), 20) / 20
    ctx[a["hand_size"]] = len(hand) / 2
    ctx[a["hand_fit"]] = sum(map(ln.fits, hand)) / 2
    nroom, nlive = t.beyond(nl)
    ctx[a["next_numbers"]] = min(nl.num, 20) / 20
    ctx[a["next_room"]] = nroom / 99
    ctx[a["next_live"]] = nlive / deck_n if t.deck_size else 0.0
    ctx[a["rounds_left"]] = min(view.deck_size / (n + 2) / 25, 1.0)


def _after_block(t: _Table, after: LineStats, hand: list[int], f: np.ndarray) -> None:
    """The columns of my line and hand after the move: the line's room and live cards, and
    the hand's size and how much of it fits the line."""
    a = _A
    r_after, l_after = t.beyond(after)
    f[a["room_after"]] = r_after / 99
    f[a["live_after"]] = l_after / max(t.deck_size, 1) if t.deck_size else 0.0
    f[a["live_count"]] = min(l_after, 50) / 50
    f[a["hand_after"]] = len(hand) / 2
    f[a["hand_fit_after"]] = sum(map(after.fits, hand)) / 2


def _card_block(ln: LineStats, nl: LineStats, c: int, jackpots: list[int], f: np.ndarray) -> None:
    """The columns of the card the move takes or plays: whether it fits my line, a bet's
    value, or a number's value, its colour's jackpot, and whether it fits (and what it would
    claim on) the next player's line."""
    a = _A
    f[a["fits"]] = float(ln.fits(c))
    if c > NUM_NUMBERS:
        f[a["bet"]] = 1.0
        f[a["bet_value"]] = bet_value(c) / 5
    else:
        f[a["card"]] = c / 100
        f[a["jackpot"]] = jackpots[colour_of(c)] / 25
        f[a["next_fits"]] = float(nl.fits(c))
        f[a["next_claims"]] = _claim_value(nl, c, jackpots)


def _line_block(view: LineItView, ln: LineStats, kind: int, c: int, f: np.ndarray) -> LineStats:
    """The columns of what a card move onto a line does to mine (onto it: the gap, setting
    its direction, a claim, its colour's count, a bet's progress; a new line: what the old
    one banks); returns my line after it (a card to the hand leaves it as it is)."""
    a = _A
    bet = c > NUM_NUMBERS
    if kind in (K_LINE, K_PLAY):
        after = ln.copy()
        claimed = after.add(c, len(view.lines[view.seat]) + 1)
        f[a["to_line"]] = 1.0
        if not bet:
            if ln.num >= 1:
                up = c > ln.last
                room_dir = (NUM_NUMBERS - ln.last) if up else (ln.last - 1)
                f[a["gap"]] = (abs(c - ln.last) - 1) / max(room_dir, 1)
            f[a["sets_direction"]] = float(ln.num == 1)
            f[a["claims"]] = float(claimed >= 0)
            f[a["colour_count"]] = min(after.col[colour_of(c)], 3) / 3
            f[a["bet_progress"]] = float(bool(ln.bet) and ln.after < bet_value(ln.bet))
        return after
    f[a["banked"]] = min(ln.banked(), 20) / 20
    f[a["token"]] = ln.bet_token() / 5
    after = LineStats()
    after.add(c, 1)
    f[a["to_line"]] = 1.0
    if not bet:
        f[a["colour_count"]] = 1 / 3
    return after


def action_features(view: LineItView, legal: Sequence[int]) -> np.ndarray:
    """``(len(legal), 51)``: the :data:`ACTION_FEATURES` rows of the legal actions of ``view``'s
    player (who must be the one to move): the position's columns (:func:`_position_block`)
    on every row; each move's kind; a score or a pass's banked points and what it leaves
    (:func:`_after_block`); a card move's card (:func:`_card_block`), what it does to my line
    (:func:`_line_block`) and leaves, and the best claim it leaves the next player."""
    t = _Table(view)
    me = t.me
    ln, nl = t.stats[me], t.stats[(me + 1) % t.n]
    hand = list(view.hands[me])
    jackpots = [len(j) for j in view.jackpots]
    a = _A
    out = np.zeros((len(legal), NUM_FEATURES), np.float32)
    ctx = out[0] if len(legal) else np.zeros(NUM_FEATURES, np.float32)
    _position_block(view, t, ctx)
    start = a["phase"]
    out[1:, start:] = ctx[start:]
    market_claims = [_claim_value(nl, c, jackpots) for c in view.market]
    for i, act in enumerate(legal):
        kind, c = ACTIONS[act]
        f = out[i]
        f[a["kind"] + kind] = 1.0
        if kind in (K_SCORE, K_PASS):
            after = ln
            if kind == K_SCORE:
                f[a["banked"]] = min(ln.banked(), 20) / 20
                f[a["token"]] = ln.bet_token() / 5
                after = LineStats()
            _after_block(t, after, hand, f)
            continue
        _card_block(ln, nl, c, jackpots, f)
        new_hand = hand
        if kind == K_HAND:
            new_hand = [*hand, c]
        elif kind == K_PLAY:
            new_hand = list(hand)
            new_hand.remove(c)
        _after_block(t, ln if kind == K_HAND else _line_block(view, ln, kind, c, f), new_hand, f)
        if kind in (K_LINE, K_HAND, K_NEW):
            left = list(market_claims)
            left.pop(view.market.index(c))
            f[a["market_claims"]] = max(left, default=0.0)
    return out


__all__ = ["ACTION_FEATURES", "NUM_FEATURES", "NUM_PLANES", "PLANES", "PLANE_SHAPE", "action_features",
           "planes"]
