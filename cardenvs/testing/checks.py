"""The named checks of the contract every game keeps (see :mod:`cardenvs.testing`).

Each check is a plain function ``check_xxx(game, players, *, quick=False, seed=0,
options=None)``: ``game`` is an environment name, ``"module:attr"`` or a factory
(:data:`~cardenvs.testing.target.GameRef`), ``players`` the seat count.  It returns
``None`` when the game keeps that part of the contract and raises ``AssertionError``
saying what broke otherwise (an unexpected exception inside is reported as one too).
``quick`` plays fewer steps.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import io
import json
import random
import re
import warnings
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import numpy as np

from ..core.game import Game, taken_from_top
from .compare import assert_envs_agree, assert_same, copies, play_in_lockstep
from .target import GameRef, Target, resolve

F = TypeVar("F", bound=Callable[..., None])

#: the most moves any check plays of one game (a cap for games that might not end)
MAX_STEPS = 5000
#: the most moves of one game a quick check plays (besides the copy check, which plays to the end)
QUICK_STEPS = 200


def contract_check(fn: F) -> F:
    """Mark ``fn`` as a check: any exception but ``AssertionError`` inside becomes an
    ``AssertionError`` naming the check, the game, the seat count and the error."""

    @functools.wraps(fn)
    def wrapper(game: GameRef, players: int, **kwargs: Any) -> None:
        try:
            fn(game, players, **kwargs)
        except AssertionError:
            raise
        except Exception as err:  # the game broke the check some other way: say how
            name = game.name if isinstance(game, Target) else game
            raise AssertionError(f"{fn.__name__}({name!r}, {players}): {type(err).__name__}: {err}") from err

    return wrapper  # type: ignore[return-value]


# ---------------------------------------------------------------------- helpers
def _mover_action(env: Any, rng: np.random.Generator) -> Any:
    """A random legal action of the agent to act (by its mask), ``None`` once it is done."""
    obs, _, term, trunc, _ = env.last()
    if term or trunc:
        return None
    legal = np.flatnonzero(obs["action_mask"])
    assert len(legal), f"{env.agent_selection} must act but its action mask is empty"
    return int(rng.choice(legal))


def _env_steps(env: Any, rng: np.random.Generator, max_steps: int = MAX_STEPS) -> Iterator[int]:
    """Yield the step number before each move of random play, to the end or ``max_steps``."""
    step = 0
    while env.agents and step < max_steps:
        yield step
        env.step(_mover_action(env, rng))
        step += 1


def _positions(game: Game[Any, Any], seed: int, games: int, max_steps: int, every: int) -> Iterator[Any]:
    """States of random games (each game's start, every ``every``-th move and its end)."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        s = game.new_state(rng)
        for step in range(max_steps):
            if game.is_terminal(s) or game.is_truncated(s):
                break
            if step % every == 0:
                yield s
            legal = game.legal_actions(s)
            game.apply(s, legal[int(rng.integers(len(legal)))], rng)
        yield s


def _designs(game: Game[Any, Any]) -> list[Any]:
    """The learner observations (``planes``, ``action_features``) of the game, when it has them."""
    from ..core.observers import OBSERVATIONS, Observer, features_module

    try:
        features_module(game)
    except ModuleNotFoundError as err:
        if err.name in (f"cardenvs.{game.name}", f"cardenvs.{game.name}.features"):
            return []  # the game has no features module
        raise
    return [Observer(game, name) for name in OBSERVATIONS[1:]]


def _raw(env: Any) -> Any:
    return env.unwrapped


def _env_state(env: Any) -> dict[str, Any]:
    """What a refused call must leave as it was: the position, the bookkeeping, the agent
    to move, every agent's observation and the environment's generator."""
    raw = _raw(env)
    rng = getattr(raw, "_np_random", None)
    plain, arrays = assert_envs_agree([env], every_seat=True)[0]
    return {
        "plain": plain,
        "arrays": arrays,
        "rng": None if rng is None else json.dumps(rng.bit_generator.state, default=str),
    }


def _assert_unchanged(before: dict[str, Any], env: Any, what: str) -> None:
    after = _env_state(env)
    for key in ("plain", "rng"):
        assert after[key] == before[key], f"{what} changed the environment ({key})"
    assert_same(before["arrays"], after["arrays"], f"{what} changed an observation")


def _global_rng_state() -> tuple[Any, ...]:
    legacy: Any = np.random.get_state()
    return (legacy[0], bytes(np.asarray(legacy[1]).tobytes()), *legacy[2:], random.getstate())


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """PettingZoo's tests without their printout and their advice (a Dict observation
    space is what the card environments have)."""
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=UserWarning, module=r"pettingzoo\.test")
        yield


