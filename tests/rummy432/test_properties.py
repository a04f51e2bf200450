"""Hypothesis property tests over seeds and options (rules only, no PettingZoo)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cardenvs.rummy432.rules import HAND_SIZES, Rummy432Game
from tests.core.designs import check_designs

SETTINGS = settings(max_examples=25, deadline=None)


@st.composite
def games(draw: st.DrawFn, max_turns: int | None = None) -> Rummy432Game:
    """A game under random allowed options."""
    pack = draw(st.sampled_from(["four", "three", "mixed"]))
    hs = draw(st.sampled_from(HAND_SIZES[pack]))
    n = draw(st.integers(2, 3 if hs == 12 else 5))
    limit = draw(st.sampled_from([2, 3, 4, 5, None]))
    rtw = draw(st.integers(1, 3))
    cap = max_turns or draw(st.integers(5, 60))
    return Rummy432Game(n, pack=pack, hand_size=hs, run_out_limit=limit, rounds_to_win=rtw,
                        max_turns_per_round=cap)


def random_step(g: Rummy432Game, s, rng: np.random.Generator) -> int:
    la = g.legal_actions(s)
    a = la[int(rng.integers(len(la)))]
    g.apply(s, a, rng)
    return a


def check_invariants(g: Rummy432Game, s) -> None:
    everywhere = [c for h in s.hands for c in h] + s.pile + s.discard
    assert sorted(everywhere) == list(range(52))
    hs = g.hand_size
    for p, h in enumerate(s.hands):
        extra = 1 if s.phase == 1 and p == s.current else 0
        assert len(h) == hs + extra
        assert set(s.known[p]) <= set(h)
        cnt = [0] * 13
        for c in h:
            cnt[c >> 2] += 1
        assert cnt == s.counts[p]
    if s.phase == 0:
        assert s.discard
    if s.taken >= 0:
        assert s.phase == 1 and s.taken in s.hands[s.current]
    # the JSON form is always valid
    g.from_json(g.to_json(s))


@SETTINGS
@given(games(), st.integers(0, 2**32 - 1))
def test_invariants_and_mask_equals_apply(g: Rummy432Game, seed: int) -> None:
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    for step in range(400):
        if g.is_terminal(s):
            break
        check_invariants(g, s)
        if step < 40:  # every id on a clone: legal ones apply, the others are refused
            legal = set(g.legal_actions(s))
            mask = g.legal_mask(s)
            assert set(np.flatnonzero(mask).tolist()) == legal and legal
            assert g.legal_actions(s) == sorted(legal)
            before = g.to_json(s)
            for a in range(g.num_actions):
                c = g.clone(s)
                try:
                    g.apply(c, a, np.random.default_rng(0))
                    ok = True
                except ValueError:
                    ok = False
                    assert g.to_json(c) == before
                assert ok == (a in legal), (a, g.action_to_str(a))
        random_step(g, s, rng)
    check_invariants(g, s)


@SETTINGS
@given(games(), st.integers(0, 2**32 - 1), st.integers(0, 150))
def test_json_round_trip_continues_identically(g: Rummy432Game, seed: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    for _ in range(k):
        if g.is_terminal(s):
            break
        random_step(g, s, rng)
    j = g.to_json(s)
    t = g.from_json(j)
    assert g.to_json(t) == j
    r1, r2 = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
    for _ in range(200):
        if g.is_terminal(s):
            break
        a = random_step(g, s, r1)
        la = g.legal_actions(t)
        b = la[int(r2.integers(len(la)))]
        assert a == b
        g.apply(t, b, r2)
        assert g.to_json(s) == g.to_json(t)
        assert g.infos(s) == g.infos(t)
    assert g.is_terminal(s) == g.is_terminal(t) and g.returns(s) == g.returns(t)


@SETTINGS
@given(games(), st.integers(0, 2**32 - 1), st.integers(0, 120))
def test_observation_hides_hidden_cards(g: Rummy432Game, seed: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    for _ in range(k):
        if g.is_terminal(s):
            break
        random_step(g, s, rng)
    for p in range(g.num_players):
        v = g.view(s, p)
        o = g.encode(v)
        assert o.dtype == np.float32 and o.shape == (g.observation_size(),)
        assert np.array_equal(g.observe(s, p), o)
        assert g.decode(o) == v
        assert np.array_equal(g.encode(g.decode(o)), o)
        for i in range(3):
            t = g.sample_state(v, np.random.default_rng(i))
            assert np.array_equal(g.encode(g.view(t, p)), o)
            check_designs(g, s, t, p)  # the learner observations read nothing hidden either
            t2 = g.from_json(g.to_json(t))
            assert np.array_equal(g.observe(t2, p), o)
            assert g.legal_actions(t) == g.legal_actions(s) or g.current_player(s) != p


@SETTINGS
@given(games(), st.integers(0, 2**32 - 1))
def test_games_end_within_the_cap(g: Rummy432Game, seed: int) -> None:
    n, cap, rtw = g.num_players, g.max_turns, g.rounds_to_win
    bound = 2 * cap * (n * (rtw - 1) + 1)
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    steps = turns = 0
    while not g.is_terminal(s):
        assert steps < bound
        a = random_step(g, s, rng)
        steps += 1
        if a >= 2:
            turns += 1
        assert s.turn <= cap
        if s.result is not None:
            assert turns <= cap
            turns = 0
    assert max(s.scores) == rtw


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_default_cap_without_run_out_limit_four_pack(seed: int) -> None:
    g = Rummy432Game(2, pack="four", hand_size=8, run_out_limit=None, rounds_to_win=1)
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    steps = 0
    while not g.is_terminal(s):
        random_step(g, s, rng)
        steps += 1
    assert steps <= 2 * 1000


def test_observe_from_several_threads() -> None:
    # observe and encode write into a per-thread scratch vector: threads never mix
    g = Rummy432Game(4)
    rng = np.random.default_rng(5)
    states = []
    s = g.new_state(rng)
    for _ in range(40):
        random_step(g, s, rng)
        states.append(g.clone(s))
    want = [[g.encode(g.view(t, p)).tobytes() for p in range(4)] for t in states]

    def work(k: int) -> bool:
        return all(g.observe(t, (p + k) % 4).tobytes() == want[i][(p + k) % 4]
                   for _ in range(30) for i, t in enumerate(states) for p in range(4))

    with ThreadPoolExecutor(4) as pool:
        assert all(pool.map(work, range(4)))
