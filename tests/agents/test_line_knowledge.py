"""Scenario tests of Line's strategic knowledge: from exact positions the greedy and
planner levels pick the move a good player would, and the reasons say why."""

from __future__ import annotations

import time

import numpy as np
import pytest

import agents
import cardenvs
from agents.games.line import LineKnowledge

RANKS = "A23456789TJQK"
SUITS = "cdhs"
ALL_CARDS = [r + s for r in RANKS for s in SUITS] + ["X"] * 4


def _game(players: int = 2):
    return cardenvs.game_class("line_v0")(players)


def _state(game, rows, hands, discard=(), phase="turn", pending=None, current=0, bonus=False, draw_first=()):
    """A legal JSON state; every card not named goes to the draw pile (``draw_first`` on top)."""
    used = [c for row in rows for c in row] + [c for h in hands for c in h] + list(discard) + list(draw_first)
    if pending is not None:
        used.append(pending)
    rest = list(ALL_CARDS)
    for c in used:
        rest.remove(c)
    return game.from_json({
        "game": "line", "num_players": game.num_players, "rows": [list(r) for r in rows],
        "hands": [list(h) for h in hands], "draw_pile": list(draw_first) + rest, "discard": list(discard),
        "current": current, "bonus_turn": bonus, "phase": phase, "pending": pending,
        "options": {"joker_points": 25},
    })


def _obs(game, state, p=None):
    p = game.current_player(state) if p is None else p
    return {"observation": game.observe(state, p), "action_mask": game.legal_mask(state)}


def _pick(game, state, level: str) -> str:
    return game.action_to_str(agents.make_agent("line_v0", level, seed=0).act(_obs(game, state)))


def _reason(game, state, move: str) -> str:
    view = game.view(state, game.current_player(state))
    return LineKnowledge().reason(game, view, game.str_to_action(move))


@pytest.mark.parametrize("level", ["greedy", "planner"])
def test_sheds_the_highest_card(level: str) -> None:
    game = _game()
    s = _state(game, [[], [], [], []], [["2c", "Kd", "5h"], ["3c", "4c", "6c"]], discard=["9s"])
    assert _pick(game, s, level).startswith("play Kd")


@pytest.mark.parametrize("level", ["greedy", "planner"])
def test_completes_a_row_for_the_bonus_turn(level: str) -> None:
    game = _game()
    rows = [["5s", "6s", "7s"], ["Kc", "Kh"], [], []]
    s = _state(game, rows, [["8s", "Qd", "2c"], ["3c", "4c", "6c"]], discard=["9d"])
    assert _pick(game, s, level) == "play 8s r1"
    r = _reason(game, s, "play 8s r1")
    assert "bonus turn" in r and "8 points" in r


def test_no_bonus_on_a_bonus_turn() -> None:
    game = _game()
    rows = [["5s", "6s", "7s"], [], [], []]
    s = _state(game, rows, [["8s", "Qd"], ["3c", "4c", "6c"]], discard=["9d"], bonus=True)
    assert _pick(game, s, "greedy").startswith("play Qd")
    assert "never chain" in _reason(game, s, "play 8s r1")


def test_planner_does_not_leave_a_row_one_short() -> None:
    # 8s into 5s 6s leaves a row the opponent fills with 7s or any joker for a bonus
    # turn; the planner pairs the 7d with the 7c instead.
    game = _game()
    rows = [["5s", "6s"], ["Kc", "Kh"], ["2d", "3d"], ["7c"]]
    s = _state(game, rows, [["8s", "7d", "2h"], ["3c", "4c", "6c", "9h"]], discard=["Td"])
    assert _pick(game, s, "greedy") == "play 8s r1"
    assert _pick(game, s, "planner") == "play 7d r4"
    assert "one card short" in _reason(game, s, "play 8s r1")


def test_take_beats_draw_and_reasons_for_both() -> None:
    game = _game()
    rows = [["5s", "6s", "7s"], ["Kc", "Kh"], ["2d", "3d"], ["9h", "9c"]]
    s = _state(game, rows, [["Ac", "4h"], ["3c", "4c", "6c"]], discard=["8s"])
    legal = {game.action_to_str(a) for a in game.legal_actions(s)}
    assert legal == {"take r1", "draw"}
    for level in ("greedy", "planner"):
        assert _pick(game, s, level) == "take r1"
    assert "bonus turn" in _reason(game, s, "take r1")
    assert "draw" in _reason(game, s, "draw")


