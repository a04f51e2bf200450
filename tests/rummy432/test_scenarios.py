"""Scenario tests from exact positions: every rule and Decision of docs/rules/rummy432.md."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardenvs.core.cards import card_str, parse_card
from cardenvs.core.game import IllegalActionError
from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.state import rank_counts

from .positions import cards, legal_strs, load, play, position

P1_6 = "2c 3c 4c 5c 6c 8c"  # a filler hand of six loose clubs


def throws(text: str) -> set[str]:
    return {f"throw {c}" for c in cards(text)}


def finishes(text: str) -> set[str]:
    return {f"finish {c}" for c in cards(text)}


def rest(*used: str) -> list[str]:
    """Every card not named in ``used`` (card order)."""
    taken = {c for u in used for c in cards(u)}
    return [card_str(c) for c in range(52) if card_str(c) not in taken]


# ------------------------------------------------------------------------ the deal
@pytest.mark.parametrize(
    "n,pack,hs", [(2, "four", 12), (3, "three", 9), (4, "mixed", 8), (5, "mixed", 6), (5, "three", 9)]
)
def test_new_deal(n: int, pack: str, hs: int) -> None:
    g = Rummy432Game(n, pack=pack, hand_size=hs)
    s = g.new_state(np.random.default_rng(0))
    assert [len(h) for h in s.hands] == [hs] * n
    assert len(s.discard) == 1 and len(s.pile) == 52 - n * hs - 1
    assert s.dealer == n - 1 and s.current == 0 and s.round == 1
    assert legal_strs(g, s) == {"draw", "take"}


def test_defaults() -> None:
    g = Rummy432Game()
    assert g.num_players == 4
    assert g.options == {
        "pack": "mixed",
        "hand_size": 8,
        "run_out_limit": 3,
        "rounds_to_win": 3,
        "max_turns_per_round": 1000,
    }


# ------------------------------------------------------------------------ picking
def test_draw_takes_pile_top() -> None:
    g, s = load(position(["7c 7d 7h 9c 9d Kc", P1_6], "2s", pile_top="Qh"))
    play(g, s, "draw")
    assert parse_card("Qh") in s.hands[0] and s.taken == -1 and s.known[0] == []
    assert g.to_json(s)["phase"] == "throw"


def test_empty_pile_only_take() -> None:
    obj = position(["7c 7d 7h 9c 9d Kc", P1_6], " ".join(rest("7c 7d 7h 9c 9d Kc", P1_6)), pile="")
    g, s = load(obj)
    assert legal_strs(g, s) == {"take"}
    with pytest.raises(IllegalActionError, match="draw"):
        g.apply(s, g.str_to_action("draw"))
    play(g, s, "take")
    top = obj["discard"][-1]
    assert g.to_json(s)["taken"] == top and top in g.to_json(s)["known"][0]


# ------------------------------------------------------------------ the taken card
def test_taken_card_cannot_be_thrown_but_finish_other() -> None:
    g, s = load(position(["7c 7d 7h 9c 9d Kc", P1_6], "2s 9h"))
    play(g, s, "take")
    assert g.to_json(s)["taken"] == "9h"
    assert legal_strs(g, s) == throws("7c 7d 7h 9c 9d Kc") | {"finish Kc"}
    before = g.to_json(s)
    for bad in ("throw 9h", "finish 9h"):
        with pytest.raises(IllegalActionError, match=bad):
            g.apply(s, g.str_to_action(bad))
    assert g.to_json(s) == before


def test_taken_card_cannot_be_the_finishing_throw() -> None:
    g, s = load(position(["7c 7d 7h 9c 9d 9h", P1_6], "2s Kc"))
    play(g, s, "take")
    # only the taken Kc would leave a complete hand, and it may not be thrown
    assert legal_strs(g, s) == throws("7c 7d 7h 9c 9d 9h")
    play(g, s, "throw 9h")
    assert s.known[0] == [parse_card("Kc")]
    assert g.to_json(s)["discard"][-1] == "9h"


def test_known_leaves_when_thrown_later() -> None:
    g, s = load(position(["7c 7d 7h 9c 9d 9h", "2c 3c 4c 5c 6c 8c"], "2s Kc"))
    play(g, s, "take", "throw 9h", "draw", "throw 2c", "draw", "throw Kc")
    assert s.known[0] == []


# --------------------------------------------------------------- finishing legality
def test_finish_needs_complete_kept_hand() -> None:
    g, s = load(position(["7c 7d 9c Jc Qc Kc", P1_6], "2s", pile_top="2h"))
    play(g, s, "draw")
    assert legal_strs(g, s) == throws("7c 7d 9c Jc Qc Kc 2h")


def test_mixed_finish_cards() -> None:
    # counts 7:2 9:3 K:2 are all groups; only a 9 can go (3 -> 2), a pair cannot break
    g, s = load(position(["7c 7d 9c 9d Kc Kd", P1_6], "2s", pile_top="9h"))
    play(g, s, "draw")
    assert legal_strs(g, s) == throws("7c 7d 9c 9d 9h Kc Kd") | finishes("9c 9d 9h")


def test_mixed_all_triples_any_finish() -> None:
    hand = "7c 7d 7h 9c 9d 9h Kc Kd"
    g, s = load(position([hand, "2c 3c 4c 5c 6c 8c Ac Ad"], "2s", pile_top="Kh"))
    play(g, s, "draw")
    full = hand + " Kh"
    assert legal_strs(g, s) == throws(full) | finishes(full)


def test_three_pack_four_of_a_rank() -> None:
    g, s = load(position(["7c 7d 7h 9c 9d 9h", P1_6], "2s", pile_top="7s", pack="three"))
    play(g, s, "draw")
    assert legal_strs(g, s) == throws("7c 7d 7h 7s 9c 9d 9h") | finishes("7c 7d 7h 7s")
    e = g.evaluate([parse_card(c) for c in cards("7c 7d 7h 7s 9c 9d")])
    assert e.shape == (3,) and not e.complete and e.loose_count == 3
    assert e.grouped_value == 21 and e.loose_value == 7 + 18


def test_four_pack() -> None:
    hand = "7c 7d 7h 7s 9c 9d 9h 9s"
    g, s = load(position([hand, "2c 3c 4c 5c 6c 8c Ac Ad"], "2s", pile_top="Kc", pack="four"))
    play(g, s, "draw")
    assert legal_strs(g, s) == throws(hand + " Kc") | {"finish Kc"}
    g, s = load(
        position(["7c 7d 7h 7s 9c 9d 9h Kd", "2c 3c 4c 5c 6c 8c Ac Ad"], "2s", pile_top="Kc", pack="four")
    )
    play(g, s, "draw")
    assert legal_strs(g, s) == throws("7c 7d 7h 7s 9c 9d 9h Kd Kc")
    e = g.evaluate([parse_card(c) for c in cards("7c 7d 7h 9c 9d 9h 9s Kd")])
    assert e.shape == (4,) and e.loose_count == 4


def test_mixed_four_of_a_kind_is_one_group() -> None:
    g = Rummy432Game(2, pack="mixed", hand_size=9)
    e = g.evaluate([parse_card(c) for c in cards("2c 2d 2h 2s 3c 3d 3h 4c 4d")])
    assert e.complete and e.shape == (4, 3, 2) and e.value == 8 + 9 + 8


# ------------------------------------------------------------- last turns, judging
def _judged(obj: dict, *moves: str) -> tuple[Rummy432Game, Any, dict]:
    g, s = load(obj)
    play(g, s, *moves, rng=np.random.default_rng(5))
    assert s.result is not None, "the round should have been judged"
    return g, s, s.result


def test_last_turn_bigger_groups_beat_first_finisher() -> None:
    """Mixed 9: a late 4+3+2 (value 25) beats the finisher's 3+3+3 (value 90)."""
    obj = position(
        ["Kc Kd Kh Qc Qd Qh Jc Jd Jh", "2c 2d 2h 2s 3c 3d 3h 4c Ac"],
        "9s 4d",
        hand_size=9,
        current=1,
        finished_by=0,
        last_turns_left=[1],
    )
    g, s = load(obj)
    play(g, s, "take")
    assert legal_strs(g, s) == throws("2c 2d 2h 2s 3c 3d 3h 4c Ac") | {"finish Ac"}
    play(g, s, "finish Ac", rng=np.random.default_rng(1))
    res = s.result
    assert res["winners"] == [1] and res["ended_by"] == "finish" and res["finished_by"] == 0
    assert [h["shape"] for h in res["hands"]] == [[3, 3, 3], [4, 3, 2]]
    assert [h["value"] for h in res["hands"]] == [90, 25]
    assert s.scores == [0, 1]
    # next round: the deal moves one seat left (dealer 1 -> 0), the seat left of it starts
    assert s.round == 2 and s.dealer == 0 and s.current == 1
    assert [len(h) for h in s.hands] == [9, 9] and s.finished_by == -1 and s.last_left == []
    assert s.run_outs == 0 and s.turn == 0 and s.known == [[], []]
    assert g.infos(s)[0]["round_result"] == res


