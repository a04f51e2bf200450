"""experiments/studies/rummy_hand_model.py: the fit writes a usable table, the score compares deals."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from experiments.studies import rummy_hand as hm
from experiments.studies import rummy_hand_model as rh


def test_positions_record_the_true_hidden_hand() -> None:
    rows = rh.collect(1, 3)
    assert rows
    for r in rows:
        assert r["true"].sum() == r["k"] and (r["true"] <= r["unseen"]).all()
        assert r["phi"].shape == (13, hm.NF)


def test_fit_then_score(tmp_path: Path) -> None:
    out = tmp_path / "hand.npz"
    rh.main(["fit", "--games", "3", "--seed", "11", "--out", str(out)])
    w = hm.weights("mixed", 8, out)
    assert w is not None and w.shape == (hm.MAX_C + 1, hm.NF)
    with np.load(out) as z:
        meta = json.loads(str(z["meta"]))
    assert meta["mixed_8"]["games"] == 3 and meta["mixed_8"]["features"] == list(hm.FEATURES)
    table = tmp_path / "score.md"
    rh.main(["score", "--games", "1", "--seed", "12", "--samples", "2", "--model", str(out),
             "--out", str(table)])
    text = table.read_text()
    for name in ("model (exact)", *rh.DEALS):
        assert f"| {name} |" in text


def test_feed_aware_planner_plays_whole_games() -> None:
    w = hm.weights("mixed", 8)
    assert w is not None
    share, lo, hi = rh.feed_share(0.5, w, 2, 3, "mixed", 8)
    assert 0.0 <= lo <= share <= hi <= 1.0
