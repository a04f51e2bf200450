"""Bad input: illegal actions, malformed move text, each kind of bad JSON state."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest

from cardenvs.core.game import IllegalActionError, InvalidStateError, NotationError, OptionError
from cardenvs.lineit.rules import LineItGame
from cardenvs.lineit.state import NUM_ACTIONS

from .positions import load, position


def test_action_notation_round_trips_and_layout() -> None:
    g = LineItGame()
    assert g.num_actions == NUM_ACTIONS == 414
    for a in range(NUM_ACTIONS):
        assert g.str_to_action(g.action_to_str(a)) == a
    assert g.action_to_str(0) == "pick 1 line"
    assert g.action_to_str(56) == "pick 57 line"
    assert g.action_to_str(103 + 56) == "pick 57 hand"
    assert g.action_to_str(206 + 56) == "pick 57 new"
    assert g.action_to_str(101) == "pick B4 line"
    assert g.action_to_str(309 + 56) == "play 57"
    assert g.action_to_str(411) == "play B5"
    assert g.action_to_str(412) == "score" and g.action_to_str(413) == "pass"
    assert g.str_to_action("  PICK b4   Line ") == 101
    with pytest.raises(NotationError):
        g.action_to_str(414)


@pytest.mark.parametrize(
    "text",
    ["", "   ", "pick", "pick 57", "pick 57 deck", "pick 0 line", "pick 101 hand", "pick B6 new",
     "pick 057 line", "pick -3 line", "play", "play 5 6", "play B2", "scor", "pass now",
     "score 5", "take 5", "pick line 57"],
)
def test_malformed_move_text(text: str) -> None:
    g = LineItGame()
    with pytest.raises(NotationError, match="pick <card> line"):
        g.str_to_action(text)


def test_move_text_must_be_a_string() -> None:
    with pytest.raises(NotationError):
        LineItGame().str_to_action(5)  # type: ignore[arg-type]


def test_illegal_action_leaves_the_state_unchanged() -> None:
    g, st = load(position(2, market=[5, 20, 30, "B3"], lines=[[10, "B4"], []]))
    before = g.to_json(st)
    for bad in ["pick 99 line", "pick B3 line", "pick 5 new", "play 5", "score", "pass"]:
        with pytest.raises(IllegalActionError, match=bad):
            g.apply(st, g.str_to_action(bad))
        assert g.to_json(st) == before
    for bad_id in [-1, 414, 10**9, 3.0, "3", None, True, np.bool_(True)]:
        with pytest.raises(IllegalActionError):
            g.apply(st, bad_id)  # type: ignore[arg-type]
        assert g.to_json(st) == before


def test_numpy_ints_are_accepted() -> None:
    for t in (np.int64, np.int32, np.uint16, np.int8):
        g, st = load(position(2, market=[5, 20, 30, "B3"], lines=[[10, "B4"], []]))
        g.apply(st, t(g.str_to_action("pick 20 line")))
        assert st.lines[0] == [10, 102, 20]


def test_options() -> None:
    for bad in (1, 6, "2", True, 2.5):
        with pytest.raises(OptionError):
            LineItGame(bad)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="unknown option"):
        LineItGame(2, jokers=True)
    assert LineItGame(np.int64(3)).num_players == 3


GOOD = position(2, market=[5, 20, 30, "B3"], lines=[[10, "B4"], []], hands=[[40], []],
                jackpots={"red": [13], "yellow": [8]}, scored=[[44, 45], []],
                tokens=[[3], []], discarded=["B3", 1, 2], rest="deck")


def _bad(**changes: Any) -> dict[str, Any]:
    j = copy.deepcopy(GOOD)
    for k, v in changes.items():
        if v is KeyError:
            del j[k]
        else:
            j[k] = v
    return j


def test_good_position_loads_and_round_trips() -> None:
    g = LineItGame(2)
    assert g.to_json(g.from_json(GOOD)) == GOOD


def _deck_without(*cards: Any) -> list:
    d = list(GOOD["deck"])
    for c in cards:
        d.remove(c)
    return d


BAD_CASES = [
    ("not an object", [1, 2], "JSON object"),
    ("missing key", _bad(deck=KeyError), "missing key"),
    ("unknown key", {**GOOD, "round": 3}, "unknown key"),
    ("wrong game", _bad(game="line"), "game must be 'lineit'"),
    ("seat count", _bad(num_players=3), "num_players must be 2"),
    ("not a card", _bad(market=[5, 20, 30, "X"]), "is not a card"),
    ("card 0", _bad(market=[5, 20, 30, 0]), "is not a card"),
    ("bool card", _bad(market=[5, 20, 30, True]), "is not a card"),
    ("card twice", _bad(market=[5, 20, 30, 5]), "card 5 appears 2 times"),
    ("card missing", _bad(deck=_deck_without(50)), "card 50 appears 0 times"),
    ("third bet copy", _bad(deck=_deck_without(50) + ["B3"]), "B3 appears 3 times"),
    ("hand limit", _bad(hands=[[40, 41, 42], []], deck=_deck_without(41, 42)), "hand limit is 2"),
    ("two bets in a line", _bad(lines=[[10, "B4", "B5"], []], deck=_deck_without("B5")),
     "more than one Bet"),
    ("direction broken", _bad(lines=[[10, "B4", 25, 15], []], deck=_deck_without(25, 15)),
     "breaks the line's ascending direction"),
    ("jackpot colour", _bad(jackpots={"red": [13, 14], "blue": [], "green": [], "yellow": [8]},
                            deck=_deck_without(14)), "not a red number card"),
    ("jackpot keys", _bad(jackpots={"red": [13], "yellow": [8]}), "exactly the keys"),
    ("bet scored", _bad(scored=[[44, 45, "B5"], []], deck=_deck_without("B5")), "holds a Bet"),
    ("token value", _bad(tokens=[[2], []]), "bet tokens"),
    ("token without a discarded bet", _bad(tokens=[[3, -3], []]), r"token\(s\) of value 3"),
    ("per seat lists", _bad(lines=[[10, "B4"]]), "list of 2 lists"),
    ("first", _bad(first=2), "first must be a seat"),
    ("phase", _bad(phase="draw"), "phase must be one of"),
    ("played_hand", _bad(played_hand=1), "played_hand must be true or false"),
    ("played_hand in pick", _bad(played_hand=True), "only in phase score"),
    ("picks_left", _bad(picks_left=3), "picks_left must be 1..2"),
    ("picks_left type", _bad(picks_left="2"), "picks_left must be an int"),
    ("current", _bad(current=1), "current is 1 but first 0 with picks_left 2"),
    ("current type", _bad(current=None), "current must be a seat"),
    ("market size", _bad(market=[5, 20, 30], deck=GOOD["deck"] + ["B3"]), "needs 4 market cards"),
    ("play without a fitting card", _bad(phase="play", market=[5, 20, 30],
                                         deck=GOOD["deck"] + ["B3"], hands=[[], []],
                                         lines=[[10, "B4", 40], []]),
     "phase play but no card"),
    ("score with an empty line", _bad(phase="score", market=[5, 20, 30], deck=GOOD["deck"] + ["B3"],
                                      lines=[[], []], hands=[[40, 10], ["B4"]]),
     "lines\\[0\\] is empty"),
    ("final with a deck", _bad(phase="final"), "empty deck and market"),
    ("over with a current", _bad(phase="over", picks_left=0), "current must be null"),
    ("over with a line", _bad(phase="over", picks_left=0, current=None), "phase over needs"),
    ("tokens type", _bad(tokens=[[True], []]), "bet tokens"),
]


@pytest.mark.parametrize(("what", "obj", "match"), BAD_CASES, ids=[c[0] for c in BAD_CASES])
def test_bad_json(what: str, obj: Any, match: str) -> None:
    with pytest.raises(InvalidStateError, match=match):
        LineItGame(2).from_json(obj)


def test_final_phase_player_must_be_able_to_play() -> None:
    pos = position(2, deck=[], first=0, picks_left=2, phase="final", lines=[[10, 20], []],
                   hands=[[5], []], rest="discarded")
    with pytest.raises(InvalidStateError, match="could only pass"):
        LineItGame(2).from_json(pos)
    pos = position(2, deck=[], first=0, picks_left=2, phase="final", lines=[[10, 20], []],
                   hands=[[25], []], rest="discarded")
    LineItGame(2).from_json(pos)


def test_over_position_loads() -> None:
    pos = position(2, deck=[], phase="over", hands=[[5], []], scored=[[1, 2], [3]],
                   rest="discarded")
    g, st = load(pos)
    assert g.is_terminal(st) and g.returns(st) == [1.0, -1.0] and g.legal_actions(st) == []
    assert g.to_json(st) == pos
