"""Every command line's ``--help`` shows the defaults (agents.cli.HelpFormatter)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from agents.cli import SAYS_DEFAULT, HelpFormatter, prog

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


@pytest.mark.parametrize("module", ["agents.evaluation.evaluator", "agents.programs.play",
                                    "agents.programs.demo", "cardtable.__main__"])
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


#: each command line: (its module, its console script, the shim of cardenvs.cli that runs it)
COMMANDS = [("agents.programs.play", "cardenvs-play", "play"),
            ("agents.evaluation.evaluator", "cardenvs-evaluate", "evaluate"),
            ("agents.programs.demo", "cardenvs-demo", "demo"), ("cardtable.__main__", "cardtable", None)]
#: the documented ``python -m`` command of each module that has one of its own
DOCUMENTED = {"agents.programs.play": "agents.play", "agents.evaluation.evaluator": "agents.evaluation",
              "agents.programs.demo": "agents.demo"}


def _help(module: str, argv0: str, monkeypatch: pytest.MonkeyPatch,
          capsys: pytest.CaptureFixture[str]) -> str:
    """``--help`` of ``module``'s main as run with ``sys.argv[0] == argv0``."""
    if module.startswith("cardtable"):
        pytest.importorskip("starlette")
    monkeypatch.setattr("sys.argv", [argv0, "--help"])
    main = __import__(module, fromlist=["main"]).main
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(("module", "script", "shim"), COMMANDS)
def test_help_names_the_console_script_or_the_module_and_nothing_else(
        module: str, script: str, shim: str | None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    as_module = "python -m " + DOCUMENTED.get(module, module.removesuffix(".__main__"))
    text = _help(module, f"/venv/bin/{script}", monkeypatch, capsys)
    assert text.startswith(f"usage: {script} ") and as_module not in text, text
    text = _help(module, f"/x/{module.replace('.', '/')}.py", monkeypatch, capsys)
    assert text.startswith(f"usage: {as_module} "), text
    assert f"usage: {script} " not in text and f"\n    {script} " not in text
    if shim is not None:  # the console script's entry point (cardenvs.cli) shows the same
        import cardenvs.cli

        monkeypatch.setattr("sys.argv", [f"/venv/bin/{script}"])
        with pytest.raises(SystemExit):
            getattr(cardenvs.cli, shim)(["--help"])
        assert capsys.readouterr().out.startswith(f"usage: {script} ")


@pytest.mark.parametrize(("module", "script", "shim"), COMMANDS)
def test_help_says_each_default_once_and_points_at_shipped_files(
        module: str, script: str, shim: str | None, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    text = _help(module, f"/venv/bin/{script}", monkeypatch, capsys)
    options = re.split(r"\n(?=  -)", text)[1:]  # one block per option, its wrapped help included
    assert len(options) >= 4
    for block in options:
        assert len(SAYS_DEFAULT.findall(" ".join(block.split()))) <= 1, block
    assert "docs/rules" not in text  # not in the wheel; the rules are cardenvs/<game>/RULES.md


def test_play_shows_the_shipped_rules_document() -> None:
    from agents.programs.play import rules_text

    text = rules_text("line_v0")
    assert text.startswith("## 1. The rules for a player") and "## 2." not in text
    assert text.rstrip(")").endswith(("line.md", "RULES.md"))
    shipped = ROOT / "cardenvs" / "line" / "RULES.md"
    assert Path(text.rstrip(")").rpartition(": ")[2]) == shipped.resolve()


def test_cardtable_durations_in_help_read_as_typed() -> None:
    pytest.importorskip("starlette")
    from cardtable.__main__ import duration, span

    for seconds in (10.0, 15.0, 90.0, 1800.0, 86400.0, 604800.0, 0.5):
        assert duration(span(seconds)) == seconds
    assert [span(s) for s in (10.0, 90.0, 1800.0, 86400.0, 604800.0)] == ["10s", "90s", "30m", "1d", "7d"]