def test_rule1_complete_beats_incomplete() -> None:
    obj = position(
        ["Ac Ad 2c 2d 3c 3d", "Kc Kd Kh Qc Qd Js"], "9s", pile_top="5h",
        current=1, finished_by=0, last_turns_left=[1],
    )
    g, s = load(obj)
    play(g, s, "draw")
    assert legal_strs(g, s) == throws("Kc Kd Kh Qc Qd Js 5h")
    play(g, s, "throw 5h", rng=np.random.default_rng(0))
    res = s.result
    assert res["winners"] == [0]
    assert [h["complete"] for h in res["hands"]] == [True, False]
    assert res["hands"][1]["value"] == 50 - 10 > res["hands"][0]["value"] == 12


def test_rule2_three_three_beats_two_two_two() -> None:
    obj = position(
        ["Kc Kd Qc Qd Jc Jd", "Ac Ad Ah 2c 2d 5s"], "9s", pile_top="2h",
        current=1, finished_by=0, last_turns_left=[1],
    )
    _, s, res = _judged(obj, "draw", "finish 5s")
    assert res["winners"] == [1] and res["hands"][0]["shape"] == [2, 2, 2]
    assert res["hands"][1]["shape"] == [3, 3] and res["hands"][1]["value"] == 9


def test_rule2_nine_cards_order() -> None:
    g = Rummy432Game(2, pack="mixed", hand_size=9)
    a = [parse_card(c) for c in cards("2c 2d 2h 2s 3c 3d 3h 4c 4d")]  # 4+3+2
    b = [parse_card(c) for c in cards("Kc Kd Kh Qc Qd Qh Jc Jd Jh")]  # 3+3+3
    c = [parse_card(x) for x in cards("Ts Tc Th 9c 9d 8c 8d 7c 7d")]  # 3+2+2+2
    assert g.judge([a, b, c])[0] == [0]
    assert g.judge([b, c])[0] == [0]
    g12 = Rummy432Game(2, pack="mixed", hand_size=12)
    d = [parse_card(x) for x in cards("2c 2d 2h 3c 3d 3h 4c 4d 4h 5c 5d 5h")]  # 3+3+3+3
    e = [parse_card(x) for x in cards("Kc Kd Kh Qc Qd Qh Jc Jd Tc Td 9c 9d")]  # 3+3+2+2+2
    assert g12.judge([e, d])[0] == [1]


