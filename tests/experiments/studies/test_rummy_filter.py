"""The Rummy 4x3x2's opponent tracker (experiments/studies/rummy_filter.py, ``TrackerInference``).

Planner-against-planner games where both seats track each other: the tracker must rebuild
exactly the views the opponent decided from, never rule out what really happened, and
only deal hands that agree with everything the player sees.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest

import cardenvs
from agents.games.rummy432 import Rummy432Knowledge
from agents.players.heuristic import HeuristicAgent
from agents.players.knowledge import SeatMemories
from cardenvs.core.loop import play
from experiments.studies import rummy_filter as rf


def tracking() -> rf.TrackerInference:
    """The tracker these tests follow the play with (few chains and moves: quick)."""
    return rf.TrackerInference(chains=12, steps=2)


class Seat:
    """A planner seat that records its views, and checks its tracker at each throw."""

    def __init__(self, state: Any, seed: int, views: dict[tuple[int, int, int, str], Any],
                 checks: list[str]) -> None:
        self.state, self.views, self.checks = state, views, checks
        self.know = Rummy432Knowledge(inference=tracking())
        self.agent = HeuristicAgent(self.know, 2, seed, "planner")
        self.memories = SeatMemories(self.know)

    def choose(self, game: Any, view: Any, legal: list[int]) -> int:
        self.views[(view.seat, view.round, view.turn, view.phase)] = view
        memory = self.memories.update(game, view)
        action = self.agent.choose(game, view, legal)
        m = memory if isinstance(memory, rf.TrackerMemory) and memory.of_round(view) else None
        if view.phase != "throw" or m is None or m.filt is None:
            return action
        opp = 1 - view.seat
        seen = set(view.hand) | set(view.discard)
        live = [ch for ch in m.filt.chains if math.isfinite(ch.loglik)]
        assert live, "a tracker that is kept has a possible chain"
        for ch in live:
            assert len(ch.hand) == game.hand_size and len(set(ch.hand)) == len(ch.hand)
            assert set(view.known[opp]) <= set(ch.hand), "the cards it took are in its hand"
            assert seen.isdisjoint(ch.hand), "it holds nothing the player sees"
        s = self.know.sample_state(game, view, np.random.default_rng(len(self.checks)), memory)
        assert sorted(s.hands[opp]) in [sorted(ch.hand) for ch in live]
        assert sorted(s.hands[opp] + s.pile) == sorted(self.state.hands[opp] + self.state.pile)
        self.checks.append("throw")
        return action


def _play(games: int, seed: int, patch_turn: Any = None) -> tuple[list[str], dict[Any, Any]]:
    game = cardenvs.game_class("rummy432_v0")(2)
    checks: list[str] = []
    views: dict[tuple[int, int, int, str], Any] = {}
    for g in range(games):
        views.clear()
        rng = np.random.default_rng(seed + g)
        state = game.new_state(rng)
        play(game, state, [Seat(state, 10 * g + s, views, checks) for s in range(2)], rng)
    return checks, views


def test_tracked_hands_agree_with_what_the_player_sees() -> None:
    checks, _ = _play(2, 40)
    assert len(checks) > 10


def test_the_true_round_stays_possible(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each opponent turn the tracker absorbs: the views it rebuilt (pick and throw) are the
    opponent's own (hand aside), and the opponent's real deal and draws replay with a finite likelihood."""
    views: dict[tuple[int, int, int, str], Any] = {}
    seen: list[float] = []
    add_turn = rf.OpponentTracker.add_turn

    def checked(self: rf.OpponentTracker, turn: rf.Turn, visible: frozenset[int]) -> None:
        add_turn(self, turn, visible)
        opp = 1 - self.seat
        r = turn.view.round
        real = views[(opp, r, turn.view.turn, "pick")]
        assert dataclasses.replace(turn.view, hand=real.hand) == real
        _, throw_view = self._models[-1]
        if throw_view is not None:  # weighed turns: the throw view is the opponent's own too
            real_throw = views[(opp, r, turn.view.turn, "throw")]
            # after a take, the new face-up card is one of the buried ones, whose order no
            # view keeps (and the planner reads no top in a throw view)
            rebuilt = dataclasses.replace(throw_view, hand=real_throw.hand,
                                          discard_top=real_throw.discard_top)
            assert rebuilt == real_throw
            if not turn.took:
                assert throw_view.discard_top == real_throw.discard_top
        first = min(t for (s, rr, t, ph) in views if s == opp and rr == r and ph == "pick")
        dealt = list(views[(opp, r, first, "pick")].hand)
        draws = []
        for tr in self.turns:
            before = views[(opp, r, tr.view.turn, "pick")].hand
            after = views[(opp, r, tr.view.turn, "throw")].hand
            draws.append(-1 if tr.took else next(c for c in after if c not in before))
        ll, hand = self._replay(dealt, draws)
        assert ll > -math.inf
        seen.append(ll)

    monkeypatch.setattr(rf.OpponentTracker, "add_turn", checked)
    game = cardenvs.game_class("rummy432_v0")(2)
    for g in range(2):
        views.clear()
        rng = np.random.default_rng(70 + g)
        state = game.new_state(rng)
        play(game, state, [Seat(state, g * 3 + s, views, []) for s in range(2)], rng)
    assert len(seen) > 10


def test_the_shipped_knowledge_tracks_nothing() -> None:
    game = cardenvs.game_class("rummy432_v0")(2)
    rng = np.random.default_rng(5)
    state = game.new_state(rng)
    know = Rummy432Knowledge()
    agent = HeuristicAgent(know, 2, 1, "planner")
    memories = SeatMemories(know)
    for _ in range(12):
        view = game.view(state, state.current)
        memories.update(game, view)
        game.apply(state, agent.choose(game, view, game.legal_actions(state)), rng)
    assert not isinstance(memories.of(0), rf.TrackerMemory)
    assert not hasattr(memories.of(0), "filt")
