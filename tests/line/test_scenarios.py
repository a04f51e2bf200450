"""Scenario tests from exact positions: the complete legal move set for every rule and
every Decision of docs/rules/line.md, and the state after key moves."""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.game import InvalidStateError

from .positions import do, legal, load, position


def plays(card: str, *rows: int) -> set[str]:
    return {f"play {card} r{r}" for r in rows}


# ------------------------------------------------------------------ play / finishable
def test_play_keeps_rows_finishable() -> None:
    g, s = load(position(
        rows=[["5s", "6s"], ["7h", "7d"], ["Kc"], []],
        hands=[["7s", "4s", "7c", "9s", "Qc", "2h"], ["Ah"]],
    ))
    assert legal(g, s) == (
        plays("7s", 1, 2, 4) | plays("4s", 1, 4) | plays("7c", 2, 4) | plays("9s", 4)
        | plays("Qc", 3, 4) | plays("2h", 4)
    )
    do(g, s, "play 7s r2")
    j = g.to_json(s)
    assert sorted(j["rows"][1]) == ["7d", "7h", "7s"]
    assert j["current"] == 1 and j["phase"] == "turn" and j["bonus_turn"] is False
    assert "7s" not in j["hands"][0]


def test_finishability_is_structural() -> None:
    # Ts (the card the row needs below J) lies in the discard, 9s would span 5: refused;
    # the joker may still go in (it stands for Ts or nothing the row cannot use).
    g, s = load(position(
        rows=[["Js", "Qs", "Ks"], ["2c"], ["2d"], ["2h"]],
        hands=[["X", "9s"], ["Ah"]],
        discard=["Ts"],
    ))
    assert legal(g, s) == plays("X", 1, 2, 3, 4)


def test_joker_rules_upgrade_and_shift_with_joker_in_the_middle() -> None:
    g, s = load(position(
        rows=[["5s", "X"], ["8h", "9h", "X", "Jh"], ["3c"], ["Ad", "2d", "3d"]],
        hands=[["X", "7s", "9s", "Th", "4d", "3h", "7h"], ["Kh"]],
    ))
    assert legal(g, s) == (
        plays("X", 3, 4)  # r1 already holds a joker, r2 is full
        | plays("7s", 1) | plays("4d", 4) | plays("3h", 3)
        | {"upgrade Th r2 joker r3", "upgrade Th r2 joker r4", "upgrade Th r2 joker hand"}
        | {"shift Th r2 out 8h", "shift Th r2 out 9h", "shift Th r2 out X",
           "shift Th r2 out Jh"}
        | {"shift 7h r2 out Jh"}
    )


def test_shift_joker_in_and_never_into_sets() -> None:
    g, s = load(position(
        rows=[["4c", "4d", "4h", "4s"], ["5s", "6s", "7s", "8s"], [], []],
        hands=[["X", "9s", "3s", "Ts", "2c"], ["Kh"]],
    ))
    assert legal(g, s) == (
        plays("X", 3, 4) | plays("9s", 3, 4) | plays("3s", 3, 4) | plays("Ts", 3, 4)
        | plays("2c", 3, 4)
        | {f"shift X r2 out {o}" for o in ("5s", "6s", "7s", "8s")}
        | {"shift 9s r2 out 5s"}
    )
    do(g, s, "shift X r2 out 6s")
    j = g.to_json(s)
    assert sorted(j["rows"][1]) == ["5s", "7s", "8s", "X"]
    assert j["discard"][-1] == "6s"
    assert j["current"] == 1 and j["bonus_turn"] is False  # a shift earns nothing


