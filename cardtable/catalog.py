"""What the table offers per game, read from each game's kit (it names no game).

Seat counts and options come from each ``Game`` class (``OPTIONS``, ``validate_options``),
levels and names from the agents (``agents.players.ladder``, ``agents.players.knowledge``), a spectator's
view from the rules (``Game.public_view``), and every word, score, card text and board
fact from the game's table face (:class:`cardenvs.core.words.TableFace`, :func:`face`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, cast

import cardenvs
from agents.players.knowledge import cast as game_cast
from agents.players.ladder import playable_levels, unranked_levels
from agents.types import S, V
from cardenvs.core.game import Game, Option, OptionError, View
from cardenvs.core.words import TableFace, value_words
from cardenvs.registry import GAMES

from .types import GameResult, JsonDict, OptionsKey, TableGame

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

#: options a room may not set (the rules' default is used): a turn cap is a safety net
HIDDEN_OPTIONS: frozenset[str] = frozenset({"max_turns_per_round"})
#: the level computer seats get unless the room says otherwise
DEFAULT_LEVEL = "planner"
#: an option with at most this many allowed values is listed whole in ``combos``
_COMBO_LIMIT = 12


def env_names() -> list[str]:
    """The registered games."""
    return list(GAMES)


@cache
def game_class(env: str) -> type[TableGame]:
    """The rules class of a game (``ValueError`` naming the games if unknown)."""
    return cardenvs.registry.entry(env).game_class


@cache
def face(env: str) -> TableFace:
    """The game's table face: its words, scores, board facts and card texts."""
    return cardenvs.registry.entry(env).table_face()


def board_file(env: str) -> Path | None:
    """The board's JavaScript file of a registered game (``None``: no such game, or no board)."""
    if env not in GAMES:
        return None
    path = GAMES[env].board_file()
    return path if path is not None and path.is_file() else None


def board_url(env: str) -> str | None:
    """Where the client loads the game's board (``None``: the game has none; the client
    then shows its View as text)."""
    return f"/games/{env}/board.js" if cardenvs.registry.entry(env).board is not None else None


@lru_cache(maxsize=256)
def make_game(env: str, num_players: int, options_key: OptionsKey) -> TableGame:
    """A (cached, stateless) rules object for a table."""
    return game_class(env)(num_players, **dict(options_key))


def options_key(options: Mapping[str, object]) -> OptionsKey:
    """Hashable form of an options dict (for :func:`make_game`)."""
    return tuple(sorted(options.items()))


def _allowed_list(opt: Option) -> list[object]:
    return list(opt.allowed)


class OptionInfo(TypedDict, total=False):
    """One option for the lobby (:func:`_option_info`; ``min`` and ``max`` for a range)."""

    name: str
    default: object
    allowed: list[object]
    title: str
    help: str
    labels: list[str]
    min: int
    max: int


def _option_info(env: str, name: str, opt: Option) -> OptionInfo:
    """One option for the lobby: its values, and in players' words (from the game's table
    face) its title, what it does and each value (``labels``, beside ``allowed``)."""
    said = face(env).option_words.get(name)
    allowed = _allowed_list(opt)
    info: OptionInfo = {
        "name": name, "default": opt.default, "allowed": allowed,
        "title": said.title if said else name.replace("_", " ").capitalize(),
        "help": said.help if said and said.help else opt.doc,
        "labels": [said.value(v) if said else value_words(v) for v in allowed],
    }
    if isinstance(opt.allowed, range):
        info["min"] = opt.allowed.start
        info["max"] = opt.allowed.stop - 1
    return info


def option_text(env: str, name: str, value: object) -> str:
    """A room's option as a player reads it: ``"run-outs: no limit"``."""
    said = face(env).option_words.get(name)
    title = said.title if said else name.replace("_", " ")
    return f"{title.lower()}: {said.value(value) if said else value_words(value)}"