# ------------------------------------------------------------------- the checks
@contract_check
def check_api(
    game: GameRef, players: int, *, quick: bool = False, seed: int = 0, options: dict[str, Any] | None = None
) -> None:
    """PettingZoo's ``api_test`` passes (its printout is swallowed)."""
    from pettingzoo.test import api_test

    t = resolve(game, options)
    with _quiet():
        api_test(t.make(players), num_cycles=300 if quick else 1000)


@contract_check
def check_seed(
    game: GameRef, players: int, *, quick: bool = False, seed: int = 0, options: dict[str, Any] | None = None
) -> None:
    """PettingZoo's ``seed_test`` passes, and ``reset(seed)`` twice deals the same position
    and seeds the action spaces alike."""
    from pettingzoo.test import seed_test

    t = resolve(game, options)
    with _quiet():
        seed_test(functools.partial(t.make, players), num_cycles=300 if quick else 1000)
    shown = []
    for _ in range(2):
        env = t.make(players)
        env.reset(seed=seed)
        draws = [int(env.action_space(a).sample()) for a in env.possible_agents for _ in range(3)]
        shown.append((_raw(env).state_json(), draws))
    assert shown[0] == shown[1], f"reset(seed={seed}) twice dealt different positions or action-space draws"


@contract_check
def check_copy(
    game: GameRef, players: int, *, quick: bool = False, seed: int = 0, options: dict[str, Any] | None = None
) -> None:
    """Pickle and deepcopy at any point (before the first reset, after it, after some
    steps, after the end) give copies that play on exactly as the original: the same
    agent to move, observations, rewards, terminations, truncations, infos, agents and
    position at every step, through a new seeded game too."""
    t = resolve(game, options)
    checkpoints = (0, 1, 3, 17)
    env = t.make(players)
    envs = [env, *copies(env)]  # copies of an environment never reset
    for e in envs:
        e.reset(seed=seed + players)
    rng = np.random.default_rng(seed + players)
    steps = play_in_lockstep(envs, rng, checkpoints, max_steps=MAX_STEPS)
    reached = sum(k < steps for k in checkpoints)
    assert reached >= 3, f"the game ended after {steps} steps: copies were taken at {reached} points only"
    envs += copies(env)  # copies of the finished game, then every one deals the same next game
    assert_envs_agree(envs)
    for e in envs:
        e.reset(seed=seed + players + 100)
    play_in_lockstep(envs, rng, (), max_steps=100 if quick else MAX_STEPS)