def test_shift_joker_out_goes_to_discard() -> None:
    g, s = load(position(
        rows=[["5h", "X", "7h", "8h"], ["Kc"], [], []],
        hands=[["6h"], ["Kh"]],
    ))
    assert legal(g, s) == (
        plays("6h", 3, 4)
        | {"upgrade 6h r1 joker r2", "upgrade 6h r1 joker r3", "upgrade 6h r1 joker r4",
           "upgrade 6h r1 joker hand"}
        | {"shift 6h r1 out X", "shift 6h r1 out 5h", "shift 6h r1 out 7h",
           "shift 6h r1 out 8h"}
    )
    do(g, s, "shift 6h r1 out X")
    j = g.to_json(s)
    assert sorted(j["rows"][0]) == ["5h", "6h", "7h", "8h"] and j["discard"][-1] == "X"
    assert j["hands"][0] == [] and j["current"] == 1


def test_upgrade_to_every_destination() -> None:
    obj = position(
        rows=[["6s", "7s", "8s", "X"], ["Ah", "X"], ["2c", "3c", "4c", "5c"], ["Kd"]],
        hands=[["5s", "9s", "2h", "Qd"], ["Kh"]],
    )
    g, s = load(obj)
    assert legal(g, s) == (
        plays("2h", 2) | plays("Qd", 4)
        | {f"upgrade {c} r1 joker {d}" for c in ("5s", "9s") for d in ("r4", "hand")}
        | {f"shift 5s r1 out {o}" for o in ("6s", "7s", "8s", "X")}
        | {f"shift 9s r1 out {o}" for o in ("6s", "7s", "8s", "X")}
    )
    do(g, s, "upgrade 5s r1 joker r4")
    j = g.to_json(s)
    assert sorted(j["rows"][0]) == ["5s", "6s", "7s", "8s"]
    assert sorted(j["rows"][3]) == ["Kd", "X"]
    assert j["current"] == 1 and j["bonus_turn"] is False  # the upgrade's own row: nothing
    g, s = load(obj)
    do(g, s, "upgrade 9s r1 joker hand")
    j = g.to_json(s)
    assert sorted(j["hands"][0]) == ["2h", "5s", "Qd", "X"]
    assert j["current"] == 1 and s.known == [1, 0]
    obs1 = g.observe(s, 1)
    assert g.decode(obs1).known_jokers == (1, 0)


def test_known_joker_forgotten_when_played() -> None:
    g, s = load(position(
        rows=[["6s", "7s", "8s", "X"], [], [], []],
        hands=[["9s", "2c"], ["Kh", "Kd"]],
    ))
    do(g, s, "upgrade 9s r1 joker hand")
    assert s.known == [1, 0]
    do(g, s, "play Kh r2")
    do(g, s, "play X r3")
    assert s.known == [0, 0]


def test_upgrade_joker_filling_a_row_gives_bonus_that_never_chains() -> None:
    obj = position(
        rows=[["6s", "7s", "8s", "X"], [], ["5d", "6d", "X", "8d"], ["Jd", "Qd", "Kd"]],
        hands=[["5s", "2c", "7d", "9s"], ["Kh"]],
    )
    g, s = load(obj)
    do(g, s, "upgrade 5s r1 joker r4")
    j = g.to_json(s)
    assert sorted(j["rows"][3]) == ["Jd", "Kd", "Qd", "X"]
    assert j["current"] == 0 and j["bonus_turn"] is True
    # in the bonus turn: the freed joker of r3 fills nothing that earns again
    assert "upgrade 7d r3 joker r2" in legal(g, s)
    do(g, s, "upgrade 7d r3 joker r2")
    assert (s.current, s.bonus) == (1, False)
    # a bonus-turn placement that fills a row passes the turn too
    obj2 = position(
        rows=[["6s", "7s", "8s"], [], [], []],
        hands=[["9s"], ["Kh"]],
        bonus=True,
    )
    g, s = load(obj2)
    do(g, s, "play 9s r1")
    assert (s.current, s.bonus, g.to_json(s)["phase"]) == (1, False, "turn")


def test_play_filling_a_row_gives_bonus() -> None:
    g, s = load(position(
        rows=[["6s", "7s", "8s"], [], [], []],
        hands=[["9s", "2c"], ["Kh"]],
    ))
    do(g, s, "play 9s r1")
    assert (s.current, s.bonus) == (0, True)
    assert legal(g, s) == plays("2c", 2, 3, 4)
    do(g, s, "play 2c r2")
    assert (s.current, s.bonus) == (1, False)


