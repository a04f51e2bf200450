"""Every command line's ``--help`` shows the defaults (agents.cli.HelpFormatter)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from agents.cli import HelpFormatter, prog

ROOT = Path(__file__).resolve().parents[1]


def test_the_formatter_shows_every_default_once() -> None:
    ap = argparse.ArgumentParser(formatter_class=HelpFormatter, description="line one\n  kept as written")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0, help="the first deal")
    ap.add_argument("--levels", nargs="*", default=["greedy", "planner"])
    ap.add_argument("--out", default=None, help="a file")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--rate", type=float, default=0.5, help="a share (default: %(default)s of all)")
    text = ap.format_help()
    assert "--games GAMES     (default: 100)" in text or re.search(r"--games GAMES\s+\(default: 100\)", text)
    assert "the first deal (default: 0)" in text
    assert "(default: greedy planner)" in text
    assert "a file\n" in text and "default: None" not in text  # no default to show
    assert "--quiet" in text and "(default: False)" not in text
    assert text.count("(default: 0.5") == 1
    assert "  kept as written" in text


@pytest.mark.parametrize("module", ["agents.evaluation", "agents.play", "agents.demo", "cardtable.__main__"])
def test_entry_points_show_defaults(module: str, capsys: pytest.CaptureFixture[str]) -> None:
    if module.startswith("cardtable"):
        pytest.importorskip("starlette")
    main = __import__(module, fromlist=["main"]).main
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    assert "(default: " in capsys.readouterr().out


def test_every_experiment_script_uses_the_formatter() -> None:
    scripts = sorted(p for p in (ROOT / "experiments").rglob("*.py") if "ArgumentParser(" in p.read_text())
    assert len(scripts) >= 15
    for path in scripts:
        for call in re.findall(r"ArgumentParser\((.*?)\)\n", path.read_text(), re.S):
            assert "formatter_class=HelpFormatter" in call, f"{path.relative_to(ROOT)}: {call}"


def test_prog_names_the_console_script_or_the_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.argv", ["/usr/bin/cardenvs-play"])
    assert prog("agents.play") == "cardenvs-play"
    monkeypatch.setattr("sys.argv", ["/x/agents/play.py"])
    assert prog("agents.play") == "python -m agents.play"
