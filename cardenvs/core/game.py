"""The ``Game`` protocol: one legality core per game, shared by every face of it.

A :class:`Game` instance is a game's rules under fixed options (seat count included).
It owns everything that answers "what may be done now": the legal actions, applying
an action, the result, the information set of each player (:meth:`Game.view`), its
numpy encoding, the move notation and the JSON state schema of ``docs/rules/``.

The generic PettingZoo environment (:mod:`cardenvs.core.env`), the agents, the coach,
the command line and the tests only ever call these methods, so no rule is written
twice.  The shape follows OpenSpiel's Game/State split: a ``Game`` is stateless, a
state is a plain mutable object the game creates, copies and advances.

Conventions every game keeps:

* Actions are ints ``0 .. num_actions-1`` of one flat ``Discrete`` space whose meaning
  does not depend on the state (``action_to_str`` needs no state).
* :meth:`Game.legal_actions` is sorted ascending and never empty while the game runs.
* :meth:`Game.apply` checks legality first and raises :class:`IllegalActionError`
  *before* touching the state, so a refused call leaves the state exactly as it was.
* Randomness after the deal (reshuffles) comes only from the ``rng`` passed in.
* ``observation_size`` and the layout do not depend on options or seat count, and the
  observation carries the seat count and options, so :meth:`Game.decode` is a class
  method: an agent can read any observation of the game without knowing the table.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

import numpy as np

S = TypeVar("S")  # the game's full state
V = TypeVar("V")  # the game's per-player view (information set)


class IllegalActionError(ValueError):
    """An action id that the rules do not allow in the current state."""


class NotationError(ValueError):
    """A move string that is malformed or names no action of the game."""


class InvalidStateError(ValueError):
    """A state (for example read from JSON) that breaks the rules' invariants."""


class OptionError(ValueError):
    """An unknown option or an option value outside the allowed set."""


@dataclass(frozen=True)
class Option:
    """One configuration option of a game: its default, allowed values and meaning."""

    default: Any
    #: the allowed values, or a ``range`` of allowed ints
    allowed: tuple[Any, ...] | range
    doc: str

    def accepts(self, value: Any) -> bool:
        """Whether ``value`` is one of the allowed values."""
        return self.exact(value) is not None or (value is None and None in self._values())

    def exact(self, value: Any) -> Any:
        """The allowed value ``value`` stands for, as a plain Python value; ``None`` if not
        allowed (a ``None`` option value is told apart by :meth:`accepts`).

        Numpy ints become ``int``; a float, even a whole one, never stands for an int.
        """
        if isinstance(self.allowed, range):
            if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
                return int(value) if int(value) in self.allowed else None
            return None
        return next((a for a in self.allowed if _same_value(value, a)), None)

    def _values(self) -> tuple[Any, ...] | range:
        return self.allowed

    def allowed_text(self) -> str:
        """The allowed values in words, for error messages and docs."""
        if isinstance(self.allowed, range):
            return f"an int in {self.allowed.start}..{self.allowed.stop - 1}"
        return ", ".join(repr(a) for a in self.allowed)


@dataclass(frozen=True)
class ObsField:
    """A named slice ``[start, start+size)`` of the flat observation vector."""

    name: str
    start: int
    size: int
    description: str

    @property
    def stop(self) -> int:
        return self.start + self.size


def layout(fields: Sequence[tuple[str, int, str]]) -> tuple[ObsField, ...]:
    """Build consecutive :class:`ObsField` slices from ``(name, size, description)``."""
    out, start = [], 0
    for name, size, desc in fields:
        out.append(ObsField(name, start, size, desc))
        start += size
    return tuple(out)


