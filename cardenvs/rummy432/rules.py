"""Rummy 4x3x2's: the legality core (docs/rules/rummy432.md).

Cards are ints ``0..51`` (:mod:`cardenvs.core.cards`); a rank index is ``card >> 2``
(0 = Ace .. 12 = King).  Each hand is a list of cards plus a 13-slot rank-count list,
so legality (which cards may be the finishing throw) is a few integer checks.

Action ids (state-independent, 106 in all)::

    0        draw            pick up the top of the face-down pile
    1        take            pick up the face-up top of the discard pile
    2..53    throw <card>    throw card id ``a - 2``
    54..105  finish <card>   throw card id ``a - 54`` and finish

Rule choices beyond docs/rules/rummy432.md (documented in :mod:`cardenvs.rummy432_v0`):

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

This module holds the rules proper (dealing, legality, applying a move, judging) and
the :class:`Rummy432Game` face; the state, View and tables live in :mod:`.state`, the
observation in :mod:`.encoding`, JSON and notation in :mod:`.serialization`, text in
:mod:`.render` and the picture in :mod:`.picture`.
"""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import numpy as np

from cardenvs.core.cards import card_str
from cardenvs.core.game import Game, Option, OptionError, shuffle_unseen
from cardenvs.core.picture import Picture

from . import encoding, render, serialization
from .encoding import OBS_FIELDS, OBS_SIZE
from .picture import picture as _picture
from .state import (
    DEFAULT_MAX_TURNS,
    DRAW,
    FINISH0,
    GROUP,
    GROUP_SIZES,
    GROUPED,
    HAND_SIZES,
    MAX_PLAYERS_FOR_12,
    MAX_ROUNDS_TO_WIN,
    MAX_SEATS,
    MAX_TURN_CAP,
    NUM_ACTIONS,
    OVER,
    PACKS,
    PHASE_NAMES,
    PICK,
    RANK_VALUES,
    RUN_OUT_LIMITS,
    TAKE,
    THROW,
    THROW0,
    HandEval,
    Rummy432View,
    State,
    allowed_combinations,
    rank_counts,
)


