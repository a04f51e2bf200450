"""The old expert from git history: its tree is the commit's, it runs only that code, it plays."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from experiments import frozen, ladder_pairs

REASON = frozen.unavailable_reason()
needs_history = pytest.mark.skipif(REASON is not None,
                                   reason=f"the frozen expert needs git history: {REASON}")


def _git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(frozen.REPO), *args], capture_output=True, check=True).stdout


@needs_history
def test_the_frozen_tree_is_the_commits_agents_and_cardenvs() -> None:
    root = frozen.materialise()
    assert root.name == frozen.OLD_EXPERT and (root / "COMMIT").read_text().strip() == frozen.OLD_EXPERT
    # every file of the two packages, blob for blob (git's own hash of each written file)
    listed = _git("ls-tree", "-r", frozen.OLD_EXPERT, *frozen.PACKAGES).decode().splitlines()
    blobs = {}
    for line in listed:  # a link (the games' RULES.md) is written as the file it points to
        (mode, _, blob), path = line.split("\t")[0].split(), line.split("\t")[1]
        if mode == "120000":
            target = Path(path).parent / _git("cat-file", "blob", blob).decode()
            blob = _git("rev-parse", f"{frozen.OLD_EXPERT}:{os.path.normpath(target)}").decode().strip()
        blobs[path] = blob
    written = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() and p.name != "COMMIT"
                     and "__pycache__" not in p.parts)
    assert set(written) == set(blobs)
    hashed = subprocess.run(["git", "hash-object", "--no-filters", "--stdin-paths"], input="\n".join(
        str(root / p) for p in written), capture_output=True, text=True, check=True).stdout.split()
    assert dict(zip(written, hashed)) == {p: blobs[p] for p in written}
    for path in ("agents/search.py", "agents/games/rummy432/inference.py", "cardenvs/line/rules.py"):
        assert (root / path).read_bytes() == _git("show", f"{frozen.OLD_EXPERT}:{path}")
    assert frozen.materialise() == root  # written once


@needs_history
def test_the_worker_runs_only_the_frozen_code() -> None:
    agent = frozen.old_expert("line_v0", seed=0)
    where = agent.worker.call("where")  # type: ignore[attr-defined]
    root = str(frozen.materialise().resolve())
    for module in ("agents.search", "agents.knowledge", "agents.games.line", "cardenvs.line.rules"):
        assert where[module].startswith(root + "/"), (module, where[module])
    assert all(not f or f.startswith(root + "/") for f in where.values())
    assert frozen.old_budget("rummy432_v0")["max_candidates"] == 2  # the old budget (the new races 2 of 40)


@needs_history
def test_ladder_pairs_seats_the_old_expert_against_the_new(tmp_path: Path) -> None:
    out = tmp_path / "pairs.md"
    rows = ladder_pairs.main(["--env", "line_v0", "--games", "2", "--pairs", "expert-old:expert",
                              "--workers", "2", "--no-control-variates", "--out", str(out)])
    (row,) = rows
    assert (row.lower, row.upper, row.games) == ("expert-old", "expert", 2)
    assert 0.0 <= row.share <= 1.0
    assert "| expert-old → expert | 2 |" in out.read_text()


def test_a_missing_commit_or_clone_is_said_plainly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    if REASON is None:  # in a clone: a commit it lacks
        with pytest.raises(frozen.FrozenUnavailable, match="is not in this clone; .*fetch"):
            frozen.resolve("0" * 40)
    monkeypatch.setattr(frozen, "REPO", tmp_path)
    with pytest.raises(frozen.FrozenUnavailable, match="not a git clone|git is not installed"):
        frozen.materialise()
