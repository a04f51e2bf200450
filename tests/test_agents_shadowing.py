"""A folder or module named ``agents`` in the user's directory: the library says what shadows
its ``agents`` package and how to fix it (``cardenvs._agents_import``), and without one
everything works.

Each case runs a script in a fresh interpreter whose current directory (first on
``sys.path``) is a temporary folder, with the repository on ``PYTHONPATH`` after it, as
an installed wheel is: the script drops setuptools' editable-install finder, which would
otherwise resolve ``agents.*`` to the repository behind the shadowing folder's back
(:func:`test_an_editable_install_resolves_the_modules_behind_a_namespace_folder`).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: drops the editable-install finder, so that imports resolve as from an installed wheel
AS_INSTALLED = ('import sys; sys.meta_path[:] = [f for f in sys.meta_path '
                'if "Editable" not in getattr(f, "__name__", type(f).__name__)]\n')

#: every entry of the library that imports agents; prints {check: outcome} as JSON
CHECKS = AS_INSTALLED + r'''
import contextlib, io, json

out = {}


def check(name, fn):
    """Run fn, recording its value (or exception, or exit status) and what it printed."""
    err, std = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(std):
            value = fn()
        out[name] = {"ok": True, "value": repr(value)}
    except SystemExit as done:
        out[name] = {"ok": True, "value": repr(done.code)}
    except Exception as exc:
        out[name] = {"ok": False, "type": type(exc).__name__, "message": str(exc)}
    out[name]["stderr"] = err.getvalue()


import gymnasium
import cardenvs

check("gym.make", lambda: type(gymnasium.make("cardenvs/LineIt-v0", seed=0).unwrapped).__name__)
check("gymnasium.make_vec",
      lambda: gymnasium.make_vec("cardenvs/Line-v0", 2, vectorization_mode="sync").num_envs)
if VECTOR:
    def vector():  # cardenvs.vector needs no agents: opponents of the user's own
        from cardenvs.vector import make_vec_env

        def first_legal(obs):
            return int(obs["action_mask"].argmax())

        venv = make_vec_env("line_v0", 2, lambda i: [first_legal])
        venv.reset()
        return venv.num_envs

    check("cardenvs.vector", vector)
from cardenvs.cli import demo, evaluate, play

check("cardenvs-play", lambda: play(["--help"]))
check("cardenvs-evaluate", lambda: evaluate(["--help"]))
check("cardenvs-demo", lambda: demo(["--help"]))
from cardtable.__main__ import main as cardtable

check("cardtable", lambda: cardtable(["--help"]))
if RLLIB:
    def ship():
        from cardenvs.integrations.rllib import runtime_env

        return runtime_env(packages=["agents"])["py_modules"][-1]

    check("rllib.runtime_env", ship)
print(json.dumps(out))
'''

HAS_SB3 = importlib.util.find_spec("stable_baselines3") is not None
HAS_RAY = importlib.util.find_spec("ray") is not None and importlib.util.find_spec("torch") is not None
#: what each command line says when agents is shadowed
COMMANDS = ("cardenvs-play", "cardenvs-evaluate", "cardenvs-demo", "cardtable")


def _env(pythonpath: bool = True) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CARDENVS_GAMES")}
    if pythonpath:
        env["PYTHONPATH"] = str(ROOT)
    return env


def _run(where: Path, code: str, pythonpath: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], cwd=where, env=_env(pythonpath), capture_output=True,
                          text=True, timeout=300)


def _checks(where: Path, rllib: bool = False) -> dict[str, Any]:
    """The outcome of every check of :data:`CHECKS` run in ``where``."""
    code = f"VECTOR = {HAS_SB3}\nRLLIB = {rllib and HAS_RAY}\n" + CHECKS
    res = _run(where, code)
    assert res.returncode == 0, res.stderr[-3000:]
    outcome: dict[str, Any] = json.loads(res.stdout.strip().splitlines()[-1])
    return outcome


def _fake_package(tmp_path: Path, init: bool, gym: bool = False) -> Path:
    """A folder ``agents/`` of the user's in ``tmp_path`` (a package, or a namespace folder)."""
    pkg = tmp_path / "agents"
    pkg.mkdir()
    (pkg / "my_bot.py").write_text("NAME = 'mine'\n")
    if init:
        (pkg / "__init__.py").write_text("'''my own agents'''\n")
    if gym:  # a module of the user's named as one of the package's
        (pkg / "gym.py").write_text("'''my gym helpers'''\n")
    return pkg


def _says_shadowed(text: str, fake: Path) -> None:
    """``text`` names what shadows the package, where the real one is, and the fix."""
    assert f"a module named 'agents' at {fake} shadows cardenvs' agents package" in text, text
    assert f"installed at {ROOT / 'agents'}" in text, text
    assert "rename your 'agents' folder or module, or run from another directory" in text, text


def test_a_package_named_agents_is_named_with_the_fix_everywhere(tmp_path: Path) -> None:
    fake = _fake_package(tmp_path, init=True)
    out = _checks(tmp_path, rllib=True)
    for name in ("gym.make", "gymnasium.make_vec"):
        assert out[name]["ok"] is False and out[name]["type"] == "AgentsShadowedError", out[name]
        assert out[name]["message"].startswith("cannot import agents.learning.gym: ")
        _says_shadowed(out[name]["message"], fake)
    if HAS_SB3:  # cardenvs.vector itself needs no agents (gymnasium.make_vec's ids do, above)
        assert out["cardenvs.vector"]["value"] == "2", out["cardenvs.vector"]
    for command in COMMANDS:
        assert out[command]["value"] == "2", out[command]  # status 2, not a traceback
        first, _, rest = out[command]["stderr"].partition(": error: cannot import agents.")
        assert first == command and rest, out[command]
        _says_shadowed(rest, fake)
    if HAS_RAY:
        assert out["rllib.runtime_env"]["type"] == "AgentsShadowedError", out["rllib.runtime_env"]
        _says_shadowed(out["rllib.runtime_env"]["message"], fake)


