"""Observation designs: what an environment's ``"observation"`` entry holds.

Every environment takes ``observation=`` (default ``"flat"``), one of
:data:`OBSERVATIONS`:

* ``"flat"``: the game's flat float32 vector (``Game.observe``), lossless for the
  player (``Game.decode`` inverts it).  The ``_v0`` contract, unchanged.
* ``"planes"``: the same information set laid out for convolutional and per-card
  models: a float32 array ``(channels, *board)`` of per-card (or per-rank) planes, with
  the game's scalars as constant planes.  Scaled to about [0, 1].
* ``"action_features"``: a float32 matrix ``(num_actions, F)``: row ``a`` holds facts
  about action ``a`` (what it moves where, what it leaves) followed by facts about the
  position, for the player to move; every row of an action that is not legal now (and
  every row when the player is not to move) is zero.  For models that score actions
  with one network shared by all of them (RLlib's parametric-action models, the
  project's scorer policies).  Scaled to [-1, 1].

Each game defines the last two in ``cardenvs/<game>/features.py``: the layouts
``PLANES`` (channels) and ``ACTION_FEATURES`` (columns) as
:class:`~cardenvs.core.game.ObsLayout` tables (name, size, description and bounds), the
board shape ``PLANE_SHAPE``, and the encoders ``planes(view)`` and
``action_features(view, legal)`` (the rows of the legal actions only).  Both read the
player's View and nothing else, so they cannot leak hidden cards; the environment's
docstring prints both tables, and a test holds them to the layouts.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np

from .game import Game, ObsLayout, OptionError

#: the observation designs every environment offers (``observation=``)
OBSERVATIONS = ("flat", "planes", "action_features")


def features_module(game: Game[Any, Any]) -> ModuleType:
    """``cardenvs.<game.name>.features``: the game's planes and action-feature encoders."""
    return importlib.import_module(f"cardenvs.{game.name}.features")


def check_observation(name: Any) -> str:
    """``name`` if it is one of :data:`OBSERVATIONS`, else an :class:`OptionError` listing them."""
    if not isinstance(name, str) or name not in OBSERVATIONS:
        allowed = ", ".join(map(repr, OBSERVATIONS))
        raise OptionError(f"observation={name!r} is not supported; use one of {allowed}")
    return name


class Observer:
    """One observation design of one game: its ``Box`` space and how to fill it.

    ``observe(state, player, to_move)`` builds the array for ``player`` from the
    player's View (the game's flat writer for ``"flat"``); ``to_move`` says whether the
    player is the one to move (only then do legal actions exist, and so action rows).
    """

    def __init__(self, game: Game[Any, Any], name: str) -> None:
        self.game = game
        self.name = check_observation(name)
        if name == "flat":
            low, high = game.observation_bounds()
            self.shape: tuple[int, ...] = (game.observation_size(),)
            self.module: ModuleType | None = None
        else:
            self.module = features_module(game)
            if name == "planes":
                layout: ObsLayout = self.module.PLANES
                self.shape = (layout.size, *self.module.PLANE_SHAPE)
                extra = (1,) * len(self.module.PLANE_SHAPE)
                low = np.broadcast_to(layout.low.reshape(-1, *extra), self.shape)
                high = np.broadcast_to(layout.high.reshape(-1, *extra), self.shape)
            else:
                layout = self.module.ACTION_FEATURES
                self.shape = (game.num_actions, layout.size)
                # an illegal action's row is zero: every column's bounds include 0
                low = np.broadcast_to(np.minimum(layout.low, 0), self.shape)
                high = np.broadcast_to(np.maximum(layout.high, 0), self.shape)
        self.space = gymnasium.spaces.Box(np.array(low, np.float32), np.array(high, np.float32),
                                          self.shape, np.float32)

    def __getstate__(self) -> dict[str, Any]:
        """What pickling and copying keep: the features module by name (modules do
        not pickle), everything else as it is."""
        state = self.__dict__.copy()
        if self.module is not None:
            state["module"] = self.module.__name__
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Restore a pickled or copied observer, importing its features module again."""
        module = state.get("module")
        if isinstance(module, str):
            module = importlib.import_module(module)
        self.__dict__.update(state, module=module)

    def observe(self, state: Any, player: int, to_move: bool) -> np.ndarray:
        """The observation of ``player`` (a new array on every call)."""
        game = self.game
        if self.module is None:
            return game.observe(state, player)
        view = game.view(state, player)
        if self.name == "planes":
            return self.module.planes(view)
        out = np.zeros(self.shape, np.float32)
        if to_move:
            legal = game.legal_actions(state)
            if legal:
                out[legal] = self.module.action_features(view, legal)
        return out

    def encode(self, view: Any, legal: Sequence[int] = ()) -> np.ndarray:
        """The observation of a View (``legal``: the player's legal actions, for action rows)."""
        if self.module is None:
            return self.game.encode(view)
        if self.name == "planes":
            return self.module.planes(view)
        out = np.zeros(self.shape, np.float32)
        if len(legal):
            out[list(legal)] = self.module.action_features(view, list(legal))
        return out


def observer(game: Game[Any, Any], name: str = "flat") -> Observer:
    """The :class:`Observer` of design ``name`` for ``game`` (``OptionError`` if unknown)."""
    return Observer(game, name)


def action_feature_rows(game: Game[Any, Any], view: Any, legal: Sequence[int]) -> np.ndarray:
    """``[len(legal), F]``: the ``action_features`` rows of the legal actions only (the
    sparse form a trainer stores; the environment's matrix scatters them into zeros)."""
    return features_module(game).action_features(view, list(legal))


def layout_table(layout: ObsLayout, header: str) -> str:
    """A layout as the markdown table the environments' docstrings print (``header``:
    ``"channel"`` or ``"column"``), with each field's range."""
    lines = [f"| {header} | start | size | range | description |", "|---|---|---|---|---|"]
    for f in layout.fields:
        lo, hi = float(layout.low[f.start]), float(layout.high[f.start])
        lines.append(f"| {f.name} | {f.start} | {f.size} | {lo:g}..{hi:g} | {f.description} |")
    return "\n".join(lines)