@contract_check
def check_json(
    game: GameRef, players: int, *, quick: bool = False, seed: int = 0, options: dict[str, Any] | None = None
) -> None:
    """``state_json()`` after any play is plain JSON, and ``reset(options={"state": it})``
    (as an object or as JSON text) loads the same position: same ``state_json``, agent to
    move, observations and masks.  ``Game.from_json`` of it plays on identically."""
    t = resolve(game, options)
    env, other = t.make(players), t.make(players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    every, cut = (4, QUICK_STEPS) if quick else (1, MAX_STEPS)
    continued = 0
    for step in _env_steps(env, rng, cut):
        if step % every:
            continue
        pos = _raw(env).state_json()
        text = json.dumps(pos)
        assert json.loads(text) == pos, f"step {step}: state_json() is not plain JSON (tuples, numpy values?)"
        for given in (pos, text):
            other.reset(options={"state": given})
            assert _raw(other).state_json() == pos, f"step {step}: the loaded position's state_json differs"
            if all(other.terminations.values()) != all(env.terminations.values()):
                raise AssertionError(f"step {step}: the loaded position's terminations differ")
            if any(env.terminations.values()) or any(env.truncations.values()):
                if len(env.agents) == len(env.possible_agents):
                    assert other.rewards == env.rewards, (
                        f"step {step}: the loaded final position's rewards differ"
                    )
                continue  # over: the agents step None in an order of the environment's own
            assert other.agent_selection == env.agent_selection, (
                f"step {step}: another agent to move after loading"
            )
            for agent in env.agents:
                assert_same(
                    env.observe(agent),
                    other.observe(agent),
                    f"step {step}: {agent}'s observation after loading",
                )
        if step in (0, 7, 31) and continued < (1 if quick else 3):
            continued += 1
            _continue_identically(_raw(env).game, _raw(env).state, pos, seed + step, 40 if quick else 400)


def _continue_identically(
    game: Game[Any, Any], state: Any, pos: dict[str, Any], seed: int, steps: int
) -> None:
    """``from_json(pos)`` and a clone of ``state`` play on alike with twin generators."""
    a, b = game.clone(state), game.from_json(pos)
    ra, rb = np.random.default_rng(seed), np.random.default_rng(seed)
    for k in range(steps):
        if game.is_terminal(a):
            break
        legal = game.legal_actions(a)
        assert game.legal_actions(b) == legal, f"{k} moves after loading: other legal moves"
        action = legal[int(ra.integers(len(legal)))]
        rb.integers(len(legal))
        game.apply(a, action, ra)
        game.apply(b, action, rb)
        assert game.to_json(a) == game.to_json(b), f"{k + 1} moves after loading: the positions differ"
    assert game.is_terminal(a) == game.is_terminal(b) and game.returns(a) == game.returns(b)


#: action ids of the wrong type: each must be refused with a ValueError
WRONG_TYPES: tuple[Any, ...] = ("0", 0.0, 1.5, True, np.bool_(False), [0], np.float32(0), b"0")


def _bad_actions(num_actions: int, mask: np.ndarray) -> list[tuple[str, Any]]:
    illegal = [("illegal", int(a)) for a in np.flatnonzero(mask == 0)[:3]]
    out_of_range = [("out of range", a) for a in (num_actions, num_actions + 7, -1, 10**12, -(10**30))]
    return illegal + out_of_range + [("wrong type", a) for a in WRONG_TYPES]


def _bad_positions(pos: dict[str, Any], players: int) -> tuple[list[Any], list[tuple[str, Any]]]:
    """Malformed positions every game must refuse, and mutations of ``pos`` a game must
    either refuse with a ValueError or load as a valid position."""
    text = json.dumps(pos)
    deep: Any = [1]
    for _ in range(12):
        deep = [deep]
    refused: list[Any] = [
        "{not json",
        text[: max(1, len(text) - 3)],
        "[1, 2]",
        "7",
        "",
        [1, 2],
        7,
        {},
        {"game": "no_such_game"},
        "[" * 5000 + "]" * 5000,
    ]
    if "game" in pos:
        refused.append({**pos, "game": "no_such_game"})
    first_list = next((k for k, v in pos.items() if isinstance(v, list)), None)
    if first_list is not None:
        refused += [{**pos, first_list: deep}, {**pos, first_list: list(range(100_000))}]
    mutated: list[tuple[str, Any]] = []
    for key in pos:
        mutated.append((f"without {key!r}", {k: v for k, v in pos.items() if k != key}))
        odd: tuple[Any, ...] = (None, "x", -1, [[]], {"a": 1}, 1.5)
        for value in odd:
            mutated.append((f"{key!r} = {value!r}", {**pos, key: value}))
    if isinstance(pos.get("num_players"), int):
        mutated.append(("another seat count", {**pos, "num_players": players + 1}))
    return refused, mutated


@contract_check
def check_bad_input(
    game: GameRef, players: int, *, quick: bool = False, seed: int = 0, options: dict[str, Any] | None = None
) -> None:
    """Bad actions are refused with a ``ValueError`` and change nothing (position,
    bookkeeping, observations, the environment's generator): an illegal id, ids out of
    range, ids of the wrong type.  A malformed position (not JSON, not an object, deep or
    huge, another game) is refused by ``reset(options={"state": ...})`` with a short
    ``ValueError`` and leaves the environment as it was; a mutated one is refused so or
    loads as a valid position (never another exception)."""
    t = resolve(game, options)
    env = t.make(players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    checked = 0
    num_actions = _raw(env).game.num_actions
    for step in _env_steps(env, rng, 6 if quick else 40):
        if step not in (0, 5, 11, 23, 39):
            continue
        checked += 1
        before = _env_state(env)
        for kind, action in _bad_actions(num_actions, env.last()[0]["action_mask"]):
            what = f"step {step}: stepping {kind} action {action!r}"
            try:
                env.step(action)
            except ValueError as err:
                assert str(err), f"{what} raised a ValueError with no message"
            else:
                raise AssertionError(f"{what} was accepted")
            _assert_unchanged(before, env, what)
        if step == (0 if quick else 5):
            _check_bad_positions(env, players, before)
    assert checked, "the game ended before any bad input was tried"


def _check_bad_positions(env: Any, players: int, before: dict[str, Any]) -> None:
    pos = before["plain"]["state"]
    refused, mutated = _bad_positions(pos, players)
    for bad in refused:
        what = f"reset(options={{'state': {str(bad)[:60]}}})"
        try:
            env.reset(options={"state": bad})
        except ValueError as err:
            assert 0 < len(str(err)) < 1000, (
                f"{what}: the error message is empty or {len(str(err))} characters"
            )
        else:
            raise AssertionError(f"{what} was accepted")
        _assert_unchanged(before, env, what)
    for name, bad in mutated:
        what = f"loading the position {name}"
        try:
            env.reset(options={"state": bad})
        except ValueError:
            _assert_unchanged(before, env, what + " (refused)")
            continue
        loaded = _raw(env).state_json()
        again = _raw(env).game.from_json(loaded)
        assert _raw(env).game.to_json(again) == loaded, (
            f"{what}: accepted, but its state_json does not reload"
        )
        env.reset(options={"state": pos})  # back to the position (a load leaves the generator)
    _assert_unchanged(before, env, "loading mutated positions, then the position again")


@contract_check
def check_global_rng(
    game: GameRef, players: int, *, quick: bool = False, seed: int = 0, options: dict[str, Any] | None = None
) -> None:
    """No global generator is used: ``reset``, ``step``, ``observe``, ``state_json``,
    loading a position, ``Game.sample_state`` and ``redraw_unseen`` leave the state of
    numpy's global generator and of the ``random`` module as they were, and play from a
    seed is the same whatever those generators hold."""
    t = resolve(game, options)

    def play(disturb: int | None) -> list[Any]:
        env = t.make(players)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        trace: list[Any] = []
        for _ in _env_steps(env, rng, QUICK_STEPS if quick else MAX_STEPS):
            if disturb is not None:
                random.seed(disturb)
                np.random.seed(disturb)
                disturb += 1
            trace.append(_raw(env).state_json())
            for agent in env.agents:
                trace.append(env.observe(agent)["observation"].tobytes())
        return trace

    random.seed(seed)
    np.random.seed(seed)
    before = _global_rng_state()
    first = play(None)
    env = t.make(players)
    env.reset(seed=seed + 1)
    env.reset(options={"state": _raw(env).state_json()})
    g = _raw(env).game
    local = np.random.default_rng(seed)
    for s in _positions(g, seed, 1, 30, 10):
        for p in range(g.num_players):
            g.sample_state(g.view(s, p), local)
        with contextlib.suppress(NotImplementedError):
            g.redraw_unseen(g.clone(s), local)
    assert _global_rng_state() == before, "the game drew from numpy's global generator or the random module"
    assert play(11) == first, "play from a seed changes with the global generators' state"


def _table(doc: str, header: str) -> list[list[str]] | None:
    """Rows of the markdown table whose header line starts with ``header`` (``None``: no such table)."""
    lines = doc.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith(header)), None)
    if start is None:
        return None
    rows = []
    for line in lines[start + 2 :]:
        if not line.strip().startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def _check_observation_table(doc: str, cls: type[Game[Any, Any]]) -> None:
    rows = _table(doc, "| field | start | size |")
    assert rows is not None, "the spec has no observation table headed | field | start | size | description |"
    got = [(r[0].strip("`"), int(r[1]), int(r[2]), r[3] if len(r) > 3 else "") for r in rows]
    want = [(f.name, f.start, f.size, f.description) for f in cls.OBS_FIELDS]
    for k, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"observation table row {k}: the spec says {g}, the encoder's field is {w}"
    assert len(got) == len(want), f"the observation table has {len(got)} rows, the layout {len(want)} fields"
    stop = 0
    for f in cls.OBS_FIELDS:
        assert f.start == stop, f"observation field {f.name} starts at {f.start}, not {stop}"
        stop = f.stop
    assert stop == cls.observation_size()


