"""Memory is explicit: a seat's memory is an object its owner holds and feeds with the
seat's Views; scoring, sampling and search never write the knowledge; and an agent that
lost its memory (a restart) gets it back from the seat's own Views and then chooses
exactly as the agent that never lost it."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

import agents
import cardenvs
from agents.games.rummy432 import OpponentMemory, Rummy432Knowledge
from agents.players.knowledge import Memory, SeatMemories
from agents.players.search import SearchAgent


def _game(seed: int) -> tuple[Any, Any, np.random.Generator]:
    game = cardenvs.game_class("rummy432_v0")(2)
    rng = np.random.default_rng(seed)
    return game, game.new_state(rng), rng


def test_knowledge_holds_no_state_that_play_changes() -> None:
    game, state, rng = _game(3)
    agent = agents.make_agent("rummy432_v0", "expert", seed=1)
    assert isinstance(agent, SearchAgent)
    before = copy.deepcopy(vars(agent.knowledge))
    planner = agents.make_agent("rummy432_v0", "planner", seed=2)
    for _ in range(40):
        seat = state.current
        view = game.view(state, seat)
        legal = game.legal_actions(state)
        a = agent.choose(game, view, legal) if seat == 0 else planner.choose(game, view, legal)
        agent.knowledge.scores(game, view, legal, 2)
        game.apply(state, a, rng)
    assert repr(vars(agent.knowledge)) == repr(before)  # settings only (the inference strategy)
    assert isinstance(agent.memories.of(0), OpponentMemory)


def test_scoring_and_sampling_read_memory_but_never_write_it() -> None:
    game, state, rng = _game(4)
    know = Rummy432Knowledge()
    memories = SeatMemories(know)
    planner = agents.make_agent("rummy432_v0", "planner", seed=0)
    for _ in range(30):
        view = game.view(state, state.current)
        memories.update(game, view)
        game.apply(state, planner.choose(game, view, game.legal_actions(state)), rng)
    view = game.view(state, state.current)
    memory = memories.update(game, view)
    facts = memory.facts()  # type: ignore[attr-defined]
    know.scores(game, view, game.legal_actions(state), 2)
    for k in range(5):
        know.sample_state(game, view, np.random.default_rng(k), memory)
    assert memory.facts() == facts  # type: ignore[attr-defined]
    memory.update(view)  # the same View again changes nothing
    assert memory.facts() == facts  # type: ignore[attr-defined]


def test_a_restarted_expert_rebuilt_from_its_views_chooses_identically() -> None:
    game, state, rng = _game(11)
    kept = agents.make_agent("rummy432_v0", "expert", seed=5)
    other = agents.make_agent("rummy432_v0", "planner", seed=6)
    views: list[Any] = []
    same = differ = 0
    while not game.is_terminal(state) and len(views) < 40:
        seat = state.current
        view = game.view(state, seat)
        legal = game.legal_actions(state)
        if seat == 0:
            restarted = agents.make_agent("rummy432_v0", "expert", seed=5)
            assert restarted.remembers
            for past in views:  # the documented way back: the seat's own Views, in order
                restarted.observe(game, past)
            forgetful = agents.make_agent("rummy432_v0", "expert", seed=5)
            for agent in (kept, restarted, forgetful):
                agent.seed(1000 + len(views))
            a = kept.choose(game, view, legal)
            assert restarted.choose(game, view, legal) == a
            b = forgetful.choose(game, view, legal)
            same += b == a
            differ += b != a
            views.append(view)
        else:
            a = other.choose(game, view, legal)
        game.apply(state, a, rng)
    assert len(views) >= 15
    assert differ, "the memory never mattered: this test could not fail"


def test_games_without_memory_get_a_memory_that_remembers_nothing() -> None:
    for name in cardenvs.GAMES:
        know = agents.knowledge(name)
        game = cardenvs.game_class(name)(2)  # Rummy remembers with two players
        memory = know.new_memory(game, 0)
        assert isinstance(memory, Memory)
        assert know.remembers == (type(memory) is not Memory)
    assert not agents.make_agent("line_v0", "expert").remembers
    assert not agents.make_agent("rummy432_v0", "planner").remembers
