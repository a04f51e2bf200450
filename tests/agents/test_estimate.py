"""The estimator's arithmetic: Student-t quantiles, intervals over deals, the variance ratio."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents.evaluation.estimate import estimate, mean_interval, t_quantile
from agents.evaluation.tournament import wilson


@pytest.mark.parametrize("df", [1, 2, 3, 5, 10, 30, 100, 1000])
def test_t_quantile_matches_scipy(df: int) -> None:
    stats = pytest.importorskip("scipy.stats")
    assert t_quantile(df) == pytest.approx(stats.t.ppf(0.975, df), rel=5e-3)


def test_deals_are_the_unit_of_the_interval() -> None:
    # two deals, each won once by each seat: every deal scores exactly 0.5
    records = [(0, 1.0, None), (0, 0.0, None), (1, 0.0, None), (1, 1.0, None)]
    est = estimate(records)
    assert (est.share, est.games, est.deals, est.method) == (0.5, 4, 2, "duplicate")
    # two alike deal scores say little: the interval is what a deal unlike them, of chance
    # q = 1 - 0.025^(1/2), could move the mean (never a width of 0)
    q = 1 - 0.025 ** 0.5
    assert est.interval == pytest.approx((0.5 - 0.5 * q, 0.5 + 0.5 * q)) and est.variance_ratio == 1.0
    # the same games as independent ones: Wilson's interval over 4 games
    alone = estimate(records, duplicate=False)
    assert alone.deals == 4 and alone.plain_interval == wilson(0.5, 4)


def test_corrections_reduce_and_the_plain_figure_stays() -> None:
    rng = np.random.default_rng(3)
    luck = rng.normal(0, 0.4, 2000)
    skill = 0.55
    pts = np.clip(skill + luck + rng.normal(0, 0.05, 2000), 0, 1)
    records = [(g, float(p), float(c)) for g, (p, c) in enumerate(zip(pts, pts - skill))]
    est = estimate(records)
    assert est.plain_share == pytest.approx(float(pts.mean()))
    assert est.share == pytest.approx(skill)  # points minus (points - skill)
    assert est.variance_ratio == math.inf and est.method == "duplicate+control variates"
    noisy = [(g, p, c * 0.5) for g, p, c in records]
    half = estimate(noisy)
    assert 3.0 < half.variance_ratio < 5.0  # a correction of half the luck: a quarter the variance
    assert half.effective_games == pytest.approx(2000 * half.variance_ratio)
    assert half.high - half.low < half.plain_high - half.plain_low


def test_mean_interval_covers_at_the_stated_rate() -> None:
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(2000):
        vals = list(rng.uniform(0, 1, 8))  # true mean 0.5, small samples: the t quantile matters
        _, lo, hi, _ = mean_interval(vals)
        hits += lo <= 0.5 <= hi
    assert 0.93 < hits / 2000 < 0.97


def test_a_sweep_gets_an_interval_of_its_deals_not_a_width_of_zero() -> None:
    m, lo, hi, var = mean_interval([1.0] * 40)
    assert (m, hi, var) == (1.0, 1.0, 0.0)
    assert lo == pytest.approx(0.025 ** (1 / 40))  # 0.912, about Wilson's 0.912 for 40 of 40
    assert lo == pytest.approx(wilson(1.0, 40)[0], abs=0.005)
    m, lo, hi, _ = mean_interval([0.0] * 100)
    assert (m, lo) == (0.0, 0.0) and hi == pytest.approx(1 - 0.025 ** (1 / 100))
    # the bound holds at its rate: deals that differ with chance p = q are all alike in at most 2.5%
    q = 1 - 0.025 ** (1 / 40)
    rng = np.random.default_rng(11)
    alike = (rng.random((20000, 40)) < q).sum(axis=1) == 0
    assert alike.mean() == pytest.approx(0.025, abs=0.004)
