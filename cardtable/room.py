"""A room: its seats, its current game, and what each seat or a spectator is shown.

A :class:`Room` is plain data and rules: it knows nothing of sockets or threads.  The
server (:mod:`.server`) calls its methods, saves its snapshot
(:func:`.persistence.snapshot`) after every change and sends the messages built by
:meth:`Room.table_message` and :meth:`Room.room_message`.

Every message is built from ``game.view(state, seat)`` for a seat and from the rules'
``game.public_view(state)`` for a spectator, so nobody is sent what their seat may not know;
the words, scores and board facts come from the game's table face (:func:`.catalog.face`).
"""

from __future__ import annotations

import datetime
import json
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict, cast

import numpy as np

from cardenvs.core.game import View

from . import catalog
from .moves import legal_moves, words
from .types import GameResult, JsonDict, LogEntry, Record, StandIn, TableGame

#: how many of the latest moves a ``table`` message lists
LOG_LENGTH = 40


def now_iso() -> str:
    """The time now, as ISO 8601 text (UTC)."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def new_token() -> str:
    """A fresh secret credential."""
    return secrets.token_urlsafe(24)


@dataclass
class Seat:
    """One seat. ``person``: a person holds it (else a computer plays it at ``level``).
    ``token`` is the seat's credential; it outlives a ``leave`` so the person can come back."""

    name: str | None = None
    person: bool = False
    token: str | None = None
    level: str = catalog.DEFAULT_LEVEL
    coach: bool = False
    #: the person's turns in a row that their clock ran out on (the computer moved for them)
    timeouts: int = 0


class SeatData(TypedDict, total=False):
    """A :class:`Seat`'s fields as a dict (in a snapshot, and in a :data:`Memo`)."""

    name: str | None
    person: bool
    token: str | None
    level: str
    coach: bool
    timeouts: int


def seat_data(s: Seat) -> SeatData:
    """A seat's fields as a dict (flat: ``asdict``'s deep copy costs more)."""
    return cast(SeatData, dict(vars(s)))


@dataclass
class Play:
    """The game being played (or the last one played) in a room."""

    index: int
    seed: int
    start: JsonDict
    state: object
    rng: np.random.Generator
    started: str
    ids: list[int] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    round_result: JsonDict | None = None
    result: GameResult | None = None
    finished: str | None = None

    @property
    def step(self) -> int:
        """Moves played so far."""
        return len(self.ids)


#: what :meth:`Room.undo` brings a room back to (taken by :meth:`Room.memo`): the seats,
#: status, games played, host token, host seat, away and turn seconds, the play and its
#: position (state, generator state, moves, round result, result, finish time)
Memo = tuple[list[SeatData], str, int, str, int | None, int, int | None, Play | None,
             tuple[object, Mapping[str, object], int, JsonDict | None, GameResult | None, str | None] | None]


def table_fields(env: str, game: TableGame, state: object, view_obj: View, you: int | None, current: int,
                 log: list[LogEntry], round_result: JsonDict | None,
                 result: GameResult | None) -> JsonDict:
    """What a ``table`` message shows of a position, seen by seat ``you`` through
    ``view_obj`` (its View, or the public view for ``None``): the board facts, each seat's
    public facts in words, the last moves worded for ``you``, the scores and results.  The
    table and the replay of a record (:mod:`.records`) both build from it."""
    face = catalog.face(env)
    last: list[str | None] = [None] * game.num_players
    for e in reversed(log):
        if last[e["seat"]] is None:
            last[e["seat"]] = e["text"]
            if None not in last:
                break
    # each logged move told after the mover's name, in the past tense ("Ann threw J♥"),
    # the mover's own moves too (the mover's ``label`` is a move to choose: "Throw J♥")
    words_log = [dict(e, label=e.get("others", e["label"])) for e in log[-LOG_LENGTH:]]
    return {
        "type": "table", "view": catalog.view_dict(view_obj), "board": face.board(game, view_obj),
        "seat_facts": face.seat_facts(game, view_obj),
        "current": current, "moves": [], "prompt": "", "last": last, "log": words_log,
        "scores": face.scores(game, view_obj, cast("JsonDict | None", result)),  # a dict, as JSON
        "round_result": round_result, "result": result,
    }