def _check_action_table(doc: str, cls: type[Game[Any, Any]]) -> None:
    rows = _table(doc, "| actions | ids | meaning |")
    assert rows is not None, "the spec has no action table headed | actions | ids | meaning |"
    expect = 0
    for row in rows:
        match = re.fullmatch(r"(\d+)(?:\.\.(\d+))?", row[1].strip("`"))
        assert match, f"action table row {row}: ids must be a or a..b"
        lo, hi = int(match[1]), int(match[2] or match[1])
        assert lo == expect and hi >= lo, f"action table row {row}: ids should start at {expect}"
        expect = hi + 1
    assert expect == cls.num_actions, (
        f"the action table covers 0..{expect - 1}, the space is 0..{cls.num_actions - 1}"
    )


def _check_option_table(doc: str, cls: type[Game[Any, Any]], env_class: type[Any]) -> None:
    rows = _table(doc, "| option | default | allowed | meaning |")
    assert rows is not None, "the spec has no options table headed | option | default | allowed | meaning |"
    defaults = {r[0].strip("`"): r[1].strip("`") for r in rows}
    construction = set(inspect.signature(env_class.__init__).parameters)
    unknown = sorted(set(defaults) - {"num_players", *cls.OPTIONS} - construction)
    assert not unknown, f"the options table lists {unknown}: neither game options nor environment arguments"
    assert defaults.get("num_players") == str(cls.default_players), (
        f"the options table gives num_players default {defaults.get('num_players')}, "
        f"the game {cls.default_players}"
    )
    for name, opt in cls.OPTIONS.items():
        want = repr(opt.default).replace("'", '"')
        assert defaults.get(name) == want, (
            f"the options table gives {name} default {defaults.get(name)}, the game {want}"
        )


