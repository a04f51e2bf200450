"""The search-budget study: recording, saving and judging budgets on recorded positions."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from experiments import frozen
from experiments.studies import search_race


@pytest.mark.skipif(frozen.unavailable_reason() is not None,
                    reason=f"the old expert needs git history: {frozen.unavailable_reason()}")
def test_the_study_records_saves_and_judges(tmp_path: Path) -> None:
    out, data = tmp_path / "race.md", tmp_path / "race.npz"
    rows = search_race.main(["--env", "lineit_v0", "--games", "1", "--worlds", "10", "--search", "6",
                             "--max-moves", "12", "--save", str(data), "--out", str(out)])
    names = [r.name for r in rows]
    assert names[0].startswith("frozen expert") and names[1].startswith("planner")
    assert any(n.startswith("**shipped**") for n in names) and names[-1].startswith("split-half")
    assert all(r.regret >= 0 for r in rows)
    assert "regret x1000" in out.read_text()
    again = search_race.main(["--load", str(data)])  # the same positions judge the same
    assert [(r.name, r.regret) for r in again] == [(r.name, r.regret) for r in rows]


def test_the_replayed_race_follows_the_search_rule() -> None:
    # candidate 1 is better by 0.2 in every world (no spread): the race ends at min_worlds
    v = np.tile(np.array([0.0, 0.2, -0.5]), (20, 1)) + np.random.default_rng(0).normal(size=(20, 1))
    choice, used = search_race.race(v, np.zeros(3), worlds=20, min_worlds=4, z=2.0, tol=0.0, cands=3)
    assert (choice, used) == (1, 12)
    choice, used = search_race.race(v, np.zeros(3), worlds=20, min_worlds=20, z=2.0, tol=0.0, cands=2)
    assert (choice, used) == (1, 40)  # no race: every world, the first two candidates
