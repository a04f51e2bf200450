"""The process that plays a frozen expert: ``python -I frozen_worker.py ROOT`` (:mod:`experiments.frozen`).

``ROOT`` holds the ``agents`` and ``cardenvs`` packages of an old commit.  It goes first on
``sys.path`` before anything of the project is imported, so every module the frozen expert
runs (its search, its knowledge, the rules it samples and plays out) is the old one; the
process refuses to start if one came from elsewhere.  Only the standard library is imported
here at the top, for the same reason.

Requests come on stdin and answers go out on the original stdout, both pickled (the frozen
code's own prints go to stderr).  A request is ``(drops, op, *args)``: ``drops`` the ids of
agents the parent no longer holds.  An answer is ``("ok", value)`` or ``("error", traceback)``.
"""

from __future__ import annotations

import os
import pickle
import sys
import time
import traceback
from typing import Any


def _loaded_files() -> dict[str, str]:
    """The file of every loaded module of the two packages, by module name."""
    return {name: str(getattr(mod, "__file__", "") or "") for name, mod in sys.modules.items()
            if name.split(".")[0] in ("agents", "cardenvs")}


class Worker:
    """The frozen agents of one parent process, by id, and the requests on them."""

    def __init__(self, root: str) -> None:
        import importlib

        self.root = root
        self.cardenvs: Any = importlib.import_module("cardenvs")
        self.base: Any = importlib.import_module("agents.base")
        self.knowledge: Any = importlib.import_module("agents.knowledge")
        self.search: Any = importlib.import_module("agents.search")
        self.check_frozen()
        self.agents: dict[int, Any] = {}
        self.next_id = 0
        self.profile: Any = None

    def check_frozen(self) -> None:
        """Every loaded module of ``agents`` and ``cardenvs`` is a file under the root."""
        prefix = os.path.join(os.path.realpath(self.root), "")
        stray = {n: f for n, f in _loaded_files().items() if f and not os.path.realpath(f).startswith(prefix)}
        if stray:
            raise RuntimeError(f"modules not from the frozen tree {self.root}: {stray}")

    def op_make(self, env: str, seed: int | None, name: str, overrides: dict[str, Any]) -> tuple[int, bool]:
        """A frozen expert of ``env`` (its budget, with ``overrides``): its id, and whether it remembers."""
        spec = self.knowledge.spec(env)
        budget = {**spec.expert_budget, **overrides}
        self.next_id += 1
        agent = self.search.SearchAgent(spec.knowledge(), seed=seed, name=name, **budget)
        self.agents[self.next_id] = agent
        return self.next_id, bool(agent.remembers)

    def op_budget(self, env: str) -> dict[str, Any]:
        """The frozen expert's search budget of ``env``."""
        return dict(self.knowledge.spec(env).expert_budget)

    def read(self, env: str, obs: Any) -> tuple[Any, Any]:
        """The frozen rules object and View of an observation (its own decode, checked by its
        own encode: the observation formats of the two sides must agree)."""
        view = self.cardenvs.game_class(env).decode(obs)
        rules_for = getattr(self.base, "rules_for", None) or self.base.table  # older commits: table
        game = rules_for(env, int(view.num_players), tuple(sorted(view.options.items())))
        again = game.encode(view)
        if again.shape != obs.shape or bytes(again.tobytes()) != bytes(obs.astype(again.dtype).tobytes()):
            raise ValueError(f"{env}: the frozen rules read this observation otherwise (formats differ)")
        return game, view

    def op_choose(self, ident: int, obs: Any, legal: list[int]) -> tuple[int, float]:
        """The agent's move from the observation, and its CPU seconds for ``choose``."""
        agent = self.agents[ident]
        game, view = self.read(agent.env_name, obs)
        t0 = time.process_time()
        if self.profile is not None:
            self.profile.enable()
        try:
            action = int(agent.choose(game, view, list(legal)))
        finally:
            if self.profile is not None:
                self.profile.disable()
        return action, time.process_time() - t0

    def op_observe(self, ident: int, obs: Any) -> None:
        """Feed the agent a past View of its seat (its memory, as ``Agent.observe``)."""
        agent = self.agents[ident]
        game, view = self.read(agent.env_name, obs)
        agent.observe(game, view)

    def op_seed(self, ident: int, seed: int | None) -> None:
        """Reseed the agent."""
        self.agents[ident].seed(seed)

    def op_profile(self, path: str | None) -> None:
        """Start profiling ``choose`` (``path=None``), or write the profile to ``path`` and stop."""
        import cProfile

        if path is None:
            self.profile = cProfile.Profile()
            return
        if self.profile is not None:
            self.profile.dump_stats(path)
        self.profile = None

    def op_where(self) -> dict[str, str]:
        """The files of the loaded modules of ``agents`` and ``cardenvs``."""
        self.check_frozen()
        return _loaded_files()


def main(root: str) -> None:
    """Answer requests until stdin closes."""
    sys.path.insert(0, root)
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # the frozen code's prints go to stderr, not into the answers
    inp = sys.stdin.buffer
    try:
        worker: Worker | None = Worker(root)
        failure = None
    except Exception:
        worker, failure = None, traceback.format_exc()
    while True:
        try:
            drops, op, *args = pickle.load(inp)
        except EOFError:
            return
        if worker is None:
            answer: tuple[str, Any] = ("error", failure)
        else:
            for ident in drops:
                worker.agents.pop(ident, None)
            try:
                answer = ("ok", getattr(worker, "op_" + op)(*args))
            except Exception:
                answer = ("error", traceback.format_exc())
        pickle.dump(answer, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()


if __name__ == "__main__":
    main(sys.argv[1])
