"""Refused input: options, move text, action ids and JSON states, each with a clear error."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from cardenvs.core.game import IllegalActionError, InvalidStateError, NotationError, OptionError
from cardenvs.rummy432.rules import HAND_SIZES, Rummy432Game

from .positions import load, position


# ------------------------------------------------------------------------- options
def test_every_allowed_combination_works() -> None:
    count = 0
    for pack, sizes in HAND_SIZES.items():
        for hs in sizes:
            for n in range(2, 6):
                if hs == 12 and n > 3:
                    continue
                for limit in (2, 3, 4, 5, None):
                    g = Rummy432Game(n, pack=pack, hand_size=hs, run_out_limit=limit)
                    s = g.new_state(np.random.default_rng(0))
                    assert len(s.pile) == 52 - n * hs - 1
                    count += 1
    assert count == 5 * (4 * 9 - 2 * 3)


@pytest.mark.parametrize(
    "kwargs,words",
    [
        ({"pack": "four", "hand_size": 9}, "pack 'four' allows hand_size 8, 12"),
        ({"pack": "four", "hand_size": 6}, "pack 'four' allows hand_size 8, 12"),
        ({"pack": "three", "hand_size": 8}, "pack 'three' allows hand_size 6, 9, 12"),
        ({"pack": "three"}, "pack 'three' allows hand_size 6, 9, 12"),
        ({"num_players": 4, "hand_size": 12}, "at most 3 players"),
        ({"num_players": 5, "pack": "four", "hand_size": 12}, "pack 'four' allows hand_size 8"),
        ({"num_players": 4, "pack": "three", "hand_size": 12}, "allows hand_size 6, 9"),
        ({"hand_size": 7}, "6, 8, 9, 12"),
        ({"pack": "two"}, "'four', 'three', 'mixed'"),
        ({"run_out_limit": 1}, "2, 3, 4, 5, None"),
        ({"run_out_limit": 6}, "2, 3, 4, 5, None"),
        ({"run_out_limit": 0}, "2, 3, 4, 5, None"),
        ({"rounds_to_win": 0}, "1..10"),
        ({"rounds_to_win": 11}, "1..10"),
        ({"rounds_to_win": True}, "1..10"),
        ({"max_turns_per_round": 0}, "1..1000000"),
        ({"num_players": 1}, "2..5"),
        ({"num_players": 6}, "2..5"),
        ({"colour": "red"}, "unknown option"),
    ],
)
def test_refused_options(kwargs: dict, words: str) -> None:
    with pytest.raises(OptionError, match=None) as e:
        Rummy432Game(**kwargs)
    assert words in str(e.value)


def test_numpy_option_values() -> None:
    g = Rummy432Game(np.int64(3), hand_size=np.int64(12), rounds_to_win=np.int32(2))
    assert g.num_players == 3 and g.hand_size == 12 and type(g.options["hand_size"]) is int


# ------------------------------------------------------------------------ notation
def test_notation_round_trip() -> None:
    g = Rummy432Game()
    for a in range(g.num_actions):
        assert g.str_to_action(g.action_to_str(a)) == a
    assert g.str_to_action("throw 10h") == g.str_to_action("throw Th")
    assert g.str_to_action("  Finish 7H ") == g.str_to_action("finish 7h")
    assert g.action_to_str(0) == "draw" and g.action_to_str(1) == "take"
    assert g.action_to_str(2) == "throw Ac" and g.action_to_str(105) == "finish Ks"


@pytest.mark.parametrize(
    "text", ["", "   ", "pass", "draw 7h", "take Kc", "throw", "throw 7h 8h", "throw 1h",
             "finish 7x", "throw X", "discard 7h", "throw 11h"]
)
def test_malformed_moves(text: str) -> None:
    g = Rummy432Game()
    with pytest.raises(NotationError, match="draw|card") as e:
        g.str_to_action(text)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("bad", [-1, 106, 10**9, True, 1.0, "draw", None])
def test_action_to_str_refuses(bad: object) -> None:
    g = Rummy432Game()
    with pytest.raises(NotationError):
        g.action_to_str(bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------- action ids
def test_illegal_action_leaves_state_unchanged() -> None:
    g, s = load(position(["7c 7d 7h 9c 9d Kc", "2c 3c 4c 5c 6c 8c"], "2s 9h"))
    before = g.to_json(s)
    for bad in [g.str_to_action("throw 7c"), g.str_to_action("finish Kc"), 106, -1, True, 2.0, "take"]:
        with pytest.raises(IllegalActionError) as e:
            g.apply(s, bad)  # type: ignore[arg-type]
        assert g.to_json(s) == before
    with pytest.raises(IllegalActionError, match=r"throw 7c.*legal now: draw, take"):
        g.apply(s, g.str_to_action("throw 7c"))
    g.apply(s, np.int64(1))
    assert g.to_json(s)["taken"] == "9h"
    g.apply(s, np.int32(g.str_to_action("finish Kc")))
    assert s.finished_by == 0
    assert e.type is IllegalActionError


def test_over_refuses_everything() -> None:
    g = Rummy432Game(2, hand_size=6, rounds_to_win=1, max_turns_per_round=1)
    rng = np.random.default_rng(0)
    s = g.new_state(rng)
    g.apply(s, 0, rng)
    g.apply(s, g.legal_actions(s)[0], rng)
    assert g.is_terminal(s)
    with pytest.raises(IllegalActionError, match="game is over"):
        g.apply(s, 0, rng)


# ---------------------------------------------------------------------------- JSON
GOOD = position(
    ["7c 7d 7h 9c 9d Kc", "2c 3c 4c 5c 6c 8c", "Ac Ad Ah As Js Jd"], "2s 9h", known=["", "", ""]
)


def _mut(**changes: object) -> dict:
    obj = copy.deepcopy(GOOD)
    obj.update(changes)
    return obj


def _throw_pos(**changes: object) -> dict:
    obj = position(
        ["7c 7d 7h 9c 9d Kc 9h", "2c 3c 4c 5c 6c 8c", "Ac Ad Ah As Js Jd"], "2s",
        hand_size=6, phase="throw", taken="9h", known=["9h", "", ""],
    )
    obj.update(changes)
    return obj


def test_good_positions_load() -> None:
    load(GOOD)
    load(_throw_pos())


def _opts(**o: object) -> dict:
    return {**GOOD["options"], **o}


BAD_STATES = [
    ("not a dict", [1, 2], "must be a JSON object"),
    ("missing key", {k: v for k, v in GOOD.items() if k != "pile"}, "missing key"),
    ("unknown key", _mut(jokers=0), "unknown key"),
    ("wrong game", _mut(game="line"), "'game' must be 'rummy432'"),
    ("num_players mismatch", _mut(num_players=4), "this game has 3 players"),
    ("options not dict", _mut(options="mixed"), "'options' must be an object"),
    ("options missing", _mut(options={"pack": "mixed"}), "must have exactly"),
    ("option bad value", _mut(options=_opts(run_out_limit=7)), "run_out_limit=7 is not allowed"),
    ("option mismatch", _mut(options=_opts(rounds_to_win=5)), "differs from this game's"),
    ("bad card", _mut(discard=["2s", "9z"]), "is not a card"),
    ("hands not list", _mut(hands="7c"), "'hands' must be a list of 3"),
    ("hands count", _mut(hands=GOOD["hands"][:2]), "'hands' must be a list of 3"),
    ("duplicate card", _mut(discard=["2s", "9h", "7c"]), "more than one place"),
    ("missing card", _mut(discard=["2s"]), "missing: 9h"),
    ("hand size", _mut(hands=[GOOD["hands"][0] + ["9h"], *GOOD["hands"][1:]], discard=["2s"]),
     "hands[0] has 7 cards"),
    ("known not held", _mut(known=[["2c"], [], []]), "not in hands[0]: 2c"),
    ("known repeat", _mut(known=[["7c", "7c"], [], []]), "repeats"),
    ("bad phase", _mut(phase="draw"), "'phase' must be"),
    ("current null", _mut(current=None), "'current' must be an int"),
    ("current range", _mut(current=3), "'current' must be in 0..2"),
    ("current over", _mut(phase="over", scores=[3, 0, 0]), "'current' must be null"),
    ("taken in pick", _mut(taken="9h"), "'taken' must be null in phase 'pick'"),
    ("taken bad card", _throw_pos(taken="zz"), "'taken'"),
    ("taken not in hand", _throw_pos(taken="2s"), "not in the hand of current seat 0"),
    ("taken not known", _throw_pos(known=[[], [], []]), "must also be in known[0]"),
    ("throw hand size", _throw_pos(current=1), "hands[0] has 7 cards, expected 6"),
    ("empty discard", position(["7c 7d 7h 9c 9d Kc", "2c 3c 4c 5c 6c 8c"], "", pile_top="2s"),
     "discard pile is empty"),
    ("dealer", _mut(dealer=3), "'dealer' must be in 0..2"),
    ("dealer type", _mut(dealer="2"), "'dealer' must be an int"),
    ("run_outs at limit", _mut(run_outs=3), "'run_outs' must be in 0..2"),
    ("run_outs negative", _mut(run_outs=-1), "'run_outs' must be in"),
    ("last turns without finisher", _mut(last_turns_left=[1]), "must be empty while nobody has finished"),
    ("last turns order", _mut(finished_by=2, last_turns_left=[1, 0], current=1), "a tail of [0, 1]"),
    ("last turns empty", _mut(finished_by=2, last_turns_left=[]), "round goes on"),
    ("last turns current", _mut(finished_by=2, last_turns_left=[0, 1], current=1), "'current' is 1"),
    ("last turns type", _mut(last_turns_left="1"), "list of seats"),
    ("finisher range", _mut(finished_by=5), "'finished_by' must be in 0..2"),
    ("scores length", _mut(scores=[0, 0]), "list of 3 ints"),
    ("scores negative", _mut(scores=[0, -1, 0]), "list of 3 ints"),
    ("scores reached", _mut(scores=[3, 0, 0]), "below rounds_to_win=3"),
    ("over not won", _mut(phase="over", current=None), "best score must be rounds_to_win=3"),
    ("round", _mut(round=0), "'round' must be in"),
    ("turn cap", _mut(turn=1000), "'turn' must be in 0..999"),
]


@pytest.mark.parametrize("what,obj,words", BAD_STATES, ids=[b[0] for b in BAD_STATES])
def test_bad_json(what: str, obj: object, words: str) -> None:
    g = Rummy432Game(3, hand_size=6)
    if isinstance(obj, dict) and obj.get("num_players") == 2:
        g = Rummy432Game(2, hand_size=6)
    with pytest.raises(InvalidStateError) as e:
        g.from_json(obj)
    assert words in str(e.value), str(e.value)
    assert isinstance(e.value, ValueError)


def test_max_turns_option_in_json() -> None:
    g = Rummy432Game(2, hand_size=6, max_turns_per_round=50)
    s = g.new_state(np.random.default_rng(0))
    j = g.to_json(s)
    assert j["options"]["max_turns_per_round"] == 50
    assert g.to_json(g.from_json(j)) == j
    del j["options"]["max_turns_per_round"]
    with pytest.raises(InvalidStateError, match="max_turns_per_round=1000 differs"):
        g.from_json(j)
    assert "max_turns_per_round" not in Rummy432Game(2, hand_size=6).to_json(s)["options"]


# ------------------------------------------------- fuzzer regressions (out-of-range counters)
def _two(**changes: object) -> dict:
    """A running two-seat position, with ``changes`` (``round``, ``turn``, ... ) applied."""
    opts = {k: changes.pop(k) for k in ("run_out_limit", "scores", "max_turns_per_round") if k in changes}
    obj = position(["7c 7d 7h 9c 9d Kc", "2c 3c 4c 5c 6c 8c"], "2s 9h", **opts)  # type: ignore[arg-type]
    obj.update(changes)
    return obj


def _refused(obj: dict, *words: str) -> str:
    """The refusal of ``obj``: an InvalidStateError, short, naming what is allowed."""
    g = Rummy432Game(obj["num_players"], **obj["options"])
    with pytest.raises(InvalidStateError) as e:
        g.from_json(obj)
    msg = str(e.value)
    assert len(msg) < 300, msg
    for w in words:
        assert w in msg, msg
    return msg


def test_fuzz_round_out_of_range() -> None:
    # round=10**30 was loaded and written into the observation
    _refused(_two(round=10**30), "'round' must be in 1..1", "an int of")


def test_fuzz_run_outs_without_limit() -> None:
    # run_outs=10**12 with no run-out limit was loaded
    _refused(_two(run_out_limit=None, run_outs=10**12), "'run_outs' must be in 0..999", "no run_out_limit")
    _refused(_two(run_out_limit=None, run_outs=1000), "'run_outs' must be in 0..999")
    _refused(_two(run_out_limit=None, max_turns_per_round=5, run_outs=5), "'run_outs' must be in 0..4")
    load(_two(run_out_limit=None, run_outs=999))  # at most one per turn: 999 completed turns


def test_fuzz_round_beyond_scores() -> None:
    # round=100 with scores [0, 0]: every completed round gives someone a point
    _refused(_two(round=100), "'round' must be in 1..1 with scores [0, 0]", "at least one point")
    _refused(_two(round=4, scores=[1, 1]), "'round' must be in 1..3")
    load(_two(round=3, scores=[1, 1]))
    load(_two(round=1, scores=[1, 1]))  # no lower bound: docs/rules/rummy432.md positions have no round


def test_fuzz_round_huge_int() -> None:
    # round=10**400 failed inside observe ("memoryview: invalid value for format 'f'")
    _refused(_two(round=10**400), "'round' must be in 1..1", "an int of 1329 bits")
    g = Rummy432Game(2, hand_size=6)
    with pytest.raises(InvalidStateError, match="'round' must be in"):
        g.from_json(json.dumps(_two(round=10**400)))  # the same as JSON text
    _refused(_two(turn=10**5000), "'turn' must be in 0..999", "an int of")
    _refused(_two(scores=[10**5000, 0]), "below rounds_to_win=3", "an int of")


def test_round_bound_when_the_game_is_over() -> None:
    # 3 seats, first to 3: final scores [3, 3, 1]; before the last round (won by the two
    # at 3) they were [2, 2, 1], so at most 5 rounds had been completed: round <= 6
    over = position(["7c 7d 7h 9c 9d Kc", "2c 3c 4c 5c 6c 8c", "Ac Ad Ah As Js Jd"], "2s 9h",
                    phase="over", current=None, scores=[3, 3, 1])
    load({**over, "round": 6})
    _refused({**over, "round": 7}, "'round' must be in 1..6", "won the last one")
    g, s = load({**over, "round": 6, "turn": 1000})  # the round judged at the cap
    assert (s.round, s.turn) == (6, 1000)


def test_run_outs_never_exceed_turns() -> None:
    _refused(_two(turn=2, run_outs=3, run_out_limit=None), "each run-out ends a turn")
    _refused(_two(turn=1, run_outs=2), "each run-out ends a turn")
    load(_two(turn=2, run_outs=2))
    load(_two(run_outs=2))  # no turn given: the docs/rules/rummy432.md default 0 is not checked against it


@pytest.mark.parametrize(
    "key,value",
    [("round", True), ("round", 2.0), ("turn", 1.0), ("turn", False), ("run_outs", 0.0),
     ("dealer", 1.0), ("current", True), ("finished_by", 0.0), ("scores", [0, 1.0]),
     ("scores", [True, 0]), ("last_turns_left", [1.0]), ("num_players", 2.0)],
)
def test_counters_must_be_real_ints(key: str, value: object) -> None:
    with pytest.raises(InvalidStateError, match="int|seats|players"):
        Rummy432Game(2, hand_size=6).from_json(_two(**{key: value}))


@pytest.mark.parametrize("option,value", [("hand_size", 6.0), ("rounds_to_win", 3.0),
                                          ("max_turns_per_round", 1000.0), ("run_out_limit", 3.0)])
def test_int_options_in_json_must_be_ints(option: str, value: float) -> None:
    obj = _two()
    obj["options"] = {**obj["options"], option: value}
    with pytest.raises(InvalidStateError, match=f"option {option}=.* is not allowed"):
        Rummy432Game(2, hand_size=6).from_json(obj)

