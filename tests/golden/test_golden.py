"""The golden playthroughs replay move for move (see ``tests/golden/record.py``)."""

from __future__ import annotations

import difflib

import pytest

from tests.golden.record import GAMES, path, record


@pytest.mark.parametrize("stem", [g[0] for g in GAMES])
def test_golden_playthrough_is_unchanged(stem: str) -> None:
    want = path(stem).read_text()
    got = record(stem)
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                 "recorded", "now", n=1))[:40])
        pytest.fail(f"{stem} differs from its golden record "
                    f"(regenerate with `python -m tests.golden.record` only for an intended change):\n{diff}")
