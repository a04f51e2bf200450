"""Rummy 4x3x2's JSON positions (docs/rules/rummy432.md schema) and move notation.

:func:`from_json` reads a position through small validators, each checking one thing
and refusing with an :class:`InvalidStateError` that says what is allowed.  Beyond the
schema's shape it bounds every counter by the rest of the position:

* ``current``, ``dealer``, ``finished_by`` and the seats of ``last_turns_left`` are
  seats; ``scores`` are ``0..rounds_to_win`` (below it while the game runs, someone
  at it when it is over);
* ``turn`` (turns completed this round) is below ``max_turns_per_round`` while the
  round runs and at most it once the game is over;
* ``run_outs`` is below ``run_out_limit`` while the round runs (at most the limit when
  the game is over); with no limit it is at most one per turn, so below
  ``max_turns_per_round`` (at most it when over); and never above ``turn`` (a run-out
  is counted at the end of a turn);
* ``round``: every completed round gave at least one seat a point, so while the game
  runs ``round <= sum(scores) + 1``; when it is over the seats at ``rounds_to_win``
  all won the last round, so ``round <= sum(scores) - (seats at rounds_to_win) + 1``.
  Both keep ``round`` within ``num_players * (rounds_to_win - 1) + 1``;
* ``round`` and ``turn`` are optional (docs/rules/rummy432.md positions have neither): an
  absent ``round`` reads as 1 (no lower bound on ``round`` comes from the scores), an
  absent ``turn`` as ``run_outs`` (the fewest completed turns the run-outs need), under
  the same bounds as a given one, so the env's own ``state_json()`` of any later
  position loads again;
* every count and seat is an int (not a bool, not a float).

Move text: ``draw``, ``take``, ``throw <card>``, ``finish <card>`` (``10h`` = ``Th``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from cardenvs.core.cards import card_str, parse_card
from cardenvs.core.game import InvalidStateError, NotationError, json_object

from .state import (
    DEFAULT_MAX_TURNS,
    DRAW,
    FINISH0,
    NUM_ACTIONS,
    OVER,
    PHASE_NAMES,
    TAKE,
    THROW,
    THROW0,
    State,
    rank_counts,
)

if TYPE_CHECKING:
    from .rules import Rummy432Game

# ---------------------------------------------------------------------------- notation
_CARD_FORMS = "rank A 2-9 T(10) J Q K then suit c d h s, e.g. '7s', 'Th', '10h'"
_ACTION_FORMS = "'draw', 'take', 'throw <card>' or 'finish <card>' with a card like '7h', 'Th' or '10h'"


def action_to_str(action: int) -> str:
    """``draw``, ``take``, ``throw 7h`` or ``finish 7h``."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise NotationError(f"an action id must be an int, got {_show(action)}")
    a = int(action)
    if a == DRAW:
        return "draw"
    if a == TAKE:
        return "take"
    if THROW0 <= a < FINISH0:
        return "throw " + card_str(a - THROW0)
    if FINISH0 <= a < NUM_ACTIONS:
        return "finish " + card_str(a - FINISH0)
    raise NotationError(f"action id {_show(a)} is out of range 0..{NUM_ACTIONS - 1}")


