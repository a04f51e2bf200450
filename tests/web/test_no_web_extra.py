"""``cardtable`` without the web extra: one line saying what to install, status 2, no traceback.

The web extra's modules are made unimportable in a fresh interpreter, either as a
missing package would be (a stand-in package on ``PYTHONPATH`` that raises the same
``ModuleNotFoundError``) or with ``sys.modules[name] = None``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.__main__ import WEB_MODULES

ROOT = Path(__file__).resolve().parents[2]
HINT = "pip install 'cardenvs[web]'"


def _run(args: list[str], tmp_path: Path, pythonpath: list[Path]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = os.pathsep.join(map(str, [*pythonpath, ROOT]))
    return subprocess.run([sys.executable, *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("missing", WEB_MODULES)
def test_python_m_cardtable_names_the_missing_extra(missing: str, tmp_path: Path) -> None:
    stubs = tmp_path / "stubs" / missing
    stubs.mkdir(parents=True)
    (stubs / "__init__.py").write_text(f"raise ModuleNotFoundError(\"No module named '{missing}'\", "
                                       f"name={missing!r})\n")
    data = tmp_path / "data"
    res = _run(["-m", "cardtable", "--data", str(data), "--workers", "0"], tmp_path, [tmp_path / "stubs"])
    assert res.returncode == 2, res.stderr
    assert res.stderr == (f"cardtable: error: cardtable needs the web extra (No module named '{missing}'): "
                          f"{HINT}\n")
    assert res.stdout == "" and not data.exists()  # it stopped before serving or storing anything


def test_the_console_script_entry_says_the_same_and_help_still_works(tmp_path: Path) -> None:
    hide = f"import sys\nfor m in {WEB_MODULES!r}: sys.modules[m] = None\n"
    res = _run(["-c", hide + "from cardtable.__main__ import main\nsys.exit(main(['--data', 'd']))"],
               tmp_path, [])
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert "needs the web extra" in res.stderr and res.stderr.rstrip().endswith(HINT)
    res = _run(["-c", hide + "from cardtable.__main__ import main\nsys.exit(main(['--help']))"], tmp_path, [])
    assert res.returncode == 0 and "--rooms-per-hour" in res.stdout, res.stderr


def test_another_import_error_is_not_taken_for_the_extra() -> None:
    from cardtable.__main__ import missing_web_extra

    assert missing_web_extra(ModuleNotFoundError("No module named 'numpy'", name="numpy")) is None
    gone = ModuleNotFoundError("No module named 'starlette.routing'", name="starlette.routing")
    said = missing_web_extra(gone)
    assert said == f"cardtable needs the web extra (No module named 'starlette.routing'): {HINT}"