def test_a_user_module_named_like_one_of_the_package_is_not_taken_for_it(tmp_path: Path) -> None:
    fake = _fake_package(tmp_path, init=True, gym=True)  # agents.learning.gym imports, but it is the user's
    out = _checks(tmp_path)
    assert out["gym.make"]["type"] == "AgentsShadowedError", out["gym.make"]
    _says_shadowed(out["gym.make"]["message"], fake)


def test_a_module_file_named_agents_is_named(tmp_path: Path) -> None:
    (tmp_path / "agents.py").write_text("'''my agents, one file'''\n")
    res = _run(tmp_path, AS_INSTALLED + "import sys, gymnasium, cardenvs\n"
                         "from cardenvs.cli import play\nsys.exit(play(['line_v0']))")
    assert res.returncode == 2 and "Traceback" not in res.stderr, res.stderr
    assert res.stderr.startswith("cardenvs-play: error: cannot import agents.programs.play: ")
    _says_shadowed(res.stderr, tmp_path / "agents.py")
    res = _run(tmp_path, AS_INSTALLED + "import gymnasium, cardenvs\ngymnasium.make('cardenvs/Line-v0')")
    assert res.returncode == 1 and "AgentsShadowedError: cannot import agents.learning.gym" in res.stderr
    _says_shadowed(res.stderr, tmp_path / "agents.py")


def test_a_namespace_folder_named_agents_is_hidden_by_the_installed_package(tmp_path: Path) -> None:
    """A folder without ``__init__.py`` is a namespace portion: a regular package of the
    same name later on ``sys.path`` (the installed one) wins, so everything works."""
    _fake_package(tmp_path, init=False)
    out = _checks(tmp_path)
    assert out["gym.make"] == {"ok": True, "value": "'SingleAgentEnv'", "stderr": ""}
    assert out["gymnasium.make_vec"]["value"] == "2"
    for command in COMMANDS:
        assert out[command]["value"] == "0", out[command]
    res = _run(tmp_path, AS_INSTALLED + "import agents; print(agents.__file__)")
    assert Path(res.stdout.strip()) == ROOT / "agents" / "__init__.py"


def test_an_editable_install_resolves_the_modules_behind_a_namespace_folder(tmp_path: Path) -> None:
    """setuptools' editable finder runs after the path finder: ``agents`` is the user's
    namespace folder, but ``agents.learning.gym`` and the rest come from the project, and work."""
    probe = _run(tmp_path, "import sys; print(any('Editable' in getattr(f, '__name__', type(f).__name__) "
                           "for f in sys.meta_path))", pythonpath=False)
    if probe.stdout.strip() != "True":
        pytest.skip("cardenvs is not installed in editable mode here")
    _fake_package(tmp_path, init=False)
    code = ("import sys, gymnasium, cardenvs, agents\n"
            "from cardenvs._agents_import import agents_home, import_agents\n"
            "env = gymnasium.make('cardenvs/Line-v0')\n"
            "print(agents.__file__, sys.modules['agents.learning.gym'].__file__, agents_home())\n"
            "from cardenvs.cli import demo\nsys.exit(demo(['--help']))")
    res = _run(tmp_path, code, pythonpath=False)
    assert res.returncode == 0, res.stderr
    top, gym, home = res.stdout.split("\n")[0].split()
    assert top == "None"  # the namespace folder
    assert Path(gym) == Path(home) / "learning" / "gym.py"


def test_a_clean_directory_has_everything_working(tmp_path: Path) -> None:
    out = _checks(tmp_path, rllib=True)
    assert out["gym.make"] == {"ok": True, "value": "'SingleAgentEnv'", "stderr": ""}
    assert out["gymnasium.make_vec"]["value"] == "2"
    if HAS_SB3:
        assert out["cardenvs.vector"]["value"] == "2", out["cardenvs.vector"]
    for command in COMMANDS:
        assert out[command] == {"ok": True, "value": "0", "stderr": ""}, out[command]
    if HAS_RAY:
        assert out["rllib.runtime_env"]["value"] == repr(str(ROOT / "agents")), out["rllib.runtime_env"]


def test_the_helper_in_process() -> None:
    """In this process (the repository first), ``agents`` is the distribution's."""
    import agents
    from cardenvs._agents_import import agents_home, import_agents, load_agents, shadowing

    assert agents.__cardenvs_agents__ is True
    assert agents_home() == ROOT / "agents"
    assert shadowing() is None
    assert import_agents() is agents and import_agents("learning.gym") is sys.modules["agents.learning.gym"]
    assert load_agents("players.ladder", "make_agent") is agents.make_agent
    with pytest.raises(ImportError, match="cannot import no_such_name from agents.players.ladder"):
        load_agents("players.ladder", "no_such_name")
    with pytest.raises(ModuleNotFoundError) as err:  # a missing module of ours is not shadowing
        import_agents("no_such_module")
    assert type(err.value) is ModuleNotFoundError
