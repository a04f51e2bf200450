"""The Rummy 4x3x2's opponent-hand model (``experiments/studies/rummy_hand.py``).

With zero weights the model is exactly a uniform deal of the unseen cards (its marginals
are hypergeometric); its samples hold exactly ``k`` cards and follow its marginals; the
fit recovers weights it generated data from; the shipped table exists; and the expert's
worlds built with it stay consistent with the player's view while following what the
opponent was seen to do.
"""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest

from agents.games.rummy432 import OpponentMemory, Rummy432Knowledge
from cardenvs.core.cards import parse_card
from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.state import State, rank_counts
from experiments.studies import rummy_hand as hm
from tests.agents.test_rummy432_knowledge import position

UNSEEN = [4, 3, 2, 1, 0, 4, 4, 3, 2, 4, 1, 2, 3]


def _throw_position() -> tuple[Rummy432Game, State]:
    """Seat 0 to throw; the opponent took the Qs (it holds the Qd too, hidden)."""
    return position(
        [["Ac", "Ad", "5c", "5d", "7h", "9s", "Jc", "Kd", "2c"],
         ["3c", "3d", "4h", "Qs", "Qd", "8c", "8d", "Tc"]],
        ["6h", "Ks"], known=[[], ["Qs"]], current=0,
    )


def test_zero_weights_are_a_uniform_deal() -> None:
    k = 7
    total = sum(UNSEEN)
    phi = np.random.default_rng(0).random((13, hm.NF))
    z = hm.log_weights(np.zeros((hm.MAX_C + 1, hm.NF)), phi, UNSEEN, k)
    mg = hm.marginals(z, k)
    for r, u in enumerate(UNSEEN):
        for c in range(hm.MAX_C + 1):
            want = comb(u, c) * comb(total - u, k - c) / comb(total, k) if c <= u else 0.0
            assert mg[r, c] == pytest.approx(want, abs=1e-9), (r, c)


def test_samples_hold_k_cards_and_follow_the_marginals() -> None:
    rng = np.random.default_rng(1)
    w = rng.normal(0, 1, (hm.MAX_C + 1, hm.NF))
    w[0] = 0
    phi = rng.random((13, hm.NF))
    k = 6
    z = hm.log_weights(w, phi, UNSEEN, k)
    mg = hm.marginals(z, k)
    np.testing.assert_allclose(mg.sum(1), 1.0, atol=1e-9)
    assert (mg @ np.arange(hm.MAX_C + 1)).sum() == pytest.approx(k)
    hist = np.zeros_like(mg)
    n = 4000
    for _ in range(n):
        counts = hm.sample_counts(z, k, rng)
        assert counts is not None and sum(counts) == k
        assert all(c <= u for c, u in zip(counts, UNSEEN, strict=True))
        hist[np.arange(13), counts] += 1
    # 4,000 draws: a frequency is within 0.03 of its chance (over four standard errors)
    np.testing.assert_allclose(hist / n, mg, atol=0.03)
    pool = [r * 4 + s for r in range(13) for s in range(UNSEEN[r])]
    assert counts is not None
    idx = hm.deal(pool, counts, rng)
    assert len(set(idx)) == k and rank_counts([pool[i] for i in idx]) == counts


def test_impossible_counts_are_refused() -> None:
    z = hm.log_weights(np.zeros((hm.MAX_C + 1, hm.NF)), np.zeros((13, hm.NF)), [1] * 3 + [0] * 10, 4)
    assert hm.sample_counts(z, 4, np.random.default_rng(0)) is None


