"""Rummy 4x3x2's observation: the layout, written once, and its writer and reader.

:data:`LAYOUT` names every field of the flat float32 vector (OpenSpiel's observer
style).  One writer fills those named fields: :func:`write_table` the seat count, the
viewer's seat and the options, a :class:`PositionWriter` the rest.
:func:`encode` runs it on a :class:`Rummy432View`; :class:`Observer`
(``Rummy432Game.observe``) runs the same writer on the state's own lists, with the
table part written once per seat, so no field's place is stated twice.
:func:`decode` reads the same named fields back.

Seat-relative slots: slot 0 is the viewer, slot 1 the next seat, ...; slots of absent
seats stay 0.  Counts and options are raw numbers.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol, cast

import numpy as np

from cardenvs.core.game import ObsField, ObsLayout, observation_vector

from .state import (
    HAND_SIZES,
    MAX_ROUNDS_TO_WIN,
    MAX_SEATS,
    MAX_TURN_CAP,
    OVER,
    PACKS,
    PHASE_NAMES,
    RUN_OUT_LIMITS,
    Rummy432View,
    State,
    max_pile,
    max_rounds,
    max_run_outs,
)

_MAX_HAND = max(max(sizes) for sizes in HAND_SIZES.values())
_MIN_HAND = min(min(sizes) for sizes in HAND_SIZES.values())

#: the observation layout; its bounds (0 to the largest value) hold for every option and
#: seat count (``observation_bounds`` narrows them to one table)
LAYOUT = ObsLayout(
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
        (
            "last_turns_left",
            5,
            "seat-relative: 1 if that seat still has its last turn (in progress included)",
        ),
        ("scores", 5, "seat-relative rounds won; 0 for empty slots"),
        ("hand_sizes", 5, "seat-relative cards held; 0 for empty slots"),
        ("hand", 52, "my cards, by card id"),
        ("discard_top", 52, "one-hot face-up top of the discard pile; zeros if it is empty"),
        ("discard", 52, "every card in the discard pile (top included): thrown, not taken back"),
        ("taken", 52, "one-hot card taken from the discard this turn (cannot be thrown); zeros if none"),
        ("known", 260, "5 seat-relative slots x 52: cards each seat took from the discard and still holds"),
    ],
    low=0.0,
    high=1.0,
    bounds={
        "num_players": (0, MAX_SEATS),
        "my_seat": (0, MAX_SEATS - 1),
        "hand_size": (0, _MAX_HAND),
        "run_out_limit": (0, max(RUN_OUT_LIMITS)),
        "rounds_to_win": (0, MAX_ROUNDS_TO_WIN),
        "max_turns_per_round": (0, MAX_TURN_CAP),
        "round": (0, max_rounds(MAX_SEATS, MAX_ROUNDS_TO_WIN)),
        "turn": (0, MAX_TURN_CAP),
        "pile_size": (0, max_pile(2, _MIN_HAND)),
        "run_outs": (0, MAX_TURN_CAP),
        "scores": (0, MAX_ROUNDS_TO_WIN),
        "hand_sizes": (0, _MAX_HAND + 1),
    },
)
OBS_FIELDS: tuple[ObsField, ...] = LAYOUT.fields
OBS_SIZE: int = LAYOUT.size
_FIELDS = LAYOUT.fields
_PACK_INDEX = {p: i for i, p in enumerate(PACKS)}


class Slots(Protocol):
    """One writable field: a numpy view or a memoryview of a slice of the vector."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


Fields = Mapping[str, Slots]


# ------------------------------------------------------------------------------ writer
def write_table(f: Fields, n: int, seat: int, options: Mapping[str, Any]) -> None:
    """Write the seat count, the viewer's seat and the options (fixed for a table)."""
    f["num_players"][0] = n
    f["my_seat"][0] = seat
    f["pack"][_PACK_INDEX[options["pack"]]] = 1
    f["hand_size"][0] = options["hand_size"]
    f["run_out_limit"][0] = options["run_out_limit"] or 0
    f["rounds_to_win"][0] = options["rounds_to_win"]
    f["max_turns_per_round"][0] = options["max_turns_per_round"]