def test_rule3_same_shape_higher_value() -> None:
    obj = position(
        ["Ac Ad Ah 2c 2d 2h", "Kc Kd Kh Qc Qd 5s"], "9s", pile_top="Qh",
        current=1, finished_by=0, last_turns_left=[1],
    )
    _, s, res = _judged(obj, "draw", "finish 5s")
    assert res["winners"] == [1] and [h["value"] for h in res["hands"]] == [9, 60]


def test_rule4_level_is_shared() -> None:
    obj = position(
        ["Ac Ad Ah Kc Kd Kh", "2c 2d 2h 9c 9d 5s"], "Ts", pile_top="9h",
        current=1, finished_by=0, last_turns_left=[1],
    )
    _, s, res = _judged(obj, "draw", "finish 5s")
    assert res["winners"] == [0, 1] and s.scores == [1, 1]
    assert [h["value"] for h in res["hands"]] == [33, 33]


def test_rule5_nobody_complete_value_wins_at_run_out_limit() -> None:
    used = "Kc Kd 9c 8d 4s 3h", "Qc Qd Qh 7c 6d Ac", "5h"
    obj = position(
        list(used[:2]), " ".join(rest(*used)), pile="5h", run_out_limit=2, run_outs=1
    )
    g, s = load(obj)
    play(g, s, "draw")
    assert legal_strs(g, s) == throws("Kc Kd 9c 8d 4s 3h 5h")
    play(g, s, "throw 5h", rng=np.random.default_rng(0))
    res = s.result
    assert res["ended_by"] == "run_outs" and res["winners"] == [1]
    assert [h["value"] for h in res["hands"]] == [20 - 24, 30 - 14]
    assert s.scores == [0, 1] and s.round == 2 and s.run_outs == 0


