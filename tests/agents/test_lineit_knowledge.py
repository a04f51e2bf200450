"""Line-it knowledge: scenario positions (exact JSON states) for the heuristics and reasons."""

from __future__ import annotations

import time

import numpy as np
import pytest

import agents
import cardenvs
from agents.games.lineit import LineItKnowledge

ENV = "lineit_v0"
BETS = ["B3", "B3", "B4", "B4", "B5", "B5"]


def _state(lines=None, hands=None, market=(), jackpots=None, scored=None, discarded=(),
           phase="pick", picks_left=2, n=2, first=0, tokens=None):
    """A JSON position: everything not named is in the deck (ascending order)."""
    lines = lines or [[] for _ in range(n)]
    hands = hands or [[] for _ in range(n)]
    scored = scored or [[] for _ in range(n)]
    jackpots = jackpots or {"red": [], "blue": [], "green": [], "yellow": []}
    used = [*market, *discarded]
    for pile in (*lines, *hands, *scored, *jackpots.values()):
        used += pile
    deck = [c for c in range(1, 101) if c not in used]
    bets = BETS[:]
    for c in used:
        if isinstance(c, str):
            bets.remove(c)
    deck += bets
    current = (first + n - picks_left) % n
    obj = {"game": "lineit", "num_players": n, "deck": deck, "market": list(market),
           "lines": lines, "hands": hands, "jackpots": jackpots, "scored": scored,
           "tokens": tokens or [[] for _ in range(n)], "discarded": list(discarded),
           "first": first, "current": current, "phase": phase, "picks_left": picks_left,
           "played_hand": False}
    game = cardenvs.game_class(ENV)(n)
    return game, game.from_json(obj)


def _best(game, state, level: int) -> str:
    know = LineItKnowledge()
    p = game.current_player(state)
    legal = game.legal_actions(state)
    sc = know.scores(game, game.view(state, p), legal, level)
    return game.action_to_str(legal[int(np.argmax(sc))])


def _reason(game, state, move: str) -> str:
    p = game.current_player(state)
    return LineItKnowledge().reason(game, game.view(state, p), game.str_to_action(move))


@pytest.mark.parametrize("level", [1, 2])
def test_keeps_direction_with_a_small_step(level: int) -> None:
    game, st = _state(lines=[[10, 20, 30], []], market=[31, 60, 85, 5])
    assert _best(game, st, level) == "pick 31 line"
    r = _reason(game, st, "pick 31 line")
    assert "ascending" in r and "gap of 0" in r


def test_descending_line_takes_the_next_card_down() -> None:
    game, st = _state(lines=[[90, 80, 70], []], market=[69, 40, 95, 12])
    assert _best(game, st, 2) == "pick 69 line"
    assert "descending" in _reason(game, st, "pick 69 line")


@pytest.mark.parametrize("level", [1, 2])
def test_claims_a_jackpot(level: int) -> None:
    # line 1, 5 (red), 10 (blue): 21 is the third red card and claims the red jackpot
    game, st = _state(lines=[[1, 5, 10], []], market=[11, 21, 70, 90],
                      jackpots={"red": [13, 17, 25, 29, 33], "blue": [], "green": [], "yellow": []})
    assert _best(game, st, level) == "pick 21 line"
    r = _reason(game, st, "pick 21 line")
    assert "red jackpot" in r and "5 cards" in r


def test_second_card_direction_follows_the_room() -> None:
    # a low first card ascends, a high one descends
    game, st = _state(lines=[[8], []], market=[3, 12, 55, 97])
    assert _best(game, st, 2) == "pick 12 line"
    game, st = _state(lines=[[93], []], market=[97, 90, 40, 5])
    assert _best(game, st, 2) == "pick 90 line"


