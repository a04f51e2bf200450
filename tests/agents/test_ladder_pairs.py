"""``experiments/ladder_pairs.py``: adjacent levels, one upper seat moving round the table."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from experiments import ladder_pairs as ladder


def test_the_upper_seat_moves_round_the_table_on_the_same_deal() -> None:
    ms = ladder.matches("line_v0", "random", "greedy", 3, 7, seed=10)
    assert [m.seats for m in ms[:3]] == [("greedy", "random", "random"), ("random", "greedy", "random"),
                                        ("random", "random", "greedy")]
    assert [m.seed for m in ms] == [10, 10, 10, 11, 11, 11, 12]
    assert all(m.seats.count("greedy") == 1 for m in ms)
    assert not any(m.coupled_draws for m in ms)
    assert all(m.coupled_draws for m in ladder.matches("line_v0", "random", "greedy", 3, 7, 10, True, True))


@pytest.mark.parametrize("players", [2, 3])
def test_pair_table(tmp_path: Path, players: int) -> None:
    out = tmp_path / "t.md"
    rows = ladder.main(["--env", "rummy432_v0", "--players", str(players), "--games", str(2 * players),
                        "--pairs", "random:greedy", "--out", str(out)])
    (r,) = rows
    assert (r.lower, r.upper, r.games) == ("random", "greedy", 2 * players)
    assert r.low <= r.share <= r.high and r.est is not None
    assert 0 <= r.est.plain_low <= r.est.plain_share <= r.est.plain_high <= 1
    # greedy beats random at Rummy every time (100% over 400 games in the 2-player ladder); the
    # reduced share (points less the luck of the cards) is near it, unbiased but not bounded
    assert r.est.plain_share == 1.0 and r.separated(players)
    assert r.est.method == "duplicate+control variates" and abs(r.share - 1.0) < 0.25
    text = out.read_text()
    assert "| random → greedy |" in text and f"fair share {1 / players:.0%}" in text
    assert "Deals from seed 0 " in text  # a page says which deals it played (the default seed)
    assert "coupled" not in text


def test_a_malformed_pair_is_refused() -> None:
    with pytest.raises(SystemExit):
        ladder.main(["--env", "line_v0", "--pairs", "greedy-planner"])


def test_pairs_may_name_policy_files() -> None:
    assert ladder.split_pair("greedy:planner") == ("greedy", "planner")
    assert ladder.split_pair("planner:policy:runs/a.npz") == ("planner", "policy:runs/a.npz")
    assert ladder.split_pair("policy:a.npz:expert") == ("policy:a.npz", "expert")
    for bad in ("greedy", "greedy:", "a:b:c", "policy:x", "greedy:policy"):
        assert ladder.split_pair(bad) is None, bad


def test_wilson_matches_scipys_interval() -> None:
    from scipy.stats import binomtest

    from agents.evaluation.tournament import _wilson, wilson

    for wins, n in [(0, 10), (7, 10), (200, 400), (399, 400), (400, 400)]:
        ci = binomtest(wins, n).proportion_ci(confidence_level=0.95, method="wilson")
        np.testing.assert_allclose(wilson(wins / n, n), (ci.low, ci.high), atol=1e-3)
        np.testing.assert_allclose(_wilson(wins + 0.2, n), (ci.low, ci.high), atol=1e-3)  # whole wins
    assert wilson(0.5, 0) == (0.0, 1.0)


def test_a_coupled_pair_table_says_so(tmp_path: Path) -> None:
    out = tmp_path / "t.md"
    (r,) = ladder.main(["--env", "line_v0", "--games", "4", "--pairs", "random:greedy", "--out", str(out),
                        "--coupled-draws", "--no-control-variates"])
    assert r.games == 4 and "(draws coupled across the rotations)" in out.read_text()
