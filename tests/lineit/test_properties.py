"""Hypothesis property tests over seeds and seat counts (rules only, no PettingZoo)."""

from __future__ import annotations

from collections import Counter, deque

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st_

from cardenvs.lineit.rules import LineItGame
from cardenvs.lineit.state import DECK, NUM_ACTIONS, LineStats, State
from tests.core.designs import check_designs

SEEDS = st_.integers(0, 2**32 - 1)
PLAYERS = st_.integers(2, 5)


def _all_cards(s: State) -> Counter:
    c: Counter = Counter(s.deck)
    for pile in (s.market, s.discarded, *s.lines, *s.hands, *s.jackpots, *s.scored):
        c.update(pile)
    return c


def _check_indexes(s: State) -> None:
    """The state's indexes (line statistics, card locations) agree with its piles."""
    fresh = State.build(s.n, s.deck[:], s.market[:], [x[:] for x in s.lines], [x[:] for x in s.hands],
                        [x[:] for x in s.jackpots], [x[:] for x in s.scored], [x[:] for x in s.tokens],
                        s.discarded[:], s.first, s.current, s.phase, s.picks_left, s.played_hand)
    assert fresh.loc == s.loc
    assert fresh.bet_loc == s.bet_loc
    assert fresh.line_pos == s.line_pos
    fields = LineStats.__slots__
    for got, want in zip(s.stats, fresh.stats):
        assert [getattr(got, k) for k in fields] == [getattr(want, k) for k in fields]


def _random_game(g: LineItGame, seed: int, upto: int | None = None):
    """Yield (state, rng) before every move of a random game."""
    rng = np.random.default_rng(seed)
    s = g.new_state(rng)
    k = 0
    while not g.is_terminal(s) and (upto is None or k < upto):
        yield s, rng
        acts = g.legal_actions(s)
        g.apply(s, acts[int(rng.integers(len(acts)))], rng)
        k += 1
    yield s, rng


def _last_state(g: LineItGame, seed: int, upto: int | None = None) -> State:
    """The state after a random game (cut after ``upto`` moves)."""
    return deque(_random_game(g, seed, upto), maxlen=1)[0][0]


@settings(max_examples=8, deadline=None)
@given(SEEDS, PLAYERS)
def test_cards_conserved_and_mask_equals_what_apply_accepts(seed: int, n: int) -> None:
    g = LineItGame(n)
    want = Counter(DECK)
    for s, _ in _random_game(g, seed):
        assert _all_cards(s) == want
        _check_indexes(s)
        assert all(len(h) <= 2 for h in s.hands)
        assert sum(len(s.scored[p]) for p in range(n)) + sum(len(j) for j in s.jackpots) <= 100
        legal = g.legal_actions(s)
        assert legal == sorted(set(legal))
        if g.is_terminal(s):
            assert legal == [] and g.legal_mask(s).sum() == 0
            assert sorted(g.returns(s)) in ([-1.0] * (n - 1) + [1.0], sorted(g.returns(s)))
            assert max(g.returns(s)) >= 0
            break
        assert legal
        # every id on the state itself: a refused one must leave it untouched
        before = g.to_json(s)
        accepted = []
        for a in range(NUM_ACTIONS):
            c = g.clone(s) if a in legal else s
            try:
                g.apply(c, a)
            except ValueError:
                continue
            assert c is not s, f"{g.action_to_str(a)} accepted but not in the mask"
            accepted.append(a)
        assert accepted == legal
        assert g.to_json(s) == before
        assert np.flatnonzero(g.legal_mask(s)).tolist() == legal


# the View leak check of the contract kit (cardenvs.testing.check_view_leak) runs the
# generic part at every seat count: here, over more seeds, with the deck as a multiset
@settings(max_examples=5, deadline=None)
@given(SEEDS, PLAYERS)
def test_observation_views_and_sampling(seed: int, n: int) -> None:
    g = LineItGame(n)
    rng2 = np.random.default_rng(seed + 1)
    for k, (s, _) in enumerate(_random_game(g, seed)):
        if k % 5 and not g.is_terminal(s):
            continue
        for p in range(n):
            v = g.view(s, p)
            o = g.encode(v)
            assert o.dtype == np.float32 and o.shape == (g.observation_size(),)
            assert np.array_equal(g.observe(s, p), o)
            assert g.decode(o) == v
            assert g.decode({"observation": o, "action_mask": g.legal_mask(s)}) == v
            assert np.array_equal(g.encode(g.decode(o)), o)
            # deck order is the only hidden thing: re-dealing it changes nothing seen
            t = g.sample_state(v, rng2)
            assert np.array_equal(g.observe(t, p), o)
            check_designs(g, s, t, p)  # the learner observations read nothing hidden either
            assert np.array_equal(g.encode(g.view(t, p)), o)
            assert sorted(t.deck) == sorted(s.deck)
            assert g.to_json(g.from_json(g.to_json(t))) == g.to_json(t)


@settings(max_examples=10, deadline=None)
@given(SEEDS, PLAYERS, st_.integers(0, 200))
def test_json_round_trip_mid_game_continues_identically(seed: int, n: int, cut: int) -> None:
    g = LineItGame(n)
    s = _last_state(g, seed, cut)
    j = g.to_json(s)
    t = g.from_json(j)
    assert g.to_json(t) == j
    # both continue with the same moves and give the same states and observations
    r1, r2 = np.random.default_rng(seed), np.random.default_rng(seed)
    while not g.is_terminal(s):
        assert g.legal_actions(s) == g.legal_actions(t)
        for p in range(n):
            assert np.array_equal(g.observe(s, p), g.observe(t, p))
        a = g.legal_actions(s)[int(r1.integers(len(g.legal_actions(s))))]
        b = g.legal_actions(t)[int(r2.integers(len(g.legal_actions(t))))]
        g.apply(s, a)
        g.apply(t, b)
        assert g.to_json(s) == g.to_json(t)
    assert g.returns(s) == g.returns(t)


def test_scores_and_returns_at_the_end() -> None:
    for n in range(2, 6):
        g = LineItGame(n)
        for seed in range(5):
            s = _last_state(g, seed)
            assert g.is_terminal(s)
            sc = g.scores(s)
            r = g.returns(s)
            best = max(sc)
            for p in range(n):
                if sc[p] < best:
                    assert r[p] == -1.0
                else:
                    assert r[p] == (1.0 if sc.count(best) == 1 else 0.0)
            assert all(not line for line in s.lines) and not s.deck and not s.market