class PositionWriter:
    """Writes the position part of observations into the named fields it is bound to.

    :meth:`write` takes, for one viewer: ``rel`` (absolute seat -> seat-relative slot),
    the phase index, then the seats, counters and cards as in :class:`Rummy432View`
    (``-1`` = none), with ``scores``, ``hand_sizes`` and ``known`` seat by seat.  The
    fields must be zeroed before.  The observer binds one writer for good.
    """

    __slots__ = (
        "phase", "current", "dealer", "round", "turn", "pile_size", "run_outs", "finished_by",
        "last_turns_left", "scores", "hand_sizes", "known", "hand", "discard_top", "discard", "taken",
    )

    def __init__(self, f: Fields) -> None:
        self.phase, self.current, self.dealer, self.round = f["phase"], f["current"], f["dealer"], f["round"]
        self.turn, self.pile_size, self.run_outs = f["turn"], f["pile_size"], f["run_outs"]
        self.finished_by, self.last_turns_left = f["finished_by"], f["last_turns_left"]
        self.scores, self.hand_sizes, self.known = f["scores"], f["hand_sizes"], f["known"]
        self.hand, self.discard_top = f["hand"], f["discard_top"]
        self.discard, self.taken = f["discard"], f["taken"]

    def write(
        self,
        rel: Sequence[int],
        phase: int,
        current: int,
        dealer: int,
        round_: int,
        turn: int,
        pile_size: int,
        run_outs: int,
        finished_by: int,
        last_left: Iterable[int],
        scores: Iterable[int],
        hand_sizes: Iterable[int],
        known: Iterable[Iterable[int]],
        hand: Iterable[int],
        discard_top: int,
        discard: Iterable[int],
        taken: int,
    ) -> None:
        """Write one viewer's position (see the class docstring)."""
        self.phase[phase] = 1.0
        if current >= 0:
            self.current[rel[current]] = 1.0
        self.dealer[rel[dealer]] = 1.0
        self.round[0] = round_
        self.turn[0] = turn
        self.pile_size[0] = pile_size
        self.run_outs[0] = run_outs
        if finished_by >= 0:
            self.finished_by[rel[finished_by]] = 1.0
        slots = self.last_turns_left
        for s in last_left:
            slots[rel[s]] = 1.0
        f_scores, f_sizes, f_known = self.scores, self.hand_sizes, self.known
        for r, score, size, cards in zip(rel, scores, hand_sizes, known):
            f_scores[r] = score
            f_sizes[r] = size
            base = 52 * r
            for c in cards:
                f_known[base + c] = 1.0
        slots = self.hand
        for c in hand:
            slots[c] = 1.0
        if discard_top >= 0:
            self.discard_top[discard_top] = 1.0
        slots = self.discard
        for c in discard:
            slots[c] = 1.0
        if taken >= 0:
            self.taken[taken] = 1.0


def relative_slots(n: int, seat: int) -> list[int]:
    """Absolute seat -> seat-relative slot, for the viewer ``seat``."""
    return [(s - seat) % n for s in range(n)]


def field_slots(o: np.ndarray) -> dict[str, Slots]:
    """Named writable fields of the observation vector ``o``, as memoryviews of it (the
    same places as ``LAYOUT.views(o)``, with cheaper scalar writes than numpy views)."""
    whole = o.data
    # typeshed types a memoryview's items as ints; one of format "f" takes floats
    return {f.name: cast(Slots, whole[f.start : f.stop]) for f in _FIELDS}


class _Scratch(threading.local):
    """Each thread's scratch vector, with its named fields (memoryviews) and writer bound
    once: :func:`encode` and :class:`Observer` fill it and return a copy, so building
    the fields (a microsecond or ten) is not paid per observation."""

    def __init__(self) -> None:
        vector = LAYOUT.new()
        fields = field_slots(vector)
        #: ``(vector, memoryview of it, its named fields, their writer's write)``, in one
        #: attribute (each attribute of a thread-local costs a dictionary switch)
        self.parts = (vector, vector.data, fields, PositionWriter(fields).write)


_SCRATCH = _Scratch()
_ZEROS = LAYOUT.new().data


def encode(view: Rummy432View) -> np.ndarray:
    """The float32 observation of a view (layout :data:`OBS_FIELDS`)."""
    vector, whole, fields, write = _SCRATCH.parts
    whole[:] = _ZEROS
    write_table(fields, view.num_players, view.seat, view.options)
    write(
        relative_slots(view.num_players, view.seat),
        PHASE_NAMES.index(view.phase),
        view.current,
        view.dealer,
        view.round,
        view.turn,
        view.pile_size,
        view.run_outs,
        view.finished_by,
        view.last_turns_left,
        view.scores,
        view.hand_sizes,
        view.known,
        view.hand,
        view.discard_top,
        view.discard,
        view.taken,
    )
    return vector.copy()


class Observer:
    """Fast observations of one table: ``observe(state, p) == encode(view(state, p))``.

    Keeps each seat's table part ready; :meth:`observe` copies it into the thread's
    scratch vector, whose :class:`PositionWriter` writes the position from the state's
    own lists (no View built), and returns a copy.
    """

    def __init__(self, n: int, options: Mapping[str, Any]) -> None:
        self._n, self._options = n, dict(options)
        self._tables: list[memoryview] = []
        for seat in range(n):
            o = LAYOUT.new()
            write_table(field_slots(o), n, seat, options)
            self._tables.append(o.data)
        self._rel = [relative_slots(n, seat) for seat in range(n)]

    def __reduce__(self) -> tuple[type[Observer], tuple[int, dict[str, Any]]]:
        """Pickle and copy as the table (seat count and options): memoryviews do not
        pickle, so the copy writes its seat tables anew."""
        return Observer, (self._n, self._options)

    def observe(self, state: State, player: int) -> np.ndarray:
        """The observation of ``player`` (``player``'s own view of ``state`` only)."""
        vector, whole, _, write = _SCRATCH.parts
        whole[:] = self._tables[player]  # memoryview copies cost a third of numpy's
        phase = state.phase
        discard = state.discard
        write(
            self._rel[player],
            phase,
            -1 if phase == OVER else state.current,
            state.dealer,
            state.round,
            state.turn,
            len(state.pile),
            state.run_outs,
            state.finished_by,
            state.last_left,
            state.scores,
            map(len, state.hands),
            state.known,
            state.hands[player],
            discard[-1] if discard else -1,
            discard,
            state.taken,
        )
        return vector.copy()