def _combos(env: str) -> JsonDict:
    """Allowed combinations of the seat count and the small discrete options, keeping
    only the options whose allowed values depend on the others."""
    cls = game_class(env)
    names = [n for n, o in cls.OPTIONS.items()
             if n not in HIDDEN_OPTIONS and len(o.allowed) <= _COMBO_LIMIT]
    keys = ["num_players", *names]
    domains: list[Sequence[object]] = [range(cls.min_players, cls.max_players + 1)]
    domains += [list(cls.OPTIONS[n].allowed) for n in names]
    valid: list[tuple[object, ...]] = []
    for combo in itertools.product(*domains):
        try:
            cls(cast(int, combo[0]), **dict(zip(names, combo[1:])))  # the first domain: seat counts
        except OptionError:
            continue
        valid.append(combo)
    total = 1
    for d in domains:
        total *= len(d)
    if len(valid) == total:
        return {"keys": [], "valid": []}
    # drop keys that never matter: the valid set is the full product over them
    keep = list(range(len(keys)))
    for i in range(len(keys) - 1, -1, -1):
        rest = [j for j in keep if j != i]
        current = {tuple(c[j] for j in keep) for c in valid}
        projected = {tuple(c[j] for j in rest) for c in valid}
        if i > 0 and len(projected) * len(domains[i]) == len(current):
            keep = rest
    rows = sorted({tuple(c[j] for j in keep) for c in valid}, key=lambda r: tuple(str(x) for x in r))
    return {"keys": [keys[j] for j in keep], "valid": [list(r) for r in rows]}


class GameInfo(TypedDict):
    """The lobby's description of one game (:func:`game_info`)."""

    name: str
    title: str
    blurb: str
    tile: list[int]
    board: str | None
    score_name: str
    result_note: str
    players: dict[str, int]
    options: list[OptionInfo]
    combos: JsonDict
    levels: list[str]
    level_peers: dict[str, str]
    default_level: str
    cast: list[str]
    cards: list[str | None]
    card_names: list[str | None]
    spot_names: dict[str, str]
    rules: str | None


@cache
def game_info(env: str) -> GameInfo:
    """The lobby's description of one game (``GET /api/games``)."""
    cls = game_class(env)
    entry = cardenvs.registry.entry(env)
    words = face(env)
    return {
        "name": env,
        "title": entry.title,
        "blurb": words.blurb,
        "tile": list(words.tile),
        "board": board_url(env),
        "score_name": words.score_name,
        "result_note": words.result_note,
        "players": {"min": cls.min_players, "max": cls.max_players, "default": cls.default_players},
        "options": [_option_info(env, n, o) for n, o in cls.OPTIONS.items() if n not in HIDDEN_OPTIONS],
        "combos": _combos(env),
        "levels": table_levels(env),
        "level_peers": unranked_levels(env),
        "default_level": DEFAULT_LEVEL,
        "cast": list(cast_names(env)),
        "cards": words.card_texts(make_game(env, cls.default_players, ())),
        "card_names": words.card_names(make_game(env, cls.default_players, ())),
        "spot_names": dict(words.spot_names),
        "rules": rules_url(env),
    }


def rules_url(env: str) -> str | None:
    """Where the table shows the game's rules (``None``: its kit names no rules document)."""
    return f"/rules/{env}" if cardenvs.registry.entry(env).rules is not None else None


@cache
def table_levels(env: str) -> list[str]:
    """The levels a computer seat may have at the table, weakest first: the game's ladder
    (``random``, ``greedy``, ``planner``, ``expert``) and ``trained`` where a policy is
    shipped (beside the level it plays like when it is not ranked)."""
    return list(playable_levels(env))


def cast_names(env: str) -> tuple[str, ...]:
    """The game's named computer players (``cast`` in :func:`game_info`)."""
    return game_cast(env)


def all_games() -> JsonDict:
    """``GET /api/games``."""
    return {"games": [game_info(env) for env in env_names()]}


