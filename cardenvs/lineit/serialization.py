"""Line-it's text forms: the position JSON (read and validated) and the move notation.

:func:`from_json` reads a position in small steps, each checking one thing and saying
what is wrong with an :class:`~cardenvs.core.game.InvalidStateError`: the keys, the
piles, that every card is in exactly one place, the piles' own rules (jackpot colours,
hand limit, one Bet and one direction per line, tokens of settled Bets), then the turn
bookkeeping and what the phase needs.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from cardenvs.core.game import InvalidStateError, NotationError, json_object

from .state import (
    A_PASS,
    A_SCORE,
    ACTIONS,
    BET_COPIES,
    BET_KINDS,
    COLOUR_KEYS,
    DECK,
    HAND_LIMIT,
    K_PLAY,
    K_SCORE,
    NUM_ACTIONS,
    NUM_NUMBERS,
    OVER,
    PHASES,
    PICK,
    PICK_MODES,
    PLAY,
    SCORE,
    TOKEN_VALUES,
    State,
    action_id,
    bet_value,
    card_text,
    colour_of,
    market_size,
)

#: the keys of a position, in the documented order
KEYS = ("game", "num_players", "deck", "market", "lines", "hands", "jackpots", "scored", "tokens",
        "discarded", "first", "current", "phase", "picks_left", "played_hand")
_BET_TEXT = {card_text(b): b for b in BET_KINDS}
_CARD_WORDS = "ints 1..100 or 'B3', 'B4', 'B5'"
_MOVE_FORMS = ("the moves are 'pick <card> line|hand|new', 'play <card>', 'score', 'pass' "
               "with <card> a number 1..100 or B3, B4, B5")


# ----------------------------------------------------------------------------- notation
def parse_card(text: str) -> int:
    """Card of notation text (``57``, ``B4``); :class:`NotationError` when malformed."""
    t = text.strip().upper()
    if t in _BET_TEXT:
        return _BET_TEXT[t]
    if t.isdigit() and not (len(t) > 1 and t[0] == "0"):
        v = int(t)
        if 1 <= v <= NUM_NUMBERS:
            return v
    raise NotationError(f"{text!r} is not a Line-it card: write a number 1..100 or B3, B4, B5")


def action_to_str(action: int) -> str:
    """Move text of an id: ``pick 57 line``, ``play B4``, ``score``, ``pass``."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise NotationError(f"action {a} is out of range 0..{NUM_ACTIONS - 1}")
    kind, c = ACTIONS[a]
    if kind < K_PLAY:
        return f"pick {card_text(c)} {PICK_MODES[kind]}"
    if kind == K_PLAY:
        return f"play {card_text(c)}"
    return "score" if kind == K_SCORE else "pass"


