"""Hypothesis property tests over seeds, seat counts and options."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cardenvs.core.cards import JOKER
from cardenvs.core.game import IllegalActionError
from cardenvs.line import LineGame, LineState
from cardenvs.line.rules import NUM_ACTIONS, PHASES, finishable_cards
from tests.core.designs import check_designs

SETTINGS = settings(max_examples=30, deadline=None)
seeds = st.integers(0, 2**32 - 1)
players = st.integers(2, 4)
points = st.sampled_from([0, 10, 25, 100])


def check_invariants(g: LineGame, s: LineState) -> None:
    counts = [0] * 53
    places = [*s.rows, *s.hands, s.draw, s.discard, [] if s.pending is None else [s.pending]]
    for lst in places:
        for c in lst:
            counts[c] += 1
    assert counts[:52] == [1] * 52 and counts[JOKER] == 4
    for r, row in enumerate(s.rows):
        assert len(row) <= 4 and row.count(JOKER) <= 1
        reals = [c for c in row if c != JOKER]
        assert finishable_cards(reals)
        assert s.row_mask[r] == sum(1 << c for c in reals)
        assert s.row_joker[r] == (JOKER in row)
    if g.is_terminal(s):
        assert g.legal_actions(s) == []
    else:
        acts = g.legal_actions(s)
        assert acts and acts == sorted(set(acts))
        assert all(len(h) <= 7 for p, h in enumerate(s.hands) if p != s.current)
        assert s.known[s.current] <= s.hands[s.current].count(JOKER)
    obs = g.observe(s, s.current)
    assert obs.dtype == np.float32 and obs.shape == (g.observation_size(),)


def play(g: LineGame, seed: int, hook: Any = None) -> list[dict[str, Any]]:
    """Play a random game; return the JSON after every step."""
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    out = [g.to_json(s)]
    step = 0
    while not g.is_terminal(s):
        if hook:
            hook(s, step)
        acts = g.legal_actions(s)
        g.apply(s, acts[int(rng.integers(len(acts)))], rng)
        out.append(g.to_json(s))
        step += 1
    return out


@SETTINGS
@given(seed=seeds, n=players, jp=points)
def test_conservation_and_rows(seed: int, n: int, jp: int) -> None:
    g = LineGame(n, joker_points=jp)
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    check_invariants(g, s)
    while not g.is_terminal(s):
        acts = g.legal_actions(s)
        g.apply(s, acts[int(rng.integers(len(acts)))], rng)
        check_invariants(g, s)
    ret = g.returns(s)
    assert sorted(set(ret)) in ([-1.0, 1.0], [-1.0, 0.0], [0.0])
    assert ret.count(1.0) <= 1
    info = g.infos(s)
    assert [i["hand_total"] for i in info] == [g.hand_total(s, p) for p in range(n)]


@settings(max_examples=12, deadline=None)
@given(seed=seeds, n=players)
def test_mask_equals_what_apply_accepts(seed: int, n: int) -> None:
    g = LineGame(n)
    rng = np.random.default_rng(seed)
    picks = set(rng.integers(0, 40, size=3).tolist())

    def hook(s: LineState, step: int) -> None:
        if step not in picks:
            return
        legal = set(g.legal_actions(s))
        mask = g.legal_mask(s)
        assert set(np.flatnonzero(mask).tolist()) == legal
        before = g.to_json(s)
        c = g.clone(s)
        for a in range(NUM_ACTIONS):
            try:
                g.apply(c, a, np.random.default_rng(0))
                ok = True
            except IllegalActionError:
                ok = False  # refused before any change: c is reused
            assert ok == (a in legal), g.action_to_str(a)
            if ok:
                c = g.clone(s)
        assert g.to_json(c) == before and g.to_json(s) == before

    play(g, seed, hook)


@SETTINGS
@given(seed=seeds, n=players, cut=st.integers(0, 80))
def test_json_round_trip_then_identical_continuation(seed: int, n: int, cut: int) -> None:
    g = LineGame(n)
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    for _ in range(cut):
        if g.is_terminal(s):
            break
        acts = g.legal_actions(s)
        g.apply(s, acts[int(rng.integers(len(acts)))], rng)
    j = g.to_json(s)
    s2 = g.from_json(j)
    assert g.to_json(s2) == j
    assert g.legal_actions(s2) == g.legal_actions(s)
    r1, r2 = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
    while not g.is_terminal(s):
        acts = g.legal_actions(s)
        assert g.legal_actions(s2) == acts
        k = int(r1.integers(len(acts)))
        assert int(r2.integers(len(acts))) == k
        g.apply(s, acts[k], r1)
        g.apply(s2, acts[k], r2)
        assert g.to_json(s2) == g.to_json(s)
    assert g.is_terminal(s2) and g.returns(s2) == g.returns(s)


# the View leak check of the contract kit (cardenvs.testing.check_view_leak) runs the
# generic part at every seat count: here, over joker values and seeds, with the invariants
@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=players, jp=points)
def test_views_encode_decode_and_sample(seed: int, n: int, jp: int) -> None:
    g = LineGame(n, joker_points=jp)
    rng = np.random.default_rng(seed)
    srng = np.random.default_rng(seed ^ 0xABCDEF)
    picks = set(rng.integers(0, 60, size=4).tolist())

    def hook(s: LineState, step: int) -> None:
        if step not in picks:
            return
        for p in range(n):
            v = g.view(s, p)
            o = g.encode(v)
            assert np.array_equal(g.observe(s, p), o)
            assert g.decode(o) == v
            assert np.array_equal(g.encode(g.decode(o)), o)
            s2 = g.sample_state(v, srng)
            check_invariants(g, s2)
            assert np.array_equal(g.encode(g.view(s2, p)), o)
            check_designs(g, s, s2, p)  # the learner observations read nothing hidden either
            s3 = g.from_json(g.to_json(s2))
            assert g.to_json(s3) == g.to_json(s2)
            assert PHASES[s2.phase] == v.phase

    play(g, seed, hook)

