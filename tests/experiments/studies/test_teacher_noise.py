"""``experiments/studies/teacher_noise.py``: a search teacher's agreement with itself, per budget."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.studies import teacher_noise

ROOT = Path(__file__).resolve().parents[2]


def test_a_deterministic_teacher_agrees_with_itself_and_a_search_is_measured() -> None:
    game, spots = teacher_noise.positions("lineit_v0", 4, 2, seed=0)
    assert len(spots) == 4 and all(v.seat == 0 and len(legal) >= 2 for v, legal in spots)
    # the same seed twice: the same search, move for move
    same = teacher_noise.measure("lineit_v0", {"simulations": 2}, game, spots, seeds=(5, 5))
    assert same["agree"] == 1.0 and same["high"] == 1.0 and same["low"] > 0.3
    rows = teacher_noise.main(["--env", "lineit_v0", "--positions", "3", "--stride", "1",
                               "--budget", 'tiny={"simulations": 2, "paired": true}'])
    assert [name for name, _ in rows] == ["expert", "tiny"]
    for _name, r in rows:
        assert 0 <= r["low"] <= r["agree"] <= r["high"] <= 1 and r["ms"] > 0


@pytest.mark.parametrize("text, words", [("paired", "NAME=JSON"), ('x={"sims": 2}', "unknown key")])
def test_a_bad_budget_is_refused_with_what_is_allowed(text: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        teacher_noise.main(["--budget", text])