def test_scores_a_long_blocked_line_before_a_forced_new() -> None:
    line = [20, 30, 40, 50, 60, 70, 80, 90, 97]
    game, st = _state(lines=[line, []], hands=[[15, 25], []], market=[3, 99, 44],
                      phase="score", picks_left=2)
    assert _best(game, st, 2) == "score"
    r = _reason(game, st, "score")
    assert "9 number cards" in r and "banks 6" in r
    # a short line with plenty of room stays open
    game, st = _state(lines=[[10, 12, 14], []], market=[3, 99, 44], phase="score", picks_left=2)
    assert _best(game, st, 2) == "pass"
    assert "discard" in _reason(game, st, "score")


def test_score_reason_names_a_won_bet() -> None:
    game, st = _state(lines=[[20, "B4", 30, 40, 50, 60, 70, 80, 90, 99], []], market=[3, 4, 44],
                      phase="score", picks_left=2)
    r = _reason(game, st, "score")
    assert "banks 6" in r and "wins the B4 bet" in r
    assert _best(game, st, 2) == "score"


def test_bets_only_when_the_line_has_room() -> None:
    # a fresh ascending line from the bottom: the B5 will very likely see 5 cards
    game, st = _state(lines=[[2, 4], []], market=["B5", 50, 77, 93])
    assert _best(game, st, 2) == "pick B5 line"
    assert "bets that 5" in _reason(game, st, "pick B5 line")
    # a line near its end: no bet on the line
    game, st = _state(lines=[[60, 80, 95], []], market=["B5", 50, 77, 93])
    assert _best(game, st, 2) != "pick B5 line"


def test_blocks_a_big_jackpot_when_cheap() -> None:
    # player_1's line has two green cards (3, 7); 11 would give them an 8-card green jackpot
    green = [15, 19, 23, 27, 31, 35, 39, 43]
    game, st = _state(lines=[[60, 50, 45], [3, 7]], market=[11, 44, 97, 98],
                      jackpots={"red": [], "blue": [], "green": green, "yellow": []})
    assert _best(game, st, 2) == "pick 11 hand"
    assert "denies player 2 the green jackpot" in _reason(game, st, "pick 11 hand")


def test_reasons_for_every_kind_of_move() -> None:
    game, st = _state(lines=[[10, 20, 30], []], hands=[[35], []], market=[31, 60, 85, 5])
    for move in ("pick 31 line", "pick 60 hand", "pick 5 hand"):
        assert len(_reason(game, st, move)) > 20
    game.apply(st, game.str_to_action("pick 31 line"))
    assert "play 35" in _reason(game, st, "play 35") and "gap of 3" in _reason(game, st, "play 35")
    assert _reason(game, st, "pass").startswith("pass")
    # forced new: full hand, nothing fits
    game, st = _state(lines=[[10, 50, 97], []], hands=[[4, 6], []], market=[31, 60, 85, 5])
    legal = [game.action_to_str(a) for a in game.legal_actions(st)]
    assert all(m.endswith("new") for m in legal)
    assert "scores the line" in _reason(game, st, "pick 5 new")


def test_evaluate_is_bounded_and_prefers_the_leader() -> None:
    know = LineItKnowledge()
    game, st = _state(lines=[[10, 20, 30, 40, 50], []], scored=[list(range(60, 70)), []], market=[1, 2, 3, 4])
    v0, v1 = know.evaluate(game, st, 0), know.evaluate(game, st, 1)
    assert -1 <= v1 < 0 < v0 <= 1


def test_speed_per_move() -> None:
    game = cardenvs.game_class(ENV)(3)
    rng = np.random.default_rng(0)
    st = game.new_state(rng)
    greedy, planner = agents.make_agent(ENV, "greedy", seed=0), agents.make_agent(ENV, "planner", seed=0)
    times: dict[int, list[float]] = {1: [], 2: []}
    while not game.is_terminal(st):
        p = game.current_player(st)
        obs = {"observation": game.observe(st, p), "action_mask": game.legal_mask(st)}
        for lvl, ag in ((1, greedy), (2, planner)):
            t = time.perf_counter()
            a = ag.act(obs)
            times[lvl].append(time.perf_counter() - t)
        game.apply(st, a, rng)
    # about 0.15 ms each on an idle core; the bound leaves room for a loaded machine
    assert np.mean(times[1]) < 5e-3 and np.mean(times[2]) < 5e-3
