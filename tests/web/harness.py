"""Test helpers for the browser table: a real uvicorn server in a thread, WebSocket
clients that record every message they receive, and scripted people who play random
legal moves."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import uvicorn
from websockets.sync.client import ClientConnection, connect

from cardtable.app import create_app
from cardtable.guard import uvicorn_options
from cardtable.settings import Settings

from .process import Local, free_port

#: the per-address limits of a test's server unless it sets them: every request of a test
#: comes from one address (tests/web/test_operator_attacks.py sets them low)
ROOMY = {"http_rate": 100000.0, "http_burst": 1000000, "http_conns_per_address": 100000,
         "waiting_per_address": 100000}


class LiveServer(Local):
    """``create_app`` served by uvicorn in a background thread (``settings``: fields of
    :class:`cardtable.settings.Settings`, the per-address ones :data:`ROOMY` unless given;
    ``open_files``: connections open at once in all, else from the process's file limit, as
    :func:`cardtable.guard.uvicorn_options`)."""

    def __init__(self, data: Path, bot_delay: float = 0.0, workers: int = 0, port: int | None = None,
                 host: str = "127.0.0.1", open_files: int | None = None, **settings: Any) -> None:
        self.port = port or free_port()
        for name, value in ROOMY.items():  # one address makes every request of a test
            settings.setdefault(name, value)
        self.app = create_app(data, bot_delay=bot_delay, workers=workers, settings=Settings(**settings))
        config = uvicorn.Config(self.app, host=host, port=self.port, log_level="warning", lifespan="on",
                                **uvicorn_options(self.app, cap=open_files))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)

    @property
    def core(self) -> Any:
        """The running :class:`cardtable.server.Server`."""
        return self.app.state.server


@contextmanager
def live_server(data: Path, **kw: Any) -> Iterator[LiveServer]:
    srv = LiveServer(data, **kw).start()
    try:
        yield srv
    finally:
        srv.stop()


HTTP = httpx.Client(timeout=30)


def create_room(srv: Local, game: str, num_players: int | None = None, level: str = "random",
                **options: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "level": level, "options": options}
    if num_players is not None:
        body["num_players"] = num_players
    r = HTTP.post(srv.url + "/api/rooms", json=body)
    assert r.status_code == 201, r.text
    return dict(r.json())


class Client:
    """A WebSocket client of one room that records every message it receives."""

    def __init__(self, srv: Local, room: str, token: str | None = None, host_token: str | None = None,
                 hello: bool = True) -> None:
        self._cm = connect(f"{srv.ws_url}/ws/{room}", max_size=None)
        self.ws: ClientConnection = self._cm.__enter__()
        self.seen: list[dict[str, Any]] = []
        self.texts: list[str] = []
        self.token = token
        self.seat: int | None = None
        if hello:
            self.send({"type": "hello", "token": token, "host_token": host_token})

    def send(self, obj: Any) -> None:
        self.ws.send(obj if isinstance(obj, str) else json.dumps(obj))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        msg = json.loads(text)
        self.texts.append(text)
        self.seen.append(msg)
        if msg["type"] == "seated":
            self.seat, self.token = msg["seat"], msg["token"]
        return dict(msg)

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 10.0) -> dict[str, Any]:
        """Read messages until one satisfies ``pred``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no matching message in {timeout}s; last: {self.seen[-3:]}")
            msg = self.recv(timeout=left)
            if pred(msg):
                return msg

    def error(self, timeout: float = 10.0) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error", timeout)

    def table(self, timeout: float = 10.0) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "table", timeout)

    def sit(self, seat: int, name: str) -> None:
        self.send({"type": "sit", "seat": seat, "name": name})
        self.until(lambda m: m["type"] == "seated")

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def is_end(msg: dict[str, Any]) -> bool:
    return msg["type"] == "table" and msg["result"] is not None


def play_randomly(client: Client, seed: int, timeout: float = 60.0, prefer: str = "finish",
                  coach_wait: float = 0.0) -> dict[str, Any]:
    """Answer every table that offers this client moves with a random legal move (a move
    whose text starts with ``prefer`` when there is one), until the game ends; returns the
    final table.  ``coach_wait``: before each move, wait up to this long for the coach's
    advice on it (a client that moves at once never lets a busy coach answer)."""
    rng = np.random.default_rng(seed)
    deadline = time.monotonic() + timeout
    tables = [m for m in client.seen if m["type"] == "table"]
    pending = tables[-1:]  # a table already read may be waiting for this client's move
    while True:
        msg = pending.pop() if pending else client.recv(timeout=max(0.1, deadline - time.monotonic()))
        if msg["type"] != "table":
            continue
        if msg["result"] is not None:
            return msg
        if msg["moves"] and coach_wait > 0:
            until = time.monotonic() + coach_wait
            while not any(m["type"] == "coach" and m["step"] == msg["step"] for m in client.seen):
                if time.monotonic() > until:
                    break
                try:
                    later = client.recv(timeout=max(0.01, until - time.monotonic()))
                except TimeoutError:
                    break
                if later["type"] == "table":  # the table moved on (it should not, on our turn)
                    pending.append(later)
                    break
            if pending:
                continue
        if msg["moves"]:
            moves = [m for m in msg["moves"] if m["text"].startswith(prefer)] or msg["moves"]
            move = moves[int(rng.integers(len(moves)))]
            client.send({"type": "move", "id": move["id"], "step": msg["step"]})


def watch(client: Client, timeout: float = 60.0) -> dict[str, Any]:
    """Read until the game's end; returns the final table."""
    return client.until(is_end, timeout)


def run_threads(*fns: Callable[[], Any]) -> list[Any]:
    """Run functions in threads; return their results (re-raising the first failure)."""
    results: list[Any] = [None] * len(fns)
    errors: list[BaseException] = []

    def wrap(i: int, fn: Callable[[], Any]) -> None:
        try:
            results[i] = fn()
        except BaseException as err:  # noqa: BLE001
            errors.append(err)

    threads = [threading.Thread(target=wrap, args=(i, fn)) for i, fn in enumerate(fns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results
