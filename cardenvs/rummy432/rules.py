"""Rummy 4x3x2's: the legality core (RULES.md section 3).

Cards are ints ``0..51`` (:mod:`cardenvs.core.cards`); a rank index is ``card >> 2``
(0 = Ace .. 12 = King).  Each hand is a list of cards plus a 13-slot rank-count list,
so legality (which cards may be the finishing throw) is a few integer checks.

Action ids (state-independent, 106 in all)::

    0        draw            pick up the top of the face-down pile
    1        take            pick up the face-up top of the discard pile
    2..53    throw <card>    throw card id ``a - 2``
    54..105  finish <card>   throw card id ``a - 54`` and finish

Rule choices beyond RULES.md (documented in :mod:`cardenvs.rummy432_v0`):

* a round also ends, and is judged like a run-out end, after ``max_turns_per_round``
  completed turns (default 1000): the termination guarantee, since with an empty pile
  (or players who always take) a round could otherwise go on forever;
* ``last_turns_left`` lists the seats that still have their last turn, the seat whose
  last turn is in progress first (so ``current == last_turns_left[0]`` while it is
  non-empty);
* the state JSON carries two optional counters, ``round`` (default 1) and ``turn``
  (turns completed this round, default 0), and ``options.max_turns_per_round``
  (written only when it differs from the default);
* when the game is over (``phase == "over"``, ``current`` is ``null``) the hands, piles
  and counters of the last round stay as they were when it was judged.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardenvs.core.cards import CARD_VALUES, card_str, parse_card
from cardenvs.core.game import (
    Game,
    InvalidStateError,
    NotationError,
    ObsField,
    Option,
    OptionError,
    layout,
)

# ---------------------------------------------------------------------------- constants
DRAW = 0
TAKE = 1
THROW0 = 2
FINISH0 = 54
NUM_ACTIONS = 106

PICK, THROW, OVER = 0, 1, 2
PHASE_NAMES = ("pick", "throw", "over")
PACKS = ("four", "three", "mixed")
#: allowed group sizes of each pack
GROUP_SIZES: dict[str, tuple[int, ...]] = {"four": (4,), "three": (3,), "mixed": (2, 3, 4)}
#: allowed hand sizes of each pack (12 only with up to 3 players)
HAND_SIZES: dict[str, tuple[int, ...]] = {"four": (8, 12), "three": (6, 9, 12), "mixed": (6, 8, 9, 12)}
MAX_PLAYERS_FOR_12 = 3
DEFAULT_MAX_TURNS = 1000
MAX_SEATS = 5
#: card value of each rank index 0..12
RANK_VALUES: tuple[int, ...] = tuple(CARD_VALUES[r * 4] for r in range(13))

_ROUND_END_REASONS = ("finish", "run_outs", "turn_cap")


def allowed_combinations() -> str:
    """Every allowed (pack, hand_size, players) combination in words."""
    parts = []
    for pack in PACKS:
        sizes = ", ".join(
            f"{h} (2-{MAX_PLAYERS_FOR_12} players)" if h == 12 else f"{h} (2-5 players)"
            for h in HAND_SIZES[pack]
        )
        parts.append(f"pack {pack!r}: hand_size {sizes}")
    return "; ".join(parts)


# ------------------------------------------------------------------------------- state
class State:
    """The full truth of a Rummy 4x3x2's game (mutable; copy with :meth:`clone`).

    ``pile`` keeps its top at the end of the list (``pile[-1]`` is drawn next) and
    ``discard`` its face-up top at the end.  ``taken``, ``finished_by`` and ``current``
    use ``-1`` for none.  ``legal`` caches the legal actions (``None`` = not computed);
    ``result`` is the round result produced by the latest :meth:`Rummy432Game.apply`
    (``None`` when that step ended no round).
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
        return self.loose_count == 0

    @property
    def value(self) -> int:
        """Grouped value minus loose value (the full sum for a complete hand)."""
        return self.grouped_value - self.loose_value


# ------------------------------------------------------------------------ observation
_PACK_INDEX = {p: i for i, p in enumerate(PACKS)}

OBS_FIELDS: tuple[ObsField, ...] = layout(
    [
        ("num_players", 1, "number of seats, 2..5"),
        ("my_seat", 1, "the viewer's absolute seat 0..4"),
        ("pack", 3, "one-hot option pack: four, three, mixed"),
        ("hand_size", 1, "option hand_size: cards held between turns"),
        ("run_out_limit", 1, "option run_out_limit 2..5; 0 = never"),
        ("rounds_to_win", 1, "option rounds_to_win"),
        ("max_turns_per_round", 1, "option max_turns_per_round (the turn cap)"),
        ("phase", 3, "one-hot: pick, throw, over"),
        ("current", 5, "one-hot seat-relative seat to move (slot 0 = me); zeros when over"),
        ("dealer", 5, "one-hot seat-relative dealer of this round"),
        ("round", 1, "round number, from 1"),
        ("turn", 1, "turns completed in this round"),
        ("pile_size", 1, "cards in the face-down pile"),
        ("run_outs", 1, "run-outs so far this round"),
        ("finished_by", 5, "one-hot seat-relative first finisher; zeros if nobody finished"),
        ("last_turns_left", 5, "seat-relative: 1 if that seat still has its last turn (in progress included)"),
        ("scores", 5, "seat-relative rounds won; 0 for empty slots"),
        ("hand_sizes", 5, "seat-relative cards held; 0 for empty slots"),
        ("hand", 52, "my cards, by card id"),
        ("discard_top", 52, "one-hot face-up top of the discard pile; zeros if it is empty"),
        ("discard", 52, "every card in the discard pile (top included): thrown, not taken back"),
        ("taken", 52, "one-hot card taken from the discard this turn (cannot be thrown); zeros if none"),
        ("known", 260, "5 seat-relative slots x 52: cards each seat took from the discard and still holds"),
    ]
)
_F = {f.name: f.start for f in OBS_FIELDS}
O_NP, O_SEAT, O_PACK, O_HS, O_LIMIT, O_RTW, O_MAXT = (
    _F["num_players"],
    _F["my_seat"],
    _F["pack"],
    _F["hand_size"],
    _F["run_out_limit"],
    _F["rounds_to_win"],
    _F["max_turns_per_round"],
)
O_PHASE, O_CUR, O_DEALER, O_ROUND, O_TURN = (
    _F["phase"],
    _F["current"],
    _F["dealer"],
    _F["round"],
    _F["turn"],
)
O_PILE, O_RUNOUTS, O_FIN, O_LAST, O_SCORES, O_SIZES = (
    _F["pile_size"],
    _F["run_outs"],
    _F["finished_by"],
    _F["last_turns_left"],
    _F["scores"],
    _F["hand_sizes"],
)
O_HAND, O_TOP, O_DISCARD, O_TAKEN, O_KNOWN = (
    _F["hand"],
    _F["discard_top"],
    _F["discard"],
    _F["taken"],
    _F["known"],
)
OBS_SIZE = OBS_FIELDS[-1].stop

