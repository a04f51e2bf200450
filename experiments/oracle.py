"""Oracle knowledge for diagnostics: a game's knowledge whose search worlds are the live
state with only the face-down pile re-drawn.

Used by ``rummy_inference.py`` (the "cheat" whose regret the expert's throws are measured
against) and ``distill.py --teacher oracle`` (labels from a search that sees the hands).
Never a ladder level: it reads ``true_state``, which a player cannot see.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

import agents

#: the face-down pile of each game's state: its order is the only thing the oracle does not see
HIDDEN_PILE = {"line_v0": "draw", "lineit_v0": "deck", "rummy432_v0": "pile"}


@functools.cache
def oracle_knowledge(env: str) -> type:
    """The class of ``env``'s knowledge whose ``sample_state`` clones ``true_state`` (set it
    before each question) and reshuffles its face-down pile: every hand and every other
    hidden card is the true one, the order of the draws is not."""
    base = type(agents.knowledge(env))
    pile = HIDDEN_PILE[env]

    class OracleKnowledge(base):  # type: ignore[valid-type, misc]
        true_state: Any = None

        def sample_state(self, game: Any, view: Any, rng: np.random.Generator) -> Any:
            state = game.clone(self.true_state)
            rng.shuffle(getattr(state, pile))
            return state

    OracleKnowledge.__name__ = OracleKnowledge.__qualname__ = f"Oracle{base.__name__}"
    return OracleKnowledge