def _check_design_tables(doc: str, game: Game[Any, Any]) -> None:
    from ..core.observers import OBSERVATIONS, features_module, layout_table

    f = features_module(game)
    for layout, header in ((f.PLANES, "channel"), (f.ACTION_FEATURES, "column")):
        head = f"| {header} | start | size | range | description |"
        assert _table(doc, head) == _table(layout_table(layout, header), head), (
            f"the spec's {header} table differs from the layout in {f.__name__}"
        )
        for fld in layout.fields:  # one range per field, as the table prints it
            lows, highs = layout.low[fld.start : fld.stop], layout.high[fld.start : fld.stop]
            assert np.all(lows == lows[0]) and np.all(highs == highs[0]), (
                f"{header} {fld.name} has more than one range: the table cannot print it"
            )
    assert f"Box(0, 1, {(f.PLANES.size, *f.PLANE_SHAPE)}, float32)" in doc, "the spec misses the planes Box"
    assert f"Box({(game.num_actions, f.ACTION_FEATURES.size)}, float32)" in doc, (
        "the spec misses the action_features Box"
    )
    rows = {r[0]: r for r in _table(doc, "| option | default | allowed | meaning |") or []}
    assert "observation" in rows and rows["observation"][2] == ", ".join(f'"{o}"' for o in OBSERVATIONS), (
        "the options table's observation row does not list the designs"
    )


@contract_check
def check_spec(
    game: GameRef,
    players: int,
    *,
    quick: bool = False,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    doc: str | None = None,
) -> None:
    """The environment module's docstring (the spec) matches the code: the observation
    table (``| field | start | size | description |``) is the encoder's layout, field by
    field; the action table (``| actions | ids | meaning |``) covers the action space in
    order; the options table gives the defaults; where the game has learner observations,
    their tables are the layouts.  ``doc`` overrides the docstring read."""
    t = resolve(game, options)
    text = t.doc if doc is None else doc
    assert text, f"{t.name}: the environment module has no docstring (its spec)"
    _check_observation_table(text, t.game_class)
    _check_action_table(text, t.game_class)
    probe = t.make(players).unwrapped
    _check_option_table(text, t.game_class, type(probe))
    g = t.game(players)
    if _designs(g):
        _check_design_tables(text, g)


@contract_check
def check_notation(
    game: GameRef, players: int, *, quick: bool = False, seed: int = 0, options: dict[str, Any] | None = None
) -> None:
    """Every action id reads back from its notation (``str_to_action(action_to_str(a)) == a``)
    and malformed move text is refused with a ``ValueError``."""
    g = resolve(game, options).game(players)
    for a in range(g.num_actions):
        text = g.action_to_str(a)
        assert g.str_to_action(text) == a, (
            f"action {a}: its text {text!r} reads back as {g.str_to_action(text)}"
        )
    for bad in ["", "   ", "fly away", "play", "42 42 42 42 42"]:
        try:
            g.str_to_action(bad)
        except ValueError:
            continue
        raise AssertionError(f"the move text {bad!r} was accepted")