def str_to_action(text: str) -> int:
    """Action id of ``draw``, ``take``, ``throw <card>`` or ``finish <card>``."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be a string ({_ACTION_FORMS}), got {_show(text)}")
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


# ------------------------------------------------------------------------------ writing
def to_json(game: Rummy432Game, state: State) -> dict[str, Any]:
    """The state in the position format (docs/rules/) (plus the optional ``round`` and ``turn``)."""
    opts: dict[str, Any] = {
        "pack": game.pack,
        "hand_size": game.hand_size,
        "run_out_limit": game.run_out_limit,
        "rounds_to_win": game.rounds_to_win,
    }
    if game.max_turns != DEFAULT_MAX_TURNS:
        opts["max_turns_per_round"] = game.max_turns
    return {
        "game": game.name,
        "num_players": game.num_players,
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


# ------------------------------------------------------------------------------ reading
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
#: an error message shows at most this many items of a list and characters of a value
_SHOWN_ITEMS = 13
_SHOWN_CHARS = 80
_INT_OPTIONS = ("hand_size", "run_out_limit", "rounds_to_win", "max_turns_per_round")


def from_json(game: Rummy432Game, obj: Any) -> State:
    """Read and validate a position (a dict or JSON text) for ``game``.

    Raises :class:`InvalidStateError` naming the first thing that is wrong and what is
    allowed (see the module docstring for the rules checked).
    """
    obj = json_object(obj)
    _check_keys(obj)
    _check_table(game, obj)
    phase = _phase(obj)
    hands, known, pile, discard = _card_lists(obj, game.num_players)
    _check_every_card_once(hands, pile, discard)
    current = _current(obj, phase, game.num_players)
    _check_hand_sizes(hands, phase, current, game.hand_size)
    _check_known(known, hands)
    taken = _taken(obj, phase, current, hands, known)
    if not discard and not (phase == THROW and taken >= 0):
        raise _bad("the discard pile is empty; it always holds a face-up card except right after a take")
    s = State()
    s.hands, s.known, s.pile, s.discard = hands, known, pile[::-1], discard
    s.counts = [rank_counts(h) for h in hands]
    s.phase, s.current, s.taken = phase, max(current, 0), taken
    s.dealer = _int(obj, "dealer", 0, game.num_players - 1)
    s.run_outs = _run_outs(obj, phase, game.run_out_limit, game.max_turns)
    s.finished_by, s.last_left = _finish(obj, phase, current, game.num_players)
    s.scores = _scores(obj, phase, game.num_players, game.rounds_to_win)
    s.round = _round(obj, phase, s.scores, game.rounds_to_win)
    s.turn = _turn(obj, phase, s.run_outs, game.max_turns)
    if phase == OVER:
        s.legal = []
    return s


def _bad(msg: str) -> InvalidStateError:
    return InvalidStateError(f"invalid rummy432 state: {msg}")


def _show(v: Any) -> str:
    """A short text of a JSON value for an error message (huge ints and long lists cut)."""
    if _is_int(v) and abs(int(v)).bit_length() > 64:
        return f"{'-' if v < 0 else ''}an int of {abs(int(v)).bit_length()} bits"
    if isinstance(v, (list, tuple)):
        items = [_show(x) for x in v[:_SHOWN_ITEMS]]
        return "[" + ", ".join(items + (["..."] if len(v) > _SHOWN_ITEMS else [])) + "]"
    if isinstance(v, dict):
        items = [f"{_show(k)}: {_show(x)}" for k, x in list(v.items())[:_SHOWN_ITEMS]]
        return "{" + ", ".join(items + (["..."] if len(v) > _SHOWN_ITEMS else [])) + "}"
    text = repr(v)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


def _is_int(v: Any) -> bool:
    """A real int: a Python or numpy integer, not a bool or a float."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _int(obj: dict[str, Any], key: str, lo: int, hi: int, why: str = "") -> int:
    """``obj[key]`` as an int in ``lo..hi`` (``why`` explains the range in the refusal)."""
    v = obj[key]
    if not _is_int(v):
        raise _bad(f"{key!r} must be an int, got {_show(v)}")
    v = int(v)
    if not lo <= v <= hi:
        raise _bad(f"{key!r} must be in {lo}..{hi}, got {_show(v)}" + (f" ({why})" if why else ""))
    return v


def _check_keys(obj: dict[str, Any]) -> None:
    """Every required key, and no key but the optional ``round`` and ``turn``."""
    missing = [k for k in _REQUIRED_KEYS if k not in obj]
    if missing:
        raise _bad(f"missing key(s) {', '.join(missing)}")
    extra = sorted(str(k) for k in set(obj) - set(_REQUIRED_KEYS) - set(_OPTIONAL_KEYS))
    if extra:
        keys = ", ".join(_REQUIRED_KEYS + _OPTIONAL_KEYS)
        raise _bad(f"unknown key(s) {', '.join(extra)}; the keys are {keys}")


def _check_table(game: Rummy432Game, obj: dict[str, Any]) -> None:
    """The game name, the seat count and the options are this game's."""
    if obj["game"] != game.name:
        raise _bad(f"'game' must be 'rummy432', got {_show(obj['game'])}")
    n = game.num_players
    np_ = obj["num_players"]
    if not _is_int(np_) or np_ != n:
        raise _bad(
            f"'num_players' is {_show(np_)} but this game has {n} players; "
            f"create the game with num_players={_show(np_)}"
        )
    opts = obj["options"]
    if not isinstance(opts, dict):
        raise _bad(f"'options' must be an object, got {_show(opts)}")
    need = {"pack", "hand_size", "run_out_limit", "rounds_to_win"}
    if not need <= set(opts) or not set(opts) <= need | {"max_turns_per_round"}:
        raise _bad(
            f"'options' must have exactly pack, hand_size, run_out_limit, rounds_to_win "
            f"(and optionally max_turns_per_round), got {sorted(str(k) for k in opts)}"
        )
    full = {"max_turns_per_round": DEFAULT_MAX_TURNS, **opts}
    for k, v in full.items():
        option = game.OPTIONS[k]
        if not option.accepts(v) or (k in _INT_OPTIONS and v is not None and not _is_int(v)):
            raise _bad(f"option {k}={_show(v)} is not allowed; allowed: {option.allowed_text()}")
        if v != game.options[k] or (v is None) != (game.options[k] is None):
            raise _bad(
                f"option {k}={_show(v)} differs from this game's {k}={game.options[k]!r}; "
                f"create the game with the state's options"
            )