class RoomError(ValueError):
    """A request the room refuses; the message says why (sent to that client as ``error``)."""


#: what a room may set about time (``POST /api/rooms`` and the ``settings`` message):
#: name -> (default, lowest, highest); ``turn_seconds`` may also be ``None`` (no clock)
TIME_SETTINGS: dict[str, tuple[int | None, int, int]] = {
    #: seconds a person may be away (disconnected) during a game before a computer plays
    #: their seat (theirs to take back: coming back takes it back)
    "away_seconds": (60, 1, 3600),
    #: seconds a person has for each move; when they run out the computer plays that move
    #: for them (three times in a row: it plays their seat until they take it back)
    "turn_seconds": (None, 1, 3600),
}
#: turns in a row a person's clock may run out before a computer plays their seat
MAX_TIMEOUTS = 3


def check_time_settings(values: Mapping[str, object], partial: bool = False) -> dict[str, int | None]:
    """A room's time settings from a request (``RoomError`` saying what is allowed): every
    setting, the defaults filling what is missing (``partial``: only those given)."""
    out: dict[str, int | None] = {}
    for name, (default, low, high) in TIME_SETTINGS.items():
        if name not in values:
            if not partial:
                out[name] = default
            continue
        value = values[name]
        if value is None and default is None:
            out[name] = None
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            never = " or null (no clock)" if default is None else ""
            raise RoomError(f"{name} must be a whole number of seconds in {low}..{high}{never}, "
                            f"got {value!r}"[:200])
        out[name] = value
    return out


def stand_in(room: Room, seat: int) -> StandIn:
    """A move's mark in the log when a computer made it for a person (``{"stand_in":
    "away"}``: the person was away; ``"time"``: their clock ran out), else nothing."""
    s = room.seats[seat]
    if room.reserved(seat):
        return {"stand_in": "away", "for": str(s.name)}
    if s.person and s.timeouts > 0:  # set by the turn clock just before its move for them
        return {"stand_in": "time", "for": str(s.name)}
    return {}


def refuse_level(room: Room, seat: int) -> None:
    """``RoomError`` unless the host may set ``seat``'s level now: only between games (the
    deal fixes who plays what) and never a person's seat (a computer plays it while they
    are away, at the room's level)."""
    s = room.seats[seat]
    if room.status == "playing":
        raise RoomError("levels change between games, not during one: the deal fixed who plays what; "
                        "set them after this game ends")
    if s.person:
        raise RoomError(f"seat {seat + 1} is {s.name}'s: a person's seat has no level (while they are away "
                        f"a computer plays it at the room's level, {room.default_level})")