def str_to_action(text: str) -> int:
    """Id of move text in the game's notation; :class:`NotationError` when malformed."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be text; {_MOVE_FORMS}")
    w = text.strip().lower().split()
    if w == ["score"]:
        return A_SCORE
    if w == ["pass"]:
        return A_PASS
    try:
        if len(w) == 3 and w[0] == "pick" and w[2] in PICK_MODES:
            return action_id(PICK_MODES.index(w[2]), parse_card(w[1]))
        if len(w) == 2 and w[0] == "play":
            return action_id(K_PLAY, parse_card(w[1]))
    except NotationError as e:
        raise NotationError(f"{text!r}: {e}; {_MOVE_FORMS}") from None
    raise NotationError(f"{text!r} is not a Line-it move; {_MOVE_FORMS}")


# ------------------------------------------------------------------------------ to JSON
def _jcard(c: int) -> int | str:
    """A card as JSON: the number, or ``"B3"``/``"B4"``/``"B5"``."""
    return card_text(c) if c > NUM_NUMBERS else c


def to_json(state: State) -> dict[str, Any]:
    """The state in the position format (docs/rules/)."""
    st = state
    return {
        "game": "lineit", "num_players": st.n,
        "deck": [_jcard(c) for c in st.deck],
        "market": [_jcard(c) for c in st.market],
        "lines": [[_jcard(c) for c in x] for x in st.lines],
        "hands": [[_jcard(c) for c in x] for x in st.hands],
        "jackpots": {k: list(st.jackpots[i]) for i, k in enumerate(COLOUR_KEYS)},
        "scored": [list(x) for x in st.scored],
        "tokens": [list(x) for x in st.tokens],
        "discarded": [_jcard(c) for c in st.discarded],
        "first": st.first,
        "current": None if st.phase == OVER else st.current,
        "phase": PHASES[st.phase], "picks_left": st.picks_left,
        "played_hand": st.played_hand,
    }


# ---------------------------------------------------------------------------- from JSON
class Piles(NamedTuple):
    """The card piles of a position, read from JSON (seats absolute)."""

    deck: list[int]
    market: list[int]
    lines: list[list[int]]
    hands: list[list[int]]
    jackpots: list[list[int]]
    scored: list[list[int]]
    tokens: list[list[int]]
    discarded: list[int]


class Turn(NamedTuple):
    """The turn bookkeeping of a position, read from JSON (``current`` -1 when over)."""

    first: int
    current: int
    phase: int
    picks_left: int
    played_hand: bool


def from_json(obj: Any, n: int) -> State:
    """Read and validate a position for ``n`` seats (a dict or JSON text).

    :class:`InvalidStateError` says what is wrong; checks run in the order of the
    module docstring, so the first problem found is the one reported.
    """
    obj = json_object(obj)
    _check_keys(obj)
    _check_header(obj, n)
    piles = _read_piles(obj, n)
    _check_each_card_once(piles)
    _check_jackpot_colours(piles.jackpots)
    for s in range(n):
        _check_seat(piles, s)
    _check_tokens_settled(piles)
    turn = _read_turn(obj, n)
    if turn.phase == OVER:
        _check_over(obj, piles)
    else:
        _check_turn(obj, turn, n)
    st = State.build(n, *piles, *turn)
    _check_phase(st, turn)
    return st


def _is_int(x: Any) -> bool:
    """Whether ``x`` is a JSON integer (not a bool)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _check_keys(obj: dict[str, Any]) -> None:
    """Every key of the schema is there, and no other."""
    missing = [k for k in KEYS if k not in obj]
    if missing:
        raise InvalidStateError(f"missing key(s): {', '.join(missing)}")
    extra = sorted(set(obj) - set(KEYS), key=str)
    if extra:
        raise InvalidStateError(
            f"unknown key(s): {', '.join(map(str, extra))}; the keys are {', '.join(KEYS)}"
        )


def _check_header(obj: dict[str, Any], n: int) -> None:
    """The position is a Line-it one for this game's seat count."""
    if obj["game"] != "lineit":
        raise InvalidStateError(f"game must be 'lineit', got {obj['game']!r}")
    if not _is_int(obj["num_players"]) or obj["num_players"] != n:
        raise InvalidStateError(
            f"num_players must be {n} (this game's seat count), got {obj['num_players']!r}"
        )


def _card(x: Any, where: str) -> int:
    """Card of a JSON item (int 1..100 or "B3"/"B4"/"B5")."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 1 <= int(x) <= NUM_NUMBERS:
        return int(x)
    if isinstance(x, str) and x in _BET_TEXT:
        return _BET_TEXT[x]
    raise InvalidStateError(f"{where}: {x!r} is not a card ({_CARD_WORDS})")


def _cards(x: Any, where: str) -> list[int]:
    """A JSON list of cards."""
    if not isinstance(x, list):
        raise InvalidStateError(f"{where} must be a list of cards, got {x!r}")
    return [_card(c, where) for c in x]


def _per_seat(x: Any, where: str, n: int) -> list[Any]:
    """A JSON list with one entry per seat."""
    if not isinstance(x, list) or len(x) != n:
        raise InvalidStateError(f"{where} must be a list of {n} lists (one per seat), got {x!r}")
    return x


def _seat_cards(obj: dict[str, Any], key: str, n: int) -> list[list[int]]:
    """One list of cards per seat under ``key``."""
    return [_cards(x, f"{key}[{s}]") for s, x in enumerate(_per_seat(obj[key], key, n))]


def _jackpots(jp: Any) -> list[list[int]]:
    """The four jackpots, in colour order."""
    if not isinstance(jp, dict) or set(jp) != set(COLOUR_KEYS):
        raise InvalidStateError(
            f"jackpots must be an object with exactly the keys {', '.join(COLOUR_KEYS)}, got {jp!r}")
    return [_cards(jp[k], f"jackpots.{k}") for k in COLOUR_KEYS]


def _tokens(x: Any, n: int) -> list[list[int]]:
    """Each seat's bet tokens."""
    out = []
    for s, t in enumerate(_per_seat(x, "tokens", n)):
        if not isinstance(t, list) or any(not _is_int(v) or v not in TOKEN_VALUES for v in t):
            raise InvalidStateError(
                f"tokens[{s}] must be a list of bet tokens ({', '.join(map(str, TOKEN_VALUES))}), got {t!r}"
            )
        out.append(list(t))
    return out


