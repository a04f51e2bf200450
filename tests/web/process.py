"""The real table server, ``python -m cardtable``, in a process of its own: started on a
free port with its own data folder, waited for, and stopped politely or killed outright.
Standard library only, so the browser tests can say why they skip before importing more."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Local:
    """A server on this machine's loopback at ``port``: its HTTP and WebSocket base URLs."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


class ServerProcess(Local):
    """``python -m cardtable --data DATA`` on a free port (computers at ``bot_delay``,
    ``workers`` processes, more ``args``), its output in ``DATA/server.log``; ready once it
    answers.  ``new_session``: in a session and process group of its own (led by it)."""

    def __init__(self, data: str | Path, bot_delay: float = 0.0, workers: int = 0,
                 timeout: float = 60.0, args: tuple[str, ...] = (), new_session: bool = False,
                 port: int | None = None) -> None:
        self.port = port or free_port()
        self.data = Path(data)
        self.data.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, PYTHONUNBUFFERED="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",
                   PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        self._log = open(self.data / "server.log", "a")  # noqa: SIM115 - closed in stop()/kill()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardtable", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(self.data), "--bot-delay", str(bot_delay), "--workers", str(workers), *args],
            cwd=ROOT, stdout=self._log, stderr=subprocess.STDOUT, env=env, start_new_session=new_session)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                self._log.close()
                tail = (self.data / "server.log").read_text()[-3000:]
                raise RuntimeError(f"the server exited ({self.proc.returncode}): {tail}")
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=2) as res:
                    if res.status == 200:
                        return
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError("the server did not answer /api/games in time")
            time.sleep(0.1)

    def stop(self) -> None:
        """Ask the server to shut down (SIGTERM); kill it if it does not within 10 s."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()
        self._log.close()

    def kill(self) -> None:
        """SIGKILL: no shutdown, no last write."""
        self.proc.kill()
        self.proc.wait(timeout=30)
        self._log.close()


def group_members(pgid: int) -> list[tuple[int, str]]:
    """The live (not zombie) processes of a process group: ``(pid, command line)`` (Linux)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            out.append((int(entry.name), cmd.strip()))
    return out
