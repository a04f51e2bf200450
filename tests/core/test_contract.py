"""The contract kit (``cardenvs.testing``) over every registered game and the toy, and
proof that each of its checks can fail: deliberately broken variants of the toy, each
caught by the checks named for it.

The kit's checks replace the copies that were written once per game (PettingZoo's API
and seed tests, the global-generator tests, the docstring tables, the bad-JSON tests,
the copy contract): what stays in each game's test files is what is particular to it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import cardenvs
from cardenvs import testing
from cardenvs.testing.__main__ import main
from tests.core import toy
from tests.core.toy_broken import BROKEN
from tests.core.toy_kit import KIT as TOY_KIT
from tests.core.toy_kit import registered

ROOT = Path(__file__).resolve().parents[2]
#: the registered games, and the toy (from its module, registered or not)
NAMES = [name for name in cardenvs.ENVS if name != TOY_KIT.env_name] + [TOY_KIT.env_name]
#: options that shorten a long game (Rummy plays three rounds by default)
SHORT: dict[str, dict[str, Any]] = {"rummy432_v0": {"rounds_to_win": 1}}


def ref(name: str) -> testing.GameRef:
    """What the kit is given for ``name`` (the toy: its module's factory)."""
    return toy.env if name == TOY_KIT.env_name else name


def cases() -> list[tuple[str, int]]:
    out = []
    for name in NAMES:
        cls = toy.ToyGame if name == TOY_KIT.env_name else cardenvs.game_class(name)
        out += [(name, n) for n in range(cls.min_players, cls.max_players + 1)]
    return out


@pytest.mark.parametrize(("name", "players"), cases())
def test_every_game_keeps_the_contract(name: str, players: int) -> None:
    report = testing.run_contract(ref(name), players, quick=True, options=SHORT.get(name))
    assert report.passed, str(report)
    assert {r.check for r in report.results} == set(testing.CHECKS)


# ------------------------------------------------------------- broken variants
@pytest.mark.parametrize(("variant", "factory", "caught_by"), BROKEN, ids=[b[0] for b in BROKEN])
def test_each_broken_variant_is_caught(variant: str, factory: Any, caught_by: tuple[str, ...]) -> None:
    report = testing.run_contract(factory, 2, quick=True)
    failed = {r.check for r in report.failures}
    assert failed == set(caught_by), f"{variant}: expected exactly {caught_by} to fail:\n{report}"
    for check in caught_by:
        with pytest.raises(AssertionError):
            testing.CHECKS[check](factory, 2, quick=True)


def test_a_wrong_spec_is_caught() -> None:
    doc = toy.__doc__ or ""
    testing.check_spec(toy.env, 2, doc=doc)
    for wrong in (
        doc.replace("| total | 2 | 1 | running total |", "| total | 2 | 1 | the total |"),
        doc.replace("| add | 0..2 |", "| add | 0..3 |"),
        doc.replace("| target | 10 |", "| target | 12 |"),
        "no tables at all",
    ):
        with pytest.raises(AssertionError, match="table"):
            testing.check_spec(toy.env, 2, doc=wrong)


# ------------------------------------------------------------ traces, the CLI
def test_a_trace_saves_loads_and_catches_a_change(tmp_path: Path) -> None:
    trace = testing.record_trace(toy.env, 3, seed=4)
    path = tmp_path / "toy.json"
    testing.save_trace(trace, path)
    back = testing.load_trace(path)
    assert back == trace == json.loads(json.dumps(trace))
    testing.check_trace(back, toy.env)
    moves = [e for e in back["events"] if "move" in e]
    assert moves and back["events"][-1].keys() == {"final"}
    moves[0]["move"][2] = (moves[0]["move"][2] + 1) % 3  # as if the first move had changed
    with pytest.raises(AssertionError, match="event 1"):
        testing.check_trace(back, toy.env)
    testing.check_golden(toy.env, 2, path=tmp_path / "new.json")  # written, then compared
    testing.check_golden(toy.env, 2, path=tmp_path / "new.json")
    with pytest.raises(AssertionError, match="differs from"):
        testing.check_golden(toy.env, 2, seed=1, path=tmp_path / "new.json")


def test_unknown_games_and_checks_are_named() -> None:
    with pytest.raises(ValueError, match="unknown game 'no_such_game_v0'"):
        testing.resolve("no_such_game_v0")
    with pytest.raises(ValueError, match="unknown check"):
        testing.run_contract(toy.env, 2, checks=["nope"])


def test_cli_on_the_toy_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    with registered():  # importing the plugin registers the toy: not beyond this test
        assert main(["tests.core.toy_plugin:KIT", "--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(testing.CHECKS) * 2 - 2 + 1  # spec and notation run at one seat count
    assert all(line.startswith("PASS ") for line in lines[:-1]) and lines[-1] == "toy_v0: 22 checks, passed"


def test_cli_exits_nonzero_on_a_failure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tests.core.toy_broken:leaky_env", "--quick", "--check", "view_leak", "--players", "2"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL view_leak 2p") and "sample_state" in out
    assert main(["no_such_game_v0"]) == 2
    assert "unknown game 'no_such_game_v0'" in capsys.readouterr().err


def test_python_m_runs_without_pytest_or_hypothesis() -> None:
    """``python -m cardenvs.testing`` in a process where pytest and hypothesis cannot be
    imported (the kit needs numpy, gymnasium and pettingzoo only)."""
    code = (
        "import runpy, sys; sys.modules['pytest'] = None; sys.modules['hypothesis'] = None; "
        "sys.argv = ['cardenvs.testing', 'tests.core.toy', '--players', '3', '--check', 'json', "
        "'--option', 'target=12']; runpy.run_module('cardenvs.testing', run_name='__main__')"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("PASS json 3p") and "1 checks, passed" in done.stdout


def test_a_game_that_names_the_wrong_top_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """``draws``: Line-it lays its markets out from the deck's front; said to be its end,
    the check fails (coupled draws would then never follow the pile)."""
    from cardenvs.lineit.rules import LineItGame

    testing.check_draws("lineit_v0", 2)
    monkeypatch.setattr(LineItGame, "UNSEEN_TOP", -1)
    with pytest.raises(AssertionError, match="UNSEEN_TOP = -1"):
        testing.check_draws("lineit_v0", 2)
    monkeypatch.setattr(LineItGame, "UNSEEN_TOP", 1)
    with pytest.raises(AssertionError, match="UNSEEN_TOP is 0"):
        testing.check_draws("lineit_v0", 2)


def test_taken_from_top_reads_either_end() -> None:
    from cardenvs.core.game import taken_from_top

    assert taken_from_top([1, 2, 3, 4], [1, 2], -1) == 2  # the end is the top
    assert taken_from_top([1, 2, 3, 4], [3, 4], 0) == 2  # the front is the top
    assert taken_from_top([1, 2, 3, 4], [1, 2, 3, 4], 0) == 0
    assert taken_from_top([1, 2, 3, 4], [3, 4], -1) is None  # taken from the wrong end
    assert taken_from_top([1, 2, 3, 4], [2, 1], -1) is None  # the rest re-ordered
    assert taken_from_top([1, 2], [1, 2, 5], -1) is None  # cards came back