def _read_piles(obj: dict[str, Any], n: int) -> Piles:
    """Every pile of the position, each checked to be a list of cards (or tokens)."""
    deck = _cards(obj["deck"], "deck")
    market = _cards(obj["market"], "market")
    lines = _seat_cards(obj, "lines", n)
    hands = _seat_cards(obj, "hands", n)
    scored = _seat_cards(obj, "scored", n)
    discarded = _cards(obj["discarded"], "discarded")
    jackpots = _jackpots(obj["jackpots"])
    tokens = _tokens(obj["tokens"], n)
    return Piles(deck, market, lines, hands, jackpots, scored, tokens, discarded)


def _check_each_card_once(p: Piles) -> None:
    """Every number card is in exactly one place, and both copies of each Bet."""
    count: dict[int, int] = {}
    for pile in (p.deck, p.market, p.discarded, *p.lines, *p.hands, *p.jackpots, *p.scored):
        for c in pile:
            count[c] = count.get(c, 0) + 1
    problems = [f"card {c} appears {count.get(c, 0)} times"
                for c in range(1, NUM_NUMBERS + 1) if count.get(c, 0) != 1]
    problems += [f"{card_text(b)} appears {count.get(b, 0)} times (there are {BET_COPIES} copies)"
                 for b in BET_KINDS if count.get(b, 0) != BET_COPIES]
    if problems:
        shown = "; ".join(problems[:6]) + (" ..." if len(problems) > 6 else "")
        raise InvalidStateError(f"each of the {len(DECK)} cards must be in exactly one place: {shown}")


def _check_jackpot_colours(jackpots: list[list[int]]) -> None:
    """Each jackpot holds number cards of its own colour only."""
    for k, pile in enumerate(jackpots):
        for c in pile:
            if c > NUM_NUMBERS or colour_of(c) != k:
                raise InvalidStateError(f"jackpots.{COLOUR_KEYS[k]} holds {card_text(c)}, which is not "
                                        f"a {COLOUR_KEYS[k]} number card")


def _check_seat(p: Piles, s: int) -> None:
    """Seat ``s``'s piles: no Bet scored, the hand limit, one Bet and one direction per line."""
    if any(c > NUM_NUMBERS for c in p.scored[s]):
        raise InvalidStateError(f"scored[{s}] holds a Bet card; Bets are discarded when settled")
    if len(p.hands[s]) > HAND_LIMIT:
        raise InvalidStateError(f"hands[{s}] holds {len(p.hands[s])} cards; the hand limit is {HAND_LIMIT}")
    line = p.lines[s]
    if sum(c > NUM_NUMBERS for c in line) > 1:
        raise InvalidStateError(f"lines[{s}] holds more than one Bet card")
    nums = [c for c in line if c <= NUM_NUMBERS]
    if len(nums) >= 2:
        up = nums[1] > nums[0]
        for a, b in zip(nums[1:], nums[2:]):
            if (b > a) != up:
                raise InvalidStateError(f"lines[{s}]: {b} after {a} breaks the line's "
                                        f"{'ascending' if up else 'descending'} direction")


def _check_tokens_settled(p: Piles) -> None:
    """Each token comes from a settled Bet, which lies in the discard."""
    for b in BET_KINDS:
        v = bet_value(b)
        used = sum(abs(t) == v for ts in p.tokens for t in ts)
        inbin = p.discarded.count(b)
        if used > inbin:
            raise InvalidStateError(f"{used} token(s) of value {v} but only {inbin} {card_text(b)} in the "
                                    f"discard: each settled Bet is discarded")


