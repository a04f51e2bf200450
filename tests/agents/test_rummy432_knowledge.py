"""Rummy 4x3x2's knowledge: scenario tests from exact positions (``game.from_json``).

The planner throws a dead rank first, finishes when it can, keeps away from the rank
the next player visibly collects, plays its last turn for the final judgement; greedy
takes only what joins a group; the reasons say why; ``evaluate`` is a value in [-1, 1].
"""

from __future__ import annotations

import time

import numpy as np

import agents
from agents.games.rummy432 import Rummy432Knowledge
from cardenvs.core.cards import card_str, parse_card
from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.state import State

KNOW = Rummy432Knowledge()


def position(
    hands: list[list[str]],
    discard: list[str],
    known: list[list[str]] | None = None,
    phase: str = "throw",
    current: int = 0,
    taken: str | None = None,
    finished_by: int | None = None,
    last_turns_left: list[int] | None = None,
    scores: list[int] | None = None,
    options: dict | None = None,
) -> tuple[Rummy432Game, State]:
    """A game and state; every card not in a hand or the discard pile is in the face-down pile."""
    n = len(hands)
    opts = {"pack": "mixed", "hand_size": 8, "run_out_limit": 3, "rounds_to_win": 3, **(options or {})}
    game = Rummy432Game(n, **opts)
    used = {parse_card(c) for h in hands for c in h} | {parse_card(c) for c in discard}
    pile = [card_str(c) for c in range(52) if c not in used]
    obj = {
        "game": "rummy432",
        "num_players": n,
        "options": opts,
        "hands": hands,
        "pile": pile,
        "discard": discard,
        "known": known or [[] for _ in range(n)],
        "current": current,
        "phase": phase,
        "taken": taken,
        "dealer": n - 1,
        "run_outs": 0,
        "finished_by": finished_by,
        "last_turns_left": last_turns_left or [],
        "scores": scores or [0] * n,
    }
    return game, game.from_json(obj)


def ranked(game: Rummy432Game, state: State, level: int = 2) -> list[str]:
    """Legal moves of the seat to move, best first, at a heuristic level."""
    view = game.view(state, game.current_player(state))
    legal = game.legal_actions(state)
    sc = KNOW.scores(game, view, legal, level)
    order = np.argsort(-sc, kind="stable")
    return [game.action_to_str(legal[i]) for i in order]


def reason(game: Rummy432Game, state: State, move: str) -> str:
    view = game.view(state, game.current_player(state))
    return KNOW.reason(game, view, game.str_to_action(move))


def test_planner_throws_the_dead_rank_first() -> None:
    # 3c and 8d are loose; the other three 3s are gone (3d 3h buried, 3s taken by seat 1),
    # while all three other 8s are live: the dead 3 goes, though it is the lower card
    game, state = position(
        hands=[["3c", "8d", "Kc", "Kd", "Qc", "Qd", "5c", "5d", "5h"],
               ["3s", "Ah", "2h", "4h", "6h", "7h", "9h", "Jh"]],
        discard=["3d", "3h", "Tc"],
        known=[[], ["3s"]],
    )
    assert ranked(game, state)[0] == "throw 3c"
    why = reason(game, state, "throw 3c")
    assert "dead" in why and "buried" in why and "taken" in why, why


def test_planner_keeps_the_single_with_more_live_cards() -> None:
    # 6c: two 6s buried, one left; 7d: all three other 7s live (equal value otherwise close)
    game, state = position(
        hands=[["6c", "7d", "Kc", "Kd", "Qc", "Qd", "5c", "5d", "5h"],
               ["Ah", "2h", "4h", "8h", "9h", "Jh", "Th", "Ts"]],
        discard=["6d", "6h", "2c"],
    )
    assert ranked(game, state)[0] == "throw 6c"
    assert "live" in reason(game, state, "throw 6c") or "dead" in reason(game, state, "throw 6c")


def test_finishes_as_soon_as_it_can_with_the_best_hand() -> None:
    game, state = position(
        hands=[["2d", "Kc", "Kd", "Qc", "Qd", "5c", "5d", "7c", "7d"],
               ["Ah", "2h", "4h", "8h", "9h", "Jh", "Th", "Ts"]],
        discard=["3d", "3h"],
    )
    for level in (1, 2):
        assert ranked(game, state, level)[0] == "finish 2d"
    why = reason(game, state, "finish 2d")
    assert "every other card is in a group" in why and "2+2+2+2" in why, why


def test_finish_keeps_the_bigger_groups() -> None:
    # 5c 5d 5h 5s + Kc Kd + Qc Qd + 9c: finishing with 9c keeps 4+2+2
    game, state = position(
        hands=[["5c", "5d", "5h", "5s", "Kc", "Kd", "Qc", "Qd", "9c"],
               ["Ah", "2h", "4h", "8h", "9h", "Jh", "Th", "Ts"]],
        discard=["3d", "3h"],
    )
    assert ranked(game, state)[0] == "finish 9c"
    assert "4+2+2" in reason(game, state, "finish 9c")


