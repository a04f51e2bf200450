"""Nobody can flood a room: every message type has a rate per connection; the excess gets an
error, and a connection that keeps flooding is closed, alone; coach switches cost no write;
a flood neither disconnects another client nor slows another room."""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from cardtable.limits import RATES, STRIKES

from .harness import Client, LiveServer, create_room


def _refused_for(kind: str) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is the rate error a message of type ``kind`` gets."""
    return lambda m: m["type"] == "error" and m["for"] == kind and "too many" in m["message"]


def _coach_is(on: bool) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is a room message with seat 0's coach switched ``on``."""
    return lambda m: m["type"] == "room" and m["seats"][0]["coach"] is on


def _table_after(step: int) -> Callable[[dict[str, Any]], bool]:
    """Whether a message is the table after move ``step``."""
    return lambda m: m["type"] == "table" and m["step"] == step + 1


def count_saves(srv: LiveServer) -> list[str]:
    """Record the room id of every write to the file from now on."""
    store = srv.core.store
    saved: list[str] = []
    original = store.save_room

    def counting(room_id: str, *args: Any, **kw: Any) -> Any:
        saved.append(room_id)
        return original(room_id, *args, **kw)

    store.save_room = counting
    return saved


def closed_code(c: Client, timeout: float = 10.0) -> int:
    """Read until the server closes the connection; its close code."""
    deadline = time.monotonic() + timeout
    with pytest.raises(ConnectionClosed) as exc:  # noqa: PT012 - read until it closes
        while time.monotonic() < deadline:
            c.recv(timeout=max(0.1, deadline - time.monotonic()))
    assert exc.value.rcvd is not None
    return int(exc.value.rcvd.code)


def test_each_message_type_has_a_rate(srv: LiveServer) -> None:
    info = create_room(srv, "line_v0", 2, level="random")
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Ann")
    for kind, msg in (("level", {"type": "level", "seat": 1, "level": "greedy"}),
                      ("coach", {"type": "coach", "on": True}),
                      ("hello", {"type": "hello", "token": ann.token, "host_token": None}),
                      ("rematch", {"type": "rematch"}),
                      ("sit", {"type": "sit", "seat": 0, "name": "Ann"}),
                      ("move", {"type": "move", "id": 0})):
        c = Client(srv, info["room"], token=ann.token, host_token=info["host_token"])  # buckets of its own
        c.until(lambda m: m["type"] == "room")
        for _ in range(RATES[kind].burst + 3):
            c.send(msg)
        c.until(_refused_for(kind))
    # out of strikes: past its rate a connection is answered with errors, then closed
    spam = Client(srv, info["room"])
    spam.until(lambda m: m["type"] == "room")
    for _ in range(STRIKES.burst + 10):
        spam.send({"type": "sit", "seat": 1, "name": "Spam"})
        spam.send({"type": "leave"})
    assert closed_code(spam) == 1008
    errors = [m for m in spam.seen if m["type"] == "error"]
    assert any("too many 'sit' messages" in m["message"] for m in errors)
    assert len(errors) <= STRIKES.burst + 5
    # Ann was not touched
    ann.send({"type": "hello", "token": ann.token, "host_token": None})
    ann.until(lambda m: m["type"] == "room" and m["you"] == 0)


def test_coach_switches_write_nothing(srv: LiveServer) -> None:
    info = create_room(srv, "lineit_v0", 2, level="random")
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Ann")
    saved = count_saves(srv)
    for on in (True, False, True):
        ann.send({"type": "coach", "on": on})
        ann.until(_coach_is(on))
    assert info["room"] not in saved
    ann.send({"type": "start"})  # the switch is saved with the room's next change
    ann.table()
    assert saved.count(info["room"]) == 1
    assert srv.core.store.db.execute("SELECT data FROM rooms WHERE id = ?", (info["room"],)).fetchone()[0] \
        .count('"coach":true') == 1


def test_a_flood_closes_the_flooder_alone_and_slows_no_other_room(srv: LiveServer) -> None:
    # room A: Ann (the host) and Mal, who floods it
    a = create_room(srv, "rummy432_v0", 2, level="random", rounds_to_win=5)
    ann = Client(srv, a["room"], host_token=a["host_token"])
    mal = Client(srv, a["room"])
    ann.sit(0, "Ann")
    mal.sit(1, "Mal")
    ann.send({"type": "start"})
    ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
    # room B: Bob plays against a computer
    b = create_room(srv, "rummy432_v0", 2, level="random", rounds_to_win=5)
    bob = Client(srv, b["room"], host_token=b["host_token"])
    bob.sit(0, "Bob")
    bob.send({"type": "start"})
    t = bob.until(lambda m: m["type"] == "table" and bool(m["moves"]))
    saved = count_saves(srv)
    ann_before = len(ann.seen)
    sent = [0]

    def flood() -> None:  # ~6,000 coach switches in a burst (which closed the host's page), then junk
        texts = [json.dumps({"type": "coach", "on": i % 2 == 0}) for i in range(6000)] + ["x" * 200] * 2000
        try:
            for i, text in enumerate(texts):
                if i % 100 == 99:  # a breath now and then, to notice the server's close (a client
                    time.sleep(0.002)  # blocked in a send cannot answer it: TCP stalls for ~10 s)
                    if mal.ws.protocol.state is not State.OPEN:
                        break
                mal.ws.send(text)
                sent[0] += 1
        except ConnectionClosed:
            pass

    flooder = threading.Thread(target=flood)
    flooder.start()
    times: list[float] = []
    began = time.perf_counter()
    while (len(times) < 10 or time.perf_counter() - began < 1.0) and t["result"] is None:
        sent_at = time.perf_counter()
        bob.send({"type": "move", "id": t["moves"][0]["id"], "step": t["step"]})
        t = bob.until(_table_after(int(t["step"])))
        times.append(time.perf_counter() - sent_at)
        if not t["moves"] and t["result"] is None:
            t = bob.until(lambda m: m["type"] == "table" and (bool(m["moves"]) or m["result"] is not None))
    flooder.join(timeout=60)
    assert closed_code(mal) == 1008
    assert sent[0] > 100
    # the other client of the flooded room is still there, was sent a few room messages
    # (coach switches within the rate), and its room answers
    ann.send({"type": "hello", "token": ann.token, "host_token": None})
    ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
    during = [m for m in ann.seen[ann_before:] if m["type"] == "room"]
    assert 0 < len(during) <= RATES["coach"].burst + 10
    assert not [m for m in ann.seen[ann_before:] if m["type"] == "error"]
    assert a["room"] not in saved  # no coach switch was written
    # room B was not slowed: its person's moves were answered at once meanwhile
    assert len(times) >= 5
    assert statistics.median(times) < 0.05 and sorted(times)[-2] < 0.5, times
