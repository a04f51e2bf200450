"""The documentation site builds, strictly, and says what broke when it does not.

The whole site is built to HTML exactly as ``python3 dev.py docs --no-serve`` builds it
(every warning an error, nitpicky references); a small site on the same configuration
with a broken link shows that such a link fails the build, naming the file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")
pytest.importorskip("furo")

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import cardenvs_docs  # noqa: E402


def sphinx(src: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """Run the strict build of dev.py (the same flags)."""
    sys.path.insert(0, str(ROOT))
    from dev import SPHINX_FLAGS

    return subprocess.run([sys.executable, "-m", "sphinx", *SPHINX_FLAGS, *extra, str(src), str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    out = tmp_path / "html"
    done = sphinx(DOCS, out)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-6000:]
    line = (out / "games" / "line.html").read_text()
    assert "Discrete(4014)" in line and "The rules for a player" in line  # spec and rules, one page
    for game in ("lineit", "rummy432"):
        assert (out / "games" / f"{game}.html").exists()
    assert "agents.evaluation.evaluator.evaluate" in (out / "api" / "agents.html").read_text()
    assert "/api/games" in (out / "cardtable" / "protocol.html").read_text()
    assert "0.1.0" in (out / "changelog.html").read_text()
    for page in ("results/ladder/README.html", "results/bench_speed.html", "results/baselines/line_v0.html",
                 "training/vector.html", "getting-started.html"):
        assert (out / page).exists(), page


def test_a_broken_link_fails_the_build_and_names_the_file(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "games").mkdir(parents=True)
    for game in ("line", "lineit"):
        (src / "games" / f"{game}.md").write_text(f"# {game}\n")
    (src / "index.md").write_text("# Home\n\nSee [the missing page](nowhere.md) and "
                                  "{func}`agents.no_such_thing`.\n\n```{toctree}\ngames/line\ngames/lineit\n```\n")
    done = sphinx(src, tmp_path / "out", "-c", str(DOCS))
    text = done.stdout + done.stderr
    assert done.returncode != 0
    assert "index.md" in text and "nowhere.md" in text
    assert "agents.no_such_thing" in text
    # a registered game without a page is reported with the file to add
    assert "docs/games/rummy432.md" in text


def test_results_files_get_a_title() -> None:
    text = "### a, 2 players\n\n#### b\n\n```\n### not a heading\n```\n"
    assert cardenvs_docs.lift_headings(text, "x") == "# a, 2 players\n\n## b\n\n```\n### not a heading\n```\n"
    assert cardenvs_docs.lift_headings("| a | b |\n", "Speed").startswith("# Speed\n\n| a | b |")
    assert cardenvs_docs.lift_headings("# Title\n\n## b\n", "x") == "# Title\n\n## b\n"


def test_code_in_a_docstring_without_a_literal_marker_fails_the_build(tmp_path: Path) -> None:
    """An indented example after a line without ``::`` renders as a quote of prose: an error."""
    src = tmp_path / "src"
    (src / "games").mkdir(parents=True)
    for game in ("line", "lineit", "rummy432"):
        (src / "games" / f"{game}.md").write_text(f"# {game}\n")
    pkg = tmp_path / "mods"
    pkg.mkdir()
    (pkg / "quoted_example.py").write_text('"""A module.\n\nAn example:\n\n    result = run("x")\n\n'
                                           'Another::\n\n    fine = "code"\n"""\n')
    (src / "index.md").write_text("# Home\n\n```{eval-rst}\n.. automodule:: quoted_example\n```\n\n"
                                  "> a quote on a page is meant\n\n"
                                  "```{toctree}\ngames/line\ngames/lineit\ngames/rummy432\n```\n")
    env = {**os.environ, "PYTHONPATH": f"{pkg}{os.pathsep}{ROOT}"}
    done = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-n", "-q", "-E", "-b",
                           "html", "-c", str(DOCS), str(src), str(tmp_path / "out")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    text = done.stdout + done.stderr
    assert done.returncode != 0
    warnings = [line for line in text.splitlines() if "renders as a quote" in line]
    assert len(warnings) == 1, text[-3000:]  # the example, not the '::' block nor the page's quote
    assert "quoted_example" in warnings[0] and "result = run" in warnings[0]
