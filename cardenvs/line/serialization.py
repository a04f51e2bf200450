"""Line's text forms: the position JSON (read and validated) and the move notation.

:func:`from_json` reads a position in small steps, each a validator that checks one
thing and raises :class:`~cardenvs.core.game.InvalidStateError` with a message that
says what is wrong; the legality questions a position raises (can the pending card go
down, was the drawing player forced, can the player to move move) go to the rules.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from cardenvs.core.cards import card_str, parse_card
from cardenvs.core.game import InvalidStateError, NotationError, json_object

from .rows import finishable_cards
from .state import (
    ACTION_INFO,
    DISCARD,
    DISCARD_BASE,
    DRAW_ID,
    GRID_SIZE,
    HAND_LIMIT,
    JOKER,
    K_DISCARD,
    K_DRAW,
    K_PLAY,
    K_SHIFT,
    K_TAKE,
    NUM_ACTIONS,
    NUM_ROWS,
    OTHER_ROWS,
    OVER,
    PAIR_INDEX,
    PHASE_INDEX,
    PHASES,
    PLACE_DRAWN,
    PLAY_BASE,
    ROW_LEN,
    SHIFT_BASE,
    TAKE_BASE,
    TURN,
    UPGRADE_BASE,
    LineState,
)

if TYPE_CHECKING:
    from .rules import LineGame

__all__ = ["ACTION_TEXT", "FORMS", "KEYS", "action_to_str", "from_json", "str_to_action", "to_json"]

# ------------------------------------------------------------------------- notation


def _action_text(kind: int, c: int, r: int, x: int) -> str:
    """The canonical text of an action from its :data:`ACTION_INFO` entry."""
    if kind == K_PLAY:
        return f"play {card_str(c)} r{r + 1}"
    if kind == K_SHIFT:
        return f"shift {card_str(c)} r{r + 1} out {card_str(x)}"
    if kind == K_TAKE:
        return f"take r{r + 1}"
    if kind == K_DRAW:
        return "draw"
    if kind == K_DISCARD:
        return f"discard {card_str(c)}"
    where = f"r{x + 1}" if x >= 0 else "hand"
    return f"upgrade {card_str(c)} r{r + 1} joker {where}"


#: the canonical text of every action id
ACTION_TEXT: tuple[str, ...] = tuple(_action_text(*info) for info in ACTION_INFO)

_ROW = r"r\s*([1-4])"
_CARD = r"(\S+)"
_PATTERNS = [
    ("play", re.compile(rf"^play\s+{_CARD}\s+{_ROW}$", re.I)),
    ("upgrade", re.compile(rf"^upgrade\s+{_CARD}\s+{_ROW}\s+joker\s+(?:{_ROW}|(hand))$", re.I)),
    ("shift", re.compile(rf"^shift\s+{_CARD}\s+{_ROW}\s+out\s+{_CARD}$", re.I)),
    ("take", re.compile(rf"^take\s+{_ROW}$", re.I)),
    ("draw", re.compile(r"^draw$", re.I)),
    ("discard", re.compile(rf"^discard\s+{_CARD}$", re.I)),
]
#: the move forms, for error messages
FORMS = (
    "'play 7s r2', 'upgrade 5s r1 joker r3', 'upgrade 5s r1 joker hand', "
    "'shift 9s r2 out 5s', 'take r4', 'draw', 'discard Kd' (rows r1..r4, cards like "
    "7s Th 10h Ac, X for the joker)"
)


def action_to_str(action: int) -> str:
    """Move text of an action id (``NotationError`` if out of range)."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise NotationError(f"action id {a} is out of range 0..{NUM_ACTIONS - 1}")
    return ACTION_TEXT[a]


def str_to_action(text: str) -> int:
    """Action id of move text in the game's notation (``NotationError`` if malformed)."""
    if not isinstance(text, str):
        raise NotationError(f"a move must be a string, got {text!r}; the forms are {FORMS}")
    t = " ".join(text.split())
    for kind, pat in _PATTERNS:
        m = pat.match(t)
        if m:
            return _parse(kind, m, text)
    raise NotationError(f"cannot read move {text!r}; the forms are {FORMS}")


def _move_card(tok: str, text: str) -> int:
    """A card of a move (``NotationError`` naming the move if it is not one)."""
    try:
        return parse_card(tok, allow_joker=True)
    except ValueError as e:
        raise NotationError(f"in move {text!r}: {e}") from None