class Rummy432Game(Game[State, Rummy432View]):
    """Rummy 4x3x2's under fixed options (see :mod:`cardenvs.rummy432_v0`)."""

    name = "rummy432"
    env_name = "rummy432_v0"
    min_players = 2
    max_players = MAX_SEATS
    default_players = 4
    OPTIONS = {
        "pack": Option("mixed", PACKS, "groups allowed: four = 4 only, three = 3 only, mixed = 2, 3 or 4"),
        "hand_size": Option(
            8,
            (6, 8, 9, 12),
            "cards per hand: four 8/12, three 6/9/12, mixed 6/8/9/12; 12 only with up to 3 players",
        ),
        "run_out_limit": Option(
            3, (*RUN_OUT_LIMITS, None), "run-outs of the face-down pile that end a round; None = never"
        ),
        "rounds_to_win": Option(
            3, range(1, MAX_ROUNDS_TO_WIN + 1), "rounds a player must win to win the game"
        ),
        "max_turns_per_round": Option(
            DEFAULT_MAX_TURNS,
            range(1, MAX_TURN_CAP + 1),
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
        #: count of a rank in a hand -> fits an allowed group exactly (or is zero)
        self._ok = GROUPED[self.pack]
        #: count of a rank -> size of the group it forms (largest allowed size <= count)
        self._group = GROUP[self.pack]
        self._observer = encoding.Observer(self.num_players, o)

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
                f"num_players={n}; with {n} players pack {pack!r} allows hand_size {allowed} "
                f"(allowed combinations: {allowed_combinations()})"
            )

    # ------------------------------------------------------------------ dealing
    def _deal(self, state: State, rng: np.random.Generator) -> None:
        """Shuffle a full deck and deal a round (dealer already set)."""
        n, hs = self.num_players, self.hand_size
        deck = rng.permutation(52).tolist()
        state.hands = [deck[i * hs : (i + 1) * hs] for i in range(n)]
        state.counts = [rank_counts(h) for h in state.hands]
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
        """int8 mask of the legal actions (built in a bytearray: faster than numpy
        fancy indexing for a dozen ids)."""
        mask = bytearray(NUM_ACTIONS)
        for a in state.legal if state.legal is not None else self.legal_actions(state):
            mask[a] = 1
        return np.frombuffer(mask, np.int8)

    # ----------------------------------------------------------------------- moves
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
        elif action == TAKE:
            card = state.discard.pop()
            state.known[p].append(card)
            state.taken = card
        else:
            self._throw(state, p, action, rng)
            return
        state.hands[p].append(card)
        state.counts[p][card >> 2] += 1
        state.phase = THROW

    def _throw(self, state: State, p: int, action: int, rng: np.random.Generator | None) -> None:
        """Seat ``p`` throws (and maybe finishes); the turn ends: count it and any
        run-out, then judge the round, reshuffle or pass the turn on."""
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
            self._reshuffle(state, rng)
        state.current = state.last_left[0] if state.finished_by >= 0 else (p + 1) % n

    @staticmethod
    def _reshuffle(state: State, rng: np.random.Generator | None) -> None:
        """The discard pile but its top, shuffled with ``rng``, becomes the new pile."""
        if rng is None:
            rng = np.random.default_rng()
        buried = state.discard[:-1]
        state.discard = state.discard[-1:]
        if buried:
            perm = rng.permutation(len(buried)).tolist()
            state.pile = [buried[i] for i in perm]

    # ----------------------------------------------------------------------- judging
    def evaluate(self, hand: list[int] | tuple[int, ...]) -> HandEval:
        """Judge a hand: each rank forms one group of the largest allowed size it reaches."""
        cnt = rank_counts(hand)
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
        """The round winners (seats, ascending) of final ``hands`` and each hand's judgement.

        Never empty: the best complete hands win, or with none complete the best values.
        """
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
        result = _round_result(state, reason, winners, evals, over)
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

    def max_game_length(self) -> int:
        """``2 * max_turns_per_round * (n * (rounds_to_win - 1) + 1)`` moves: a turn is two
        moves (pick, throw), a round at most ``max_turns_per_round`` turns (the turn cap), and
        every round gives a point to at least one seat, so after ``n * (rounds_to_win - 1)``
        rounds someone has won.  (10000 for the defaults with n = 2; random play needs about
        1500.)"""
        n, o = self.num_players, self.options
        return 2 * int(o["max_turns_per_round"]) * (n * (int(o["rounds_to_win"]) - 1) + 1)

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
    def public_view(self, state: State) -> Rummy432View:
        """What everyone may know: a seat's View without its hand (the cards a seat took
        from the discard pile, ``known``, stay: everyone saw them taken), ``seat`` -1."""
        return dataclasses.replace(self.view(state, 0), seat=-1, hand=())

    def view(self, state: State, player: int) -> Rummy432View:
        """The information set of ``player``."""
        return Rummy432View(
            num_players=self.num_players,
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
        return encoding.encode(view)

    @classmethod
    def decode(cls, observation: Any) -> Rummy432View:
        """The view an observation (the vector, or ``env.last()``'s dict) encodes."""
        return encoding.decode(observation)

    def observe(self, state: State, player: int) -> np.ndarray:
        """Fast path equal to ``encode(view(state, player))`` (the same writer)."""
        return self._observer.observe(state, player)

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-entry ``(low, high)`` of every observation under these options."""
        return encoding.observation_bounds(self.num_players, self.options)

    def redraw_unseen(self, state: State, rng: np.random.Generator) -> None:
        """Shuffle the face-down pile in place with ``rng``: the only cards nobody has
        seen (each hand is seen by its owner, the discard pile face up).  Reshuffles and
        later rounds' deals come from ``apply``'s own ``rng``, not from here."""
        shuffle_unseen(state.pile, rng)

    def has_chance(self, state: State, action: int) -> bool:
        """A draw (the pile's top), and a throw that may reshuffle the pile (the turn drew
        its last card) or end the round (then the next round is dealt with ``rng``): the
        last seat's last turn after a finish, the turn cap, a run-out."""
        if action == DRAW:
            return True
        if action < THROW0:
            return False
        return ((state.taken < 0 and not state.pile)
                or (state.finished_by >= 0 and len(state.last_left) <= 1)
                or state.turn + 1 >= self.max_turns)

    def sample_state(self, view: Rummy432View, rng: np.random.Generator) -> State:
        """A full state consistent with ``view``: unseen cards dealt at random.

        The unseen cards (not in the viewer's hand, the discard pile or anyone's known
        cards) fill the opponents' unknown cards and the face-down pile; the buried
        discards are put in card order under the top.
        """
        n = self.num_players
        if view.num_players != n or view.seat not in range(n):
            raise ValueError("the view is of a different table than this game")
        s = State()
        s.hands, s.pile = _deal_unseen(view, rng)
        s.counts = [rank_counts(h) for h in s.hands]
        s.known = [list(k) for k in view.known]
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

    # --------------------------------------------------------------------- text faces
    def action_to_str(self, action: int) -> str:
        """``draw``, ``take``, ``throw 7h`` or ``finish 7h``."""
        return serialization.action_to_str(action)

    def str_to_action(self, text: str) -> int:
        """Action id of ``draw``, ``take``, ``throw <card>`` or ``finish <card>``."""
        return serialization.str_to_action(text)

    def to_json(self, state: State) -> dict[str, Any]:
        """The state in the position format (docs/rules/) (plus the optional ``round`` and ``turn``)."""
        return serialization.to_json(self, state)

    def from_json(self, obj: Any) -> State:
        """Read and validate a position; :class:`InvalidStateError` says what is wrong."""
        return serialization.from_json(self, obj)

    def render(self, state: State, viewer: int | None = None) -> str:
        """Text of the table: opponents across the top, the piles, then the viewer's hand."""
        return render.render(self, state, viewer)

    def picture(self, state: State, viewer: int | None = None) -> Picture:
        """The table as a :class:`~cardenvs.core.picture.Picture` (``rgb_array``)."""
        return _picture(self, state, viewer)


def _round_result(
    state: State, reason: str, winners: list[int], evals: list[HandEval], over: bool
) -> dict[str, Any]:
    """The ``round_result`` info of a judged round (scores already counted)."""
    return {
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


def _deal_unseen(view: Rummy432View, rng: np.random.Generator) -> tuple[list[list[int]], list[int]]:
    """``(hands, pile)`` for a view: the viewer's hand, each opponent's known cards plus
    unseen cards at random, and the rest of the unseen cards as the pile."""
    n = view.num_players
    seen = set(view.hand) | set(view.discard)
    for s in range(n):
        if s != view.seat:
            seen |= set(view.known[s])
    unseen = [c for c in range(52) if c not in seen]
    need = view.pile_size + sum(view.hand_sizes[s] - len(view.known[s]) for s in range(n) if s != view.seat)
    if need != len(unseen):
        raise ValueError(f"inconsistent view: {len(unseen)} unseen cards but {need} places")
    perm = rng.permutation(len(unseen)).tolist()
    deal = [unseen[i] for i in perm]
    hands = []
    pos = 0
    for seat in range(n):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            k = view.hand_sizes[seat] - len(view.known[seat])
            hands.append(list(view.known[seat]) + deal[pos : pos + k])
            pos += k
    return hands, deal[pos:]


__all__ = [
    "DRAW",
    "FINISH0",
    "GROUP",
    "GROUPED",
    "GROUP_SIZES",
    "HAND_SIZES",
    "NUM_ACTIONS",
    "OBS_FIELDS",
    "OBS_SIZE",
    "OVER",
    "PICK",
    "RANK_VALUES",
    "TAKE",
    "THROW",
    "THROW0",
    "HandEval",
    "Rummy432Game",
    "Rummy432View",
    "State",
    "allowed_combinations",
]