@contract_check
def check_view_leak(
    game: GameRef, players: int, *, quick: bool = False, seed: int = 0, options: dict[str, Any] | None = None
) -> None:
    """No observation reads what its player cannot see: at random positions, for every
    seat, a state dealt from the seat's View (``sample_state``) gives the seat the same
    observation (and learner observations), and re-ordering the unseen cards
    (``redraw_unseen``) changes no seat's observation nor the legal moves.  The View
    also round-trips (``decode`` of the observation or of ``env.last()``'s dict is the View,
    ``observe`` equals ``encode(view)``), and a dealt state is a loadable position."""
    g = resolve(game, options).game(players)
    designs = _designs(g)
    srng = np.random.default_rng(seed + 1)
    games, cut, every = (1, QUICK_STEPS, 6) if quick else (2, MAX_STEPS, 3)
    for k, s in enumerate(_positions(g, seed, games, cut, every)):
        seen = [g.observe(s, p) for p in range(g.num_players)]
        legal = g.legal_actions(s)
        for p in range(g.num_players):
            view = g.view(s, p)
            assert np.array_equal(g.encode(view), seen[p]), (
                f"position {k}: observe({p}) is not encode(view({p}))"
            )
            assert g.decode(seen[p]) == view, f"position {k}: decode(observation) is not seat {p}'s View"
            shown: Any = {"observation": seen[p], "action_mask": g.legal_mask(s)}
            assert g.decode(shown) == view, f"position {k}: decode(env.last()'s dict) is not seat {p}'s View"
            resampled = g.sample_state(view, srng)
            pos = g.to_json(resampled)
            assert g.to_json(g.from_json(pos)) == pos, (
                f"position {k}: a state sample_state dealt does not reload"
            )
            assert np.array_equal(g.observe(resampled, p), seen[p]), (
                f"position {k}: seat {p}'s observation changed when what it cannot see was "
                "re-dealt (sample_state)"
            )
            to_move = g.current_player(s) == p
            for obs in designs if k % 3 == 0 else []:
                assert np.array_equal(obs.observe(resampled, p, to_move), obs.observe(s, p, to_move)), (
                    f"position {k}: seat {p}'s {obs.name} observation reads hidden cards"
                )
        redrawn = g.clone(s)
        try:
            g.redraw_unseen(redrawn, srng)
        except NotImplementedError:
            continue
        for p in range(g.num_players):
            assert np.array_equal(g.observe(redrawn, p), seen[p]), (
                f"position {k}: seat {p}'s observation changed when the unseen cards were "
                "re-ordered (redraw_unseen)"
            )
        assert g.legal_actions(redrawn) == legal, f"position {k}: redraw_unseen changed the legal moves"


class _Recorder:
    """What ``redraw_unseen`` gets in :func:`check_draws`: ``order_unseen`` (read by
    :func:`cardenvs.core.game.shuffle_unseen`) records the face-down cards and puts them in
    an order of the check's choosing (``rotate`` places along; ``None``: as they are)."""

    def __init__(self, rotate: int | None) -> None:
        self.rotate = rotate
        self.calls: list[list[int]] = []

    def order_unseen(self, cards: list[int]) -> list[int]:
        out = list(cards)
        if self.rotate is not None and out:
            k = self.rotate % len(out)
            out = out[k:] + out[:k]
        self.calls.append(out)
        return out