def test_grid_full_ends_at_once() -> None:
    g, s = load(position(
        rows=[["6s", "7s", "8s"], ["4c", "4d", "4h", "4s"], ["9h", "Th", "Jh", "Qh"],
              ["Jd", "Qd", "Kd", "X"]],
        hands=[["9s", "2c"], ["Kh"]],
    ))
    do(g, s, "play 9s r1")
    assert g.is_terminal(s) and g.current_player(s) == -1 and g.legal_actions(s) == []
    j = g.to_json(s)
    assert j["phase"] == "over" and j["bonus_turn"] is False
    assert g.infos(s)[0] == {"hand_total": 2, "hand_size": 1, "winners": [0]}
    assert [i["hand_total"] for i in g.infos(s)] == [2, 10]
    assert g.returns(s) == [1.0, -1.0]


def test_grid_full_via_freed_joker_mid_upgrade() -> None:
    g, s = load(position(
        rows=[["6s", "7s", "8s", "X"], ["4c", "4d", "4h", "4s"], ["9h", "Th", "Jh", "Qh"],
              ["Jd", "Qd", "Kd"]],
        hands=[["5s", "Ac"], ["Kh"]],
    ))
    assert legal(g, s) == (
        {"upgrade 5s r1 joker r4", "upgrade 5s r1 joker hand"}
        | {f"shift 5s r1 out {o}" for o in ("6s", "7s", "8s", "X")}
    )
    do(g, s, "upgrade 5s r1 joker r4")
    assert g.to_json(s)["phase"] == "over" and s.current == 0
    assert g.returns(s) == [1.0, -1.0]


# ----------------------------------------------------------------------------- forced
FORCED_ROWS = [["2c", "3c"], ["9h", "9d"], ["Ks", "Qs", "Js"], ["5d", "6d", "7d"]]


def test_forced_take_or_draw() -> None:
    g, s = load(position(rows=FORCED_ROWS, hands=[["8c", "Th", "2s"], ["Ah"]],
                         discard=["4c"]))
    assert legal(g, s) == {"take r1", "draw"}
    g, s = load(position(rows=FORCED_ROWS, hands=[["8c", "Th", "2s"], ["Ah"]],
                         discard=["9c"]))
    assert legal(g, s) == {"take r2", "draw"}
    do(g, s, "take r2")
    j = g.to_json(s)
    assert sorted(j["rows"][1]) == ["9c", "9d", "9h"] and j["current"] == 1
    assert "9c" not in j["discard"]


def test_take_filling_a_row_gives_bonus() -> None:
    g, s = load(position(rows=FORCED_ROWS, hands=[["8c", "Th", "2s"], ["Ah"]],
                         discard=["8d"]))
    assert legal(g, s) == {"take r4", "draw"}
    do(g, s, "take r4")
    assert (s.current, s.bonus) == (0, True)


def test_forced_no_take_only_draw() -> None:
    g, s = load(position(rows=FORCED_ROWS, hands=[["8c", "Th", "2s"], ["Ah"]],
                         discard=["Kc"]))
    assert legal(g, s) == {"draw"}


def test_empty_hand_is_forced() -> None:
    g, s = load(position(rows=FORCED_ROWS, hands=[[], ["Ah"]], discard=["4c"]))
    assert legal(g, s) == {"take r1", "draw"}