def test_rule5_level_shared() -> None:
    used = "Kc Kd 9c 8d 4s 3h", "Qc Qd 9d 8c 4c 3d", "5h"
    obj = position(list(used[:2]), " ".join(rest(*used)), pile="5h", run_out_limit=2, run_outs=1)
    _, s, res = _judged(obj, "draw", "throw 5h")
    assert res["winners"] == [0, 1] and s.scores == [1, 1]


# ------------------------------------------------------------------ run-outs
def test_reshuffle_keeps_top_card() -> None:
    used = "Kc Kd 9c 8d 4s 3h", "Qc Qd 9d 8c 4c 3d", "5h"
    disc = rest(*used)
    obj = position(list(used[:2]), " ".join(disc), pile="5h", run_out_limit=3, run_outs=1)
    g, s = load(obj)
    play(g, s, "draw", "throw 9c", rng=np.random.default_rng(0))
    j = g.to_json(s)
    assert j["discard"] == ["9c"] and j["run_outs"] == 2
    assert sorted(j["pile"]) == sorted(disc) and len(j["pile"]) == len(disc)
    assert j["current"] == 1 and j["phase"] == "pick" and s.result is None
    # the new order comes from the rng passed in: same rng, same pile
    g2, s2 = load(obj)
    play(g2, s2, "draw", "throw 9c", rng=np.random.default_rng(0))
    assert g2.to_json(s2) == j


def test_no_run_out_limit_reshuffles_forever() -> None:
    used = "Kc Kd 9c 8d 4s 3h", "Qc Qd 9d 8c 4c 3d", "5h"
    obj = position(list(used[:2]), " ".join(rest(*used)), pile="5h", run_out_limit=None, run_outs=7)
    g, s = load(obj)
    play(g, s, "draw", "throw 5h", rng=np.random.default_rng(0))
    assert s.run_outs == 8 and s.result is None and len(s.pile) == 39


def test_run_out_limit_ends_round_during_last_turns() -> None:
    used = "Kc Kd Kh 8d 8c 8h", "Qc Qd 9d 8s 4c 3d", "Ac 2d 3h 4s 5c 6d", "5h"
    obj = position(
        list(used[:3]), " ".join(rest(*used)), pile="5h", run_out_limit=2, run_outs=1,
        current=1, finished_by=0, last_turns_left=[1, 2],
    )
    g, s, res = _judged(obj, "draw", "throw 5h")
    assert res["ended_by"] == "run_outs" and res["winners"] == [0]  # 2 gets no last turn


def test_take_from_last_card_pile_is_no_run_out() -> None:
    used = "Kc Kd 9c 8d 4s 3h", "Qc Qd 9d 8c 4c 3d", "5h"
    obj = position(list(used[:2]), " ".join(rest(*used)), pile="5h", run_out_limit=2, run_outs=1)
    g, s = load(obj)
    play(g, s, "take", "throw 9c")
    assert s.run_outs == 1 and len(s.pile) == 1 and s.result is None


# ------------------------------------------------------------ finish and last turns
def test_last_turns_in_seat_order() -> None:
    obj = position(
        ["2c 3c 4c 5c 6c 8c", "7c 7d 7h 9c 9d 9h", "2d 3d 4d 5d 6d 8d"], "Ts", pile_top="Kc Ks Kh",
        current=1, dealer=0,
    )
    g, s = load(obj)
    play(g, s, "draw")
    assert "finish Kc" in legal_strs(g, s)
    play(g, s, "finish Kc")
    j = g.to_json(s)
    assert j["finished_by"] == 1 and j["last_turns_left"] == [2, 0] and j["current"] == 2
    play(g, s, "draw", "throw Ks")
    assert g.to_json(s)["last_turns_left"] == [0] and s.current == 0
    play(g, s, "draw", "throw Kh", rng=np.random.default_rng(0))
    assert s.result["winners"] == [1] and s.scores == [0, 1, 0]
    assert s.round == 2 and s.dealer == 1 and s.current == 2