def validate_table(body: object) -> tuple[str, int, JsonDict, str]:
    """``(env, num_players, options, level)`` from a room request, or ``ValueError`` with a
    message that says what is wrong and what is allowed."""
    if not isinstance(body, dict):
        raise ValueError('the body must be a JSON object: {"game", "num_players", "options", "level"}')
    unknown = sorted(set(body) - {"game", "num_players", "options", "level"})
    if unknown:
        raise ValueError(f"unknown field(s) {', '.join(unknown)}; the fields are game, num_players, "
                         "options, level")
    env = body.get("game")
    if not isinstance(env, str) or env not in GAMES:
        raise ValueError(f"game must be one of {', '.join(GAMES)}, got {env!r}")
    cls = game_class(env)
    n = body.get("num_players", cls.default_players)
    if n is None:
        n = cls.default_players
    if isinstance(n, bool) or not isinstance(n, int) or not cls.min_players <= n <= cls.max_players:
        raise ValueError(f"{env}: num_players must be an int in {cls.min_players}..{cls.max_players}, "
                         f"got {n!r}")
    options = body.get("options") or {}
    if not isinstance(options, dict):
        raise ValueError(f"options must be an object of {', '.join(offered_options(env)) or 'nothing'}")
    bad = sorted(set(options) - set(offered_options(env)))
    if bad:
        offered = ", ".join(offered_options(env)) or "none"
        raise ValueError(f"{env}: unknown option(s) {', '.join(bad)}; the options are {offered}")
    try:
        game = cls(n, **options)
    except OptionError as err:
        raise ValueError(str(err)) from None
    level = body.get("level", DEFAULT_LEVEL)
    if level is None:
        level = DEFAULT_LEVEL
    if not isinstance(level, str) or level not in table_levels(env):
        raise ValueError(f"level must be one of {', '.join(table_levels(env))}, got {level!r}")
    opts = {k: v for k, v in game.options.items() if k not in HIDDEN_OPTIONS}
    return env, game.num_players, opts, level


def offered_options(env: str) -> list[str]:
    """The options a room may set."""
    return [n for n in game_class(env).OPTIONS if n not in HIDDEN_OPTIONS]


# ------------------------------------------------------------------------------- views
def view_dict(view: View) -> JsonDict:
    """A View as JSON-ready data: its fields, as ``dataclasses.asdict`` gives them for these
    Views (their fields are ints, strings and tuples of them; tuples become JSON lists),
    without ``asdict``'s deep copy."""
    return {f.name: getattr(view, f.name) for f in dataclasses.fields(cast("DataclassInstance", view))}


def public_view(game: Game[S, V], state: S) -> JsonDict:
    """The spectator's view as JSON-ready data: the rules' ``public_view`` (seat -1, what
    every seat knows; checked by the leak tests)."""
    return view_dict(game.public_view(state))


def game_result(env: str, game: Game[S, V], state: S, names: list[str]) -> GameResult | None:
    """The ``result`` of a finished game (``None`` while it runs): the rules' returns and
    infos, the winners, a summary, why in words (``why``: the game's table face, every
    deciding comparison) and every seat's final hand (``hands``: hidden during play, shown
    once the game is over; ``None`` for a game without hands)."""
    over = game.is_terminal(state)
    truncated = (not over) and game.is_truncated(state)
    if not over and not truncated:
        return None
    ret = [float(x) for x in game.returns(state)]
    best = max(ret)
    winners = [i for i, r in enumerate(ret) if r == best] if over else []
    infos = game.infos(state)
    if winners:
        who = " and ".join(names[i] for i in winners)
        summary = f"{who} {'win' if len(winners) > 1 else 'wins'}" + (" (shared)" if len(winners) > 1 else "")
    else:
        summary = "the game was cut off: no winner"
    why = face(env).game_why(game, state, names) if over else []
    if truncated:
        why = ["The game was cut off at its length limit before anybody won, so nobody wins."]
    return {"returns": ret, "winners": winners, "truncated": truncated, "infos": infos, "summary": summary,
            "why": why, "hands": face(env).hands(game, state)}


def round_result(env: str, game: Game[S, V], state: S, step: int,
                 names: list[str] | None = None) -> JsonDict | None:
    """The round the latest move ended, as the game's table face shows it (naming the
    players by ``names``), with the step it was judged after (``None`` when no round just
    ended)."""
    out = face(env).round_result(game, state, names)
    if out is None:
        return None
    return dict(out, step=step)
