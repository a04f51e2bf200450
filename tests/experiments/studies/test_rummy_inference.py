"""experiments/studies/rummy_inference.py: regrets are measured on the expert's searched throws."""

from __future__ import annotations

from typing import Any

import pytest

from experiments.studies import rummy_inference as ri


def test_variant_parsing_refuses_bad_settings() -> None:
    assert ri.parse_variant('wide={"W_PASSED": 0.05, "simulations": 80}') == (
        "wide", {"W_PASSED": 0.05, "simulations": 80})
    with pytest.raises(ValueError, match="unknown setting 'W_FOO'; allowed: HAND_MODEL, W_PASSED"):
        ri.parse_variant('x={"W_FOO": 1}')
    with pytest.raises(ValueError, match="NAME=JSON"):
        ri.parse_variant('{"W_PASSED": 1}')
    with pytest.raises(ValueError, match="not JSON"):
        ri.parse_variant("x={W_PASSED: 1}")
    with pytest.raises(ValueError, match="must be a number >= 0"):
        ri.parse_variant('x={"LIK_BETA": -1}')
    with pytest.raises(ValueError, match="variant x: simulations must be a whole number >= 1"):
        ri.parse_variant('x={"simulations": 0}')  # the search settings' own check (agents.players.search)
    with pytest.raises(ValueError, match="unknown setting 'paired'"):
        ri.parse_variant('x={"paired": false}')  # the expert's search is always paired here
    with pytest.raises(ValueError, match="is taken"):
        ri.variants(['cheat={"W_THREW": 0.1}'])


def test_regrets_on_searched_throws() -> None:
    specs: dict[str, dict[str, Any]] = {"expert": {"simulations": 3}, "cheat": {"simulations": 3},
             "loose": {"W_PASSED": 1.0, "LIK_SAMPLES": 1, "simulations": 3}}
    rows = ri.run(1, 7, specs, oracle_worlds=3, oracle_candidates=2)
    assert rows, "a whole game has searched throws"
    for r in rows:
        assert set(r["regret"]) == {"expert", "cheat", "loose", "planner"}
        assert all(v >= -1e-9 for v in r["regret"].values())  # nothing beats the oracle's best
    text = ri.report(rows, specs, "cmd", 1.0)
    assert "| expert | " in text and "+0.0 [+0.0, +0.0] | 100% |" in text
