"""Every cardenvs game as an OpenSpiel game, for OpenSpiel's Python algorithms.

>>> from cardenvs.integrations.openspiel import load_game
>>> game = load_game(next(iter(cardenvs.GAMES)), num_players=2, rng_seed=7)
>>> state = game.new_initial_state()
>>> state.current_player(), len(state.legal_actions()) > 0
(0, True)

Importing this module registers one OpenSpiel game per cardenvs game, under the short
name ``python_cardenvs_<name>`` (``<name>`` is the game's ``Game.name``; :data:`SHORT_NAMES`
maps every environment name to it), so ``pyspiel.load_game`` finds them too:
``pyspiel.load_game("python_cardenvs_<name>(num_players=3)")``.  The
parameters are ``num_players``, every option of the game (``Game.OPTIONS``, same
names, same defaults) and ``rng_seed``.  A ``None`` option value, which OpenSpiel
parameters cannot hold, is written as the int :func:`none_value` gives (``0`` for
Rummy's ``run_out_limit``: "never").

The rules are those of :class:`cardenvs.core.game.Game`: an OpenSpiel state wraps one
cardenvs state and every call goes to the rules core (legal actions, applying, the
returns, the player's View), so no rule is written twice.  The design choices:

**Chance: ``SAMPLED_STOCHASTIC``.**  The deal and the later chance events (Rummy's
reshuffles of the discard pile and the deals of later rounds) happen inside
``Game.new_state(rng)`` and ``Game.apply(state, action, rng)``, so they are not
chance nodes: the initial state is already dealt (``player 0`` to move) and
``is_chance_node()`` is never true.  Each state owns its randomness as a 63-bit seed,
copied by ``clone()`` (so a clone replays the same future reshuffles) and turned into
a ``numpy`` generator only by a move that needs one.  The n-th game a
``pyspiel.Game`` deals gets the n-th seed of ``default_rng(rng_seed)``
(``rng_seed=-1``, the default: fresh entropy).  A state is dealt when it is first
used, so the ``new_initial_state()`` that OpenSpiel's ``State.clone()`` calls inside
draws nothing, and cloning never shifts the sequence of deals.  This is what
``ISMCTSBot`` needs: it never meets a chance node, and every simulation starts from
:meth:`CardenvsState.resample_from_infostate`.  ``state.serialize()`` and
``game.deserialize_state(text)`` work (the seed travels with the state), but
``pyspiel.serialize_game_and_state`` and pickling a state do not: OpenSpiel saves a
``SAMPLED_STOCHASTIC`` game's generator through the C++ ``Game::GetRNGState``, which a
Python game cannot provide.

**Observations: the player's View.**  ``observation_string(p)`` is a canonical text of
``Game.view(state, p)`` (one ``field=value`` per field of the View, so two states give
the same string exactly when the player's Views are equal) and
``observation_tensor(p)`` is ``Game.encode(view)`` (``Game.observation_size()``
floats, one tensor named ``"view"``).

**Information states: the player's history (perfect recall).** A View forgets, for
instance, which opponent put a card where; an OpenSpiel information state is the
player's whole action-observation history. ``information_state_string(p)`` is that
history as text, one line per event: ``view <View text>`` for the deal as ``p`` saw it,
then for every move ``move <k> seat <s>`` (followed by the move's text when ``s`` is
``p``: a player remembers their own moves; others' moves show only through the next
View) and ``view <View text>`` after it. Two states of one game give the same string
exactly when ``p`` saw the same Views and made the same moves. The moves are recorded as
they are applied; the history is replayed from them on the first request and kept up to
date by each later move (so a state that is never asked pays nothing). A state made by
:meth:`CardenvsState.resample_from_infostate` keeps the resampling player's history (so
``ISMCTSBot`` keyed on information states finds its root again); the other players'
histories in it start at the resampled position. There is no information-state *tensor*
(a history has no fixed size): ``provides_information_state_string = True``,
``provides_information_state_tensor = False``, ``provides_observation_string =
provides_observation_tensor = True``. Search keyed on the View (``ISMCTSBot(...,
use_observation_string=True)``, what :class:`agents.players.ismcts.ISMCTSAgent` does) is cheaper
per call. Observers are given for the player's own view only (public and single-player
private information; perfect recall for the information state); other observation types
raise ``ValueError``.

**Resampling.**  :meth:`CardenvsState.resample_from_infostate` builds the hidden part
of the state (opponents' unknown cards, the pile order, the state's future chance seed)
only through ``Game.sample_state(view, rng)`` from the player's View, with an ``rng``
seeded by four draws of the given ``probability_sampler``; a search therefore never
sees what its player cannot.  The resampled state starts a fresh history (OpenSpiel's
``history()`` of it is empty).  It is a Python method: Python callers (ISMCTS) reach
it, C++ code calling ``State::ResampleFromInfostate`` does not.

**Returns.**  Those of ``Game.returns``: +1 a sole winner, 0 each player sharing the
win, -1 the others, at the end only (``reward_model=TERMINAL``).  ``min_utility`` -1,
``max_utility`` 1.  With two players the returns are +1/-1 or 0/0, so the game is
``ZERO_SUM`` (``utility_sum`` 0); with three or more a shared win gives e.g. 0, 0, -1,
so it is ``GENERAL_SUM``.  The type registered for a short name says ``GENERAL_SUM``
(true for every seat count); a loaded game's own type says which.  A state the rules
cut off (``Game.is_truncated``; no shipped game has one) counts as terminal, with
the returns the rules give.

**``max_game_length``** (moves of the players; there are no chance moves): the rules'
own upper bound, ``Game.max_game_length()``, derived from the rules code in each game's
rules module (:func:`max_game_length`).

Speed: every OpenSpiel call crosses from C++ into Python, so a move through the
adapter costs tens of microseconds more than on the rules core.
:class:`CoreRolloutEvaluator` is the ``mcts.RandomRolloutEvaluator`` of these games
done on the wrapped cardenvs state directly (several times faster).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from collections.abc import Callable, Mapping
from typing import Any, cast

import numpy as np
import pyspiel  # no stubs: typed as Any (mypy: ignore_missing_imports)
from open_spiel.python.algorithms import mcts

import cardenvs
from cardenvs.core.game import Game, Option

__all__ = [
    "SHORT_NAMES",
    "CardenvsGame",
    "CardenvsState",
    "CoreRolloutEvaluator",
    "ViewObserver",
    "from_game",
    "load_game",
    "max_game_length",
    "none_value",
    "short_name",
    "view_text",
]

#: the largest seed a state's chance seed takes (63 bits)
_SEED_BOUND = 2**63


# ------------------------------------------------------------------------- names


def short_name(env_name: str) -> str:
    """OpenSpiel short name of a cardenvs environment: ``python_cardenvs_<Game.name>``."""
    return f"python_cardenvs_{cardenvs.game_class(env_name).name}"


def none_value(option: Option) -> int | None:
    """The int that stands for ``None`` in the OpenSpiel parameter of an option that
    allows ``None`` (0 if 0 is not an allowed value, else -1); ``None`` if the option
    does not allow ``None``."""
    if not option.accepts(None):
        return None
    return -1 if option.accepts(0) else 0


def _to_param(option: Option, value: Any) -> Any:
    """An option value as an OpenSpiel parameter value."""
    if value is None:
        return none_value(option)
    return value


def _from_param(option: Option, value: Any) -> Any:
    """An OpenSpiel parameter value as the option value it stands for."""
    sentinel = none_value(option)
    if sentinel is not None and isinstance(value, int) and not isinstance(value, bool) and value == sentinel:
        return None
    return value


# ------------------------------------------------------------------------- bounds


def max_game_length(game: Game[Any, Any]) -> int:
    """An upper bound on the moves of a game at this table: the rules' own
    :meth:`~cardenvs.core.game.Game.max_game_length` (``ValueError`` when it gives none)."""
    try:
        return int(game.max_game_length())
    except NotImplementedError as err:
        raise ValueError(str(err)) from None


# --------------------------------------------------------------------- the views


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(view_type: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(view_type)
    if names is None:
        names = _FIELD_NAMES[view_type] = tuple(f.name for f in dataclasses.fields(view_type))
    return names


def view_text(view: Any) -> str:
    """Canonical text of a View: ``field=value`` (the value's ``repr``) for every field,
    in declaration order.

    Views made by the rules hold plain Python values (ints, strings, tuples, ``None``),
    so two Views of a game give the same text exactly when they are equal.
    """
    return " ".join([f"{name}={getattr(view, name)!r}" for name in _field_names(type(view))])


# ------------------------------------------------------------------------ tables


@functools.lru_cache(maxsize=128)
def _rules(env_name: str, num_players: int, options: tuple[tuple[str, Any], ...]) -> Game[Any, Any]:
    """The (cached) cardenvs rules object of a table."""
    return cardenvs.game_class(env_name)(num_players, **dict(options))


def _options_key(game: Game[Any, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(game.options.items()))


class _LazyRng:
    """A state's chance for one move: a generator made from its seed only if used."""

    __slots__ = ("seed", "rng")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng: np.random.Generator | None = None

    def __getattr__(self, name: str) -> Any:  # only for names not in __slots__: the generator's
        if self.rng is None:
            self.rng = np.random.default_rng(self.seed)
        return getattr(self.rng, name)

    def next_seed(self) -> int:
        """The state's seed after this move (unchanged if the move drew nothing)."""
        if self.rng is None:
            return self.seed
        return int(self.rng.integers(_SEED_BOUND))


class _Core:
    """What an OpenSpiel state holds: the cardenvs state and its chance seed.

    Dealt on first use (from the game's sequence of deal seeds); ``copy.deepcopy``
    (which OpenSpiel's ``State.clone()`` applies) clones it through ``Game.clone``, and
    pickling (``serialize()``) keeps the table's name, options, state and seed.
    """

    __slots__ = ("game", "state", "seed", "deal")

    def __init__(self, game: Game[Any, Any], state: Any = None, seed: int = 0,
                 deal: Callable[[], int] | None = None) -> None:
        self.game = game
        self.state = state
        self.seed = seed
        self.deal = deal

    def ensure(self) -> Any:
        """The cardenvs state, dealt now if it was not yet."""
        s = self.state
        if s is None:
            assert self.deal is not None, "a state with nothing to deal from"
            rng = np.random.default_rng(self.deal())
            s = self.state = self.game.new_state(rng)
            self.seed = int(rng.integers(_SEED_BOUND))
            self.deal = None
        return s

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        state = self.ensure()
        return _Core(self.game, self.game.clone(state), self.seed)

    def __reduce__(self) -> tuple[Any, ...]:
        state = self.ensure()
        g = self.game
        return (_restore_core, (g.env_name, g.num_players, _options_key(g), state, self.seed))


def _restore_core(env_name: str, num_players: int, options: tuple[tuple[str, Any], ...],
                  state: Any, seed: int) -> _Core:
    return _Core(_rules(env_name, num_players, tuple(options)), state, seed)


# ------------------------------------------------------------------- the game type


def _parameter_spec(cls: type[Game[Any, Any]]) -> dict[str, Any]:
    spec: dict[str, Any] = {"num_players": cls.default_players, "rng_seed": -1}
    for name, option in cls.OPTIONS.items():
        spec[name] = _to_param(option, option.default)
    return spec


def _game_type(cls: type[Game[Any, Any]], num_players: int | None) -> Any:
    """The OpenSpiel GameType of a game; ``num_players=None``: the registered one."""
    zero_sum = num_players == 2
    return pyspiel.GameType(
        short_name=f"python_cardenvs_{cls.name}",
        long_name=f"cardenvs {cardenvs.entry(cls.env_name).title} ({cls.env_name})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(cls),
    )


# ------------------------------------------------------------------------ the game


class CardenvsGame(pyspiel.Game):
    """A cardenvs game (one table: seat count and options) as an OpenSpiel game.

    ``rules`` is the cardenvs :class:`~cardenvs.core.game.Game` it wraps.
    """

    #: the cardenvs environment (set by the class registered for each game)
    env_name: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        env_name = self.env_name
        cls = cardenvs.game_class(env_name)
        spec = _parameter_spec(cls)
        values = {**spec, **dict(params or {})}
        unknown = sorted(set(values) - set(spec))
        if unknown:
            raise ValueError(f"{short_name(env_name)}: unknown parameter(s) {', '.join(unknown)}; "
                             f"the parameters are {', '.join(spec)}")
        options = {k: _from_param(o, values[k]) for k, o in cls.OPTIONS.items()}
        table = tuple(sorted(options.items()))
        self.rules: Game[Any, Any] = _rules(env_name, int(values["num_players"]), table)
        n = self.rules.num_players
        self.rng_seed = int(values["rng_seed"])
        self._deals = np.random.default_rng(None if self.rng_seed < 0 else self.rng_seed)
        info = pyspiel.GameInfo(
            num_distinct_actions=cls.num_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if n == 2 else None,
            max_game_length=max_game_length(self.rules),
        )
        super().__init__(_game_type(cls, n), info, values)

    def _next_deal(self) -> int:
        return int(self._deals.integers(_SEED_BOUND))

    def new_initial_state(self) -> CardenvsState:
        """A new game, dealt (from the game's next deal seed) when first used."""
        return CardenvsState(self)

    def wrap(self, state: Any, seed: int | np.random.Generator | None = None) -> CardenvsState:
        """An OpenSpiel state holding a copy of the cardenvs ``state`` of this table.

        ``seed`` (an int, or a generator to draw one from; ``None``: fresh entropy) seeds
        the chance of its later moves.  The history of the new state is empty.
        """
        if isinstance(seed, np.random.Generator):
            seed = int(seed.integers(_SEED_BOUND))
        elif seed is None:
            seed = int(np.random.default_rng().integers(_SEED_BOUND))
        out = CardenvsState(self)
        out._core = _Core(self.rules, self.rules.clone(state), int(seed))
        return out

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        """The observer of a player's View (OpenSpiel's ``make_observation`` uses it)."""
        return ViewObserver(self.rules, iig_obs_type, params)


class ViewObserver:
    """OpenSpiel's Python observer of the player's View: ``tensor`` is
    ``Game.encode(view)``, the string :func:`view_text`; with ``perfect_recall`` (the
    information state) the string is the player's history
    (:meth:`CardenvsState.history_text`) and there is no tensor."""

    def __init__(self, rules: Game[Any, Any], iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and (
            not iig_obs_type.public_info
            or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "cardenvs games observe a player's own View only (public information and the "
                "player's private information)"
            )
        self.rules = rules
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self.tensor = np.zeros(0 if self.perfect_recall else rules.observation_size(), np.float32)
        self.dict = {"view": self.tensor} if not self.perfect_recall else {}

    def set_from(self, state: CardenvsState, player: int) -> None:
        """Write ``player``'s encoded View of ``state`` into :attr:`tensor`."""
        if self.perfect_recall:
            raise ValueError("cardenvs games have no information-state tensor (a history has no fixed "
                             "size); use information_state_string, or observation_tensor for the View")
        self.tensor[:] = self.rules.observe(state.core_state(), player)

    def string_from(self, state: CardenvsState, player: int) -> str:
        """``player``'s View of ``state`` as canonical text (with perfect recall: their history)."""
        if self.perfect_recall:
            return state.history_text(player)
        return view_text(self.rules.view(state.core_state(), player))


# ----------------------------------------------------------------------- the state


class _Root:
    """The position a state's history starts from, with its chance seed: shared by the
    state's clones (``copy.deepcopy`` gives the object itself), never edited."""

    __slots__ = ("state", "seed")

    def __init__(self, state: Any, seed: int) -> None:
        self.state = state
        self.seed = seed

    def __deepcopy__(self, memo: dict[int, Any]) -> _Root:
        return self


class CardenvsState(pyspiel.State):
    """An OpenSpiel state wrapping one cardenvs state (see the module docstring)."""

    def __init__(self, game: CardenvsGame) -> None:
        super().__init__(game)
        self._core = _Core(game.rules, deal=game._next_deal)
        #: where the recorded moves start from (set before the first move)
        self._root: _Root | None = None
        #: the action ids applied since ``_root``
        self._moves: list[int] = []
        #: player -> their history before ``_root`` (a resampled state keeps the resampler's)
        self._past: dict[int, str] = {}
        #: every player's history lines, once asked for (then kept up to date by each move)
        self._lines: list[list[str]] | None = None

    def _start(self) -> _Root:
        """The root of the recorded history (the current position if nothing was played)."""
        if self._root is None:
            core = self._core
            self._root = _Root(core.game.clone(core.ensure()), core.seed)
        return self._root

    def _history_lines(self) -> list[list[str]]:
        """Every player's history as lines, replayed from the root on the first request
        and kept up to date by each later move (so a game that is asked at every step
        pays for every View once, not once per request)."""
        if self._lines is None:
            g = self._core.game
            root = self._start()
            s = g.clone(root.state)
            seed = root.seed
            n = g.num_players
            lines = [[self._past[p] if p in self._past else f"view {view_text(g.view(s, p))}"]
                     for p in range(n)]
            for k, action in enumerate(self._moves, 1):
                mover = g.current_player(s)
                chance = _LazyRng(seed)
                g.apply(s, action, cast(np.random.Generator, chance))
                seed = chance.next_seed()
                self._extend(lines, g, s, k, mover, action)
            self._lines = lines
        return self._lines

    @staticmethod
    def _extend(lines: list[list[str]], g: Game[Any, Any], s: Any, k: int, mover: int, action: int) -> None:
        for p, own in enumerate(lines):
            own.append(f"move {k} seat {mover} {g.describe_action(action)}" if p == mover
                       else f"move {k} seat {mover}")
            own.append(f"view {view_text(g.view(s, p))}")

    def history_text(self, player: int) -> str:
        """``player``'s information state: their Views and own moves since the deal (see
        the module docstring); what ``information_state_string(player)`` answers."""
        n = self._core.game.num_players
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < n:
            raise ValueError(f"player must be a seat 0..{n - 1}, got {player!r}")
        return "\n".join(self._history_lines()[int(player)])

    # -------------------------------------------------------------- the wrapped state
    @property
    def rules(self) -> Game[Any, Any]:
        """The cardenvs rules object of the table."""
        return self._core.game

    def core_state(self) -> Any:
        """The wrapped cardenvs state (live: do not edit it)."""
        return self._core.ensure()

    @property
    def chance_seed(self) -> int:
        """The seed of the chance of this state's later moves."""
        self._core.ensure()
        return self._core.seed

    # ---------------------------------------------------------------- OpenSpiel API
    def current_player(self) -> int:
        """The seat to move, or ``pyspiel.PlayerId.TERMINAL``."""
        s = self._core.ensure()
        g = self._core.game
        if g.is_terminal(s) or g.is_truncated(s):
            return int(pyspiel.PlayerId.TERMINAL)
        return int(g.current_player(s))

    def _legal_actions(self, player: int) -> list[int]:
        """The legal actions of the seat to move, ascending."""
        return list(self._core.game.legal_actions(self._core.ensure()))

    def _apply_action(self, action: int) -> None:
        """Play ``action`` through ``Game.apply`` (chance from the state's own seed)."""
        core = self._core
        self._start()
        s = core.ensure()
        g = core.game
        mover = g.current_player(s)
        chance = _LazyRng(core.seed)
        g.apply(s, int(action), cast(np.random.Generator, chance))
        core.seed = chance.next_seed()
        self._moves.append(int(action))
        if self._lines is not None:
            self._extend(self._lines, g, s, len(self._moves), mover, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        """The move text (the game's notation) of ``action``."""
        return self._core.game.describe_action(action)

    def is_terminal(self) -> bool:
        """Whether the game has ended (or been cut off by the rules)."""
        s = self._core.ensure()
        g = self._core.game
        return bool(g.is_terminal(s) or g.is_truncated(s))

    def returns(self) -> list[float]:
        """``Game.returns``: +1 a sole winner, 0 each sharer, -1 the others; zeros before."""
        return [float(r) for r in self._core.game.returns(self._core.ensure())]

    def __str__(self) -> str:
        """The full state as position JSON (every hand and the pile order: for debugging)."""
        return json.dumps(self._core.game.to_json(self._core.ensure()), sort_keys=True)

    def view(self, player: int) -> Any:
        """``player``'s View of the state (their information set in cardenvs)."""
        return self._core.game.view(self._core.ensure(), player)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> CardenvsState:
        """A state ``player_id`` cannot tell from this one, drawn from their View only.

        ``Game.sample_state(view, rng)`` re-deals what the player cannot see, with an
        ``rng`` seeded by four draws of ``probability_sampler`` (a callable giving
        uniform floats in [0, 1), such as ``pyspiel.UniformProbabilitySampler``); the
        new state's future chance is drawn from the same ``rng``.
        """
        seed = [int(probability_sampler() * 2**32) & 0xFFFFFFFF for _ in range(4)]
        return self._resample(player_id, np.random.default_rng(seed))

    def resample_with(self, player_id: int, rng: np.random.Generator) -> CardenvsState:
        """:meth:`resample_from_infostate` with a numpy generator."""
        return self._resample(player_id, rng)

    def _resample(self, player_id: int, rng: np.random.Generator) -> CardenvsState:
        g = self._core.game
        view = g.view(self._core.ensure(), player_id)
        out = CardenvsState(self.get_game())
        out._core = _Core(g, g.sample_state(view, rng), int(rng.integers(_SEED_BOUND)))
        out._past = {player_id: self.history_text(player_id)}
        return out


# ------------------------------------------------------------------------ evaluator


class CoreRolloutEvaluator(mcts.Evaluator):
    """``mcts.RandomRolloutEvaluator`` for these games, played on the cardenvs state.

    Each evaluation plays ``n_rollouts`` uniformly random games out from a copy of the
    wrapped state, with the evaluator's own seeded randomness for the moves and for the
    game's chance.  ``max_moves`` cuts a rollout short; ``leaf_value(game, state)`` then
    values it (a list of one value per seat; by default zeros, as OpenSpiel's does).
    The prior is uniform over the legal actions.
    """

    def __init__(
        self,
        n_rollouts: int = 1,
        max_moves: int | None = None,
        leaf_value: Callable[[Game[Any, Any], Any], list[float]] | None = None,
        seed: int | None = None,
    ) -> None:
        self.n_rollouts = n_rollouts
        self.max_moves = max_moves
        self.leaf_value = leaf_value
        seeds = np.random.SeedSequence(seed).generate_state(2)
        self._pick = random.Random(int(seeds[0]))
        self._chance = np.random.default_rng(int(seeds[1]))

    def evaluate(self, state: CardenvsState) -> np.ndarray:
        """Mean returns of the rollouts from ``state`` (one value per seat)."""
        game = state.rules
        total = np.zeros(game.num_players)
        for _ in range(self.n_rollouts):
            total += self._rollout(game, game.clone(state.core_state()))
        return total / self.n_rollouts

    def _rollout(self, game: Game[Any, Any], s: Any) -> np.ndarray:
        pick = self._pick.randrange
        chance = self._chance
        moves = 0
        limit = self.max_moves
        while not (game.is_terminal(s) or game.is_truncated(s)):
            if limit is not None and moves >= limit:
                if self.leaf_value is None:
                    return np.zeros(game.num_players)
                return np.asarray(self.leaf_value(game, s), float)
            legal = game.legal_actions(s)
            game.apply(s, legal[pick(len(legal))], chance)
            moves += 1
        return np.asarray(game.returns(s), float)

    def prior(self, state: CardenvsState) -> list[tuple[int, float]]:
        """Uniform over the legal actions."""
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


# ---------------------------------------------------------------- registering, loading


#: the OpenSpiel game class of each environment (the factory registered with OpenSpiel)
_GAME_CLASSES: dict[str, type[CardenvsGame]] = {}


def _register(env_name: str) -> None:
    """Register the game under its short name (once per process).

    The factory is a class made for the game: OpenSpiel keeps the factory until the
    process ends, after Python has shut down, and a class (unlike a closure or a
    ``functools.partial``, which would be freed then and abort the exit) outlives that.
    """
    cls = cardenvs.game_class(env_name)
    name = f"python_cardenvs_{cls.name}"
    if name in pyspiel.registered_names():
        return
    factory = type(f"Cardenvs{cls.__name__}", (CardenvsGame,), {"env_name": env_name, "__module__": __name__})
    _GAME_CLASSES[env_name] = factory
    pyspiel.register_game(_game_type(cls, None), factory)


#: the OpenSpiel short name of every cardenvs environment, registered on import
SHORT_NAMES: dict[str, str] = {}
for _env in cardenvs.GAMES:
    _register(_env)
    SHORT_NAMES[_env] = short_name(_env)


def load_game(env_name: str, num_players: int | None = None, *, rng_seed: int = -1,
              **options: Any) -> CardenvsGame:
    """The OpenSpiel game of a cardenvs environment (a name of ``cardenvs.GAMES``) at one table.

    ``options`` are the game's options (``None`` allowed where the game allows it);
    ``rng_seed`` seeds the sequence of deals (-1: fresh entropy).  The options are checked
    by the cardenvs game (``OptionError`` names the allowed values).
    """
    cls = cardenvs.game_class(env_name)
    rules = cls(num_players, **options)  # validates before OpenSpiel sees anything
    return from_game(rules, rng_seed=rng_seed)


def from_game(rules: Game[Any, Any], rng_seed: int = -1) -> CardenvsGame:
    """The OpenSpiel game of a cardenvs rules object (same seat count and options)."""
    cls = type(rules)
    _register(rules.env_name)  # a game registered with cardenvs after this module was imported
    params: dict[str, Any] = {"num_players": rules.num_players, "rng_seed": int(rng_seed)}
    for name, value in rules.options.items():
        params[name] = _to_param(cls.OPTIONS[name], value)
    game = pyspiel.load_game(short_name(rules.env_name), params)
    assert isinstance(game, CardenvsGame)
    return game
