"""Rummy 4x3x2's: the constants, the state, the View and the group tables.

Every other module of the game imports from here (and nothing here imports them), so
the rules (:mod:`.rules`), the observation (:mod:`.encoding`), the JSON and notation
(:mod:`.serialization`), the text (:mod:`.render`) and the agents share one statement
of each constant and table.

Cards are ints ``0..51`` (:mod:`cardenvs.core.cards`); a rank index is ``card >> 2``
(0 = Ace .. 12 = King).  Suits never matter in this game, so the judgement of a hand is
a function of its 13 rank counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cardenvs.core.cards import CARD_VALUES

# ---------------------------------------------------------------------------- actions
DRAW = 0
TAKE = 1
THROW0 = 2
FINISH0 = 54
NUM_ACTIONS = 106

# ----------------------------------------------------------------------------- phases
PICK, THROW, OVER = 0, 1, 2
PHASE_NAMES = ("pick", "throw", "over")

# ---------------------------------------------------------------------------- options
PACKS = ("four", "three", "mixed")
#: allowed group sizes of each pack
GROUP_SIZES: dict[str, tuple[int, ...]] = {"four": (4,), "three": (3,), "mixed": (2, 3, 4)}
#: allowed hand sizes of each pack (12 only with up to 3 players)
HAND_SIZES: dict[str, tuple[int, ...]] = {"four": (8, 12), "three": (6, 9, 12), "mixed": (6, 8, 9, 12)}
MAX_PLAYERS_FOR_12 = 3
DEFAULT_MAX_TURNS = 1000
#: the largest allowed ``max_turns_per_round``
MAX_TURN_CAP = 1_000_000
#: the largest allowed ``rounds_to_win``
MAX_ROUNDS_TO_WIN = 10
#: the run_out_limit values other than None
RUN_OUT_LIMITS = (2, 3, 4, 5)
MAX_SEATS = 5
#: card value of each rank index 0..12
RANK_VALUES: tuple[int, ...] = tuple(CARD_VALUES[r * 4] for r in range(13))
#: how a round can end (``round_result["ended_by"]``)
ROUND_END_REASONS = ("finish", "run_outs", "turn_cap")

# ------------------------------------------------------------------------ group tables
#: rank counts the tables cover: 0..4 cards of a rank, and 5 for "one more than four"
_COUNTS = range(6)

#: pack -> count of a rank -> size of the group those cards form: the largest allowed
#: size not above the count, 0 = none (three-pack: 4 cards = a group of 3 + 1 loose)
GROUP: dict[str, tuple[int, ...]] = {
    p: tuple(max([s for s in sizes if s <= c], default=0) for c in _COUNTS)
    for p, sizes in GROUP_SIZES.items()
}
#: pack -> count of a rank -> whether that many cards are all in the group (0 included)
GROUPED: dict[str, tuple[bool, ...]] = {
    p: tuple(c == 0 or c in sizes for c in _COUNTS) for p, sizes in GROUP_SIZES.items()
}
#: pack -> count of a rank -> the smallest allowed group size above the count (0 = none)
NEXT_GROUP: dict[str, tuple[int, ...]] = {
    p: tuple(min([s for s in sizes if s > c], default=0) for c in _COUNTS)
    for p, sizes in GROUP_SIZES.items()
}


def rank_counts(cards: Iterable[int]) -> list[int]:
    """The 13 rank counts of some cards (index = rank, 0 = Ace)."""
    cnt = [0] * 13
    for c in cards:
        cnt[c >> 2] += 1
    return cnt


def is_complete(counts: Sequence[int], pack: str) -> bool:
    """Whether a hand with these rank counts has every card in a group (docs/rules/rummy432.md rule 1)."""
    ok = GROUPED[pack]
    return all(ok[c] for c in counts)


def shape_of(counts: Sequence[int], pack: str) -> tuple[int, ...]:
    """The group sizes of a hand, largest first (compared lexicographically, rule 2)."""
    g = GROUP[pack]
    return tuple(sorted((g[c] for c in counts if g[c]), reverse=True))


def hand_values(counts: Sequence[int], pack: str) -> tuple[int, int]:
    """``(grouped value, loose value)``: card values of the grouped and the loose cards."""
    g = GROUP[pack]
    gv = lv = 0
    for r in range(13):
        c = counts[r]
        if c:
            gv += g[c] * RANK_VALUES[r]
            lv += (c - g[c]) * RANK_VALUES[r]
    return gv, lv


def max_rounds(num_players: int, rounds_to_win: int) -> int:
    """The most rounds a game can last: every round gives at least one seat a point, and
    the game ends when a seat reaches ``rounds_to_win``."""
    return num_players * (rounds_to_win - 1) + 1


def max_pile(num_players: int, hand_size: int) -> int:
    """The most cards the face-down pile can hold: every card not in a hand, but the
    face-up top of the discard pile."""
    return 52 - num_players * hand_size - 1


def max_run_outs(run_out_limit: int | None, max_turns: int) -> int:
    """The most run-outs a round can count: the limit, or with no limit one per turn
    (a run-out is counted at the end of the turn that drew the pile's last card)."""
    return max_turns if run_out_limit is None else run_out_limit


def allowed_combinations() -> str:
    """Every allowed (pack, hand_size, players) combination in words."""
    parts = []
    for pack in PACKS:
        sizes = ", ".join(
            f"{h} (2-{MAX_PLAYERS_FOR_12} players)" if h == 12 else f"{h} (2-{MAX_SEATS} players)"
            for h in HAND_SIZES[pack]
        )
        parts.append(f"pack {pack!r}: hand_size {sizes}")
    return "; ".join(parts)


# ------------------------------------------------------------------------------- state
class State:
    """The full truth of a Rummy 4x3x2's game (mutable; copy with :meth:`clone`).

    ``pile`` keeps its top at the end of the list (``pile[-1]`` is drawn next) and
    ``discard`` its face-up top at the end.  ``taken``, ``finished_by`` and ``current``
    use ``-1`` for none.  ``counts[p]`` are the rank counts of ``hands[p]``; ``legal``
    caches the legal actions (``None`` = not computed).  Code that edits hands directly
    (search, tests) calls :meth:`refresh` afterwards.  ``result`` is the round result
    produced by the latest ``Rummy432Game.apply`` (``None`` when that step ended no round).
    """

    __slots__ = (
        "hands",
        "counts",
        "known",
        "pile",
        "discard",
        "current",
        "phase",
        "taken",
        "dealer",
        "run_outs",
        "finished_by",
        "last_left",
        "scores",
        "round",
        "turn",
        "legal",
        "result",
    )

    def __init__(self) -> None:
        self.hands: list[list[int]] = []
        self.counts: list[list[int]] = []
        self.known: list[list[int]] = []
        self.pile: list[int] = []
        self.discard: list[int] = []
        self.current = 0
        self.phase = PICK
        self.taken = -1
        self.dealer = 0
        self.run_outs = 0
        self.finished_by = -1
        self.last_left: list[int] = []
        self.scores: list[int] = []
        self.round = 1
        self.turn = 0
        self.legal: list[int] | None = None
        self.result: dict[str, Any] | None = None

    def clone(self) -> State:
        """An independent copy (lists copied, the immutable result shared)."""
        s = State.__new__(State)
        s.hands = [h[:] for h in self.hands]
        s.counts = [c[:] for c in self.counts]
        s.known = [k[:] for k in self.known]
        s.pile = self.pile[:]
        s.discard = self.discard[:]
        s.current = self.current
        s.phase = self.phase
        s.taken = self.taken
        s.dealer = self.dealer
        s.run_outs = self.run_outs
        s.finished_by = self.finished_by
        s.last_left = self.last_left[:]
        s.scores = self.scores[:]
        s.round = self.round
        s.turn = self.turn
        s.legal = None if self.legal is None else self.legal[:]
        s.result = self.result
        return s

    def refresh(self) -> None:
        """Rebuild what is derived from the hands after editing them (or the phase, the
        seat to move or the taken card): the rank counts and the legal-action cache."""
        self.counts = [rank_counts(h) for h in self.hands]
        self.legal = [] if self.phase == OVER else None


@dataclass(frozen=True)
class Rummy432View:
    """What one seat may know: its information set (seats are absolute here).

    Card collections are sorted tuples of card ids; ``-1`` means none for
    ``current`` (game over), ``finished_by``, ``discard_top`` and ``taken``.
    ``discard`` is the set of every card in the discard pile, top included.
    """

    num_players: int
    seat: int
    pack: str
    hand_size: int
    run_out_limit: int | None
    rounds_to_win: int
    max_turns_per_round: int
    phase: str
    current: int
    dealer: int
    round: int
    turn: int
    pile_size: int
    run_outs: int
    finished_by: int
    last_turns_left: tuple[int, ...]
    scores: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    hand: tuple[int, ...]
    discard_top: int
    discard: tuple[int, ...]
    taken: int
    known: tuple[tuple[int, ...], ...]

    @property
    def options(self) -> dict[str, Any]:
        """The game's options (every key of ``Rummy432Game.OPTIONS``), to rebuild the table."""
        return {
            "pack": self.pack,
            "hand_size": self.hand_size,
            "run_out_limit": self.run_out_limit,
            "rounds_to_win": self.rounds_to_win,
            "max_turns_per_round": self.max_turns_per_round,
        }


@dataclass(frozen=True)
class HandEval:
    """A hand judged under a pack: its groups, values and completeness."""

    shape: tuple[int, ...]
    grouped_value: int
    loose_value: int
    groups: tuple[tuple[int, int], ...]  # (rank index, group size)
    loose_count: int

    @property
    def complete(self) -> bool:
        """Whether every card is in a group."""
        return self.loose_count == 0

    @property
    def value(self) -> int:
        """Grouped value minus loose value (the full sum for a complete hand)."""
        return self.grouped_value - self.loose_value