def check_draws(
    game: GameRef, players: int, *, quick: bool = False, seed: int = 0, options: dict[str, Any] | None = None
) -> None:
    """Draws come from where the game says (``Game.UNSEEN_TOP``: the end or the front of
    the list ``redraw_unseen`` re-orders), as coupled draws (:mod:`agents.measure.coupling`)
    need: in random games, before each step that may meet chance, the face-down cards are
    put in an order of the check's choosing; when the step took ``j`` of them, they are the
    ``j`` at the named end and the rest keep their order.  Also: ``chance_owner`` is a seat
    or ``None``.  Passes trivially for a game whose ``redraw_unseen`` does not re-order
    through ``shuffle_unseen`` (it cannot be coupled)."""
    g = resolve(game, options).game(players)
    top = type(g).UNSEEN_TOP
    assert top in (0, -1), f"UNSEEN_TOP is 0 (the list's front) or -1 (its end), got {top!r}"
    rng = np.random.default_rng(seed)
    games, cut = (1, QUICK_STEPS) if quick else (2, MAX_STEPS)
    taken = 0
    for _ in range(games):
        s = g.new_state(rng)
        for step in range(cut):
            if g.is_terminal(s) or g.is_truncated(s):
                break
            legal = g.legal_actions(s)
            action = legal[int(rng.integers(len(legal)))]
            if g.has_chance(s, action):
                owner = g.chance_owner(s, action)
                assert owner is None or (isinstance(owner, int) and 0 <= owner < g.num_players), (
                    f"step {step}: chance_owner is a seat or None, got {owner!r}"
                )
                before = _Recorder(step)
                try:
                    g.redraw_unseen(s, before)  # type: ignore[arg-type]
                except NotImplementedError:
                    return
                if len(before.calls) != 1:
                    return  # not through shuffle_unseen (or several piles): not coupled
                g.apply(s, action, rng)
                after = _Recorder(None)
                g.redraw_unseen(s, after)  # type: ignore[arg-type]
                emitted, now = before.calls[0], after.calls[0]
                j = len(emitted) - len(now)
                if j <= 0:
                    continue  # nothing taken, or the pile grew (a reshuffle, a round)
                assert taken_from_top(emitted, now, top) == j, (
                    f"step {step}: a draw of {j} card(s) did not take them from the "
                    f"{'front' if top == 0 else 'end'} of the face-down list (UNSEEN_TOP = {top}), "
                    "or re-ordered the rest"
                )
                taken += 1
            else:
                g.apply(s, action, rng)
    if not quick:
        assert taken, "no step drew a face-down card: has_chance or redraw_unseen says nothing"


def _outside(space: Any, obs: np.ndarray, fields: Any) -> str:
    """Which observation fields lie outside ``space`` (a Box)."""
    low, high = np.asarray(space.low), np.asarray(space.high)
    bad = np.flatnonzero((obs < low) | (obs > high) | ~np.isfinite(obs))
    names = sorted({f.name for f in fields for i in bad if f.start <= i < f.stop})
    return (
        f"entries {bad[:8].tolist()} (fields {names}) leave the bounds"
        if len(bad)
        else f"dtype {obs.dtype} / shape {obs.shape} do not fit {space}"
    )


@contract_check
def check_bounds(
    game: GameRef, players: int, *, quick: bool = False, seed: int = 0, options: dict[str, Any] | None = None
) -> None:
    """Through random play every agent's observation lies inside its observation space
    (the Box bounds, dtype and shape; the learner observations inside theirs), the mask of
    the agent to move is the game's legal actions, and every other agent's mask is zero."""
    t = resolve(game, options)
    env = t.make(players)
    raw = _raw(env)
    designs = _designs(raw.game)
    for episode in range(1 if quick else 2):
        env.reset(seed=seed + episode)
        rng = np.random.default_rng(seed + episode)
        for step in _env_steps(env, rng, QUICK_STEPS if quick else MAX_STEPS):
            mover = env.agent_selection
            ended = env.terminations[mover] or env.truncations[mover]
            for agent in env.agents:
                obs = env.observe(agent)
                space = env.observation_space(agent)
                if not space.contains(obs):
                    inner = space["observation"]
                    if not inner.contains(obs["observation"]):
                        detail = _outside(inner, obs["observation"], raw.game.OBS_FIELDS)
                    else:
                        m = obs["action_mask"]
                        detail = f"its action mask {m.dtype}{m.shape} does not fit"
                    raise AssertionError(f"step {step}: {agent}'s observation is outside its space: {detail}")
                mask = obs["action_mask"]
                if agent == mover and not ended:
                    legal = raw.game.legal_actions(raw.state)
                    assert np.flatnonzero(mask).tolist() == legal, (
                        f"step {step}: {agent}'s mask is not the legal actions {legal[:10]}"
                    )
                else:
                    assert not mask.any(), f"step {step}: {agent} is not to act but its mask is not zero"
            assert_same(env.last()[0], env.observe(mover), f"step {step}: last() vs observe({mover})")
            if designs and step % 10 == 0:
                seat = raw.possible_agents.index(mover)
                for obs_design in designs:
                    a = obs_design.observe(raw.state, seat, not ended)
                    assert obs_design.space.contains(a), (
                        f"step {step}: the {obs_design.name} observation leaves its space"
                    )