def _parse(kind: str, m: re.Match[str], text: str) -> int:
    """The id of a move whose form ``kind`` matched as ``m``."""
    if kind == "draw":
        return DRAW_ID
    if kind == "take":
        return TAKE_BASE + int(m.group(1)) - 1
    c = _move_card(m.group(1), text)
    if kind == "discard":
        return DISCARD_BASE + c
    r = int(m.group(2)) - 1
    if kind == "play":
        return PLAY_BASE + c * 4 + r
    if kind == "upgrade":
        return _parse_upgrade(m, text, c, r)
    o = _move_card(m.group(3), text)
    pidx = PAIR_INDEX.get((c, o))
    if pidx is None:
        raise NotationError(
            f"in move {text!r}: a shift plays one card and pushes out another of the same "
            "suit, or one of the two is a joker (X)"
        )
    return SHIFT_BASE + pidx * 4 + r


def _parse_upgrade(m: re.Match[str], text: str, c: int, r: int) -> int:
    """The id of an upgrade of row ``r`` by card ``c`` (the destination from ``m``)."""
    if c == JOKER:
        raise NotationError(f"in move {text!r}: an upgrade puts a real card in place of the joker, not X")
    if m.group(4):
        slot = 3
    else:
        dest = int(m.group(3)) - 1
        if dest == r:
            raise NotationError(f"in move {text!r}: the freed joker goes to ANOTHER row or 'hand'")
        slot = OTHER_ROWS[r].index(dest)
    return UPGRADE_BASE + (c * 4 + r) * 4 + slot


# ----------------------------------------------------------------------------- JSON

#: the keys of the position format (docs/rules/) (``known_jokers`` is an optional extra)
KEYS = ("game", "num_players", "rows", "hands", "draw_pile", "discard", "current",
        "bonus_turn", "phase", "pending", "options")


def to_json(game: LineGame, state: LineState) -> dict[str, Any]:
    """The state in the position format (docs/rules/) (plus ``known_jokers`` when any are known)."""
    s = state
    out: dict[str, Any] = {
        "game": game.name,
        "num_players": game.num_players,
        "rows": [[card_str(c) for c in row] for row in s.rows],
        "hands": [[card_str(c) for c in h] for h in s.hands],
        "draw_pile": [card_str(c) for c in reversed(s.draw)],
        "discard": [card_str(c) for c in s.discard],
        "current": s.current,
        "bonus_turn": s.bonus,
        "phase": PHASES[s.phase],
        "pending": None if s.pending is None else card_str(s.pending),
        "options": {"joker_points": game.joker_points},
    }
    if any(s.known):  # optional key of this project's format: jokers seen going into hands
        out["known_jokers"] = list(s.known)
    return out


def from_json(game: LineGame, obj: Any) -> LineState:
    """Read and validate a position (a dict or JSON text).

    The optional key ``known_jokers`` (an extra of this project's format; written by
    :func:`to_json` only when some are known) lists per seat the jokers every player
    saw go into that hand by an upgrade; absent, none are known.  Raises
    :class:`InvalidStateError` for anything that breaks the schema or the rules.
    """
    obj = json_object(obj)
    _check_keys(obj)
    _check_table(game, obj)
    s = LineState()
    s.rows = _read_rows(obj["rows"])
    _read_piles(game, obj, s)
    _check_deck(s)
    for r, row in enumerate(s.rows):
        for c in row:
            s.row_key[r] |= 1 << c
    _read_turn(game, obj, s)
    s.known = _read_known(obj, s.hands)
    _check_hand_sizes(s)
    _check_pending(game, s)
    if s.phase in (PLACE_DRAWN, DISCARD):
        _check_drawn(game, s)
    _check_end(game, s)
    return s


def _bad(msg: str) -> InvalidStateError:
    """The error for a refused position."""
    return InvalidStateError(f"invalid line state: {msg}")


def _is_int(x: Any) -> bool:
    """Whether ``x`` is a JSON integer (not a boolean)."""
    return isinstance(x, int) and not isinstance(x, bool)