# ------------------------------------------------------------------------------ reader
def decode(observation: Any) -> Rummy432View:
    """The view an observation encodes (inverse of :func:`encode`).

    Accepts the vector or the ``{"observation", "action_mask"}`` dict of ``env.last()``.
    """
    o = np.asarray(observation_vector(observation), dtype=np.float32)
    if o.shape != (OBS_SIZE,):
        raise ValueError(f"a rummy432 observation has shape ({OBS_SIZE},), got {o.shape}")
    f = LAYOUT.views(o)
    n, me = int(f["num_players"][0]), int(f["my_seat"][0])
    rel = relative_slots(n, me)

    def absolute(name: str) -> int:
        r = _one(f[name])
        return -1 if r < 0 else (r + me) % n

    def per_seat(name: str) -> tuple[int, ...]:
        values = f[name].tolist()
        return tuple(int(values[r]) for r in rel)

    fin = absolute("finished_by")
    last_set = {(r + me) % n for r in np.flatnonzero(f["last_turns_left"]).tolist()}
    order = [(fin + k) % n for k in range(1, n)] if fin >= 0 else []
    known = f["known"]
    return Rummy432View(
        num_players=n,
        seat=me,
        pack=PACKS[_one(f["pack"])],
        hand_size=int(f["hand_size"][0]),
        run_out_limit=int(f["run_out_limit"][0]) or None,
        rounds_to_win=int(f["rounds_to_win"][0]),
        max_turns_per_round=int(f["max_turns_per_round"][0]),
        phase=PHASE_NAMES[_one(f["phase"])],
        current=absolute("current"),
        dealer=absolute("dealer"),
        round=int(f["round"][0]),
        turn=int(f["turn"][0]),
        pile_size=int(f["pile_size"][0]),
        run_outs=int(f["run_outs"][0]),
        finished_by=fin,
        last_turns_left=tuple(s for s in order if s in last_set),
        scores=per_seat("scores"),
        hand_sizes=per_seat("hand_sizes"),
        hand=_cards(f["hand"]),
        discard_top=_one(f["discard_top"]),
        discard=_cards(f["discard"]),
        taken=_one(f["taken"]),
        known=tuple(_cards(known[52 * rel[s] : 52 * rel[s] + 52]) for s in range(n)),
    )


def _cards(slots: np.ndarray) -> tuple[int, ...]:
    """The card ids marked in a 52-slot field."""
    return tuple(np.flatnonzero(slots).tolist())


def _one(slots: np.ndarray) -> int:
    """The index of a one-hot field, ``-1`` if it is all zeros."""
    nz = np.flatnonzero(slots)
    return int(nz[0]) if len(nz) else -1


# ------------------------------------------------------------------------------ bounds
def observation_bounds(n: int, options: Mapping[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """Per-entry ``(low, high)`` of every observation of a table, tight under its options.

    Every entry is at least 0.  Its high is its largest value at this table: the
    options' entries their value, ``my_seat`` the last seat, ``round`` at most
    :func:`max_rounds`, ``turn`` the turn cap, ``run_outs`` :func:`max_run_outs`, the
    pile :func:`max_pile`, scores ``rounds_to_win``, hand sizes ``hand_size + 1``; but
    1 where that largest value is 0 (slots of absent seats, the other packs' one-hot
    slots, ``run_out_limit`` None), so that no entry of the ``Box`` is degenerate
    (gymnasium warns of ``low == high``, and scaling by the range would divide by 0).
    ``from_json`` refuses every position outside them.
    """
    high = LAYOUT.new()
    hi = LAYOUT.views(high)
    write_table(hi, n, n - 1, options)
    hs, cap, rtw = options["hand_size"], options["max_turns_per_round"], options["rounds_to_win"]
    hi["round"][:] = max_rounds(n, rtw)
    hi["turn"][:] = cap
    hi["pile_size"][:] = max_pile(n, hs)
    hi["run_outs"][:] = max_run_outs(options["run_out_limit"], cap)
    hi["scores"][:n] = rtw
    hi["hand_sizes"][:n] = hs + 1
    np.maximum(high, 1.0, out=high)
    return np.zeros_like(high), high
