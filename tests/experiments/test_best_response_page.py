"""experiments/best_response.py --method abr: the page it writes from a tiny run."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")

from experiments import best_response  # noqa: E402


@pytest.mark.train
def test_the_abr_page_has_a_row_per_target_and_the_skips(tmp_path: Path) -> None:
    out = tmp_path / "abr.md"
    rows = best_response.main(["--method", "abr", "--envs", "lineit_v0", "--targets", "random", "greedy",
                               "--steps", "256", "--games", "4", "--skip", "lineit_v0:greedy",
                               "--note", "greedy skipped here", "--out", str(out)])
    assert [r.target for r in rows] == ["random", "greedy"] and rows[1].result is None
    text = out.read_text()
    assert "# Approximate best response against the shipped levels" in text
    row = next(line for line in text.splitlines() if line.startswith("| random |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert len(cells) == 9 and cells[4] == "4" and int(cells[2].replace(",", "")) >= 256
    assert "| greedy | – | skipped: see the note |" in text and "greedy skipped here" in text
    assert "--method abr" in text and "Learner settings: minutes=30.0" in text


def test_bad_minutes_for_is_a_usage_error() -> None:
    with pytest.raises(SystemExit):
        best_response.main(["--method", "abr", "--minutes-for", "random=x"])