def _check_keys(obj: dict[str, Any]) -> None:
    """Exactly the schema's keys (and optionally ``known_jokers``)."""
    missing = [k for k in KEYS if k not in obj]
    if missing:
        raise _bad(f"missing key(s) {', '.join(missing)}; the keys are {', '.join(KEYS)}")
    extra = sorted(set(obj) - set(KEYS) - {"known_jokers"})
    if extra:
        raise _bad(f"unknown key(s) {', '.join(map(str, extra))}; the keys are {', '.join(KEYS)}")


def _check_table(game: LineGame, obj: dict[str, Any]) -> None:
    """The position is of this game, seat count and options."""
    if obj["game"] != game.name:
        raise _bad(f"game is {obj['game']!r}, expected 'line'")
    n = obj["num_players"]
    if not _is_int(n) or n != game.num_players:
        raise _bad(f"num_players is {n!r} but this game is set up for {game.num_players} players")
    opts = obj["options"]
    if not isinstance(opts, dict):
        raise _bad("options must be an object like {\"joker_points\": 25}")
    unknown = sorted(set(opts) - set(game.OPTIONS))
    if unknown:
        raise _bad(f"unknown option(s) {', '.join(map(str, unknown))}; the options are joker_points")
    for k, v in opts.items():
        if not game.OPTIONS[k].accepts(v):
            raise _bad(f"option {k}={v!r} is not allowed; allowed: {game.OPTIONS[k].allowed_text()}")
        if v != game.options[k]:
            raise _bad(f"option {k}={v!r} differs from this game's {k}={game.options[k]!r}")


def _cards(lst: Any, where: str) -> list[int]:
    """A list of card texts as card ints."""
    if not isinstance(lst, list):
        raise _bad(f"{where} must be a list of cards")
    out = []
    for t in lst:
        try:
            out.append(parse_card(t, allow_joker=True))
        except ValueError as e:
            raise _bad(f"{where}: {e}") from None
    return out


def _read_rows(rows_in: Any) -> list[list[int]]:
    """The four rows, each at most 4 cards, one joker, finishable."""
    if not isinstance(rows_in, list) or len(rows_in) != NUM_ROWS:
        raise _bad("rows must be a list of 4 rows")
    rows = []
    for r, raw in enumerate(rows_in):
        row = _cards(raw, f"row {r + 1}")
        if len(row) > ROW_LEN:
            raise _bad(f"row {r + 1} holds {len(row)} cards; a row has 4 squares")
        if row.count(JOKER) > 1:
            raise _bad(f"row {r + 1} holds {row.count(JOKER)} jokers; at most one joker per row")
        reals = [c for c in row if c != JOKER]
        if len(set(reals)) == len(reals) and not finishable_cards(reals):
            shown = " ".join(map(card_str, row))
            raise _bad(f"row {r + 1} ({shown}) can never be finished as a run or a set")
        rows.append(row)
    return rows


def _read_piles(game: LineGame, obj: dict[str, Any], s: LineState) -> None:
    """The hands (one per seat), the draw pile, the discard pile and the pending card."""
    n = game.num_players
    hands_in = obj["hands"]
    if not isinstance(hands_in, list) or len(hands_in) != n:
        raise _bad(f"hands must be a list of {n} hands (one per player)")
    s.hands = [_cards(h, f"hand of player_{p}") for p, h in enumerate(hands_in)]
    s.draw = _cards(obj["draw_pile"], "draw_pile")[::-1]
    s.discard = _cards(obj["discard"], "discard")
    if obj["pending"] is not None:
        s.pending = _cards([obj["pending"]], "pending")[0]


def _check_deck(s: LineState) -> None:
    """Every one of the 56 cards exactly once (the four jokers four times)."""
    counts = [0] * 53
    for lst in [*s.rows, *s.hands, s.draw, s.discard, [] if s.pending is None else [s.pending]]:
        for c in lst:
            counts[c] += 1
    twice = [card_str(c) for c in range(52) if counts[c] > 1]
    if twice:
        raise _bad(f"card(s) {' '.join(twice)} appear more than once")
    if counts[JOKER] != 4:
        raise _bad(f"there are {counts[JOKER]} jokers; the deck has exactly 4")
    absent = [card_str(c) for c in range(52) if counts[c] == 0]
    if absent:
        raise _bad(f"card(s) {' '.join(absent)} are missing (all 56 cards must be somewhere)")