def _phase(obj: dict[str, Any]) -> int:
    """The phase index of ``obj["phase"]``."""
    phase_t = obj["phase"]
    if not isinstance(phase_t, str) or phase_t not in PHASE_NAMES:
        raise _bad(f"'phase' must be 'pick', 'throw' or 'over', got {_show(phase_t)}")
    return PHASE_NAMES.index(phase_t)


def _cards(v: Any, what: str) -> list[int]:
    """A list of card texts as card ids."""
    if not isinstance(v, list):
        raise _bad(f"{what} must be a list of cards like ['7h', 'Ac'], got {_show(v)}")
    return [_card(t, what) for t in v]


def _card(text: Any, what: str) -> int:
    """The card id of a card text like ``7h``, ``Th`` or ``10h``."""
    if isinstance(text, str) and len(text) <= 4:
        try:
            return parse_card(text)
        except ValueError:
            pass
    raise _bad(f"{what}: {_show(text)} is not a card: expected {_CARD_FORMS}")


def _card_lists(obj: dict[str, Any], n: int) -> tuple[list[list[int]], list[list[int]], list[int], list[int]]:
    """``(hands, known, pile top first, discard)`` as card ids, one hand and known list per seat."""
    for key in ("hands", "known"):
        if not isinstance(obj[key], list) or len(obj[key]) != n:
            raise _bad(f"{key!r} must be a list of {n} card lists (one per seat), got {_show(obj[key])}")
    hands = [_cards(h, f"hands[{p}]") for p, h in enumerate(obj["hands"])]
    known = [_cards(k, f"known[{p}]") for p, k in enumerate(obj["known"])]
    return hands, known, _cards(obj["pile"], "'pile'"), _cards(obj["discard"], "'discard'")


def _check_every_card_once(hands: list[list[int]], pile: list[int], discard: list[int]) -> None:
    """Each of the 52 cards is in exactly one hand or pile."""
    seen: dict[int, str] = {}
    dups = []
    places = [(f"hands[{p}]", h) for p, h in enumerate(hands)] + [("pile", pile), ("discard", discard)]
    for where, cards in places:
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


def _current(obj: dict[str, Any], phase: int, n: int) -> int:
    """The seat to move: a seat while the game runs, null (``-1``) when it is over."""
    if phase == OVER:
        if obj["current"] is not None:
            raise _bad(f"'current' must be null when the phase is 'over', got {_show(obj['current'])}")
        return -1
    return _int(obj, "current", 0, n - 1)


def _check_hand_sizes(hands: list[list[int]], phase: int, current: int, hs: int) -> None:
    """Every seat holds ``hand_size`` cards, the seat to throw one more."""
    for p, h in enumerate(hands):
        want = hs + 1 if phase == THROW and p == current else hs
        if len(h) != want:
            why = (
                "the seat to throw holds hand_size + 1"
                if want == hs + 1
                else f"seats hold hand_size={hs} cards in phase {PHASE_NAMES[phase]!r}"
                + (" except the seat to throw" if phase == THROW else "")
            )
            raise _bad(f"hands[{p}] has {len(h)} cards, expected {want} ({why})")


def _check_known(known: list[list[int]], hands: list[list[int]]) -> None:
    """Each seat's known cards are distinct cards of its own hand."""
    for p, k in enumerate(known):
        if len(set(k)) != len(k):
            raise _bad(f"known[{p}] repeats a card")
        out = [card_str(c) for c in k if c not in hands[p]]
        if out:
            raise _bad(f"known[{p}] must be cards seat {p} holds; not in hands[{p}]: {' '.join(out)}")


def _taken(
    obj: dict[str, Any], phase: int, current: int, hands: list[list[int]], known: list[list[int]]
) -> int:
    """The card just taken (``-1`` = none): only in the throw phase, held and known by the mover."""
    taken_t = obj["taken"]
    if taken_t is None:
        return -1
    if phase != THROW:
        why = "only the throw phase has a taken card"
        raise _bad(f"'taken' must be null in phase {PHASE_NAMES[phase]!r} ({why})")
    taken = _card(taken_t, "'taken'")
    if taken not in hands[current]:
        raise _bad(f"'taken' {taken_t} is not in the hand of current seat {current}")
    if taken not in known[current]:
        raise _bad(f"'taken' {taken_t} must also be in known[{current}] (everyone saw it taken)")
    return taken


