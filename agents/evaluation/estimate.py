"""Scores with honest intervals from duplicate deals, plain and variance-reduced side by side.

A match is scored for one entrant (the evaluated policy, or the row of a pairing) as its
points in each game (a win 1, a win shared by ``k`` seats ``1/k``, else 0).  Two ways
to reduce the luck in those points, both unbiased:

* **Duplicate deals.**  Each deal is played under every rotation of the seats (the
  entrant in each seat in turn).  The deal's score is the mean over its rotations, and
  the interval is computed over deals: the games of one deal are not independent, and
  what the cards gave one seat they took from another.
* **Control variates** (:mod:`agents.measure`): from each game's points a correction is
  subtracted whose expectation is exactly zero (AIVAT's luck terms at chance events).
  The reduced score has the same expectation as the plain one and, with a good value
  estimate, a smaller variance.

:func:`estimate` gives both the plain and the reduced figure on the same games, the
variance ratio between them and the effective number of games, so that a reduced
number is never reported without the plain one beside it.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass

Z95 = 1.959963984540054


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win share ``share`` over ``n`` games (no scipy)."""
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    mid = (share + z * z / (2 * n)) / d
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


def t_quantile(df: int, z: float = Z95) -> float:
    """Student's t quantile matching the normal quantile ``z`` at ``df`` degrees of freedom
    (Cornish-Fisher expansion: within 0.5% of the exact value from ``df = 3`` on, exact in
    the limit; no scipy needed)."""
    if df <= 0:
        return math.inf
    if df == 1:
        return 12.706204736174705
    if df == 2:
        return 4.302652729749464
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def mean_interval(values: list[float], lo: float = 0.0, hi: float = 1.0) -> tuple[float, float, float, float]:
    """``(mean, low, high, variance)``: the mean of ``values`` with its 95% Student-t interval
    (clipped to ``[lo, hi]`` where that keeps the mean inside) and the sample variance of
    one value.  Values all alike (a sweep, or every deal won once by each seat) get an
    interval from the chance that unlike values exist but did not come up, not a width of 0."""
    n = len(values)
    if n == 0:
        return 0.0, lo, hi, math.nan
    m = math.fsum(values) / n
    if n == 1:
        return m, lo, hi, math.nan
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    if var == 0.0 and lo <= m <= hi:
        # every value alike (a sweep): a zero-width interval would claim certainty.  Values
        # unlike these may still come up, with a chance of at most q (q = 1 - 0.025^(1/n):
        # n alike values have a chance of 2.5% below that), and can move the mean at most q
        # of the way to either end of the range
        q = 1.0 - 0.025 ** (1.0 / n)
        return m, m - q * (m - lo), m + q * (hi - m), var
    half = t_quantile(n - 1) * math.sqrt(var / n)
    # clipped to the range a score can have, but never past the mean: a reduced mean may
    # itself lie a little outside the range (it is unbiased, not bounded)
    return m, min(m, max(lo, m - half)), max(m, min(hi, m + half)), var


@dataclass(frozen=True)
class Estimate:
    """A score measured two ways on the same games.

    ``share``/``low``/``high``: the reported score (the reduced one when corrections were
    given, else the plain one) with its 95% interval; ``plain_*``: points per game as
    they fell.  With duplicate deals both intervals are Student-t intervals over deals
    (each deal's mean over its rotations); without, the plain interval is Wilson's over
    games.
    """

    share: float
    low: float
    high: float
    plain_share: float
    plain_low: float
    plain_high: float
    #: games that counted and the deals they came from
    games: int
    deals: int
    #: plain variance / reported variance of a deal's score (1.0 when nothing was reduced)
    variance_ratio: float
    #: "duplicate+control variates", "duplicate", "control variates" or "plain"
    method: str

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of :attr:`share`."""
        return self.low, self.high

    @property
    def plain_interval(self) -> tuple[float, float]:
        """The 95% interval of :attr:`plain_share`."""
        return self.plain_low, self.plain_high

    @property
    def effective_games(self) -> float:
        """The plain games that would give the reported interval's width: games x variance ratio."""
        return self.games * self.variance_ratio


def estimate(records: Iterable[tuple[Hashable, float, float | None]], duplicate: bool = True,
             lo: float = 0.0, hi: float = 1.0) -> Estimate:
    """The :class:`Estimate` of ``records``: ``(deal, points, correction)`` per game.

    ``deal`` names the deal a game was played on (games of one deal under different
    rotations share it); ``correction`` is what the control variates subtract (0.0
    without them; any ``None`` counts as 0.0 and the estimate is the plain one).
    ``duplicate=False`` treats every game as its own deal.  ``lo``/``hi`` bound a score
    (points lie in [0, 1]; a reduced score may leave that range, its interval is
    clipped to it).
    """
    plain: dict[Hashable, list[float]] = {}
    reduced: dict[Hashable, list[float]] = {}
    corrected = False
    n = 0
    for i, (deal, pts, corr) in enumerate(records):
        key = deal if duplicate else i
        c = 0.0 if corr is None else float(corr)
        corrected = corrected or corr is not None
        plain.setdefault(key, []).append(float(pts))
        reduced.setdefault(key, []).append(float(pts) - c)
        n += 1
    p_vals = [math.fsum(v) / len(v) for v in plain.values()]
    r_vals = [math.fsum(v) / len(v) for v in reduced.values()]
    p_mean, p_lo, p_hi, p_var = mean_interval(p_vals, lo, hi)
    if not duplicate:  # games are independent: today's interval, Wilson's over games
        p_lo, p_hi = wilson(p_mean, n)
    if corrected:
        r_mean, r_lo, r_hi, r_var = mean_interval(r_vals, lo, hi)
    else:
        r_mean, r_lo, r_hi, r_var = p_mean, p_lo, p_hi, p_var
    if not corrected or math.isnan(p_var) or math.isnan(r_var):
        ratio = 1.0
    elif r_var == 0.0:
        ratio = math.inf if p_var > 0 else 1.0
    else:
        ratio = p_var / r_var
    method = {(True, True): "duplicate+control variates", (True, False): "duplicate",
              (False, True): "control variates", (False, False): "plain"}[(duplicate, corrected)]
    return Estimate(r_mean, r_lo, r_hi, p_mean, p_lo, p_hi, n, len(plain), ratio, method)
