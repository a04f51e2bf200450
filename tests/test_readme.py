"""The README stays one page, every Python snippet in it runs, and every link in it
points at a file of the repository.

Each ```python block runs in a fresh interpreter in a temporary folder.  Training and
evaluation budgets are cut by the substitutions in :data:`SMALLER` (each must still
match, so a snippet never runs at its full budget by accident); a snippet that needs an
optional package skips without it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
SNIPPETS = re.findall(r"```python\n(.*?)```", README, re.S)

#: (text in a snippet, what the test runs instead): budgets a test can afford
SMALLER: list[tuple[str, str]] = [
    ("n_steps=256, batch_size=1024,", "n_steps=16, batch_size=32,"),
    ("model.learn(500_000, progress_bar=True)", "model.learn(128)"),
    ('against=["greedy"], games=400)', 'against=["greedy"], games=2, verbose=False)'),
]
#: modules a snippet needs beyond the dev extra
NEEDS = {"sb3_contrib": ("torch", "sb3_contrib")}


def test_the_readme_fits_on_a_page() -> None:
    assert len(README.splitlines()) <= 300


def test_there_is_a_snippet_per_job() -> None:
    code = "\n".join(SNIPPETS)
    for job in ("cardenvs.make(", "MaskablePPO(", "agents.Coach(", "agents.evaluate("):
        assert job in code, job
    for command in ("python3 dev.py demo", "python3 dev.py test", "-m experiments.train_rllib",
                    "dev.py serve", "dev.py notebooks", "jupyter lab"):
        assert command in README, command


@pytest.mark.parametrize("index", range(len(SNIPPETS)), ids=[f"snippet{i}" for i in range(len(SNIPPETS))])
def test_snippet_runs(index: int, tmp_path: Path) -> None:
    code = SNIPPETS[index]
    for module, needed in NEEDS.items():
        if module in code:
            for name in needed:
                pytest.importorskip(name)
    for full, small in SMALLER:
        code = code.replace(full, small)
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "PYTHONPATH": path, "TQDM_DISABLE": "1", "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, (
        f"README snippet {index} failed:\n{code}\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")


def test_every_budget_cut_still_matches() -> None:
    code = "\n".join(SNIPPETS)
    for full, _ in SMALLER:
        assert full in code, f"the README no longer contains {full!r}: update SMALLER in {__file__}"


def test_every_link_points_at_a_file() -> None:
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README)
    local = [link for link in links if not re.match(r"[a-z]+://", link)]
    assert len(local) >= 20
    for link in local:
        assert (ROOT / link).exists(), f"README links to {link}, which is not in the repository"
