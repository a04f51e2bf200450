"""The one registry of games: each game is registered once, here, as a kit.

A :class:`GameKit` names a game's four faces, and the rules document its players read:

* **rules**: the PettingZoo-style module (``raw_env``, and through it the
  :class:`~cardenvs.core.game.Game` with ``view`` and ``public_view``);
* **knowledge**: the module of the ``agents`` package with the game's strategic knowledge,
  named computer players, search budget and training defaults (its ``SPEC``);
* **words**: the module of its :class:`~cardenvs.core.words.TableFace` (``TABLE``): move
  descriptions, prompts, scores, round and game summaries, card texts;
* **board**: the browser table's drawing of the game, a JavaScript module shipped as a
  package file (``"cardtable:static/games/line.js"``) that draws what the server sends;
* **rules document** (``GameKit.rules``): a Markdown file shipped as a package file
  (``"cardenvs:line/RULES.md"``), which the tables show one click away.  For the shipped
  games it is the project's own rules document (``docs/rules/<game>.md``): the package file
  is a symbolic link to it, so there is one text, and building the wheel copies it in.

Everything else (``cardenvs.make``, ``cardenvs.ENVS``, the Gymnasium id, the ladder, the
coach, training, the terminal and browser tables, the integrations) finds games through
their kit, so adding a game is one :func:`register` call (``docs/CONTRIBUTING_GAMES.md``).
The faces are named as text and imported when first needed: ``cardenvs`` never imports
``agents`` or ``cardtable``.

A game outside this repository registers its kit when its module is imported: list the
module in the ``cardenvs.games`` entry-point group of its distribution, or in the
environment variable ``CARDENVS_GAMES`` (comma-separated module names), and ``import
cardenvs`` imports it (and so do the browser table's worker processes).
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import importlib.resources
import os
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .core.game import Game
from .core.words import TableFace

if TYPE_CHECKING:
    from .core.wrappers import SingleAgentEnv

#: the environment variable naming modules that register more games when imported
PLUGINS_ENV = "CARDENVS_GAMES"
#: the entry-point group of distributions that register more games
PLUGINS_GROUP = "cardenvs.games"


@dataclass(frozen=True)
class GameKit:
    """One registered game: its names and the modules of its four faces."""

    #: versioned environment name, e.g. ``"line_v0"``
    env_name: str
    #: display title, e.g. ``"Line"``
    title: str
    #: rules face: the PettingZoo-style module, ``env()`` and ``raw_env`` (whose ``game_class`` is the rules)
    module: str
    #: knowledge face: the ``agents`` module of the game (``SPEC``: knowledge, cast, budgets, defaults)
    agents: str
    #: the Gymnasium id (single-agent env against ladder opponents), e.g. ``"cardenvs/Line-v0"``
    gym_id: str | None = None
    #: table face: the module holding ``TABLE``, a :class:`~cardenvs.core.words.TableFace`
    #: (``"module:attribute"`` names another attribute); ``None``: the plain default face
    words: str | None = None
    #: board face: ``"package:path"`` of the browser table's JavaScript module for the game
    board: str | None = None
    #: the rules for players: ``"package:path"`` of a Markdown document (``None``: none)
    rules: str | None = None
    #: the old keyword of ``words`` (``GameKit(..., table="pkg.table")``): still accepted,
    #: with a :class:`DeprecationWarning`
    table: dataclasses.InitVar[str | None] = None

    def __post_init__(self, table: str | None) -> None:
        if table is None:
            return
        warnings.warn(f"GameKit(table=...) of {self.env_name} is now GameKit(words=...)", DeprecationWarning,
                      stacklevel=3)
        if self.words is not None:
            raise TypeError(f"GameKit of {self.env_name}: give words=..., not both words= and table=")
        object.__setattr__(self, "words", table)

    def env_module(self) -> ModuleType:
        """The imported environment module."""
        return importlib.import_module(self.module)

    @property
    def game_class(self) -> type[Game[Any, Any]]:
        """The rules class (legality core) of the game."""
        cls: type[Game[Any, Any]] = self.env_module().raw_env.game_class
        return cls

    def table_face(self) -> TableFace:
        """The game's table face (the plain :class:`TableFace` when the kit names none)."""
        if self.words is None:
            return TableFace()
        module, _, attr = self.words.partition(":")
        face = getattr(importlib.import_module(module), attr or "TABLE")
        if not isinstance(face, TableFace):
            raise TypeError(f"{self.words} of {self.env_name} is a {type(face).__name__}, not a TableFace")
        return face

    def board_file(self) -> Path | None:
        """The board's JavaScript file (``None`` when the kit names none)."""
        if self.board is None:
            return None
        package, sep, path = self.board.partition(":")
        if not sep or not path.endswith(".js"):
            raise ValueError(f"the board of {self.env_name} must be 'package:path/to/board.js', "
                             f"got {self.board!r}")
        return Path(str(importlib.resources.files(package).joinpath(path)))

    def rules_text(self) -> str | None:
        """The rules document's Markdown text (``None`` when the kit names none);
        ``ValueError`` when the name is malformed, ``FileNotFoundError`` when the file is
        missing."""
        if self.rules is None:
            return None
        package, sep, path = self.rules.partition(":")
        if not sep or not path.endswith(".md"):
            raise ValueError(f"the rules of {self.env_name} must be 'package:path/to/RULES.md', "
                             f"got {self.rules!r}")
        return importlib.resources.files(package).joinpath(path).read_text(encoding="utf-8")