def test_drawn_playable_card_must_go_down() -> None:
    g, s = load(position(rows=[["2c", "3c"], ["9h", "9d"], ["Ks", "Qs", "Js"], ["9s"]],
                         hands=[["8c", "Th", "2s"], ["Ah"]], draw=["9c"], discard=["Kc"]))
    assert legal(g, s) == {"draw"}
    do(g, s, "draw")
    j = g.to_json(s)
    assert j["phase"] == "place_drawn" and j["pending"] == "9c" and j["current"] == 0
    assert legal(g, s) == {"play 9c r2", "play 9c r4"}
    g2 = g.from_json(j)  # the JSON of the pending phase round-trips
    assert legal(g, g2) == {"play 9c r2", "play 9c r4"}
    do(g, s, "play 9c r4")
    j = g.to_json(s)
    assert j["phase"] == "turn" and j["pending"] is None and j["current"] == 1
    assert sorted(j["rows"][3]) == ["9c", "9s"]
    assert sorted(j["hands"][0]) == ["2s", "8c", "Th"]


def test_drawn_card_filling_a_row_gives_bonus() -> None:
    g, s = load(position(rows=FORCED_ROWS, hands=[["8c", "Th", "2s"], ["Ah"]],
                         draw=["8d"], discard=["Kc"]))
    do(g, s, "draw")
    assert legal(g, s) == {"play 8d r4"}
    do(g, s, "play 8d r4")
    assert (s.current, s.bonus, s.phase) == (0, True, 0)


def test_drawn_unplayable_card_joins_hand() -> None:
    g, s = load(position(rows=FORCED_ROWS, hands=[["8c", "Th", "2s"], ["Ah"]],
                         draw=["Kh"], discard=["Kc"]))
    do(g, s, "draw")
    j = g.to_json(s)
    assert sorted(j["hands"][0]) == ["2s", "8c", "Kh", "Th"]
    assert j["phase"] == "turn" and j["current"] == 1


def test_discard_back_to_seven() -> None:
    hand = ["8c", "Th", "2s", "Tc", "X", "Jh", "Qc"]
    rows = [["2c", "3c", "X"], ["9h", "9d", "X"], ["4c", "4d", "4h", "4s"], ["5d", "6d", "X"]]
    g, s = load(position(rows=rows, hands=[hand, ["Ah"]], draw=["Kh"], discard=["Kc"]))
    assert legal(g, s) == {"draw"}
    do(g, s, "draw")
    j = g.to_json(s)
    assert j["phase"] == "discard" and len(j["hands"][0]) == 8 and j["current"] == 0
    assert legal(g, s) == {f"discard {c}" for c in ("8c", "Th", "2s", "Tc", "X", "Jh", "Qc", "Kh")}
    assert g.from_json(j).phase == 2
    do(g, s, "discard Kh")
    j = g.to_json(s)
    assert j["phase"] == "turn" and j["current"] == 1 and j["discard"][-1] == "Kh"
    assert len(j["hands"][0]) == 7


def test_empty_pile_only_take() -> None:
    g, s = load(position(rows=FORCED_ROWS, hands=[["8c", "Th", "2s"], ["Ah"]],
                         discard=["4c"], fill="discard"))
    assert g.to_json(s)["draw_pile"] == []
    assert legal(g, s) == {"take r1"}


def test_empty_pile_and_no_take_ends_the_game() -> None:
    obj = position(rows=[["2c", "3c"], ["9h", "9d"], ["Ks", "Qs", "Js"], ["5d"]],
                   hands=[["6d", "Kc"], ["8c", "Th", "2s"]], discard=["Ad"], fill="discard")
    g, s = load(obj)
    assert legal(g, s) == plays("6d", 4)
    do(g, s, "play 6d r4")
    # player_1 is forced, cannot take Ad and cannot draw: over at once
    assert g.is_terminal(s) and g.to_json(s)["phase"] == "over" and s.current == 1
    assert g.returns(s) == [1.0, -1.0]  # 10 against 20
    j = g.to_json(s)
    assert g.is_terminal(g.from_json(j))
    j["phase"] = "turn"
    with pytest.raises(InvalidStateError, match="no legal move"):
        g.from_json(j)


# ------------------------------------------------------------------------ results
FULL_ROWS = [["4c", "4d", "4h", "4s"], ["5c", "5d", "5h", "5s"], ["9h", "Th", "Jh", "Qh"],
             ["Jd", "Qd", "Kd", "X"]]