def _read_turn(obj: dict[str, Any], n: int) -> Turn:
    """``first``, ``phase``, ``played_hand`` and ``picks_left``, each of the right type."""
    first, phase, picks, played = obj["first"], obj["phase"], obj["picks_left"], obj["played_hand"]
    if not _is_int(first) or not 0 <= first < n:
        raise InvalidStateError(f"first must be a seat 0..{n - 1}, got {first!r}")
    if phase not in PHASES:
        raise InvalidStateError(f"phase must be one of {', '.join(PHASES)}, got {phase!r}")
    if not isinstance(played, bool):
        raise InvalidStateError(f"played_hand must be true or false, got {played!r}")
    if not _is_int(picks):
        raise InvalidStateError(f"picks_left must be an int, got {picks!r}")
    current = obj["current"] if PHASES.index(phase) != OVER else -1
    return Turn(first, current, PHASES.index(phase), picks, played)


def _check_over(obj: dict[str, Any], p: Piles) -> None:
    """A finished game: no player to move, nothing left to act, every line scored."""
    if obj["current"] is not None:
        raise InvalidStateError(f"current must be null when the phase is over, got {obj['current']!r}")
    if obj["picks_left"] != 0 or obj["played_hand"]:
        raise InvalidStateError("phase over needs picks_left 0 and played_hand false")
    if p.deck or p.market or any(p.lines):
        raise InvalidStateError("phase over needs an empty deck, an empty market and every line "
                                "empty (every line is scored at the end)")


def _check_turn(obj: dict[str, Any], t: Turn, n: int) -> None:
    """A running game: ``current`` is the seat ``first`` and ``picks_left`` make."""
    cur = obj["current"]
    if not _is_int(cur) or not 0 <= cur < n:
        raise InvalidStateError(f"current must be a seat 0..{n - 1} (null only when over), got {cur!r}")
    if not 1 <= t.picks_left <= n:
        raise InvalidStateError(f"picks_left must be 1..{n} in phase {PHASES[t.phase]}, got {t.picks_left}")
    want = (t.first + n - t.picks_left) % n
    if cur != want:
        raise InvalidStateError(f"current is {cur} but first {t.first} with picks_left {t.picks_left} makes "
                                f"seat {want} the player to move")
    if t.played_hand and t.phase != SCORE:
        raise InvalidStateError("played_hand can be true only in phase score (a hand card was played "
                                "this turn)")


def _check_phase(st: State, t: Turn) -> None:
    """What the phase needs: the market size, and no step that would offer only pass."""
    cur, picks, name = t.current, t.picks_left, PHASES[t.phase]
    if t.phase == PICK:
        want = market_size(st.n) - (st.n - picks)  # one card taken per pick so far
        if len(st.market) != want:
            raise InvalidStateError(
                f"phase pick with picks_left {picks} needs {want} market cards "
                f"(num_players + 2 revealed, one taken per pick), got {len(st.market)}")
    elif t.phase in (PLAY, SCORE):
        want = market_size(st.n) - (st.n - picks) - 1  # and the current player's
        if len(st.market) != want:
            raise InvalidStateError(f"phase {name} with picks_left {picks} needs {want} market "
                                    f"cards (the current player has picked), got {len(st.market)}")
        if t.phase == PLAY and not st.hand_fits(cur):
            raise InvalidStateError(f"phase play but no card of hands[{cur}] fits lines[{cur}]: that "
                                    f"step offers only pass and is skipped")
        if t.phase == SCORE and not st.lines[cur]:
            raise InvalidStateError(f"phase score but lines[{cur}] is empty: that step offers only pass "
                                    f"and is skipped")
    elif t.phase != OVER:  # final
        if st.deck or st.market:
            raise InvalidStateError("phase final needs an empty deck and market (they go away when the "
                                    "final phase starts)")
        if not st.hand_fits(cur):
            raise InvalidStateError(f"phase final but no card of hands[{cur}] fits lines[{cur}]: that "
                                    f"player could only pass and is skipped")
