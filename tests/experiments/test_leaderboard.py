"""experiments/leaderboard.py: the rating fit recovers known strengths, the lower bounds are
read back from the pages that write them, and a user's policy is added as a row without
playing the stored pairs again."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from experiments import best_response, leaderboard
from experiments.leaderboard import ELO, Pair, fit, ratings

SCRATCH = Path(__file__).resolve().parents[2] / "agents" / "policies" / "scratch" / "lineit_v0.npz"


def _exact(names: list[str], strength: dict[str, float], players: int, games: int = 400,
           half: float = 0.02) -> list[Pair]:
    """The pairs a Plackett-Luce table of these strengths would score exactly."""
    out = []
    for a in names:
        for b in names:
            if a == b or (players == 2 and names.index(a) > names.index(b)):
                continue
            ea, eb = math.exp(strength[a]), math.exp(strength[b])
            s = ea / (ea + (players - 1) * eb)
            out.append(Pair(a, b, s, s - half, s + half, s, s - half, s + half, games, games // players,
                            1.0, 0.0))
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_fit_recovers_known_strengths(players: int) -> None:
    names = ["greedy", "random", "planner", "expert"]
    truth = {"random": -1.5, "greedy": 0.0, "planner": 0.3, "expert": 0.9}
    # shares smoothed by half a game each way: many games make that negligible
    r = fit(names, _exact(names, truth, players, games=10**7), players)
    assert r == pytest.approx([truth[n] for n in names], abs=1e-3)


def test_ratings_are_elo_points_above_greedy_with_intervals_around_them() -> None:
    names = ["random", "greedy", "planner"]
    truth = {"random": -1.0, "greedy": 0.0, "planner": 0.2}
    rated = ratings(names, _exact(names, truth, 2, games=10**6, half=0.03), 2)
    assert rated["greedy"] == (0.0, 0.0, 0.0)
    for n in ("random", "planner"):
        r, lo, hi = rated[n]
        assert r == pytest.approx(ELO * truth[n], abs=1.0) and lo < r < hi
    # a wider interval on the pairs gives a wider rating interval
    wide = ratings(names, _exact(names, truth, 2, games=10**6, half=0.1), 2)
    assert wide["planner"][2] - wide["planner"][1] > rated["planner"][2] - rated["planner"][1]


def test_the_reversed_pair_is_the_other_seats_score() -> None:
    p = Pair("a", "b", 0.6, 0.5, 0.7, 0.55, 0.45, 0.65, 100, 50, 1.2, 3.0)
    q = p.reversed()
    assert (q.a, q.b, q.share, q.low, q.high) == ("b", "a", pytest.approx(0.4), pytest.approx(0.3),
                                                  pytest.approx(0.5))
    assert (q.plain_share, q.plain_low, q.plain_high) == (pytest.approx(0.45), pytest.approx(0.35),
                                                          pytest.approx(0.55))


def test_the_bounds_are_read_back_from_the_best_response_page(tmp_path: Path) -> None:
    from agents.evaluation.exploitability import BestResponseResult

    res = BestResponseResult("greedy", "lineit_v0", 2, 60, 0.733, (0.616, 0.851), 0.7, (0.6, 0.8), 30.0)
    rows = [best_response.Row("lineit_v0", "greedy", res), best_response.Row("lineit_v0", "expert",
                                                                            skipped="see the note")]
    page = tmp_path / "lbr.md"
    page.write_text(best_response.markdown(rows, {}, "cmd", "up", "up", ""))
    assert leaderboard.read_bounds(page) == {"lineit_v0": {"greedy": "73.3% [61.6%, 85.1%]"}}
    assert leaderboard.read_bounds(tmp_path / "none.md") == {}


def test_a_users_policy_is_added_as_a_row(tmp_path: Path) -> None:
    results, page = tmp_path / "lb.json", tmp_path / "lb.md"
    common = ["--envs", "lineit_v0", "--players", "2", "3", "--deals", "2", "--results", str(results),
              "--out", str(page)]
    store = leaderboard.main([*common, "--entrants", "random", "greedy"])
    two, three = store["tables"]["lineit_v0/2"], store["tables"]["lineit_v0/3"]
    assert len(two["pairs"]) == 1 and len(three["pairs"]) == 2  # both directions above 2 players
    first = json.loads(results.read_text())
    store = leaderboard.main([*common, "--add", str(SCRATCH), "--name", "mine"])
    two, three = store["tables"]["lineit_v0/2"], store["tables"]["lineit_v0/3"]
    assert set(two["entrants"]) == {"random", "greedy", "mine"}
    assert len(two["pairs"]) == 3 and len(three["pairs"]) == 6
    # nothing stored was played again
    assert two["pairs"][:1] == first["tables"]["lineit_v0/2"]["pairs"]
    text = page.read_text()
    assert "## lineit_v0, 2 players" in text and "## lineit_v0, 3 players" in text
    cells = [line.split("|") for line in text.splitlines() if line.startswith("| ")]
    rated = [c for c in cells if c[1].strip().isdigit() and c[2] == " mine "]
    assert len(rated) == 2 and text.count("| **mine** |") == 4  # a rating row, a matrix row each
    assert "`mine` = `policy:agents/policies/scratch/lineit_v0.npz`" in text  # stored relative
    # the stored results alone rewrite the same tables
    again = tmp_path / "again.md"
    leaderboard.main(["--render", "--results", str(results), "--out", str(again)])
    def tables(page_text: str) -> list[str]:
        return [line for line in page_text.splitlines() if line.startswith("|")]

    assert tables(again.read_text()) == tables(text)
    with pytest.raises(SystemExit):  # the same name for another entrant
        leaderboard.main([*common, "--add", "planner", "--name", "mine"])


def test_sweeps_stay_finite() -> None:
    names = ["random", "greedy"]
    p = Pair("greedy", "random", 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 200, 100, 0.0, 1.0)
    r = fit(names, [p], 2)
    assert np.all(np.isfinite(r)) and r[0] < -3  # random, far below greedy


def test_a_table_keeps_the_estimator_its_pairs_were_measured_with(tmp_path: Path) -> None:
    import agents

    results, page = tmp_path / "lb.json", tmp_path / "lb.md"
    common = ["--envs", "rummy432_v0", "--players", "2", "--deals", "3", "--results", str(results),
              "--out", str(page), "--entrants", "greedy", "planner"]
    store = leaderboard.main([*common, "--coupled-draws"])
    (pair,) = store["tables"]["rummy432_v0/2"]["pairs"]
    assert pair["coupled_draws"] is True and pair["control_variates"] is True
    # the stored figure is agents.evaluate's with the same estimator
    res = agents.evaluate("greedy", "rummy432_v0", against=["planner"], games=6, seed=leaderboard.SEED,
                          control_variates=True, coupled_draws=True, progress=False, verbose=False)
    s = res.scores["planner"]
    assert (pair["share"], pair["plain_share"], pair["variance_ratio"]) == (s.share, s.plain_share,
                                                                            s.variance_ratio)
    assert "Estimator: duplicate deals, control variates, coupled draws." in page.read_text()
    before = results.read_text()
    with pytest.raises(SystemExit):  # the shared pile into a coupled table: refused, nothing stored
        leaderboard.main(common)
    with pytest.raises(SystemExit):
        leaderboard.main([*common, "--coupled-draws", "--no-control-variates", "--add", "random"])
    assert results.read_text() == before
    # pairs stored before the settings were recorded read as control variates on, the shared pile
    old = {k: v for k, v in pair.items() if k not in leaderboard.ESTIMATOR}
    assert leaderboard.estimator_of([Pair(**old)]) == {"control_variates": True, "coupled_draws": False}


def test_a_later_page_replaces_an_earlier_ones_bound(tmp_path: Path) -> None:
    from agents.evaluation.exploitability import BestResponseResult

    def page(name: str, share: float, targets: tuple[str, ...]) -> Path:
        res = {t: BestResponseResult(t, "line_v0", 2, 200, share, (share - 0.05, share + 0.05), share,
                                     (share - 0.06, share + 0.06), 3.0) for t in targets}
        path = tmp_path / name
        path.write_text(best_response.markdown([best_response.Row("line_v0", t, res[t]) for t in targets], {},
                                               "cmd", "up", "up", ""))
        return path

    short = page("abr.md", 0.5, ("greedy", "planner"))
    long = page("abr_30min.md", 0.6, ("planner",))
    assert leaderboard.read_all_bounds([short, long]) == {
        "line_v0": {"greedy": "50.0% [45.0%, 55.0%]", "planner": "60.0% [55.0%, 65.0%]"}}
    assert leaderboard.read_all_bounds([long, short])["line_v0"]["planner"] == "50.0% [45.0%, 55.0%]"
    assert leaderboard.read_all_bounds([tmp_path / "none.md", short]) == leaderboard.read_bounds(short)