def _old_table(kit: GameKit) -> str | None:
    """``kit.table``, the old name of :attr:`GameKit.words` (with a :class:`DeprecationWarning`)."""
    warnings.warn("GameKit.table is now GameKit.words", DeprecationWarning, stacklevel=2)
    return kit.words


# the InitVar's default is the class attribute; reading it on a kit gives the words
GameKit.table = property(_old_table)  # type: ignore[attr-defined]

#: the name this registry's entries had before they were kits
GameEntry = GameKit

#: every registered game: environment name -> :class:`GameKit` (add one with :func:`register`)
GAMES: dict[str, GameKit] = {}


class EnvModules(Mapping[str, str]):
    """A live, read-only view of the registry: environment name -> module name."""

    def __getitem__(self, name: str) -> str:
        return GAMES[name].module

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)

    def __repr__(self) -> str:
        return repr(dict(self))


def register(entry: GameKit) -> GameKit:
    """Add a game's kit to the registry (``ValueError`` if its name is taken)."""
    if entry.env_name in GAMES:
        raise ValueError(f"a game named {entry.env_name!r} is registered already")
    GAMES[entry.env_name] = entry
    if entry.gym_id is not None:
        _register_gym(entry)
    return entry


def unregister(name: str) -> GameKit:
    """Remove a game from the registry (and its Gymnasium id); ``ValueError`` if unknown."""
    kit = entry(name)
    del GAMES[name]
    if kit.gym_id is not None:
        import gymnasium

        spec = gymnasium.registry.get(kit.gym_id)
        if spec is not None and spec.kwargs.get("env_name") == name:
            del gymnasium.registry[kit.gym_id]
    return kit


#: the Gymnasium ids' entry point (:func:`gym_env`)
GYM_ENTRY_POINT = "cardenvs.registry:gym_env"


def gym_env(**kwargs: Any) -> SingleAgentEnv:
    """The Gymnasium ids' entry point: ``agents.learning.gym.single_agent_env(**kwargs)``, the
    learner against ladder opponents.  The agents package is imported only when an id is
    made, with a clear ``ImportError`` if a folder or module named ``agents`` shadows it."""
    from ._agents_import import load_agents

    env: SingleAgentEnv = load_agents("learning.gym", "single_agent_env")(**kwargs)
    return env


def _register_gym(entry: GameKit) -> None:
    """Register the game's Gymnasium id (its entry point, :func:`gym_env`, makes the env
    in the agents package, which gives it opponents)."""
    import gymnasium

    gym_id = entry.gym_id
    if gym_id is not None and gym_id not in gymnasium.registry:
        gymnasium.register(id=gym_id, entry_point=GYM_ENTRY_POINT, kwargs={"env_name": entry.env_name})


def entry(name: Any) -> GameKit:
    """The entry of an environment name; ``ValueError`` naming the environments if unknown."""
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown environment {name!r}; the environments are {', '.join(GAMES)}")
    return GAMES[name]


def load_plugins() -> list[str]:
    """Import the modules that register more games: the ``cardenvs.games`` entry points of the
    installed distributions and the modules named in ``CARDENVS_GAMES``.  A module that
    fails to import is skipped with a warning saying why.  Returns the modules imported."""
    names = [ep.value for ep in importlib.metadata.entry_points(group=PLUGINS_GROUP)]
    names += [n.strip() for n in os.environ.get(PLUGINS_ENV, "").split(",") if n.strip()]
    done = []
    for name in names:
        try:
            importlib.import_module(name.partition(":")[0])
        except Exception as err:  # a broken plugin must not break `import cardenvs`
            warnings.warn(f"cardenvs: the game module {name!r} did not load: {err!r}", RuntimeWarning,
                          stacklevel=2)
            continue
        done.append(name)
    return done


register(GameKit("line_v0", "Line", "cardenvs.line_v0", "agents.games.line", "cardenvs/Line-v0",
                 words="cardenvs.line.words", board="cardtable:static/games/line.js",
                 rules="cardenvs:line/RULES.md"))
register(GameKit("lineit_v0", "Line-it", "cardenvs.lineit_v0", "agents.games.lineit", "cardenvs/LineIt-v0",
                 words="cardenvs.lineit.words", board="cardtable:static/games/lineit.js",
                 rules="cardenvs:lineit/RULES.md"))
register(GameKit("rummy432_v0", "Rummy 4x3x2's", "cardenvs.rummy432_v0", "agents.games.rummy432",
                 "cardenvs/Rummy432-v0", words="cardenvs.rummy432.words",
                 board="cardtable:static/games/rummy.js", rules="cardenvs:rummy432/RULES.md"))
