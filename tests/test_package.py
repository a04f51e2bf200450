"""The package: an sdist and a wheel build, and the wheel installed into a fresh virtual
environment outside the repository runs the demo and an evaluation.

The sdist is built first and the wheel from it (``python -m build``), so the sdist is
complete.  The fresh environment gets the wheel and its dependencies from the package
index, nothing from the repository: the commands run in a temporary folder with no
``PYTHONPATH``, and every module must come from the environment's ``site-packages``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(cmd: list[str | Path], cwd: Path, timeout: int = 600) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["TQDM_DISABLE"] = "1"
    done = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    pytest.importorskip("build")
    out = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, ROOT], cwd=out)
    (wheel,) = out.glob("cardenvs-*.whl")
    (sdist,) = out.glob("cardenvs-*.tar.gz")
    return wheel, sdist


def test_the_wheel_holds_the_packages_data_and_commands(built: tuple[Path, Path]) -> None:
    wheel, sdist = built
    import cardenvs

    assert wheel.name.startswith(f"cardenvs-{cardenvs.__version__}-py3-none-any")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("cardenvs/__init__.py", "agents/evaluation/evaluator.py", "cardtable/app.py",
                   "cardtable/PROTOCOL.md", "cardtable/static/index.html", "cardtable/static/games/rummy.js",
                   "agents/policies/line_v0.npz", "agents/policies/lineit_v0.npz",
                   "agents/policies/rummy432_v0.npz", "cardenvs/py.typed", "cardenvs/line/RULES.md",
                   "cardenvs/lineit/RULES.md", "cardenvs/rummy432/RULES.md", "cardenvs/testing/__main__.py"):
        assert needed in names, needed
    # the rules players read at the table: the project's own documents, copied in (not links)
    for game in ("line", "lineit", "rummy432"):
        shipped = zipfile.ZipFile(wheel).read(f"cardenvs/{game}/RULES.md").decode()
        assert shipped == (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8"), game
    assert not any(n.startswith(("tests/", "experiments/", "docs/")) for n in names)
    meta = zipfile.ZipFile(wheel)
    info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    scripts = meta.read(info).decode()
    for command in ("cardtable", "cardenvs-play", "cardenvs-evaluate", "cardenvs-demo"):
        assert f"{command} = " in scripts, command
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    metadata = meta.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata and "torch" not in metadata.split("Provides-Extra")[0]
    import tarfile

    with tarfile.open(sdist) as tar:
        members = {m.split("/", 1)[-1] for m in tar.getnames()}
    for needed in ("CHANGELOG.md", "LICENSE", "README.md", "docs/conf.py", "tests/test_package.py"):
        assert needed in members, needed


def test_the_wheel_installed_outside_the_repository_plays(built: tuple[Path, Path], tmp_path: Path) -> None:
    wheel, _ = built
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp_path)
    py = venv / "bin" / "python"
    # this environment's pip installs into the fresh one (no pip of its own to set up)
    _run([sys.executable, "-m", "pip", "--python", py, "install", "--disable-pip-version-check", "-q",
          wheel], cwd=tmp_path)
    where = _run([py, "-c", "import cardenvs, agents, cardtable, importlib.resources as r; "
                  "print(cardenvs.__version__, cardenvs.__file__, agents.__file__, cardtable.__file__); "
                  "print((r.files('cardtable') / 'static' / 'index.html').is_file(), "
                  "(r.files('agents') / 'policies' / 'lineit_v0.npz').is_file())"], cwd=tmp_path)
    version, *files = where.split("\n")[0].split()
    import cardenvs

    assert version == cardenvs.__version__
    assert all(str(venv) in f and str(ROOT) not in f for f in files), files
    assert where.split("\n")[1] == "True True"
    installed = _run([sys.executable, "-m", "pip", "--python", py, "list", "--format=freeze"], cwd=tmp_path)
    assert "torch" not in installed.lower()  # the base install pulls no torch at all
    demo = _run([venv / "bin" / "cardenvs-demo", "--env", "line_v0", "--players", "2", "--quiet"],
                cwd=tmp_path)
    assert "winner(s):" in demo
    report = _run([venv / "bin" / "cardenvs-evaluate", "trained", "--env", "lineit_v0", "--against", "random",
                   "--games", "4", "--no-progress"], cwd=tmp_path)
    assert "| random | 4 |" in report and "Rating on the ladder's scale" in report
    for command in ("cardtable", "cardenvs-play"):
        assert "(default: " in _run([venv / "bin" / command, "--help"], cwd=tmp_path)
    # the contract kit runs from the wheel alone (no pytest, no hypothesis installed)
    kit = _run([py, "-m", "cardenvs.testing", "line_v0", "--players", "2", "--quick"], cwd=tmp_path)
    assert kit.strip().endswith("line_v0: 12 checks, passed"), kit
    print(f"wheel {wheel.name}: installed into a fresh venv; demo and evaluation ran from {tmp_path}")
    print(report)