_ACTION_FORMS = "'draw', 'take', 'throw <card>' or 'finish <card>' with a card like '7h', 'Th' or '10h'"


class Rummy432Game(Game[State, Rummy432View]):
    """Rummy 4x3x2's under fixed options (see :mod:`cardenvs.rummy432_v0`)."""

    name = "rummy432"
    env_name = "rummy432_v0"
    min_players = 2
    max_players = 5
    default_players = 4
    OPTIONS = {
        "pack": Option("mixed", PACKS, "groups allowed: four = 4 only, three = 3 only, mixed = 2, 3 or 4"),
        "hand_size": Option(
            8,
            (6, 8, 9, 12),
            "cards per hand: four 8/12, three 6/9/12, mixed 6/8/9/12; 12 only with up to 3 players",
        ),
        "run_out_limit": Option(
            3, (2, 3, 4, 5, None), "run-outs of the face-down pile that end a round; None = never"
        ),
        "rounds_to_win": Option(3, range(1, 11), "rounds a player must win to win the game"),
        "max_turns_per_round": Option(
            DEFAULT_MAX_TURNS,
            range(1, 1_000_001),
            "turn cap: a round is judged after this many completed turns",
        ),
    }
    num_actions = NUM_ACTIONS
    OBS_FIELDS = OBS_FIELDS

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        super().__init__(num_players, **options)
        o = self.options
        self.pack: str = o["pack"]
        self.hand_size: int = int(o["hand_size"])
        self.run_out_limit: int | None = o["run_out_limit"]
        self.rounds_to_win: int = int(o["rounds_to_win"])
        self.max_turns: int = int(o["max_turns_per_round"])
        sizes = GROUP_SIZES[self.pack]
        #: count of a rank in a hand -> fits an allowed group exactly (or is zero)
        self._ok = tuple(c == 0 or c in sizes for c in range(6))
        #: count of a rank -> size of the group it forms (largest allowed size <= count)
        self._group = tuple(max([s for s in sizes if s <= c], default=0) for c in range(6))
        n = self.num_players
        self._bases = []
        for seat in range(n):
            b = np.zeros(OBS_SIZE, dtype=np.float32)
            _write_header(b, n, seat, self.pack, self.hand_size, self.run_out_limit,
                          self.rounds_to_win, self.max_turns)
            self._bases.append(b)
        #: seat -> relative slot, for each viewer
        self._rel = [[(s - seat) % n for s in range(n)] for seat in range(n)]

    def validate_options(self) -> None:
        """Refuse a hand size the pack does not allow, or 12 cards with over 3 players."""
        pack, hs, n = self.options["pack"], self.options["hand_size"], self.num_players
        if hs not in HAND_SIZES[pack]:
            allowed = ", ".join(str(h) for h in HAND_SIZES[pack])
            raise OptionError(
                f"rummy432: pack {pack!r} allows hand_size {allowed}, got {hs}; "
                f"allowed combinations: {allowed_combinations()}"
            )
        if hs == 12 and n > MAX_PLAYERS_FOR_12:
            allowed = ", ".join(str(h) for h in HAND_SIZES[pack] if h != 12)
            raise OptionError(
                f"rummy432: hand_size 12 needs at most {MAX_PLAYERS_FOR_12} players, got "
                f"num_players={n}; with {n} players pack {pack!r} allows hand_size {allowed}"
            )

    # ------------------------------------------------------------------ dealing
    def _deal(self, state: State, rng: np.random.Generator) -> None:
        """Shuffle a full deck and deal a round (dealer already set)."""
        n, hs = self.num_players, self.hand_size
        deck = rng.permutation(52).tolist()
        state.hands = [deck[i * hs : (i + 1) * hs] for i in range(n)]
        counts = []
        for h in state.hands:
            c = [0] * 13
            for card in h:
                c[card >> 2] += 1
            counts.append(c)
        state.counts = counts
        state.known = [[] for _ in range(n)]
        state.discard = [deck[n * hs]]
        state.pile = deck[n * hs + 1 :]
        state.current = (state.dealer + 1) % n
        state.phase = PICK
        state.taken = -1
        state.run_outs = 0
        state.finished_by = -1
        state.last_left = []
        state.turn = 0
        state.legal = None

    def new_state(self, rng: np.random.Generator) -> State:
        """Deal round 1: the dealer is the last seat, so ``player_0`` starts."""
        s = State()
        s.scores = [0] * self.num_players
        s.dealer = self.num_players - 1
        s.round = 1
        self._deal(s, rng)
        return s

    def clone(self, state: State) -> State:
        """An independent copy of ``state``."""
        return state.clone()

    def current_player(self, state: State) -> int:
        """Seat to move, ``-1`` once the game is over."""
        return -1 if state.phase == OVER else state.current

    def is_terminal(self, state: State) -> bool:
        """Whether someone has won ``rounds_to_win`` rounds."""
        return state.phase == OVER

    # -------------------------------------------------------------------- legality
    def legal_actions(self, state: State) -> list[int]:
        """Legal ids of the seat to move, ascending (cached on the state)."""
        legal = state.legal
        if legal is not None:
            return legal
        phase = state.phase
        if phase == PICK:
            legal = [DRAW, TAKE] if state.pile else [TAKE]
        elif phase == THROW:
            p = state.current
            cnt = state.counts[p]
            ok = self._ok
            taken = state.taken
            hand = sorted(state.hands[p])
            bad = -1
            nbad = 0
            for r in range(13):
                if not ok[cnt[r]]:
                    nbad += 1
                    bad = r
            legal = [THROW0 + c for c in hand if c != taken]
            if nbad == 0:
                legal += [FINISH0 + c for c in hand if c != taken and ok[cnt[c >> 2] - 1]]
            elif nbad == 1 and ok[cnt[bad] - 1]:
                legal += [FINISH0 + c for c in hand if c != taken and c >> 2 == bad]
        else:
            legal = []
        state.legal = legal
        return legal

    def legal_mask(self, state: State) -> np.ndarray:
        """int8 mask of the legal actions."""
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        legal = state.legal if state.legal is not None else self.legal_actions(state)
        if legal:
            mask[legal] = 1
        return mask

    def apply(self, state: State, action: int, rng: np.random.Generator | None = None) -> None:
        """Play ``action`` for the seat to move (``IllegalActionError`` first if illegal).

        ``rng`` shuffles reshuffled piles and the deals of later rounds; without one a
        fresh, unseeded generator is used (not reproducible).
        """
        legal = state.legal if state.legal is not None else self.legal_actions(state)
        if type(action) is not int or action not in legal:
            action = self.check_action(state, action)
        state.result = None
        state.legal = None
        p = state.current
        if action == DRAW:
            card = state.pile.pop()
            state.hands[p].append(card)
            state.counts[p][card >> 2] += 1
            state.phase = THROW
            return
        if action == TAKE:
            card = state.discard.pop()
            state.hands[p].append(card)
            state.counts[p][card >> 2] += 1
            state.known[p].append(card)
            state.taken = card
            state.phase = THROW
            return
        finish = action >= FINISH0
        card = action - (FINISH0 if finish else THROW0)
        drew_last = state.taken < 0 and not state.pile
        state.hands[p].remove(card)
        state.counts[p][card >> 2] -= 1
        known = state.known[p]
        if known and card in known:
            known.remove(card)
        state.discard.append(card)
        state.taken = -1
        state.phase = PICK
        n = self.num_players
        if state.finished_by >= 0:
            state.last_left.pop(0)
        elif finish:
            state.finished_by = p
            state.last_left = [(p + k) % n for k in range(1, n)]
        state.turn += 1
        reason = None
        if drew_last:
            state.run_outs += 1
            if self.run_out_limit is not None and state.run_outs >= self.run_out_limit:
                reason = "run_outs"
        if reason is None and state.finished_by >= 0 and not state.last_left:
            reason = "finish"
        if reason is None and state.turn >= self.max_turns:
            reason = "turn_cap"
        if reason is not None:
            self._end_round(state, reason, rng)
            return
        if drew_last:
            if rng is None:
                rng = np.random.default_rng()
            buried = state.discard[:-1]
            state.discard = state.discard[-1:]
            if buried:
                perm = rng.permutation(len(buried)).tolist()
                state.pile = [buried[i] for i in perm]
        state.current = state.last_left[0] if state.finished_by >= 0 else (p + 1) % n

    # ----------------------------------------------------------------------- judging
    def evaluate(self, hand: list[int] | tuple[int, ...]) -> HandEval:
        """Judge a hand: each rank forms one group of the largest allowed size it reaches."""
        cnt = [0] * 13
        for c in hand:
            cnt[c >> 2] += 1
        groups = []
        gv = lv = loose = 0
        for r in range(13):
            c = cnt[r]
            if not c:
                continue
            g = self._group[c]
            if g:
                groups.append((r, g))
            gv += g * RANK_VALUES[r]
            lv += (c - g) * RANK_VALUES[r]
            loose += c - g
        shape = tuple(sorted((g for _, g in groups), reverse=True))
        return HandEval(shape, gv, lv, tuple(groups), loose)

    def judge(self, hands: list[list[int]]) -> tuple[list[int], list[HandEval]]:
        """The round winners (seats, ascending) of final ``hands`` and each hand's judgement."""
        evals = [self.evaluate(h) for h in hands]
        complete = [p for p, e in enumerate(evals) if e.complete]
        if complete:
            best = max((evals[p].shape, evals[p].value) for p in complete)
            winners = [p for p in complete if (evals[p].shape, evals[p].value) == best]
        else:
            top = max(e.value for e in evals)
            winners = [p for p, e in enumerate(evals) if e.value == top]
        return winners, evals

    def _end_round(self, state: State, reason: str, rng: np.random.Generator | None) -> None:
        """Judge the hands, score the winners, then deal the next round or end the game."""
        winners, evals = self.judge(state.hands)
        for w in winners:
            state.scores[w] += 1
        over = max(state.scores) >= self.rounds_to_win
        result: dict[str, Any] = {
            "round": state.round,
            "ended_by": reason,
            "winners": winners,
            "hands": [
                {
                    "cards": [card_str(c) for c in sorted(h)],
                    "shape": list(e.shape),
                    "complete": e.complete,
                    "value": e.value,
                    "grouped_value": e.grouped_value,
                    "loose_value": e.loose_value,
                }
                for h, e in zip(state.hands, evals)
            ],
            "finished_by": None if state.finished_by < 0 else state.finished_by,
            "scores": state.scores[:],
            "game_over": over,
        }
        if over:
            top = max(state.scores)
            result["game_winners"] = [p for p, s in enumerate(state.scores) if s == top]
            state.phase = OVER
            state.legal = []
        else:
            if rng is None:
                rng = np.random.default_rng()
            state.round += 1
            state.dealer = (state.dealer + 1) % self.num_players
            self._deal(state, rng)
        state.result = result

    def returns(self, state: State) -> list[float]:
        """+1 sole game winner, 0 each sharer, -1 the others; zeros before the end."""
        n = self.num_players
        if state.phase != OVER:
            return [0.0] * n
        top = max(state.scores)
        winners = [p for p in range(n) if state.scores[p] == top]
        win = 1.0 if len(winners) == 1 else 0.0
        return [win if state.scores[p] == top else -1.0 for p in range(n)]

    def infos(self, state: State) -> list[dict[str, Any]]:
        """``{"round_result": ...}`` for every seat after a step that ended a round, else ``{}``."""
        res = state.result
        if res is None:
            return [{} for _ in range(self.num_players)]
        return [{"round_result": copy.deepcopy(res)} for _ in range(self.num_players)]

    # ------------------------------------------------------------------ information
    def view(self, state: State, player: int) -> Rummy432View:
        """The information set of ``player``."""
        n = self.num_players
        return Rummy432View(
            num_players=n,
            seat=player,
            pack=self.pack,
            hand_size=self.hand_size,
            run_out_limit=self.run_out_limit,
            rounds_to_win=self.rounds_to_win,
            max_turns_per_round=self.max_turns,
            phase=PHASE_NAMES[state.phase],
            current=self.current_player(state),
            dealer=state.dealer,
            round=state.round,
            turn=state.turn,
            pile_size=len(state.pile),
            run_outs=state.run_outs,
            finished_by=state.finished_by,
            last_turns_left=tuple(state.last_left),
            scores=tuple(state.scores),
            hand_sizes=tuple(len(h) for h in state.hands),
            hand=tuple(sorted(state.hands[player])),
            discard_top=state.discard[-1] if state.discard else -1,
            discard=tuple(sorted(state.discard)),
            taken=state.taken,
            known=tuple(tuple(sorted(k)) for k in state.known),
        )

    @classmethod
    def encode(cls, view: Rummy432View) -> np.ndarray:
        """The float32 observation of a view (layout :data:`OBS_FIELDS`)."""
        n, me = view.num_players, view.seat
        o = np.zeros(OBS_SIZE, dtype=np.float32)
        _write_header(o, n, me, view.pack, view.hand_size, view.run_out_limit,
                      view.rounds_to_win, view.max_turns_per_round)
        o[O_PHASE + PHASE_NAMES.index(view.phase)] = 1
        if view.current >= 0:
            o[O_CUR + (view.current - me) % n] = 1
        o[O_DEALER + (view.dealer - me) % n] = 1
        o[O_ROUND] = view.round
        o[O_TURN] = view.turn
        o[O_PILE] = view.pile_size
        o[O_RUNOUTS] = view.run_outs
        if view.finished_by >= 0:
            o[O_FIN + (view.finished_by - me) % n] = 1
        for s in view.last_turns_left:
            o[O_LAST + (s - me) % n] = 1
        for s in range(n):
            r = (s - me) % n
            o[O_SCORES + r] = view.scores[s]
            o[O_SIZES + r] = view.hand_sizes[s]
            for c in view.known[s]:
                o[O_KNOWN + 52 * r + c] = 1
        for c in view.hand:
            o[O_HAND + c] = 1
        if view.discard_top >= 0:
            o[O_TOP + view.discard_top] = 1
        for c in view.discard:
            o[O_DISCARD + c] = 1
        if view.taken >= 0:
            o[O_TAKEN + view.taken] = 1
        return o

    @classmethod
    def decode(cls, observation: np.ndarray) -> Rummy432View:
        """The view an observation encodes (inverse of :meth:`encode`)."""
        o = np.asarray(observation, dtype=np.float32)
        if o.shape != (OBS_SIZE,):
            raise ValueError(f"a rummy432 observation has shape ({OBS_SIZE},), got {o.shape}")
        n, me = int(o[O_NP]), int(o[O_SEAT])

        def cards(start: int) -> tuple[int, ...]:
            return tuple(int(c) for c in np.flatnonzero(o[start : start + 52]))

        def one(start: int, size: int) -> int:
            nz = np.flatnonzero(o[start : start + size])
            return int(nz[0]) if len(nz) else -1

        def absolute(r: int) -> int:
            return -1 if r < 0 else (r + me) % n

        limit = int(o[O_LIMIT])
        fin = absolute(one(O_FIN, 5))
        last_set = {(r + me) % n for r in np.flatnonzero(o[O_LAST : O_LAST + 5]).tolist()}
        order = [(fin + k) % n for k in range(1, n)] if fin >= 0 else []
        rel = [(s - me) % n for s in range(n)]
        return Rummy432View(
            num_players=n,
            seat=me,
            pack=PACKS[one(O_PACK, 3)],
            hand_size=int(o[O_HS]),
            run_out_limit=limit or None,
            rounds_to_win=int(o[O_RTW]),
            max_turns_per_round=int(o[O_MAXT]),
            phase=PHASE_NAMES[one(O_PHASE, 3)],
            current=absolute(one(O_CUR, 5)),
            dealer=absolute(one(O_DEALER, 5)),
            round=int(o[O_ROUND]),
            turn=int(o[O_TURN]),
            pile_size=int(o[O_PILE]),
            run_outs=int(o[O_RUNOUTS]),
            finished_by=fin,
            last_turns_left=tuple(s for s in order if s in last_set),
            scores=tuple(int(o[O_SCORES + rel[s]]) for s in range(n)),
            hand_sizes=tuple(int(o[O_SIZES + rel[s]]) for s in range(n)),
            hand=cards(O_HAND),
            discard_top=one(O_TOP, 52),
            discard=cards(O_DISCARD),
            taken=one(O_TAKEN, 52),
            known=tuple(cards(O_KNOWN + 52 * rel[s]) for s in range(n)),
        )

    def observe(self, state: State, player: int) -> np.ndarray:
        """Fast path equal to ``encode(view(state, player))`` (direct scalar writes)."""
        o = self._bases[player].copy()
        m = memoryview(o)
        rel = self._rel[player]
        phase = state.phase
        m[O_PHASE + phase] = 1.0
        if phase != OVER:
            m[O_CUR + rel[state.current]] = 1.0
        m[O_DEALER + rel[state.dealer]] = 1.0
        m[O_ROUND] = state.round
        m[O_TURN] = state.turn
        m[O_PILE] = len(state.pile)
        m[O_RUNOUTS] = state.run_outs
        if state.finished_by >= 0:
            m[O_FIN + rel[state.finished_by]] = 1.0
            for s in state.last_left:
                m[O_LAST + rel[s]] = 1.0
        hands, known, scores = state.hands, state.known, state.scores
        for s, r in enumerate(rel):
            m[O_SCORES + r] = scores[s]
            m[O_SIZES + r] = len(hands[s])
            k = known[s]
            if k:
                base = O_KNOWN + 52 * r
                for c in k:
                    m[base + c] = 1.0
        for c in hands[player]:
            m[O_HAND + c] = 1.0
        discard = state.discard
        if discard:
            m[O_TOP + discard[-1]] = 1.0
            for c in discard:
                m[O_DISCARD + c] = 1.0
        if state.taken >= 0:
            m[O_TAKEN + state.taken] = 1.0
        return o

    def sample_state(self, view: Rummy432View, rng: np.random.Generator) -> State:
        """A full state consistent with ``view``: unseen cards dealt at random.

        The unseen cards (not in the viewer's hand, the discard pile or anyone's known
        cards) fill the opponents' unknown cards and the face-down pile; the buried
        discards are put in card order under the top.
        """
        n = self.num_players
        if view.num_players != n or view.seat not in range(n):
            raise ValueError("the view is of a different table than this game")
        seen = set(view.hand) | set(view.discard)
        for s in range(n):
            if s != view.seat:
                seen |= set(view.known[s])
        unseen = [c for c in range(52) if c not in seen]
        need = view.pile_size + sum(
            view.hand_sizes[s] - len(view.known[s]) for s in range(n) if s != view.seat
        )
        if need != len(unseen):
            raise ValueError(f"inconsistent view: {len(unseen)} unseen cards but {need} places")
        perm = rng.permutation(len(unseen)).tolist()
        deal = [unseen[i] for i in perm]
        s = State()
        pos = 0
        for seat in range(n):
            if seat == view.seat:
                hand = list(view.hand)
            else:
                k = view.hand_sizes[seat] - len(view.known[seat])
                hand = list(view.known[seat]) + deal[pos : pos + k]
                pos += k
            s.hands.append(hand)
            c = [0] * 13
            for card in hand:
                c[card >> 2] += 1
            s.counts.append(c)
        s.known = [list(k) for k in view.known]
        s.pile = deal[pos:]
        if view.discard_top >= 0:
            s.discard = [c for c in view.discard if c != view.discard_top] + [view.discard_top]
        else:
            s.discard = list(view.discard)
        s.phase = PHASE_NAMES.index(view.phase)
        s.current = view.current if view.current >= 0 else 0
        s.taken = view.taken
        s.dealer = view.dealer
        s.run_outs = view.run_outs
        s.finished_by = view.finished_by
        s.last_left = list(view.last_turns_left)
        s.scores = list(view.scores)
        s.round = view.round
        s.turn = view.turn
        if s.phase == OVER:
            s.legal = []
        return s

    # --------------------------------------------------------------------- notation
    def action_to_str(self, action: int) -> str:
        """``draw``, ``take``, ``throw 7h`` or ``finish 7h``."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise NotationError(f"an action id must be an int, got {action!r}")
        a = int(action)
        if a == DRAW:
            return "draw"
        if a == TAKE:
            return "take"
        if THROW0 <= a < FINISH0:
            return "throw " + card_str(a - THROW0)
        if FINISH0 <= a < NUM_ACTIONS:
            return "finish " + card_str(a - FINISH0)
        raise NotationError(f"action id {a} is out of range 0..{NUM_ACTIONS - 1}")

    def str_to_action(self, text: str) -> int:
        """Action id of ``draw``, ``take``, ``throw <card>`` or ``finish <card>``."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be a string ({_ACTION_FORMS}), got {text!r}")
        parts = text.split()
        if not parts:
            raise NotationError(f"empty move; expected {_ACTION_FORMS}")
        verb = parts[0].lower()
        if verb in ("draw", "take"):
            if len(parts) != 1:
                raise NotationError(f"{verb!r} takes no card, got {text!r}; expected {_ACTION_FORMS}")
            return DRAW if verb == "draw" else TAKE
        if verb in ("throw", "finish"):
            if len(parts) != 2:
                raise NotationError(f"{verb!r} needs exactly one card, got {text!r}; expected {_ACTION_FORMS}")
            try:
                card = parse_card(parts[1])
            except ValueError as e:
                raise NotationError(f"bad card in move {text!r}: {e}") from None
            return (THROW0 if verb == "throw" else FINISH0) + card
        raise NotationError(f"unknown move {text!r}; expected {_ACTION_FORMS}")

    # ------------------------------------------------------------------------- JSON
    def to_json(self, state: State) -> dict[str, Any]:
        """The state in RULES.md's schema (plus the optional ``round`` and ``turn``)."""
        opts: dict[str, Any] = {
            "pack": self.pack,
            "hand_size": self.hand_size,
            "run_out_limit": self.run_out_limit,
            "rounds_to_win": self.rounds_to_win,
        }
        if self.max_turns != DEFAULT_MAX_TURNS:
            opts["max_turns_per_round"] = self.max_turns
        return {
            "game": self.name,
            "num_players": self.num_players,
            "options": opts,
            "hands": [[card_str(c) for c in sorted(h)] for h in state.hands],
            "pile": [card_str(c) for c in reversed(state.pile)],
            "discard": [card_str(c) for c in state.discard],
            "known": [[card_str(c) for c in sorted(k)] for k in state.known],
            "current": None if state.phase == OVER else state.current,
            "phase": PHASE_NAMES[state.phase],
            "taken": None if state.taken < 0 else card_str(state.taken),
            "dealer": state.dealer,
            "run_outs": state.run_outs,
            "finished_by": None if state.finished_by < 0 else state.finished_by,
            "last_turns_left": list(state.last_left),
            "scores": list(state.scores),
            "round": state.round,
            "turn": state.turn,
        }

    def from_json(self, obj: dict[str, Any]) -> State:
        """Read and validate a RULES.md state; :class:`InvalidStateError` says what is wrong."""
        return _load(self, obj)

    # -------------------------------------------------------------------- rendering
    def _hand_text(self, hand: list[int], taken: int = -1) -> str:
        """Cards grouped by rank, each rank marked as a group or loose."""
        by_rank: dict[int, list[int]] = {}
        for c in sorted(hand):
            by_rank.setdefault(c >> 2, []).append(c)
        parts = []
        loose_parts = []
        for r in sorted(by_rank, key=lambda r: (-len(by_rank[r]), r)):
            cards = by_rank[r]
            names = " ".join(card_str(c) + ("*" if c == taken else "") for c in cards)
            g = self._group[len(cards)]
            if g == len(cards):
                parts.append(f"[{names}] group of {g}")
            elif g:
                parts.append(f"[{names}] group of {g} + {len(cards) - g} loose")
            else:
                loose_parts.append(names)
        if loose_parts:
            parts.append("loose: " + " ".join(loose_parts))
        e = self.evaluate(hand)
        status = "complete" if e.complete else f"incomplete, {e.loose_count} loose"
        return "  ".join(parts) + f"   ({status}, value {e.value})"

    def render(self, state: State, viewer: int | None = None) -> str:
        """Text of the table: opponents across the top, the piles, then the viewer's hand."""
        n = self.num_players
        limit = "never" if self.run_out_limit is None else str(self.run_out_limit)
        lines = [
            f"Rummy 4x3x2's - pack {self.pack}, {self.hand_size} cards, round {state.round} "
            f"(first to {self.rounds_to_win}), turn {state.turn}/{self.max_turns}, "
            f"dealer player_{state.dealer}"
        ]
        me = 0 if viewer is None else viewer
        order = [(me + k) % n for k in range(n)]
        shown = order if viewer is None else order[1:]
        for s in shown:
            if viewer is not None and s == viewer:
                continue
            tag = []
            if state.phase != OVER and s == state.current:
                tag.append("to move")
            if s == state.finished_by:
                tag.append("finished")
            if s in state.last_left:
                tag.append("last turn")
            mark = f" ({', '.join(tag)})" if tag else ""
            took = " ".join(card_str(c) for c in sorted(state.known[s])) or "-"
            line = (
                f"  player_{s}{mark}: {len(state.hands[s])} cards, score {state.scores[s]}, "
                f"took from discard: {took}"
            )
            lines.append(line)
            if viewer is None or state.phase == OVER:
                lines.append("      " + self._hand_text(state.hands[s], state.taken if s == state.current else -1))
        top = card_str(state.discard[-1]) if state.discard else "(empty)"
        buried = " ".join(card_str(c) for c in state.discard[:-1]) or "-"
        lines.append(
            f"Pile: {len(state.pile)} cards   Discard top: {top}   buried: {buried}   "
            f"Run-outs: {state.run_outs} of {limit}"
        )
        if viewer is not None:
            took = " ".join(card_str(c) for c in sorted(state.known[viewer])) or "-"
            lines.append(
                f"You, player_{viewer}: score {state.scores[viewer]}, took from discard: {took}"
            )
            lines.append("  " + self._hand_text(state.hands[viewer], state.taken if viewer == state.current else -1))
        lines.append("Scores: " + "  ".join(f"player_{p} {state.scores[p]}" for p in range(n)))
        if state.phase == OVER:
            top_score = max(state.scores)
            win = [f"player_{p}" for p in range(n) if state.scores[p] == top_score]
            lines.append(f"Game over: {' and '.join(win)} {'wins' if len(win) == 1 else 'share the win'}")
        elif state.phase == PICK:
            how = "draw or take " + top if state.pile else "take " + top + " (the pile is empty)"
            lines.append(f"player_{state.current} to pick up: {how}")
        else:
            extra = f" (not {card_str(state.taken)}, just taken)" if state.taken >= 0 else ""
            lines.append(f"player_{state.current} to throw or finish{extra}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------- JSON load
_REQUIRED_KEYS = (
    "game",
    "num_players",
    "options",
    "hands",
    "pile",
    "discard",
    "known",
    "current",
    "phase",
    "taken",
    "dealer",
    "run_outs",
    "finished_by",
    "last_turns_left",
    "scores",
)
_OPTIONAL_KEYS = ("round", "turn")


def _write_header(o: np.ndarray, n: int, seat: int, pack: str, hand_size: int,
                  run_out_limit: int | None, rounds_to_win: int, max_turns: int) -> None:
    """Write the table header (seat count, seat, options) of an observation."""
    o[O_NP] = n
    o[O_SEAT] = seat
    o[O_PACK + _PACK_INDEX[pack]] = 1.0
    o[O_HS] = hand_size
    o[O_LIMIT] = run_out_limit or 0
    o[O_RTW] = rounds_to_win
    o[O_MAXT] = max_turns


def _bad(msg: str) -> InvalidStateError:
    return InvalidStateError(f"invalid rummy432 state: {msg}")


def _int(obj: dict[str, Any], key: str, lo: int, hi: int | None, allow_none: bool = False) -> int | None:
    v = obj[key]
    if v is None and allow_none:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
        none = " or null" if allow_none else ""
        raise _bad(f"{key!r} must be an int{none}, got {v!r}")
    v = int(v)
    if v < lo or (hi is not None and v > hi):
        rng_text = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise _bad(f"{key!r} must be in {rng_text}, got {v}")
    return v


def _cards(v: Any, what: str) -> list[int]:
    if not isinstance(v, list):
        raise _bad(f"{what} must be a list of cards like ['7h', 'Ac'], got {v!r}")
    out = []
    for t in v:
        try:
            out.append(parse_card(t))
        except ValueError as e:
            raise _bad(f"{what}: {e}") from None
    return out


def _load(game: Rummy432Game, obj: Any) -> State:
    if not isinstance(obj, dict):
        raise _bad(f"expected a JSON object, got {type(obj).__name__}")
    missing = [k for k in _REQUIRED_KEYS if k not in obj]
    if missing:
        raise _bad(f"missing key(s) {', '.join(missing)}")
    extra = sorted(set(obj) - set(_REQUIRED_KEYS) - set(_OPTIONAL_KEYS))
    if extra:
        raise _bad(
            f"unknown key(s) {', '.join(extra)}; the keys are {', '.join(_REQUIRED_KEYS + _OPTIONAL_KEYS)}"
        )
    if obj["game"] != game.name:
        raise _bad(f"'game' must be 'rummy432', got {obj['game']!r}")
    n = game.num_players
    np_ = obj["num_players"]
    if isinstance(np_, bool) or not isinstance(np_, int) or np_ != n:
        raise _bad(f"'num_players' is {np_!r} but this game has {n} players; create the game with num_players={np_!r}")
    opts = obj["options"]
    if not isinstance(opts, dict):
        raise _bad(f"'options' must be an object, got {opts!r}")
    need = {"pack", "hand_size", "run_out_limit", "rounds_to_win"}
    if not need <= set(opts) or not set(opts) <= need | {"max_turns_per_round"}:
        raise _bad(
            f"'options' must have exactly pack, hand_size, run_out_limit, rounds_to_win "
            f"(and optionally max_turns_per_round), got {sorted(opts)}"
        )
    full = dict(opts)
    full.setdefault("max_turns_per_round", DEFAULT_MAX_TURNS)
    for k, v in full.items():
        if not Rummy432Game.OPTIONS[k].accepts(v):
            raise _bad(f"option {k}={v!r} is not allowed; allowed: {Rummy432Game.OPTIONS[k].allowed_text()}")
        if v != game.options[k] or (v is None) != (game.options[k] is None):
            raise _bad(
                f"option {k}={v!r} differs from this game's {k}={game.options[k]!r}; "
                f"create the game with the state's options"
            )
    hs = game.hand_size

    phase_t = obj["phase"]
    if phase_t not in PHASE_NAMES:
        raise _bad(f"'phase' must be 'pick', 'throw' or 'over', got {phase_t!r}")
    phase = PHASE_NAMES.index(phase_t)

    for key in ("hands", "known"):
        if not isinstance(obj[key], list) or len(obj[key]) != n:
            raise _bad(f"{key!r} must be a list of {n} card lists (one per seat), got {obj[key]!r}")
    hands = [_cards(h, f"hands[{p}]") for p, h in enumerate(obj["hands"])]
    known = [_cards(k, f"known[{p}]") for p, k in enumerate(obj["known"])]
    pile = _cards(obj["pile"], "'pile'")
    discard = _cards(obj["discard"], "'discard'")

    seen: dict[int, str] = {}
    dups = []
    for where, cards in [(f"hands[{p}]", h) for p, h in enumerate(hands)] + [
        ("pile", pile),
        ("discard", discard),
    ]:
        for c in cards:
            if c in seen:
                dups.append(f"{card_str(c)} (in {seen[c]} and {where})")
            else:
                seen[c] = where
    if dups:
        raise _bad("card(s) in more than one place: " + ", ".join(dups))
    if len(seen) != 52:
        lost = [card_str(c) for c in range(52) if c not in seen]
        raise _bad("every card must be somewhere exactly once; missing: " + " ".join(lost))

    if phase == OVER:
        if obj["current"] is not None:
            raise _bad(f"'current' must be null when the phase is 'over', got {obj['current']!r}")
        current = -1
    else:
        current = _int(obj, "current", 0, n - 1)
        assert current is not None
    for p, h in enumerate(hands):
        want = hs + 1 if phase == THROW and p == current else hs
        if len(h) != want:
            why = (
                "the seat to throw holds hand_size + 1"
                if want == hs + 1
                else f"seats hold hand_size={hs} cards in phase {phase_t!r}"
                + (" except the seat to throw" if phase == THROW else "")
            )
            raise _bad(f"hands[{p}] has {len(h)} cards, expected {want} ({why})")
    for p, k in enumerate(known):
        if len(set(k)) != len(k):
            raise _bad(f"known[{p}] repeats a card")
        out = [card_str(c) for c in k if c not in hands[p]]
        if out:
            raise _bad(f"known[{p}] must be cards seat {p} holds; not in hands[{p}]: {' '.join(out)}")

    taken_t = obj["taken"]
    taken = -1
    if taken_t is not None:
        if phase != THROW:
            raise _bad(f"'taken' must be null in phase {phase_t!r} (only the throw phase has a taken card)")
        try:
            taken = parse_card(taken_t)
        except ValueError as e:
            raise _bad(f"'taken': {e}") from None
        if taken not in hands[current]:
            raise _bad(f"'taken' {taken_t} is not in the hand of current seat {current}")
        if taken not in known[current]:
            raise _bad(f"'taken' {taken_t} must also be in known[{current}] (everyone saw it taken)")
    if not discard and not (phase == THROW and taken >= 0):
        raise _bad("the discard pile is empty; it always holds a face-up card except right after a take")

    dealer = _int(obj, "dealer", 0, n - 1)
    limit = game.run_out_limit
    run_outs = _int(obj, "run_outs", 0, None)
    assert run_outs is not None and dealer is not None
    if limit is not None:
        top = limit if phase == OVER else limit - 1
        if run_outs > top:
            raise _bad(
                f"'run_outs' is {run_outs} but run_out_limit={limit} ends the round at {limit}; "
                f"expected 0..{top}"
            )
    fin = _int(obj, "finished_by", 0, n - 1, allow_none=True)
    last = obj["last_turns_left"]
    if not isinstance(last, list) or any(isinstance(s, bool) or not isinstance(s, int) for s in last):
        raise _bad(f"'last_turns_left' must be a list of seats, got {last!r}")
    if fin is None:
        if last:
            raise _bad("'last_turns_left' must be empty while nobody has finished ('finished_by' is null)")
    else:
        order = [(fin + k) % n for k in range(1, n)]
        if last != order[len(order) - len(last) :]:
            raise _bad(
                f"'last_turns_left' must be the seats after the finisher in seat order, the "
                f"seat in its last turn first (a tail of {order}), got {last}"
            )
        if phase != OVER:
            if not last:
                raise _bad("'last_turns_left' is empty but the round goes on; after the last turns the round is judged")
            if current != last[0]:
                raise _bad(f"seat {last[0]} has the next last turn but 'current' is {current}")
    scores = obj["scores"]
    rtw = game.rounds_to_win
    if (
        not isinstance(scores, list)
        or len(scores) != n
        or any(isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in scores)
    ):
        raise _bad(f"'scores' must be a list of {n} ints >= 0, got {scores!r}")
    if phase == OVER:
        if max(scores) != rtw:
            raise _bad(f"the game is over, so the best score must be rounds_to_win={rtw}, got {scores}")
    elif max(scores) >= rtw:
        raise _bad(f"scores must stay below rounds_to_win={rtw} while the game runs, got {scores}")
    rnd = _int(obj, "round", 1, None) if "round" in obj else 1
    cap = game.max_turns
    turn = _int(obj, "turn", 0, cap if phase == OVER else cap - 1) if "turn" in obj else 0
    assert rnd is not None and turn is not None

    s = State()
    s.hands = hands
    s.counts = []
    for h in hands:
        c = [0] * 13
        for card in h:
            c[card >> 2] += 1
        s.counts.append(c)
    s.known = known
    s.pile = pile[::-1]
    s.discard = discard
    s.current = current if current >= 0 else 0
    s.phase = phase
    s.taken = taken
    s.dealer = dealer
    s.run_outs = run_outs
    s.finished_by = -1 if fin is None else fin
    s.last_left = list(last)
    s.scores = list(scores)
    s.round = rnd
    s.turn = turn
    if phase == OVER:
        s.legal = []
    return s


__all__ = [
    "NUM_ACTIONS",
    "OBS_FIELDS",
    "HandEval",
    "Rummy432Game",
    "Rummy432View",
    "State",
    "allowed_combinations",
]