class ObsLayout:
    """An observation layout written once: named fields of one flat float32 buffer.

    In the manner of OpenSpiel's observer, the encoder and the decoder of a game both
    work on :meth:`views` of one buffer (``v["hand"][card] = 1`` to write, ``v["hand"]``
    to read), so a field's place is stated in exactly one table.  ``bounds`` gives the
    per-entry low/high of the observation ``Box``; fields not named there use the
    game-wide defaults.
    """

    def __init__(
        self,
        fields: Sequence[tuple[str, int, str]],
        low: float = -1000.0,
        high: float = 1000.0,
        bounds: dict[str, tuple[float, float]] | None = None,
    ) -> None:
        self.fields: tuple[ObsField, ...] = layout(fields)
        self.size: int = self.fields[-1].stop if self.fields else 0
        self.index: dict[str, ObsField] = {f.name: f for f in self.fields}
        self.low = np.full(self.size, low, np.float32)
        self.high = np.full(self.size, high, np.float32)
        for name, (lo, hi) in (bounds or {}).items():
            f = self.index[name]
            self.low[f.start : f.stop] = lo
            self.high[f.start : f.stop] = hi

    def start(self, name: str) -> int:
        """Offset of a field in the flat vector."""
        return self.index[name].start

    def new(self) -> np.ndarray:
        """A zeroed observation vector."""
        return np.zeros(self.size, np.float32)

    def views(self, buf: np.ndarray) -> dict[str, np.ndarray]:
        """Named writable views of ``buf``, one per field."""
        if buf.shape != (self.size,):
            raise ValueError(f"an observation of this game has shape ({self.size},), got {buf.shape}")
        return {f.name: buf[f.start : f.stop] for f in self.fields}


@runtime_checkable
class View(Protocol):
    """What every game's View (one player's information set) has.

    ``seat`` is the player's own seat, ``num_players`` the seat count and ``options``
    the game's options (``{name: value}`` for every key of ``Game.OPTIONS``): enough to
    know the table without guessing from field names.
    """

    @property
    def seat(self) -> int: ...

    @property
    def num_players(self) -> int: ...

    @property
    def options(self) -> dict[str, Any]: ...


def shuffle_unseen(cards: list[int], rng: np.random.Generator) -> None:
    """Re-order ``cards`` (a face-down pile or deck) uniformly at random with ``rng``, in
    place: what each game's :meth:`Game.redraw_unseen` does to the cards it hides.

    A generator with an ``order_unseen(cards) -> list`` method orders them itself: the
    coupled draws of duplicate deals (:mod:`agents.measure.coupling`), which deal the
    face-down cards out to the seats in advance so that every rotation of a deal hands a
    seat the same draws."""
    order = getattr(rng, "order_unseen", None)
    if callable(order):
        cards[:] = order(list(cards))
        return
    if len(cards) > 1:
        cards[:] = [cards[i] for i in rng.permutation(len(cards)).tolist()]


def taken_from_top(listed: Sequence[int], pile: Sequence[int], top: int) -> int | None:
    """How many cards a draw took from the top of the face-down list ``listed`` (its top at
    ``top``: ``-1`` the end, ``0`` the front, a game's :attr:`Game.UNSEEN_TOP`) to leave
    ``pile``; ``None`` when ``pile`` is not what such a draw leaves (cards added, or the
    rest re-ordered)."""
    j = len(listed) - len(pile)
    if j < 0:
        return None
    rest = list(listed[j:]) if top == 0 else list(listed[: len(listed) - j])
    return j if list(pile) == rest else None


