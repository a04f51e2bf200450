"""experiments.reporting: a reported command reruns the script as given."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from experiments import reporting


def test_command_line_quotes_json_settings() -> None:
    argv = ["--games", "4", "--variant", 'long={"FILTER": 32}']
    line = reporting.command_line("experiments.studies.rummy_tracker", argv)
    assert line.startswith("python -m experiments.studies.rummy_tracker --games 4 --variant ")
    assert shlex.split(line)[3:] == argv


def test_publish_prints_and_writes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "deep" / "table.md"
    reporting.publish("| a |\n", out)
    assert out.read_text() == "| a |\n" and "| a |" in capsys.readouterr().out
    reporting.publish("x\n", None)
    assert capsys.readouterr().out == "x\n\n"