def _read_turn(game: LineGame, obj: dict[str, Any], s: LineState) -> None:
    """The seat to move, the bonus flag and the phase."""
    n = game.num_players
    cur = obj["current"]
    if not _is_int(cur) or not 0 <= cur < n:
        raise _bad(f"current must be a seat 0..{n - 1}, got {cur!r}")
    s.current = cur
    bonus = obj["bonus_turn"]
    if not isinstance(bonus, bool):
        raise _bad(f"bonus_turn must be true or false, got {bonus!r}")
    s.bonus = bonus
    phase = obj["phase"]
    if not isinstance(phase, str) or phase not in PHASE_INDEX:
        raise _bad(f"phase {phase!r} is not one of {', '.join(PHASES)}")
    s.phase = PHASE_INDEX[phase]


def _read_known(obj: dict[str, Any], hands: list[list[int]]) -> list[int]:
    """The optional ``known_jokers``: per seat, at most the jokers of that hand."""
    n = len(hands)
    if "known_jokers" not in obj:
        return [0] * n
    kj = obj["known_jokers"]
    if not isinstance(kj, list) or len(kj) != n or any(not _is_int(k) or k < 0 for k in kj):
        raise _bad(f"known_jokers must be a list of {n} non-negative ints, got {kj!r}")
    for p, k in enumerate(kj):
        if k > hands[p].count(JOKER):
            raise _bad(f"known_jokers says player_{p} holds {k} known joker(s) but their "
                       f"hand has {hands[p].count(JOKER)}")
    return list(kj)


def _check_hand_sizes(s: LineState) -> None:
    """Hands hold at most 7 cards, 8 only for the player to discard."""
    for p, h in enumerate(s.hands):
        limit = HAND_LIMIT + 1 if (p == s.current and s.phase == DISCARD) else HAND_LIMIT
        if len(h) > limit:
            raise _bad(f"player_{p} holds {len(h)} cards; hands hold at most 7 (8 only for "
                       "the player to discard)")


def _check_pending(game: LineGame, s: LineState) -> None:
    """A pending card exactly in phase place_drawn, playable; 8 cards in phase discard."""
    if s.phase == PLACE_DRAWN:
        if s.pending is None:
            raise _bad("phase place_drawn needs the drawn card in 'pending'")
        if not game.playable_rows(s, s.pending):
            raise _bad(f"pending {card_str(s.pending)} cannot be played into any row, so it "
                       "could not be a drawn card that must go down")
    elif s.pending is not None:
        raise _bad(f"pending is set but phase is {PHASES[s.phase]!r}; a pending card needs phase place_drawn")
    cur = s.current
    if s.phase == DISCARD and len(s.hands[cur]) != HAND_LIMIT + 1:
        raise _bad(f"phase discard needs player_{cur} to hold 8 cards, not {len(s.hands[cur])}")


def _check_drawn(game: LineGame, s: LineState) -> None:
    """A drawing player was forced: refuse place_drawn/discard positions where not."""
    cur = s.current
    probe = s.copy()
    probe.phase = TURN
    probe.pending = None
    hand = s.hands[cur]
    if s.phase == PLACE_DRAWN:
        if game.turn_moves(probe):
            raise _bad(f"phase place_drawn but player_{cur} could play, upgrade or shift, "
                       "so they could not have drawn")
        return
    for d in set(hand):
        if game.playable_rows(s, d):
            continue
        rest = list(hand)
        rest.remove(d)
        probe.hands[cur] = rest
        if not game.turn_moves(probe):
            return
    raise _bad(f"phase discard but no card of player_{cur}'s hand can be an unplayable "
               "drawn card of a forced player")


def _check_end(game: LineGame, s: LineState) -> None:
    """Phase over exactly when the grid is full or the player to move is stuck."""
    grid = sum(len(row) for row in s.rows)
    cur = s.current
    if s.phase == OVER:
        if grid < GRID_SIZE:
            probe = s.copy()
            probe.phase = TURN
            probe.legal = None
            if game.legal_actions(probe):
                raise _bad(f"phase is over but the grid is not full and player_{cur} can still move")
        return
    if grid == GRID_SIZE:
        raise _bad(f"the grid is full, so the game is over, but phase is {PHASES[s.phase]!r}")
    if not game.legal_actions(s):
        raise _bad(f"player_{cur} has no legal move (forced, empty draw pile, no take): "
                   "the game is over, phase should be 'over'")
