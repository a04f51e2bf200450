"""experiments/studies/rummy_tracker.py: variants are checked, and a run writes the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from experiments.studies import rummy_tracker as rt


def test_variants_are_checked() -> None:
    assert rt.parse_variant('long={"FILTER_STEPS": 100}') == ("long", {"FILTER_STEPS": 100, "FILTER": 64})
    with pytest.raises(ValueError, match="unknown setting 'W_PASSED'; allowed: FILTER, FILTER_STEPS"):
        rt.parse_variant('x={"W_PASSED": 1}')
    with pytest.raises(ValueError, match="FILTER_STEPS must be a whole number >= 0"):
        rt.parse_variant('x={"FILTER_STEPS": 2.5}')
    with pytest.raises(ValueError, match="FILTER_EPS must be a number >= 0 and <= 1"):
        rt.parse_variant('x={"FILTER_EPS": 2}')
    with pytest.raises(ValueError, match="FILTER must be at least 1"):
        rt.parse_variant('x={"FILTER": 0}')
    with pytest.raises(ValueError, match="is taken"):
        rt.parse_variant('heuristic={"FILTER": 4}')


def test_a_run_writes_every_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(rt.BUILT_IN, "tracker", {"FILTER": 8, "FILTER_STEPS": 2})
    out = tmp_path / "t.md"
    rt.main(["--games", "1", "--seed", "3", "--samples", "2",
             "--variant", 'small={"FILTER": 4, "FILTER_STEPS": 1}', "--out", str(out)])
    text = out.read_text()
    for name in ("uniform", "heuristic", "tracker", "small"):
        assert f"| {name} |" in text
    assert "Command: `python -m experiments.studies.rummy_tracker --games 1" in text