class Room:
    """One table: a game with its options, the seats, the host's credential and the play."""

    def __init__(self, room_id: str, env: str, num_players: int, options: Mapping[str, object],
                 level: str, host_token: str) -> None:
        self.id = room_id
        self.env = env
        self.num_players = num_players
        self.options = dict(options)
        self.default_level = level
        self.host_token = host_token
        self.game: TableGame = catalog.make_game(env, num_players, catalog.options_key(self.options))
        self.seats = [Seat(level=level) for _ in range(num_players)]
        self.status = "waiting"
        self.games_played = 0
        self.play: Play | None = None
        self.created = now_iso()
        #: the room's time settings (:data:`TIME_SETTINGS`)
        self.away_seconds: int = 60
        self.turn_seconds: int | None = None
        #: the seat the host sits in (``None``: the host watches or has not sat yet)
        self.host_seat: int | None = None
        #: when something last happened in the room (a change, a connection; Unix time): idle
        #: rooms expire (set by the server)
        self.active = time.time()
        #: per step: JSON-ready tables already built (seat or None for spectators)
        self._tables: dict[int | None, JsonDict] = {}
        self._texts: dict[int, str] = {}
        self._tables_step = -1

    # ------------------------------------------------------------------ names
    def seat_name(self, seat: int) -> str:
        """The person's name (also on a seat they left, from the deal on), or the cast's."""
        s = self.seats[seat]
        if s.name and (s.person or (s.token is not None and self.status != "waiting")):
            return s.name
        cast = catalog.cast_names(self.env)
        return str(cast[seat % len(cast)]) if cast else f"{s.level} {seat}"

    def other_names(self, seat: int) -> list[str]:
        """The names of every seat but ``seat`` (a name is unique in the room)."""
        return [self.seat_name(i) for i in range(self.num_players) if i != seat]

    def names(self) -> list[str]:
        """Every seat's name."""
        return [self.seat_name(i) for i in range(self.num_players)]

    def touch(self) -> None:
        """Forget the tables built for this step (after a change of seats)."""
        self._tables_step = -1

    def table_text(self, you: int | None) -> str | None:
        """:meth:`table_message` as JSON text (built once per seat per step)."""
        msg = self.table_message(you)
        if msg is None:
            return None
        key = -2 if you is None else you
        text = self._texts.get(key)
        if text is None:
            text = self._texts[key] = json.dumps(msg, separators=(",", ":"))
        return text

    # ------------------------------------------------------------------ seats
    def check_seat(self, seat: object) -> int:
        """A seat number from a message (``RoomError`` if it is none of the room's)."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise RoomError(f"seat must be an int in 0..{self.num_players - 1}, got {seat!r}")
        return seat

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose credential is ``token``."""
        for i, s in enumerate(self.seats):
            if s.token is not None and secrets.compare_digest(s.token, token):
                return i
        return None

    def sit(self, seat: int, name: str, token: str | None) -> str:
        """A person takes ``seat``; returns its credential (the held ``token`` when it is
        the seat's own, else a new one, which revokes the old).

        While a game is being played only the seat's own token takes a seat: a seat's
        cards reach only the person who has held it since the deal (or the computer
        playing it for them), so nobody can sit down at a computer's seat to look at its
        hand.  Free seats are taken before the deal and between games."""
        s = self.seats[seat]
        own = token is not None and s.token is not None and secrets.compare_digest(s.token, token)
        if s.person and not own:
            raise RoomError(f"seat {seat} is taken by {s.name}; free seats: {self._free_text()}")
        if not own and self.status == "playing":
            if s.token is not None:
                raise RoomError(f"seat {seat} is kept for the person who left it until this game ends "
                                "(only their link takes it back); watch until the next game")
            raise RoomError(f"seat {seat} is played by a computer until this game ends: nobody takes a "
                            "seat during a game; watch, and sit when the host starts the next one")
        s.person, s.name, s.level = True, name, self.default_level  # away: the room's level plays it
        if not own:
            s.token = new_token()
        assert s.token is not None
        self.touch()
        return s.token

    def reserved(self, seat: int) -> bool:
        """A computer plays ``seat`` for now, but it is kept for the person who left it
        (their token takes it back) until this game ends."""
        s = self.seats[seat]
        return not s.person and s.token is not None and self.status == "playing"

    def _free_text(self) -> str:
        if self.status == "playing":
            return "none until this game ends"
        free = [str(i) for i, s in enumerate(self.seats) if not s.person]
        return ", ".join(free) or "none"

    def leave(self, seat: int) -> None:
        """The person gives the seat up: a computer plays it; the token still takes it back."""
        s = self.seats[seat]
        s.person = False
        s.coach = False
        s.timeouts = 0
        self.touch()

    def set_level(self, seat: int, level: object) -> None:
        """The host sets a computer seat's level, between games (:func:`refuse_level`)."""
        if not isinstance(level, str) or level not in catalog.table_levels(self.env):
            allowed = ", ".join(catalog.table_levels(self.env))
            raise RoomError(f"level must be one of {allowed}, got {level!r}")
        refuse_level(self, seat)
        self.seats[seat].level = level
        self.touch()

    # ------------------------------------------------------------------ play
    def start(self, seed: int | None = None) -> None:
        """Deal a new game (the first, or a rematch with the same seats)."""
        if seed is None:
            seed = secrets.randbits(52)  # exact in JavaScript too
        rng = np.random.default_rng(seed)
        state = self.game.new_state(rng)
        index = 0 if self.play is None else self.play.index + 1
        self.play = Play(index=index, seed=seed, start=self.game.to_json(state), state=state, rng=rng,
                         started=now_iso())
        self.status = "playing"
        self._tables_step = -1

    def current(self) -> int:
        """Seat to move, -1 when no game runs."""
        if self.play is None or self.status != "playing":
            return -1
        return int(self.game.current_player(self.play.state))

    def over(self) -> bool:
        """Whether the current game has ended (by the rules or a cap)."""
        assert self.play is not None
        return bool(self.game.is_terminal(self.play.state) or self.game.is_truncated(self.play.state))

    def apply(self, seat: int, action: object) -> Record | None:
        """Play ``action`` for ``seat``, checked by the rules core; returns the game's record
        when this move ended the game.  ``RoomError`` (nothing changed) when refused."""
        if self.status != "playing" or self.play is None:
            raise RoomError(f"no game is being played (the room is {self.status})")
        p = self.play
        mover = self.current()
        if seat != mover:
            raise RoomError(f"it is not your turn: seat {mover} ({self.seat_name(mover)}) is to move")
        try:
            a = self.game.check_action(p.state, action)
        except ValueError as err:
            raise RoomError(str(err)) from None
        said = words(self.env, self.game, a, self.game.view(p.state, seat))  # the mover's View before it
        self.game.apply(p.state, a, p.rng)
        p.ids.append(a)
        p.movers.append(seat)
        p.log.append({"step": p.step, "seat": seat, "text": self.game.action_to_str(a),
                      "label": said.label, "others": said.others, **stand_in(self, seat)})
        judged = catalog.round_result(self.env, self.game, p.state, p.step, self.names())
        if judged is not None:
            p.round_result = judged
        self._tables_step = -1
        if self.over():
            p.result = catalog.game_result(self.env, self.game, p.state, self.names())
            p.finished = now_iso()
            self.status = "finished"
            self.games_played += 1
            return self.record()
        return None

    def resign(self, seat: int) -> Record:
        """The person at ``seat`` gives up: the game ends now, they lose (return -1) and the
        others share the win (+1 for a sole other seat, 0 each when several share it: the
        rules' own convention).  Returns the game's record; ``RoomError`` if no game runs."""
        if self.status != "playing" or self.play is None:
            raise RoomError(f"no game is being played (the room is {self.status})")
        p = self.play
        others = [i for i in range(self.num_players) if i != seat]
        share = 1.0 if len(others) == 1 else 0.0
        names = self.names()
        who = " and ".join(names[i] for i in others)
        p.result = {
            "returns": [-1.0 if i == seat else share for i in range(self.num_players)],
            "winners": others, "truncated": False, "infos": self.game.infos(p.state),
            "summary": f"{names[seat]} resigned: {who} {'win' if len(others) > 1 else 'wins'}"
                       + (" (shared)" if len(others) > 1 else ""),
            "why": [f"{names[seat]} resigned at move {p.step + 1}, so the game ended there: {names[seat]} "
                    f"loses, and {who} {'share the win' if len(others) > 1 else 'wins'}."],
            "hands": catalog.face(self.env).hands(self.game, p.state),
            "resigned": seat,
        }
        p.finished = now_iso()
        self.status = "finished"
        self.games_played += 1
        self.touch()
        return self.record()

    def settings(self) -> dict[str, int | None]:
        """The room's time settings, as the ``room`` message shows them."""
        return {"away_seconds": self.away_seconds, "turn_seconds": self.turn_seconds}

    def record(self) -> Record:
        """The finished game's record (PROTOCOL.md, "Records")."""
        p = self.play
        assert p is not None
        return {
            "game": self.env, "num_players": self.num_players, "options": self.options,
            "room": self.id, "index": p.index,
            "seats": [{"name": self.seat_name(i), "kind": "person" if s.person else "computer",
                       "level": None if s.person else s.level} for i, s in enumerate(self.seats)],
            "seed": p.seed, "start": p.start,
            "moves": [e["text"] for e in p.log], "ids": p.ids, "movers": p.movers,
            "result": p.result, "started": p.started, "finished": p.finished,
        }

    # --------------------------------------------------------------- messages
    def room_message(self, you: int | None, host: bool, connected: list[int],
                     away: dict[int, float] | None = None) -> JsonDict:
        """The ``room`` message for a client sitting in ``you`` (``None``: a spectator);
        ``away``: per absent person's seat, seconds before a computer plays it."""
        away = away or {}
        return {
            "type": "room", "room": self.id, "game": self.env,
            "title": catalog.game_info(self.env)["title"], "num_players": self.num_players,
            "options": self.options, "status": self.status, "settings": self.settings(),
            "seats": [{"seat": i, "name": self.seat_name(i), "kind": "person" if s.person else "computer",
                       "level": s.level, "connected": connected[i] > 0, "coach": s.coach,
                       "reserved": self.reserved(i),
                       "away": None if i not in away else round(max(0.0, away[i]), 1)}
                      for i, s in enumerate(self.seats)],
            "you": you, "host": host, "host_seat": self.host_seat, "games_played": self.games_played,
            "game_index": 0 if self.play is None else self.play.index,
        }

    def table_message(self, you: int | None) -> JsonDict | None:
        """The ``table`` message for seat ``you`` (``None``: the public one); ``None``
        before the first game.  Built once per seat per step."""
        p = self.play
        if p is None:
            return None
        if self._tables_step != p.step:
            self._tables = {}
            self._texts = {}
            self._tables_step = p.step
        cached = self._tables.get(you)
        if cached is not None:
            return cached
        game, state = self.game, p.state
        current = self.current()
        moves: list[JsonDict] = []
        prompt = ""
        view_obj = game.public_view(state) if you is None else game.view(state, you)
        if you is not None and current == you and self.seats[you].person:
            legal = list(game.legal_actions(state))
            moves = legal_moves(self.env, game, legal, view_obj)
            prompt = catalog.face(self.env).prompt(game, view_obj, legal)
        msg = table_fields(self.env, game, state, view_obj, you, current, p.log, p.round_result, p.result)
        msg.update(moves=moves, prompt=prompt, step=p.step, game_index=p.index)
        self._tables[you] = msg
        return msg

    # ------------------------------------------------------------- persistence
    def memo(self) -> Memo:
        """What :meth:`undo` needs to bring the room back to now (cheap: a copy of the
        game's state, not a snapshot; taken before every change the server saves)."""
        p = self.play
        played = None if p is None else (self.game.clone(p.state), p.rng.bit_generator.state, len(p.ids),
                                         p.round_result, p.result, p.finished)
        return ([seat_data(s) for s in self.seats], self.status, self.games_played, self.host_token,
                self.host_seat, self.away_seconds, self.turn_seconds, p, played)

    def undo(self, memo: Memo) -> None:
        """Bring the room back to where it was when :meth:`memo` was taken (a change whose
        save failed: what the file holds is what everyone sees)."""
        (seats, self.status, self.games_played, self.host_token, self.host_seat, self.away_seconds,
         self.turn_seconds, p, played) = memo
        self.seats = [Seat(**s) for s in seats]
        self.play = p
        if p is not None and played is not None:  # both or neither
            state, rng, n, p.round_result, p.result, p.finished = played
            p.state = state
            p.rng.bit_generator.state = rng
            del p.ids[n:], p.movers[n:], p.log[n:]
        self.touch()