def test_places_a_drawn_card_and_discards() -> None:
    game = _game()
    rows = [["5s", "6s", "7s"], ["Kc", "Kh"], ["2d", "3d"], ["9h", "9c"]]
    s = _state(game, rows, [["Ac", "4h"], ["3c", "4c", "6c"]], discard=["Qh"], phase="place_drawn",
               pending="8s")
    assert _pick(game, s, "planner") == "play 8s r1"
    assert "must go down" in _reason(game, s, "play 8s r1")
    hand = ["Ac", "2h", "4h", "Qd", "Jd", "3s", "5c", "Ts"]
    s = _state(game, rows, [hand, ["3c", "4c", "6c"]], discard=["Qh"], phase="discard")
    for level in ("greedy", "planner"):
        assert _pick(game, s, level) in ("discard Qd", "discard Jd", "discard Ts")
    assert "10 points" in _reason(game, s, "discard Qd")


def test_upgrade_and_shift_reasons() -> None:
    game = _game()
    rows = [["5s", "6s", "7s", "X"], ["Kc", "Kh", "Kd"], ["2d", "3d", "4d", "5d"], []]
    s = _state(game, rows, [["8s", "6d", "Ac"], ["3c", "4c", "6c"]], discard=["Qh"])
    legal = {game.action_to_str(a) for a in game.legal_actions(s)}
    assert "upgrade 8s r1 joker r2" in legal and "shift 6d r3 out 2d" in legal
    # upgrade 8s and send the joker to complete the kings: 8 points and a bonus turn
    assert _pick(game, s, "greedy") == "upgrade 8s r1 joker r2"
    assert "bonus turn" in _reason(game, s, "upgrade 8s r1 joker r2")
    assert "joker worth 25" in _reason(game, s, "upgrade 8s r1 joker hand")
    assert "keeps the run" in _reason(game, s, "shift 6d r3 out 2d")


def test_ends_the_game_only_when_ahead() -> None:
    game = _game()
    rows = [["5s", "6s", "7s", "8s"], ["Kc", "Kh", "Kd", "Ks"], ["2d", "3d", "4d", "5d"], ["9h", "9c", "9d"]]
    # ahead: 1 point left against seven unknown cards: fill the grid
    s = _state(game, rows, [["9s", "Ac"], ["3c", "4c", "6c", "Qc", "Qd", "Jh", "Th"]], discard=["Qh"])
    assert _pick(game, s, "planner") == "play 9s r4"
    assert "ends the game" in _reason(game, s, "play 9s r4")
    # behind: shift instead of ending the game with a queen and jack in hand
    s = _state(game, rows, [["9s", "4s", "Qs", "Jd"], ["Ah"]], discard=["Qh"])
    assert _pick(game, s, "planner").startswith("shift")


def test_reasons_cover_every_move_of_real_games() -> None:
    game = _game(3)
    know = LineKnowledge()
    rng = np.random.default_rng(3)
    kinds = set()
    for _ in range(3):
        s = game.new_state(rng)
        while not game.is_terminal(s):
            p = game.current_player(s)
            view = game.view(s, p)
            legal = game.legal_actions(s)
            for a in legal:
                r = know.reason(game, view, a)
                assert r.startswith(game.action_to_str(a).split()[0]) and len(r) > 15, r
                kinds.add(game.action_to_str(a).split()[0])
            game.apply(s, legal[int(rng.integers(len(legal)))], rng)
    assert {"play", "draw", "discard"} <= kinds


def test_evaluate_is_bounded_and_prefers_the_lower_hand() -> None:
    game = _game()
    know = LineKnowledge()
    rows = [["5s"], [], [], []]
    s = _state(game, rows, [["Ac", "2c"], ["Kc", "Qd", "Jh"]], discard=["9d"])
    v0, v1 = know.evaluate(game, s, 0), know.evaluate(game, s, 1)
    assert -1 <= v1 < 0 < v0 <= 1


