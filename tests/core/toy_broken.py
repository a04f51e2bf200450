"""Deliberately broken variants of the toy game, one fault each, and the checks of the
contract kit (``cardenvs.testing``) that must catch it (``tests/core/test_contract.py``).

Each variant is the toy's rules with one method changed, behind an environment class of
this module (so environments pickle), and this module's docstring is the toy's spec, so
the spec check reads the same tables as for the toy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cardenvs.core.env import wrapped_env_fn
from cardenvs.core.game import json_object
from tests.core import toy

__doc__ = toy.__doc__  # the spec the kit's check_spec reads for these environments


class GlobalRngToy(toy.ToyGame):
    """Deals the secrets from numpy's global generator."""

    def new_state(self, rng: np.random.Generator) -> toy.ToyState:
        return toy.ToyState(0, 0, [int(x) for x in np.random.randint(0, 10, self.num_players)])


class ChangesBeforeCheckingToy(toy.ToyGame):
    """Adds to the total before it checks the action."""

    def apply(self, state: toy.ToyState, action: int, rng: np.random.Generator | None = None) -> None:
        state.total += 1
        self.check_action(state, action)  # a refused action leaves the total 1 up
        state.total -= 1
        super().apply(state, action, rng)


class LeakyToy(toy.ToyGame):
    """Each seat's observation shows the next seat's secret."""

    def view(self, state: toy.ToyState, player: int) -> toy.ToyView:
        v = super().view(state, player)
        v.secret = state.secrets[(player + 1) % self.num_players]
        return v


class LossyJsonToy(toy.ToyGame):
    """Reads a position back with every secret 0."""

    def from_json(self, obj: dict[str, Any]) -> toy.ToyState:
        s = super().from_json(obj)
        s.secrets = [0] * self.num_players
        return s


class OutOfBoundsToy(toy.ToyGame):
    """Declares a Box the running total soon leaves."""

    OBS_HIGH = 5.0


class WrongMaskToy(toy.ToyGame):
    """Its mask offers only ``add 1`` though every move is legal."""

    def legal_mask(self, state: toy.ToyState) -> np.ndarray:
        mask = np.zeros(self.num_actions, np.int8)
        mask[0] = state.winner < 0
        return mask


class BadNotationToy(toy.ToyGame):
    """Writes ``add 3`` as ``add 2``."""

    def action_to_str(self, action: int) -> str:
        return f"add {min(action + 1, 2)}"


class UnvalidatedJsonToy(toy.ToyGame):
    """Reads a position without validating it (a KeyError for a missing key)."""

    def from_json(self, obj: dict[str, Any]) -> toy.ToyState:
        obj = json_object(obj)
        return self._judged(toy.ToyState(obj["total"], obj["current"], list(obj["secrets"])))


class Float64Toy(toy.ToyGame):
    """Writes float64 observations into its float32 space."""

    def observe(self, state: toy.ToyState, player: int) -> np.ndarray:
        return super().observe(state, player).astype(np.float64)


class _Unpicklable:
    def __reduce__(self) -> Any:
        raise TypeError("this environment cannot be pickled")


class RawGlobalRng(toy.raw_env):
    game_class = GlobalRngToy


class RawChangesBeforeChecking(toy.raw_env):
    game_class = ChangesBeforeCheckingToy


class RawLeaky(toy.raw_env):
    game_class = LeakyToy


class RawLossyJson(toy.raw_env):
    game_class = LossyJsonToy


class RawOutOfBounds(toy.raw_env):
    game_class = OutOfBoundsToy


class RawWrongMask(toy.raw_env):
    game_class = WrongMaskToy


class RawBadNotation(toy.raw_env):
    game_class = BadNotationToy


class RawUnvalidatedJson(toy.raw_env):
    game_class = UnvalidatedJsonToy


class RawFloat64(toy.raw_env):
    game_class = Float64Toy


class RawUnpicklable(toy.raw_env):
    """The toy, holding an attribute that refuses to be pickled or copied."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cannot_pickle = _Unpicklable()


leaky_env = wrapped_env_fn(RawLeaky)

#: (variant, its environment factory, exactly the checks that fail for it)
BROKEN: list[tuple[str, Any, tuple[str, ...]]] = [
    ("global generator", wrapped_env_fn(RawGlobalRng), ("seed", "global_rng", "golden", "copy")),
    ("changes before checking", wrapped_env_fn(RawChangesBeforeChecking), ("bad_input",)),
    ("leaky view", leaky_env, ("view_leak",)),
    ("lossy json", wrapped_env_fn(RawLossyJson), ("json", "view_leak")),
    ("out of bounds", wrapped_env_fn(RawOutOfBounds), ("bounds", "api")),
    ("wrong mask", wrapped_env_fn(RawWrongMask), ("bounds", "bad_input")),
    ("bad notation", wrapped_env_fn(RawBadNotation), ("notation",)),
    ("unvalidated json", wrapped_env_fn(RawUnvalidatedJson), ("bad_input",)),
    ("float64 observation", wrapped_env_fn(RawFloat64), ("api", "bounds")),
    ("unpicklable", wrapped_env_fn(RawUnpicklable), ("copy",)),
]