def test_fit_recovers_the_weights_it_generated_from() -> None:
    rng = np.random.default_rng(2)
    true_w = np.zeros((hm.MAX_C + 1, hm.NF))
    true_w[1, 1] = -2.0  # "passed" makes one card unlikely
    true_w[2, 5] = 1.5  # "known_1" makes a hidden pair likely
    true_w[1, 0] = 0.5
    n = 3000
    phi = np.zeros((n, 13, hm.NF))
    phi[..., 0] = 1.0
    phi[..., 1] = rng.random((n, 13)) < 0.3
    phi[..., 5] = rng.random((n, 13)) < 0.2
    unseen = rng.integers(1, 5, (n, 13))
    k = np.full(n, 8)
    off = hm.offsets(unseen, k)
    z = np.einsum("nrf,cf->nrc", phi, true_w) + off
    p = np.exp(z - z.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    true = (p.cumsum(-1) < rng.random((n, 13, 1))).sum(-1)
    w, info = hm.fit(phi, unseen, k, true, l2=0.0)
    assert info["converged"]
    for c, f in ((1, 1), (2, 5), (1, 0)):
        assert w[c, f] == pytest.approx(true_w[c, f], abs=0.25), (c, f)


def test_the_shipped_table() -> None:
    w = hm.weights("mixed", 8)
    assert w is not None and w.shape == (hm.MAX_C + 1, hm.NF) and not w[0].any()
    with np.load(hm.MODEL_FILE) as z:
        meta = json.loads(str(z["meta"]))
    assert meta["mixed_8"]["features"] == list(hm.FEATURES)
    assert "rummy_hand_model" in meta["mixed_8"]["command"] and " fit " in meta["mixed_8"]["command"]
    # what the play says: a rank the opponent passed is rarely held, a known single has a partner
    assert w[1, hm.FEATURES.index("passed")] < -1 and w[1, hm.FEATURES.index("known_1")] > 1
    assert hm.weights("four", 12) is None  # no table: the expert falls back to its pass/throw weights


def test_features_of_a_position() -> None:
    game, state = _throw_position()
    view = game.view(state, 0)
    m = OpponentMemory(0)
    m.reset(view.round)
    m.passed, m.threw, m.opp_throw = {5: 0}, {12: 0}, 51  # passed a 6, threw a king (Ks)
    phi, unseen = hm.features(view, m)
    assert hm.features(view, None)[1] == unseen
    f = {name: i for i, name in enumerate(hm.FEATURES)}
    assert phi[5, f["passed"]] == 1 and phi[12, f["threw"]] == 1 and phi[12, f["last_throw"]] == 1
    assert phi[11, f["known_1"]] == 1 and phi[11, f["passed"]] == 0
    assert phi[0, f["mine"]] == 0.5 and phi[12, f["buried"]] == 0.25
    assert phi[:, f["bias"]].tolist() == [1.0] * 13
    # queens: 3 unseen (one is known), kings: 2 (mine and the buried one), fours: all 4
    assert unseen[11] == 3 and phi[11, f["unseen_3"]] == 1
    assert unseen[12] == 2 and phi[12, f["unseen_2"]] == 1
    assert unseen[3] == 4 and not phi[3, f["unseen_1"]: f["unseen_3"] + 1].any()


def test_expert_worlds_follow_the_model_and_stay_consistent() -> None:
    game, state = _throw_position()
    view = game.view(state, 0)
    rng = np.random.default_rng(3)
    kinds = {}
    for model in (0.0, 1.0):
        know = Rummy432Knowledge(inference=hm.HandModelInference(model=bool(model)))
        m = OpponentMemory(0)
        m.reset(view.round)
        m.passed = {5: 0, 8: 0}  # it drew rather than take a 6 and a 9
        m.turn, m.phase = view.turn, view.phase
        held = np.zeros(13)
        for _ in range(200):
            s = know.sample_state(game, view, rng, m)
            assert game.view(s, 0) == view  # consistent with everything the player sees
            assert parse_card("Qs") in s.hands[1]
            assert len(s.hands[1]) == 8
            assert sorted(s.hands[1] + s.pile) == sorted(state.hands[1] + state.pile)
            held += np.array(rank_counts([c for c in s.hands[1] if c not in s.known[1]]))
        kinds[model] = held / 200
    # the passed ranks are rare in both; the queens' hidden partner is likelier with the model
    for model, held in kinds.items():
        assert held[5] < 0.5 and held[8] < 0.5, model
    assert kinds[1.0][11] > 0.6