def test_finish_on_last_turn_too_and_shared_game() -> None:
    obj = position(
        ["Ac Ad Ah Kc Kd Kh", "2c 2d 2h 9c 9d 5s", "3c 4c 5c 6c 7c 8c"], "Ts", pile_top="9h",
        current=1, finished_by=0, last_turns_left=[1, 2], scores=[2, 2, 1], dealer=2,
    )
    g, s = load(obj)
    play(g, s, "draw")
    assert "finish 5s" in legal_strs(g, s)
    play(g, s, "finish 5s")
    assert s.finished_by == 0 and s.last_left == [2] and s.current == 2
    play(g, s, "draw", "throw 3c", rng=np.random.default_rng(0))
    assert g.is_terminal(s) and g.current_player(s) == -1 and g.legal_actions(s) == []
    assert s.scores == [3, 3, 1]
    assert g.returns(s) == [0.0, 0.0, -1.0]
    info = g.infos(s)[2]["round_result"]
    assert info["game_over"] and info["game_winners"] == [0, 1]
    j = g.to_json(s)
    assert j["phase"] == "over" and j["current"] is None
    assert g.to_json(g.from_json(j)) == j


def test_sole_game_winner() -> None:
    obj = position(
        ["Ac Ad Ah Kc Kd Kh", "2c 3d 4h 9c 9d 5s"], "Ts", pile_top="7h",
        current=1, finished_by=0, last_turns_left=[1], scores=[2, 2],
    )
    g, s, res = _judged(obj, "draw", "throw 7h")
    assert res["winners"] == [0] and g.returns(s) == [1.0, -1.0]


def test_rounds_to_win_one() -> None:
    obj = position(
        ["Ac Ad Ah Kc Kd Kh", "2c 3d 4h 9c 9d 5s"], "Ts", pile_top="7h",
        current=1, finished_by=0, last_turns_left=[1], rounds_to_win=1,
    )
    g, s, _ = _judged(obj, "draw", "throw 7h")
    assert g.is_terminal(s) and g.returns(s) == [1.0, -1.0]


# ---------------------------------------------------------------- rotation and cap
def test_dealer_rotation_over_a_game() -> None:
    g = Rummy432Game(3, pack="mixed", hand_size=6, rounds_to_win=10, max_turns_per_round=40)
    rng = np.random.default_rng(11)
    s = g.new_state(rng)
    assert (s.dealer, s.current, s.round) == (2, 0, 1)
    rounds = 0
    while not g.is_terminal(s):
        dealer, rnd = s.dealer, s.round
        la = g.legal_actions(s)
        g.apply(s, la[int(rng.integers(len(la)))], rng)
        if s.result is not None:
            rounds += 1
            assert s.result["round"] == rnd
            if not g.is_terminal(s):
                assert s.round == rnd + 1 and s.dealer == (dealer + 1) % 3
                assert s.current == (s.dealer + 1) % 3
    assert rounds >= 10


def test_turn_cap_judges_round() -> None:
    g = Rummy432Game(2, pack="four", hand_size=8, max_turns_per_round=3, run_out_limit=None)
    rng = np.random.default_rng(0)
    s = g.new_state(rng)
    for _ in range(2):
        play(g, s, "draw")
        g.apply(s, g.legal_actions(s)[0], rng)
        assert s.result is None
    play(g, s, "draw")
    g.apply(s, g.legal_actions(s)[0], rng)
    assert s.result is not None and s.result["ended_by"] == "turn_cap"
    assert s.round == 2 or g.is_terminal(s)


def test_refresh_after_editing_hands() -> None:
    # search code edits a sampled state's hands, then State.refresh rebuilds the counts
    # and the legal-action cache (no rule restated outside the rules)
    obj = position(["7c 7d 7h 9c 9d Kc 2s", "2c 3c 4c 5c 6c 8c"], "9h", pile_top="Th", phase="throw")
    g, s = load(obj)
    assert "finish Kc" not in legal_strs(g, s) and s.legal is not None
    s.hands[0][s.hands[0].index(parse_card("2s"))] = parse_card("9s")  # 9s from the pile
    s.pile[s.pile.index(parse_card("9s"))] = parse_card("2s")
    s.refresh()
    assert s.counts[0] == rank_counts(s.hands[0]) and s.counts[0][8] == 3
    assert "finish Kc" in legal_strs(g, s)