def test_planner_does_not_feed_the_next_player_when_avoidable() -> None:
    # two loose cards, each rank with two live cards: 6c (seat 1 took 6h: it collects 6s)
    # and 7d; throwing the 6 hands seat 1 a pair, so the planner throws the 7
    game, state = position(
        hands=[["6c", "7d", "Kc", "Kd", "Qc", "Qd", "5c", "5d", "5h"],
               ["6h", "Ah", "2h", "4h", "8h", "9h", "Jh", "Th"]],
        discard=["7h", "2c"],
        known=[[], ["6h"]],
    )
    assert ranked(game, state)[0] == "throw 7d"
    assert "careful" in reason(game, state, "throw 6c")


def test_greedy_takes_what_joins_a_group_and_draws_otherwise() -> None:
    hands = [["7c", "Kc", "Kd", "Qc", "Qd", "5c", "9s", "2h"],
             ["Ah", "3h", "4h", "8h", "9h", "Jh", "Th", "Ts"]]
    game, state = position(hands=hands, discard=["3d", "7h"], phase="pick")
    assert ranked(game, state, 1)[0] == "take"
    assert ranked(game, state, 2)[0] == "take"
    assert "makes a pair of sevens" in reason(game, state, "take")
    game, state = position(hands=hands, discard=["3d", "4d"], phase="pick")
    assert ranked(game, state, 1)[0] == "draw"
    assert ranked(game, state, 2)[0] == "draw"
    assert "joins none" in reason(game, state, "draw")


def test_last_turn_takes_the_card_that_completes() -> None:
    # seat 1 finished; seat 0's last turn: 7h completes 7c (throw 2h), drawing rarely does
    game, state = position(
        hands=[["7c", "Kc", "Kd", "Qc", "Qd", "5c", "5d", "2h"],
               ["Ah", "As", "3h", "3s", "8h", "8s", "Th", "Ts"]],
        discard=["3d", "7h"],
        phase="pick",
        finished_by=1,
        last_turns_left=[0],
        current=0,
    )
    assert ranked(game, state)[0] == "take"
    assert "finish" in reason(game, state, "take")


def test_reasons_for_every_kind_of_move() -> None:
    game, state = position(
        hands=[["3c", "8d", "Kc", "Kd", "Qc", "Qd", "5c", "5d", "5h"],
               ["3s", "Ah", "2h", "4h", "6h", "7h", "9h", "Jh"]],
        discard=["3d", "3h", "Tc"],
        known=[[], ["3s"]],
    )
    assert "breaks" in reason(game, state, "throw Kc")
    view = game.view(state, 0)
    for a in game.legal_actions(state):
        assert len(KNOW.reason(game, view, a)) > 15


def test_evaluate_is_a_value_and_prefers_the_better_hand() -> None:
    strong = [["Kc", "Kd", "Qc", "Qd", "5c", "5d", "7c", "7d"],
              ["Ah", "2h", "3h", "4h", "8h", "9h", "Jh", "Th"]]
    game, state = position(hands=strong, discard=["3d", "2c"], phase="pick", current=1)
    v0, v1 = KNOW.evaluate(game, state, 0), KNOW.evaluate(game, state, 1)
    assert -1.0 <= v1 < 0.0 < v0 <= 1.0
    # the same hands, but seat 1 leads the game 2-0
    game, state = position(hands=strong, discard=["3d", "2c"], phase="pick", current=1, scores=[0, 2])
    assert KNOW.evaluate(game, state, 0) < v0


def test_other_packs_and_speed() -> None:
    packs = ({"pack": "four", "hand_size": 8}, {"pack": "three", "hand_size": 9},
             {"pack": "mixed", "hand_size": 12})
    for opts in packs:
        game = Rummy432Game(2, **opts)
        rng = np.random.default_rng(1)
        state = game.new_state(rng)
        for _ in range(60):
            p = game.current_player(state)
            view = game.view(state, p)
            legal = game.legal_actions(state)
            for level in (1, 2):
                sc = KNOW.scores(game, view, legal, level)
                assert sc.shape == (len(legal),) and np.all(np.isfinite(sc))
            a = legal[int(np.argmax(KNOW.scores(game, view, legal, 2)))]
            assert len(KNOW.reason(game, view, a)) > 8
            assert -1.0 <= KNOW.evaluate(game, state, p) <= 1.0
            game.apply(state, a, rng)
            if game.is_terminal(state):
                break
    # the heuristic levels take well under a millisecond or so per move
    game = Rummy432Game(4)
    rng = np.random.default_rng(2)
    state = game.new_state(rng)
    agent = agents.make_agent("rummy432_v0", "planner", seed=0)
    t = time.perf_counter()
    moves = 0
    while moves < 200 and not game.is_terminal(state):
        p = game.current_player(state)
        a = agent.act({"observation": game.observe(state, p), "action_mask": game.legal_mask(state)})
        game.apply(state, a, rng)
        moves += 1
    assert (time.perf_counter() - t) / moves < 0.01
