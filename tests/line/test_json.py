"""JSON schema: round trip and every kind of bad state refused with a clear message."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from cardenvs.core.game import InvalidStateError, OptionError
from cardenvs.line import LineGame

from .positions import position

BASE = position(rows=[["5s", "6s", "X"], [], ["7h"], []], hands=[["Ac", "2d"], ["Kh"]],
                discard=["3h", "Qs"])


def test_rules_example_loads() -> None:
    g = LineGame()
    s = g.from_json(BASE)
    assert g.to_json(s) == BASE


def mutate(**changes: Any) -> dict[str, Any]:
    obj = copy.deepcopy(BASE)
    obj.update(changes)
    return obj


CASES: list[tuple[str, Any, str]] = [
    ("not a dict", [], "JSON object"),
    ("missing key", {k: v for k, v in BASE.items() if k != "phase"}, "missing key.*phase"),
    ("extra key", mutate(turn=3), "unknown key.*turn"),
    ("wrong game", mutate(game="lineit"), "game is 'lineit'"),
    ("num_players", mutate(num_players=3), "num_players"),
    ("hands count", mutate(hands=[["Ac", "2d"]]), "list of 2 hands"),
    ("unknown card", mutate(hands=[["Ac", "2d"], ["Kz"]]), "'Kz' is not a card"),
    ("card twice", mutate(hands=[["Ac", "2d"], ["Kh", "Ac"]]), "Ac appear more than once"),
    ("card missing", mutate(hands=[["Ac"], ["Kh"]]), "2d are missing"),
    ("too many jokers", None, "5 jokers"),
    ("row over 4", mutate(rows=[["5s", "6s", "X", "7s", "8s"], [], ["7h"], []]), "4 squares"),
    ("unfinishable row", mutate(rows=[["5s", "6s", "X"], ["Kc", "Kd"], ["7h", "8c"], []]),
     "row 3 .*never be finished"),
    ("two jokers", mutate(rows=[["5s", "6s", "X"], ["X", "X"], ["7h"], []]), "2 jokers"),
    ("rows not 4", mutate(rows=[["5s"], [], []]), "4 rows"),
    ("current range", mutate(current=2), "current must be a seat"),
    ("current type", mutate(current="0"), "current must be a seat"),
    ("bonus type", mutate(bonus_turn=1), "bonus_turn"),
    ("phase name", mutate(phase="play"), "phase 'play'"),
    ("options bad", mutate(options={"joker_points": 500}), "joker_points=500"),
    ("options unknown", mutate(options={"jokers": 2}), "unknown option"),
    ("options differ", mutate(options={"joker_points": 10}), "differs"),
    ("pending without phase", None, "pending is set"),
    ("place_drawn without pending", mutate(phase="place_drawn"), "needs the drawn card"),
    ("discard phase, hand not 8", mutate(phase="discard"), "hold 8 cards"),
    ("over but not over", mutate(phase="over"), "not full"),
    ("hand over 7", None, "at most 7"),
    ("grid full but turn", None, "grid is full"),
]


def build(name: str, obj: Any) -> Any:
    if name == "pending without phase":
        obj = copy.deepcopy(BASE)
        obj["pending"] = obj["draw_pile"].pop()
    elif name == "hand over 7":
        obj = copy.deepcopy(BASE)
        for _ in range(7):
            obj["hands"][1].append(obj["draw_pile"].pop())
    elif name == "grid full but turn":
        obj = position(rows=[["4c", "4d", "4h", "4s"], ["5c", "5d", "5h", "5s"],
                             ["9h", "Th", "Jh", "Qh"], ["Jd", "Qd", "Kd", "X"]],
                       hands=[["Kc"], ["Ks"]])
    elif name == "too many jokers":
        obj = copy.deepcopy(BASE)
        obj["draw_pile"].remove("7c")
        obj["hands"][1].append("X")
    return obj


@pytest.mark.parametrize(("name", "obj", "match"), CASES, ids=[c[0] for c in CASES])
def test_bad_json(name: str, obj: Any, match: str) -> None:
    g = LineGame()
    with pytest.raises(InvalidStateError, match=match):
        g.from_json(build(name, obj))


def test_pending_not_playable() -> None:
    g = LineGame()
    obj = position(rows=[["5s", "6s", "X"], ["Kd", "Qd", "Jd", "Td"], ["7h"], ["2c", "2d"]],
                   hands=[["Ac", "3d"], ["Kh"]], phase="place_drawn", pending="9c")
    # 9c: r1 a spade run, r2 full, r3 7h, r4 deuces: nowhere
    with pytest.raises(InvalidStateError, match="cannot be played"):
        g.from_json(obj)
    ok = position(rows=obj["rows"], hands=obj["hands"], phase="place_drawn", pending="2h")
    assert g.legal_actions(g.from_json(ok)) == [g.str_to_action("play 2h r4")]


def test_drawing_player_must_have_been_forced() -> None:
    g = LineGame()
    rows = [["2c", "3c"], ["9h", "9d"], ["Ks", "Qs", "Js"], ["5d", "6d", "7d"]]
    ok = position(rows=rows, hands=[["8c", "Th"], ["Ah"]], phase="place_drawn", pending="9c")
    g.from_json(ok)
    bad = position(rows=rows, hands=[["8c", "4c"], ["Ah"]], phase="place_drawn", pending="9c")
    with pytest.raises(InvalidStateError, match="could not have drawn"):
        g.from_json(bad)
    hand = ["8c", "Th", "2s", "Tc", "Kh", "Jh", "Qc"]
    g.from_json(position(rows=rows, hands=[[*hand, "Ah"], ["8h"]], phase="discard"))
    with pytest.raises(InvalidStateError, match="unplayable drawn card"):
        g.from_json(position(rows=rows, hands=[[*hand, "4c"], ["8h"]], phase="discard"))
    with pytest.raises(InvalidStateError, match="unplayable drawn card"):
        g.from_json(position(rows=rows, hands=[[*hand[:6], "8d", "4c"], ["8h"]],
                             phase="discard"))


def test_bad_options_and_seats() -> None:
    with pytest.raises(OptionError, match="joker_points"):
        LineGame(joker_points=101)
    with pytest.raises(OptionError, match="joker_points"):
        LineGame(joker_points=2.5)
    with pytest.raises(OptionError, match="unknown option"):
        LineGame(jokers=3)
    with pytest.raises(OptionError, match="2..4"):
        LineGame(5)
    assert LineGame(4, joker_points=np.int64(0)).options == {"joker_points": 0}


def test_render_shows_rows_tidily() -> None:
    g = LineGame()
    obj = position(rows=[["8s", "X", "6s"], ["Kh", "Kc", "X"], ["Ts", "Js", "Qs", "X"], []],
                   hands=[["Ac", "2d"], ["Kd"]], bonus=True)
    s = g.from_json(obj)
    text = g.render(s)
    assert "r1  6s  X 8s .." in text
    assert "r2  Kc  X Kh .." in text  # sets in suit order, the joker at the missing suit
    assert "player_1 hand (1): Kd" in text and "bonus turn" in text
    text1 = g.render(s, viewer=0)
    assert "Kd" not in text1.split("player_1")[1] and "player_1: 1 cards" in text1


def test_known_jokers_survive_a_json_round_trip() -> None:
    """A joker upgraded into a hand is public; the optional key keeps that in the JSON."""
    from cardenvs.line import LineGame

    from .positions import position

    game = LineGame(2)
    state = game.from_json(position(rows=[["5s", "6s", "7s", "X"], [], [], []], hands=[["8s", "2c"], ["3d"]]))
    game.apply(state, game.str_to_action("upgrade 8s r1 joker hand"))
    data = game.to_json(state)
    assert data["known_jokers"] == [1, 0]
    again = game.from_json(data)
    for p in range(2):
        assert (game.observe(again, p) == game.observe(state, p)).all()
    bad = dict(data, known_jokers=[0, 1])
    with pytest.raises(ValueError, match="known joker"):
        game.from_json(bad)


def test_redeal_keeps_the_cards_and_resets_the_legal_moves() -> None:
    g = LineGame()
    s = g.from_json(position(rows=[[], [], [], []], hands=[["5s", "6s"], ["Kh"]]))
    assert g.legal_actions(s)
    hands, draw = [list(h) for h in s.hands], list(s.draw)
    hands[0], draw[-2:] = draw[-2:], hands[0]  # player_0 gets the two top cards of the pile
    g.redeal(s, hands, draw)
    assert s.legal is None and g.legal_actions(s) == g.from_json(g.to_json(s)).legal
    with pytest.raises(ValueError, match="same cards"):
        g.redeal(s, [hands[0], hands[1] + hands[0][:1]], draw)  # a card twice