@pytest.mark.parametrize(
    ("hands", "jp", "expected"),
    [
        ([["Kc"], ["6c", "6d"]], 25, [1.0, -1.0]),  # 10 vs 12
        ([["Kc"], ["3c", "7d"]], 25, [1.0, -1.0]),  # tie on 10: fewer cards
        ([["Kc"], ["Ks"]], 25, [0.0, 0.0]),  # still tied: shared
        ([["Kc"], ["Ks"], ["2c"]], 25, [-1.0, -1.0, 1.0]),
        ([["Kc"], ["Ks"], ["Qc", "Ac"]], 25, [0.0, 0.0, -1.0]),
        ([[], ["Ac"], ["2c"], ["3c"]], 25, [1.0, -1.0, -1.0, -1.0]),
        ([["X"], ["Kc", "Ks"]], 25, [-1.0, 1.0]),
        ([["X"], ["Kc", "Ks"]], 10, [1.0, -1.0]),
        ([["X"], ["Kc", "Ks"]], 20, [1.0, -1.0]),  # 20 = 20, fewer cards
        ([["X"], ["Ks"]], 10, [0.0, 0.0]),
        ([["X"], ["Ks"]], 0, [1.0, -1.0]),
    ],
)
def test_results_and_tie_breaks(hands: list[list[str]], jp: int, expected: list[float]) -> None:
    g, s = load(position(rows=FULL_ROWS, hands=hands, phase="over", joker_points=jp))
    assert g.returns(s) == expected
    infos = g.infos(s)
    vals = {"X": jp, "Kc": 10, "Ks": 10, "Qc": 10}
    for p, h in enumerate(hands):
        total = sum(vals.get(c, int(c[0]) if c[0].isdigit() else 1) for c in h)
        assert infos[p]["hand_total"] == total
        assert infos[p]["hand_size"] == len(h)


def test_returns_zero_while_running() -> None:
    g, s = load(position(rows=[[], [], [], []], hands=[["Ac"], ["Kh"]]))
    assert g.returns(s) == [0.0, 0.0] and g.infos(s) == [{}, {}]


def test_sample_state_gives_a_stuck_looking_player_their_move() -> None:
    # empty pile, top discard unplayable: player_1 (to move) must hold the one card with
    # a move among the cards player_0 cannot see, so every sample deals it to them
    g, s = load(position(rows=FORCED_ROWS, hands=[["Qh"], ["8d"], ["8c", "Th", "2s", "Kh"]],
                         current=1, discard=["Ad"], fill="discard"))
    assert legal(g, s) == {"play 8d r4"}
    v = g.view(s, 0)
    rng = np.random.default_rng(5)
    for _ in range(20):
        s2 = g.sample_state(v, rng)
        assert g.to_json(s2)["hands"][1] == ["8d"]
        assert np.array_equal(g.observe(s2, 0), g.observe(s, 0))
        g.from_json(g.to_json(s2))


@pytest.mark.parametrize("phase", ["over", "place_drawn"])
def test_sample_state_keeps_a_forced_players_hand_dead(phase: str) -> None:
    # player_1 could not move (over) or drew (place_drawn): none of their hidden cards
    # can have had a play, upgrade or shift, so no sample may give them one
    g, s = load(position(rows=FORCED_ROWS, hands=[["Qh"], ["8c", "Th"], ["8d", "2s", "Kh"]],
                         current=1, discard=["Ad"], phase=phase,
                         pending="9c" if phase == "place_drawn" else None,
                         fill="discard" if phase == "over" else "draw"))
    v = g.view(s, 0)
    rng = np.random.default_rng(7)
    for _ in range(20):
        s2 = g.sample_state(v, rng)
        assert "8d" not in g.to_json(s2)["hands"][1]
        assert np.array_equal(g.observe(s2, 0), g.observe(s, 0))
        g.from_json(g.to_json(s2))
