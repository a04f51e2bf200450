"""The worker processes that think for computer players can run at a lower CPU priority
than the server, so that a person's move goes before a search (``--worker-nice``,
:class:`cardtable.settings.Settings.worker_nice`; 0 by default)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable.__main__ import main as serve_main
from cardtable.settings import Settings

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not hasattr(os, "nice") or sys.platform == "win32", reason="POSIX nice")


#: a server-side Pool in a process of its own (its forkserver lives and ends with it):
#: prints the server's niceness before and after, and a search worker's
PROBE = """
import asyncio, os, sys
from cardtable.workers import Pool

def main():
    before = os.nice(0)
    pool = Pool(1, nice=int(sys.argv[1]))
    async def ask():
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool._executor("room", "expert"), os.nice, 0)
    worker = asyncio.run(ask())
    pool.close()
    print(before, os.nice(0), worker)

if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize("nice", [0, 7])
def test_a_worker_runs_nice_steps_below_the_server(nice: int, tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(PROBE)
    out = subprocess.run([sys.executable, str(probe), str(nice)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 0, out.stderr
    before, after, worker = map(int, out.stdout.split())
    assert after == before  # the server's own priority is untouched
    assert worker == min(19, before + nice)


def test_by_default_the_workers_keep_the_servers_priority() -> None:
    assert Settings().worker_nice == 0


@pytest.mark.parametrize("bad", [-1, 20])
def test_a_nice_out_of_range_is_refused(bad: int) -> None:
    with pytest.raises(ValueError, match=r"worker_nice is a nice increment, 0\.\.19"):
        Settings(worker_nice=bad)


@pytest.mark.parametrize("bad", ["-1", "20", "ten"])
def test_the_command_line_refuses_a_bad_worker_nice(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        serve_main(["--worker-nice", bad])
    assert exc.value.code == 2
    assert "--worker-nice" in capsys.readouterr().err