def _run_outs(obj: dict[str, Any], phase: int, limit: int | None, cap: int) -> int:
    """Run-outs this round: below the limit while the round runs (at most it when over);
    with no limit at most one per turn, so below the turn cap (at most it when over)."""
    over = phase == OVER
    if limit is None:
        why = f"with no run_out_limit at most one per turn, and a round has at most {cap} turns"
        return _int(obj, "run_outs", 0, cap if over else cap - 1, why)
    why = f"run_out_limit={limit} ends the round at {limit}"
    return _int(obj, "run_outs", 0, limit if over else limit - 1, why)


def _finish(obj: dict[str, Any], phase: int, current: int, n: int) -> tuple[int, list[int]]:
    """``(finished_by or -1, last_turns_left)``: the seats after the finisher, in order."""
    fin = obj["finished_by"]
    fin = -1 if fin is None else _int(obj, "finished_by", 0, n - 1)
    last = obj["last_turns_left"]
    if not isinstance(last, list) or not all(_is_int(s) for s in last):
        raise _bad(f"'last_turns_left' must be a list of seats, got {_show(last)}")
    last = [int(s) for s in last]
    if fin < 0:
        if last:
            raise _bad("'last_turns_left' must be empty while nobody has finished ('finished_by' is null)")
        return fin, last
    order = [(fin + k) % n for k in range(1, n)]
    if last != order[len(order) - len(last) :]:
        raise _bad(
            f"'last_turns_left' must be the seats after the finisher in seat order, the "
            f"seat in its last turn first (a tail of {order}), got {_show(last)}"
        )
    if phase != OVER:
        if not last:
            raise _bad(
                "'last_turns_left' is empty but the round goes on; after the last turns the round is judged"
            )
        if current != last[0]:
            raise _bad(f"seat {last[0]} has the next last turn but 'current' is {current}")
    return fin, last


def _scores(obj: dict[str, Any], phase: int, n: int, rtw: int) -> list[int]:
    """Rounds won per seat: below ``rounds_to_win`` while the game runs, the best at it when over."""
    scores = obj["scores"]
    if not isinstance(scores, list) or len(scores) != n or not all(_is_int(x) and x >= 0 for x in scores):
        raise _bad(f"'scores' must be a list of {n} ints >= 0, got {_show(scores)}")
    scores = [int(x) for x in scores]
    if phase == OVER:
        if max(scores) != rtw:
            why = f"the game is over, so the best score must be rounds_to_win={rtw}"
            raise _bad(f"{why}, got {_show(scores)}")
    elif max(scores) >= rtw:
        raise _bad(f"scores must stay below rounds_to_win={rtw} while the game runs, got {_show(scores)}")
    return scores


def _round(obj: dict[str, Any], phase: int, scores: list[int], rtw: int) -> int:
    """The round number (1 when not given): no more rounds than the scores allow, since
    every completed round gave at least one seat a point (see the module docstring)."""
    if "round" not in obj:
        return 1
    if phase == OVER:
        hi = sum(scores) - scores.count(rtw) + 1
        why = "every completed round gave a point, and the seats at rounds_to_win all won the last one"
    else:
        hi = sum(scores) + 1
        why = "every completed round gave at least one point"
    rnd = obj["round"]
    if not _is_int(rnd):
        raise _bad(f"'round' must be an int, got {_show(rnd)}")
    if not 1 <= rnd <= hi:
        raise _bad(f"'round' must be in 1..{hi} with scores {scores} ({why}), got {_show(rnd)}")
    return int(rnd)


def _turn(obj: dict[str, Any], phase: int, run_outs: int, cap: int) -> int:
    """Turns completed this round: below the cap while the round runs, at most it when
    over, and at least ``run_outs`` (a run-out ends a turn).  When absent it reads as
    ``run_outs``, the fewest turns consistent with the position, under the same bounds."""
    hi = cap if phase == OVER else cap - 1
    why = f"max_turns_per_round={cap} judges the round after {cap} turns"
    if "turn" not in obj:
        if run_outs > hi:
            raise _bad(f"'run_outs' is {run_outs}, but each run-out ends a turn and {why} "
                       f"(at most {hi} completed turns here)")
        return run_outs
    turn = _int(obj, "turn", 0, hi, why)
    if run_outs > turn:
        raise _bad(f"'run_outs' is {run_outs} but only {turn} turns were completed; each run-out ends a turn")
    return turn
