"""Every observation lies in ``observation_bounds()``, the Box of the observation space.

The bounds are per entry and tight under the options: the turn and the turn cap by
``max_turns_per_round``, the round by the most rounds a game can last, counts by their
real maxima, slots of absent seats 0.  ``from_json`` refuses the positions outside them.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardenvs import rummy432_v0
from cardenvs.core.game import InvalidStateError, View
from cardenvs.rummy432.encoding import LAYOUT
from cardenvs.rummy432.rules import HAND_SIZES, Rummy432Game

from .positions import load, position

EXTREME = {"max_turns_per_round": 1_000_000, "run_out_limit": None, "rounds_to_win": 10}


def assert_inside(g: Rummy432Game, state: object) -> None:
    """Every seat's observation of ``state`` is inside the game's bounds."""
    low, high = g.observation_bounds()
    for p in range(g.num_players):
        o = g.observe(state, p)  # type: ignore[arg-type]
        out = np.flatnonzero((o < low) | (o > high))
        assert not out.size, [(LAYOUT.fields[_field(i)].name, i, o[i], low[i], high[i]) for i in out[:5]]


def _field(i: int) -> int:
    return next(k for k, f in enumerate(LAYOUT.fields) if f.start <= i < f.stop)


def play(g: Rummy432Game, seed: int, steps: int) -> None:
    """Random legal play for ``steps`` moves (new games as games end), every state checked."""
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    assert_inside(g, s)
    for _ in range(steps):
        if g.is_terminal(s):
            s = g.new_state(rng)
        la = g.legal_actions(s)
        g.apply(s, la[int(rng.integers(len(la)))], rng)
        assert_inside(g, s)


@pytest.mark.parametrize("n,pack,hs", [(2, "mixed", 6), (3, "mixed", 12), (4, "four", 8), (5, "three", 9)])
def test_random_games_with_extreme_options_stay_inside(n: int, pack: str, hs: int) -> None:
    play(Rummy432Game(n, pack=pack, hand_size=hs, **EXTREME), seed=n, steps=1500)


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_random_games_with_random_options_stay_inside(data: st.DataObject) -> None:
    pack = data.draw(st.sampled_from(["four", "three", "mixed"]))
    hs = data.draw(st.sampled_from(HAND_SIZES[pack]))
    n = data.draw(st.integers(2, 3 if hs == 12 else 5))
    g = Rummy432Game(
        n, pack=pack, hand_size=hs,
        run_out_limit=data.draw(st.sampled_from([2, 3, 4, 5, None])),
        rounds_to_win=data.draw(st.integers(1, 10)),
        max_turns_per_round=data.draw(st.sampled_from([1, 2, 7, 40, 1_000_000])),
    )
    play(g, seed=data.draw(st.integers(0, 2**32 - 1)), steps=300)


def test_positions_at_the_limits_stay_inside_and_reach_them() -> None:
    hands = ["7c 7d 7h 9c 9d Kc", "2c 3c 4c 5c 6c 8c", "Ac Ad Ah As Js Jd", "Tc Td Th Ts 2d 3d",
             "4d 5d 6d 8d Qc Qd"]
    # running: 45 rounds completed (every seat at 9), the last completed turn before the cap
    running = position(hands, "2s 9h", hand_size=6, rounds_to_win=10, run_out_limit=None,
                       max_turns_per_round=1_000_000, scores=[9] * 5, round=46, turn=999_999,
                       run_outs=999_999)
    # over: seat 0 reached 10 in round 46, at the cap, one run-out per turn
    over = position(hands, "2s 9h", hand_size=6, rounds_to_win=10, run_out_limit=None,
                    max_turns_per_round=1_000_000, scores=[10, 9, 9, 9, 9], round=46,
                    turn=1_000_000, run_outs=1_000_000, phase="over", current=None)
    for obj, reached in ((running, ("round",)), (over, ("round", "turn", "run_outs"))):
        g, s = load(obj)
        assert_inside(g, s)
        low, high = g.observation_bounds()
        o = g.observe(s, 0)
        for name in reached:
            f = LAYOUT.index[name]
            assert o[f.start] == high[f.start], name  # the bound is reached: it is tight
    _, s = load(over)
    assert (s.round, s.turn, s.run_outs) == (46, 1_000_000, 1_000_000)


def test_bounds_are_tight_per_table() -> None:
    g = Rummy432Game(3, pack="four", hand_size=8, run_out_limit=4, rounds_to_win=5, max_turns_per_round=77)
    low, high = g.observation_bounds()
    assert low.dtype == high.dtype == np.float32 and low.shape == high.shape == (g.observation_size(),)
    assert not low.any() and np.all(high >= 1)  # never low == high (gymnasium warns, scaling breaks)
    hi = LAYOUT.views(high)
    assert (hi["num_players"][0], hi["my_seat"][0], hi["hand_size"][0]) == (3, 2, 8)
    assert (hi["run_out_limit"][0], hi["rounds_to_win"][0], hi["max_turns_per_round"][0]) == (4, 5, 77)
    assert hi["turn"][0] == 77 and hi["run_outs"][0] == 4 and hi["scores"].tolist() == [5, 5, 5, 1, 1]
    assert hi["round"][0] == 3 * 4 + 1 and hi["pile_size"][0] == 52 - 3 * 8 - 1
    assert hi["hand_sizes"].tolist() == [9, 9, 9, 1, 1]
    one_hots = ("pack", "phase", "current", "dealer", "finished_by", "last_turns_left", "hand",
                "discard_top", "discard", "taken", "known")
    for name in one_hots:
        assert np.all(hi[name] == 1), name
    none = Rummy432Game(2, run_out_limit=None, max_turns_per_round=1).observation_bounds()[1]
    assert LAYOUT.views(none)["run_out_limit"][0] == 1  # 0 (None) is its only value: high 1
    assert LAYOUT.views(none)["run_outs"][0] == 1 and LAYOUT.views(none)["turn"][0] == 1
    # the layout's own bounds hold for every table
    assert np.all(LAYOUT.low <= low) and np.all(high <= LAYOUT.high)


def test_env_observation_space_is_the_bounds() -> None:
    env = rummy432_v0.env(num_players=2, **EXTREME)
    env.reset(seed=0)
    g = env.unwrapped.game
    box = env.observation_space("player_0")["observation"]
    low, high = g.observation_bounds()
    assert np.array_equal(box.low, low) and np.array_equal(box.high, high)
    for _ in range(50):
        obs, *_ = env.last()
        assert box.contains(obs["observation"])
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_view_has_options_and_decode_takes_the_obs_dict() -> None:
    g = Rummy432Game(3, pack="three", hand_size=9, run_out_limit=None, rounds_to_win=4,
                     max_turns_per_round=50)
    s = g.new_state(np.random.default_rng(1))
    v = g.view(s, 1)
    assert isinstance(v, View) and (v.seat, v.num_players) == (1, 3)
    assert v.options == g.options
    assert Rummy432Game(v.num_players, **v.options).options == g.options
    o = g.observe(s, 1)
    assert g.decode({"observation": o, "action_mask": g.legal_mask(s)}) == v == g.decode(o)
    with pytest.raises(ValueError, match="shape"):
        g.decode(o[:-1])


_TRICKY = st.one_of(
    st.integers(-3, 12), st.sampled_from([10**6 - 1, 10**6, 10**12, 10**30, 10**400, -(10**30)]),
    st.booleans(), st.floats(allow_nan=True), st.none(), st.sampled_from(["1", "", "7h"]),
    st.lists(st.integers(-1, 12), max_size=6),
)
_KEYS = ["round", "turn", "run_outs", "dealer", "current", "finished_by", "scores", "last_turns_left",
         "num_players", "phase", "taken"]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 200), st.sampled_from(_KEYS), _TRICKY,
       st.sampled_from([None, 2, 5]), st.sampled_from([1, 3, 10]))
def test_fuzzed_positions_load_inside_the_bounds_or_are_refused(
    seed: int, steps: int, key: str, value: object, limit: int | None, rtw: int
) -> None:
    g = Rummy432Game(3, hand_size=6, run_out_limit=limit, rounds_to_win=rtw, max_turns_per_round=50)
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    for _ in range(steps):
        if g.is_terminal(s):
            break
        la = g.legal_actions(s)
        g.apply(s, la[int(rng.integers(len(la)))], rng)
    obj = {**g.to_json(s), key: value}
    try:
        t = g.from_json(obj)
    except InvalidStateError as e:
        assert len(str(e)) < 400
        return
    assert_inside(g, t)
    assert g.from_json(g.to_json(t)) is not None
    for _ in range(5):
        if g.is_terminal(t):
            break
        g.apply(t, g.legal_actions(t)[0], rng)
        assert_inside(g, t)