class Game(ABC, Generic[S, V]):
    """A game's rules under fixed options. Subclasses fill in the class variables."""

    #: short game name used in JSON (``"line"``)
    name: ClassVar[str]
    #: versioned environment name (``"<name>_v0"``)
    env_name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int] = 2
    #: the game's options (``num_players`` is separate)
    OPTIONS: ClassVar[dict[str, Option]] = {}
    #: size of the flat action space
    num_actions: ClassVar[int]
    #: the observation layout, shared by all options and seat counts
    OBS_FIELDS: ClassVar[tuple[ObsField, ...]]
    #: bounds of every observation entry (the Box of the observation space)
    OBS_LOW: ClassVar[float] = -1000.0
    OBS_HIGH: ClassVar[float] = 1000.0
    #: where in the list of face-down cards (:meth:`redraw_unseen`) the next card comes up:
    #: ``-1`` its end, ``0`` its front (for the coupled draws of :mod:`agents.measure.coupling`)
    UNSEEN_TOP: ClassVar[int] = -1

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        if num_players is None:
            num_players = self.default_players
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise OptionError(
                f"num_players must be an int in {self.min_players}..{self.max_players}, "
                f"got {num_players!r}"
            )
        if not self.min_players <= int(num_players) <= self.max_players:
            raise OptionError(
                f"{self.name}: num_players must be {self.min_players}..{self.max_players}, "
                f"got {num_players}"
            )
        self.num_players: int = int(num_players)
        unknown = sorted(set(options) - set(self.OPTIONS))
        if unknown:
            raise OptionError(
                f"{self.name}: unknown option(s) {', '.join(unknown)}; the options are "
                f"num_players, {', '.join(self.OPTIONS) or '(none)'}"
            )
        opts = {k: o.default for k, o in self.OPTIONS.items()}
        opts.update(options)
        for k, v in opts.items():
            if not self.OPTIONS[k].accepts(v):
                raise OptionError(
                    f"{self.name}: option {k}={v!r} is not allowed; allowed: "
                    f"{self.OPTIONS[k].allowed_text()}"
                )
            opts[k] = self.OPTIONS[k].exact(v)  # stored as the plain Python value
        self.options: dict[str, Any] = opts
        self.validate_options()

    def validate_options(self) -> None:
        """Check combinations of options; raise :class:`OptionError` when refused."""

    # ------------------------------------------------------------------ the rules
    @abstractmethod
    def new_state(self, rng: np.random.Generator) -> S:
        """Shuffle and deal a fresh game with ``rng``."""

    @abstractmethod
    def clone(self, state: S) -> S:
        """An independent copy of ``state`` (cheap: for search and legality probing)."""

    @abstractmethod
    def current_player(self, state: S) -> int:
        """Seat to move, or ``-1`` when the game is over."""

    @abstractmethod
    def is_terminal(self, state: S) -> bool:
        """Whether the game has ended (by the rules)."""

    def is_truncated(self, state: S) -> bool:
        """Whether the game was cut off by a cap rather than ended by the rules."""
        return False

    @abstractmethod
    def legal_actions(self, state: S) -> list[int]:
        """The legal action ids of the player to move, ascending; ``[]`` when over."""

    def legal_mask(self, state: S) -> np.ndarray:
        """int8 mask of :meth:`legal_actions` over the whole action space."""
        mask = np.zeros(self.num_actions, dtype=np.int8)
        acts = self.legal_actions(state)
        if acts:
            mask[acts] = 1
        return mask

    @abstractmethod
    def apply(self, state: S, action: int, rng: np.random.Generator | None = None) -> None:
        """Advance ``state`` by ``action``; raise :class:`IllegalActionError` first if illegal."""

    @abstractmethod
    def returns(self, state: S) -> list[float]:
        """Final reward of each seat (zeros while the game runs)."""

    def infos(self, state: S) -> list[dict[str, Any]]:
        """Per-seat info dicts after the latest step (results, totals at the end)."""
        return [{} for _ in range(self.num_players)]

    # ------------------------------------------------------------ chance to come
    def redraw_unseen(self, state: S, rng: np.random.Generator) -> None:
        """Re-order uniformly at random with ``rng``, in place, the cards no player has
        seen (the face-down pile or deck): exactly the randomness still to come given
        everything that happened, every hand included.

        Every seat's View and the public view stay as they were.  What ``apply`` draws
        later with its own ``rng`` (a reshuffle, a later round's deal) is not touched.
        For variance-reduced scoring (:mod:`agents.measure`), which samples what a chance
        event could have brought.  ``NotImplementedError`` for a game that does not say.
        """
        raise NotImplementedError(f"{type(self).__name__} does not say which cards are unseen; "
                                  "give it a redraw_unseen(state, rng) method")

    def has_chance(self, state: S, action: int) -> bool:
        """Whether ``apply(state, action)`` may depend on chance: on the order of the
        unseen cards (:meth:`redraw_unseen`) or on ``apply``'s ``rng``.

        A function of ``state`` and ``action`` only (decided before the outcome), so
        skipping the steps it calls certain never biases an estimate.  ``False`` only
        for a step sure to be deterministic; the default ``True`` is always safe.
        """
        return True

    def chance_owner(self, state: S, action: int) -> int | None:
        """Whose luck the chance of ``apply(state, action)`` is: the seat that gets what comes
        up (the mover, by default: a draw into its hand), or ``None`` for chance every seat
        shares (a market laid out for all).  Coupled draws (:mod:`agents.measure.coupling`)
        hand a seat's draws from its own share of the face-down cards and shared chance from
        the pile in order."""
        return self.current_player(state)

    def max_game_length(self) -> int:
        """An upper bound on the moves of a whole game at this table, derived from the rules
        (the OpenSpiel adapter's ``max_game_length``); ``NotImplementedError`` when the game
        gives none."""
        raise NotImplementedError(f"{type(self).__name__} gives no bound on the length of its games; "
                                  "give it a max_game_length() method")

    # ----------------------------------------------------------- information sets
    @abstractmethod
    def view(self, state: S, player: int) -> V:
        """What ``player`` may know of ``state``: their information set."""

    def public_view(self, state: S) -> V:
        """What a spectator may know of ``state``: what every seat knows, with ``seat`` -1.

        The View type of :meth:`view`, its private fields emptied (a table shows it to
        everyone who is not seated; a leak test compares it with every seat's View).
        ``NotImplementedError`` for a game that does not say.
        """
        raise NotImplementedError(f"{type(self).__name__} does not say what a spectator may see; "
                                  "give it a public_view(state) method")

    @classmethod
    @abstractmethod
    def encode(cls, view: V) -> np.ndarray:
        """The float32 observation vector of a view (layout: :attr:`OBS_FIELDS`)."""

    @classmethod
    @abstractmethod
    def decode(cls, observation: np.ndarray) -> V:
        """The view an observation encodes (inverse of :meth:`encode`)."""

    def observe(self, state: S, player: int) -> np.ndarray:
        """``encode(view(state, player))``; games may override with a faster equal path."""
        return self.encode(self.view(state, player))

    @abstractmethod
    def sample_state(self, view: V, rng: np.random.Generator) -> S:
        """A full state consistent with ``view`` (determinisation for search and tests)."""

    @classmethod
    def observation_size(cls) -> int:
        """Length of the flat observation vector."""
        last = cls.OBS_FIELDS[-1]
        return last.start + last.size

    def observation_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-entry ``(low, high)`` of the observation ``Box`` under this game's options.

        Every observation of every loadable state lies inside them.  By default the
        game-wide :attr:`OBS_LOW` / :attr:`OBS_HIGH`; a game whose options scale some
        entries (a turn cap) overrides this.
        """
        size = self.observation_size()
        return np.full(size, self.OBS_LOW, np.float32), np.full(size, self.OBS_HIGH, np.float32)

    # ------------------------------------------------------------------- notation
    @abstractmethod
    def action_to_str(self, action: int) -> str:
        """The move text (the game's notation) of an action id."""

    @abstractmethod
    def str_to_action(self, text: str) -> int:
        """Action id of move text in the game's notation; :class:`NotationError` if malformed."""

    @abstractmethod
    def to_json(self, state: S) -> dict[str, Any]:
        """The state in the position format (docs/rules/)."""

    @abstractmethod
    def from_json(self, obj: dict[str, Any]) -> S:
        """Read and validate a position (docs/rules/ format); :class:`InvalidStateError` if bad."""

    @abstractmethod
    def render(self, state: S, viewer: int | None = None) -> str:
        """Text picture of the table; ``viewer=None`` shows every hand."""

    def picture(self, state: S, viewer: int | None = None) -> Any:
        """The table as a :class:`cardenvs.core.picture.Picture` (for ``rgb_array``).

        Delegates to ``cardenvs.<name>.picture.picture(game, state, viewer)``.
        """
        import importlib

        module = importlib.import_module(f"cardenvs.{self.name}.picture")
        return module.picture(self, state, viewer)

    # ---------------------------------------------------------------- conveniences
    def describe_action(self, action: int) -> str:
        """Move text for error messages, tolerant of out-of-range ids."""
        try:
            return self.action_to_str(int(action))
        except (ValueError, IndexError):
            return "<no such action>"

    def check_action(self, state: S, action: Any) -> int:
        """Validate ``action`` for ``state``; return it as int or raise a clear error."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(
                f"an action must be an int in 0..{self.num_actions - 1}, got {action!r}"
            )
        a = int(action)
        if not 0 <= a < self.num_actions:
            shown = str(a) if abs(a) < 10**12 else f"(an int of {a.bit_length()} bits)"
            raise IllegalActionError(
                f"action {shown} is out of range: the action space is 0..{self.num_actions - 1}"
            )
        legal = self.legal_actions(state)
        if a not in legal:
            shown = ", ".join(self.action_to_str(x) for x in legal[:12])
            more = f" (and {len(legal) - 12} more)" if len(legal) > 12 else ""
            who = self.current_player(state)
            if who < 0:
                raise IllegalActionError(
                    f"illegal action {a} ({self.describe_action(a)}): the game is over"
                )
            raise IllegalActionError(
                f"illegal action {a} ({self.describe_action(a)}) for player_{who}; "
                f"legal now: {shown}{more}"
            )
        return a


def _same_value(v: Any, allowed: Any) -> bool:
    """Option equality that keeps ``True`` apart from ``1``, ``None`` apart from 0, and a
    float apart from an int (``3.0`` is not the int option value ``3``)."""
    if isinstance(v, (bool, np.bool_)) or isinstance(allowed, bool):
        return isinstance(v, (bool, np.bool_)) and isinstance(allowed, bool) and bool(v) == allowed
    if v is None or allowed is None:
        return v is allowed
    if isinstance(allowed, int):
        return isinstance(v, (int, np.integer)) and int(v) == allowed
    if isinstance(allowed, float):
        return isinstance(v, (int, float, np.integer, np.floating)) and float(v) == allowed
    return type(v) is type(allowed) and v == allowed


GameFactory = Callable[..., Game[Any, Any]]


#: a position's JSON never nests deeper than this (lists of lists of cards, at most)
MAX_JSON_DEPTH = 6
#: nor holds a list or object longer than this (the largest deck has 106 cards)
MAX_JSON_ITEMS = 512
#: nor is given as text longer than this
MAX_JSON_TEXT = 1_000_000


def json_object(obj: Any) -> dict[str, Any]:
    """The position object of ``obj``: a dict, or JSON text of one.

    Refuses at once, with a short :class:`InvalidStateError`, text that is not JSON,
    anything but an object, and input nested deeper than :data:`MAX_JSON_DEPTH` or
    with a list longer than :data:`MAX_JSON_ITEMS` (no position is that big), so a
    loader never spends long on, or recurses through, hostile input.
    """
    if isinstance(obj, (str, bytes, bytearray)):
        if len(obj) > MAX_JSON_TEXT:
            raise InvalidStateError(f"position text too long ({len(obj)} characters)")
        try:
            obj = json.loads(obj)
        except (ValueError, RecursionError) as err:
            raise InvalidStateError(f"the position is not valid JSON: {str(err)[:120]}") from None
    if not isinstance(obj, dict):
        raise InvalidStateError(f"a position must be a JSON object, got {type(obj).__name__}")
    _check_shape(obj, 0)
    return obj


def _check_shape(x: Any, depth: int) -> None:
    if depth > MAX_JSON_DEPTH:
        raise InvalidStateError(f"the position nests deeper than {MAX_JSON_DEPTH} levels")
    if isinstance(x, dict):
        if len(x) > MAX_JSON_ITEMS:
            raise InvalidStateError(f"an object of the position has {len(x)} keys; at most {MAX_JSON_ITEMS}")
        for v in x.values():
            if isinstance(v, (list, tuple, dict)):
                _check_shape(v, depth + 1)
    elif isinstance(x, (list, tuple)):
        if len(x) > MAX_JSON_ITEMS:
            raise InvalidStateError(f"a list of the position has {len(x)} items; at most {MAX_JSON_ITEMS}")
        for v in x:
            if isinstance(v, (list, tuple, dict)):
                _check_shape(v, depth + 1)


def observation_vector(observation: Any) -> np.ndarray:
    """The flat observation of ``observation``: the vector itself, or the dict
    ``{"observation", "action_mask"}`` that ``env.last()`` gives (for ``Game.decode``)."""
    if isinstance(observation, Mapping):
        if "observation" not in observation:
            raise ValueError("an observation dict must have the key 'observation' (what env.last() gives)")
        observation = observation["observation"]
    return np.asarray(observation)