@pytest.mark.parametrize("level", ["greedy", "planner"])
def test_heuristics_are_fast(level: str) -> None:
    game = _game(3)
    agent = agents.make_agent("line_v0", level, seed=0)
    rng = np.random.default_rng(0)
    n, spent = 0, 0.0
    for _ in range(3):
        s = game.new_state(rng)
        while not game.is_terminal(s):
            obs = _obs(game, s)
            t = time.perf_counter()
            a = agent.act(obs)
            spent += time.perf_counter() - t
            n += 1
            game.apply(s, a, rng)
    assert spent / n < 0.005  # about 0.1-0.3 ms on a quiet machine


def test_search_samples_are_valid_and_keep_low_cards() -> None:
    # the expert's worlds: valid states fitting the view, opponents dealt the cards players keep
    know = LineKnowledge()
    for players in (2, 3, 4):
        game = _game(players)
        rng = np.random.default_rng(players)
        s = game.new_state(rng)
        uniform, kept = [], []
        for step in range(40):
            if game.is_terminal(s):
                break
            if step % 5 == 2:
                p = game.current_player(s)
                view = game.view(s, p)
                for k in range(8):
                    w = know.sample_state(game, view, np.random.default_rng(k))
                    back = game.from_json(game.to_json(w))  # validates the 56 cards, rows, phase
                    assert game.view(back, p) == view
                    assert game.legal_actions(w) == game.legal_actions(s)
                    opp = [c for q in range(players) if q != p for c in w.hands[q]]
                    kept += [game.card_values[c] for c in opp if c != 52]
                    u = game.sample_state(view, np.random.default_rng(k))
                    uniform += [game.card_values[c] for q in range(players) if q != p
                                for c in u.hands[q] if c != 52]
                w1 = know.sample_state(game, view, np.random.default_rng(7))
                w2 = know.sample_state(game, view, np.random.default_rng(7))
                assert game.to_json(w1) == game.to_json(w2)
            game.apply(s, know.rollout_action(game, s, rng), rng)
        assert np.mean(kept) < np.mean(uniform) - 1.0


def test_outcome_keeps_the_sign_of_the_result_and_grades_the_margin() -> None:
    game = _game()
    know = LineKnowledge()
    full = [["5s", "6s", "7s", "8s"], ["Kc", "Kh", "Kd", "Ks"], ["2d", "3d", "4d", "5d"], ["9h", "9c", "9d"]]
    values = []
    for opp in (["Ah"], ["Qh"], ["Qh", "Jh", "Th"]):
        s = _state(game, full, [["9s", "2c"], opp], discard=["Qc"])
        game.apply(s, game.str_to_action("play 9s r4"))
        assert game.is_terminal(s)
        o0, o1 = know.outcome(game, s, 0), know.outcome(game, s, 1)
        assert -1 <= o0 <= 1 and -1 <= o1 <= 1
        assert np.sign(o0) == np.sign(game.returns(s)[0]) and np.sign(o1) == np.sign(game.returns(s)[1])
        values.append(o0)
    assert values[0] < 0 < values[1] < values[2]  # lost; won narrowly; won clearly


def test_expert_searches_and_is_fast_enough() -> None:
    # the expert is a real search (paired, racing the planner's best moves), well under 200 ms a move
    from agents.games.line import SPEC

    budget = SPEC.expert_budget
    assert budget["max_candidates"] >= 2 and budget.get("paired")
    assert budget["min_worlds"] < budget["simulations"]  # the race is on
    game = _game(2)
    agent = agents.make_agent("line_v0", "expert", seed=0)
    rng = np.random.default_rng(1)
    s = game.new_state(rng)
    n, spent = 0, 0.0
    while not game.is_terminal(s) and n < 30:
        obs = _obs(game, s)
        t = time.perf_counter()
        a = agent.act(obs)
        spent += time.perf_counter() - t
        n += 1
        game.apply(s, a, rng)
    assert spent / n < 0.4  # about 0.1 s on a quiet machine; generous for loaded CI
