"""Fair seats: once a game is dealt, a seat's hand reaches only the person who holds it.

A seated player (Ann) and a stranger (Eve) try every way into another seat's cards while a
Rummy game is played: a second socket sitting at a computer's seat, sitting there from Ann's
own socket, leaving her seat and sitting elsewhere (sit/leave cycling), ``hello`` with
tokens of another room, made-up tokens and the host token of another room, a host socket
sitting at a computer's seat, and the host handing an absent person's seat to a computer
and sitting there.  Every message each of those sockets received is recorded and checked
against the truth (the game's record replayed with the rules core): no table shows any
view but the public one or Ann's own, and no message names a card hidden from Ann.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from cardtable.catalog import game_info
from cardtable.types import Record

from .harness import HTTP, Client, LiveServer, create_room, play_randomly
from .test_games import _cards_named, _lists, _pile_runs, _truth

#: computers pause 30 ms: the game goes on while Ann is away in a sit/leave cycle, but
#: does not end in the few milliseconds the cycle takes (the ``srv`` fixture of conftest.py)
SERVER = {"bot_delay": 0.03}


def refused(c: Client, msg: dict[str, Any], *words: str) -> str:
    """Send ``msg`` and read the error it gets; it must contain one of ``words`` (a message
    over its rate is sent again a moment later: the attacker is patient)."""
    while True:
        c.send(msg)
        text = str(c.error()["message"])
        if "too many" not in text:
            break
        time.sleep(0.5)
    assert any(w in text for w in words), (msg, text)
    return text


def check_no_hidden_card(record: Record,
                         clients: list[tuple[int | None, list[str], list[dict[str, Any]]]]) -> int:
    """Every message to each client against the truth: a table shows the public view or
    the client's own seat's view (``own``), and nothing names a card hidden from ``own``.
    Returns how many messages were checked."""
    env = record["game"]
    truth = _truth(record)
    runs = [_pile_runs(t["piles"]) for t in truth]
    texts = [str(t) for t in game_info(env)["cards"]]
    checked = 0
    for own, texts, seen in clients:
        step = 0
        for text, msg in zip(texts, seen):
            if msg["type"] == "coach":
                assert own is not None, "a coach's advice reached a client that holds no seat"
            if msg["type"] in ("table", "coach"):
                step = msg["step"]
            t = truth[step]
            if msg["type"] == "table":
                seat = msg["view"]["seat"]
                if seat == -1:
                    assert msg["view"] == t["public"] and msg["moves"] == []
                else:
                    assert seat == own, f"a client of seat {own} was sent seat {seat}'s view at step {step}"
                    assert msg["view"] == t["views"][seat]
            forbidden: set[str] = set()
            for p, cards in enumerate(t["hidden"]):
                if p != own:
                    forbidden |= cards
            # a table to a client counts its own hand as its own only when it is its seat's view
            mine = own if msg["type"] != "table" or msg["view"]["seat"] == own else None
            leaked = _cards_named(env, msg, mine) & forbidden
            assert not leaked, f"{msg['type']} to a client of seat {own} at step {step} names {leaked}"
            for lst in _lists(msg):
                if len(lst) >= 4:
                    named = tuple(texts[x] if isinstance(x, int) and 0 <= x < len(texts) else str(x)
                                  for x in lst)
                    for i in range(len(named) - 3):
                        assert named[i:i + 4] not in runs[step], "the order of a face-down pile"
            for run in list(runs[step])[:50]:
                assert " ".join(run) not in text
            checked += 1
    return checked


def test_no_way_into_another_seat_shows_its_hand(srv: LiveServer) -> None:
    info = create_room(srv, "rummy432_v0", 4, level="random", rounds_to_win=1)
    room = info["room"]
    elsewhere = create_room(srv, "rummy432_v0", 2, level="random")
    foreign = Client(srv, elsewhere["room"], host_token=elsewhere["host_token"])
    foreign.sit(0, "Ann")  # Ann's token in another room
    ann = Client(srv, room, host_token=info["host_token"])
    bob = Client(srv, room)
    ann.sit(0, "Ann")
    bob.sit(1, "Bob")
    ann.send({"type": "start"})
    first = ann.until(lambda m: m["type"] == "table" and bool(m["moves"]))
    ann_phone = Client(srv, room, token=ann.token)  # Ann's second device: her own seat
    assert ann_phone.until(lambda m: m["type"] == "seated")["seat"] == 0
    # the host's spectator sockets and a stranger's, fresh ones every round (each socket has
    # its own message rates: the attacker opens more rather than wait)
    host_tabs: list[Client] = []
    strangers: list[Client] = []

    bob_done: list[dict[str, Any]] = []
    bob_thread = threading.Thread(target=lambda: bob_done.append(play_randomly(bob, 2, timeout=120)))

    def attack_round(cycle: bool) -> dict[str, Any] | None:
        """One round of attempts at Ann's turn; after a sit/leave cycle, Ann's new table."""
        host_tab = Client(srv, room, host_token=info["host_token"])
        eve = Client(srv, room)
        host_tabs.append(host_tab)
        strangers.append(eve)
        eve.table()
        if cycle:  # sit/leave cycling: Ann leaves, tries a computer's seat, takes hers back
            ann.send({"type": "leave"})
            ann.until(lambda m: m["type"] == "room" and m["you"] is None)
            refused(eve, {"type": "sit", "seat": 0, "name": "Eve"}, "kept for the person who left")
            refused(host_tab, {"type": "sit", "seat": 0, "name": "Ann"}, "kept for the person who left")
            refused(ann, {"type": "sit", "seat": 2 + len(strangers) % 2, "name": "Ann"},
                    "played by a computer")
            while True:  # her own token: back in her seat
                ann.send({"type": "sit", "seat": 0, "name": "Ann"})
                if ann.until(lambda m: m["type"] in ("seated", "error"))["type"] == "seated":
                    break
                time.sleep(0.5)  # over the rate: again in a moment
            ann.until(lambda m: m["type"] == "room" and m["you"] == 0)
            back = ann.table()  # sent after the room message: the table now
            # leaving left her phone a spectator too; its hello with her token seats it again
            ann_phone.send({"type": "hello", "token": ann.token, "host_token": None})
            ann_phone.until(lambda m: m["type"] == "seated")
            return back
        for seat in (2, 3):
            refused(eve, {"type": "sit", "seat": seat, "name": "Eve"}, "played by a computer")
            refused(host_tab, {"type": "sit", "seat": seat, "name": "Ann"}, "played by a computer")
            refused(ann, {"type": "sit", "seat": seat, "name": "Ann"}, "you already sit in seat 0")
            refused(ann_phone, {"type": "sit", "seat": seat, "name": "Ann"}, "you already sit in seat 0")
        refused(eve, {"type": "sit", "seat": 1, "name": "Eve"}, "taken by Bob")
        refused(eve, {"type": "sit", "seat": 0, "name": "Eve"}, "taken by Ann")
        refused(eve, {"type": "hello", "token": foreign.token, "host_token": None}, "no seat's credential")
        refused(eve, {"type": "hello", "token": "x" * 32, "host_token": elsewhere["host_token"]},
                "host link is not this room's")
        assert "no seat's credential" in eve.error()["message"]  # both credentials are refused
        refused(ann_phone, {"type": "hello", "token": foreign.token, "host_token": None},
                "no seat's credential")
        refused(eve, {"type": "move", "id": 0}, "sit first")
        refused(host_tab, {"type": "level", "seat": 1, "level": "greedy"}, "between games")
        return None

    attack_round(cycle=False)
    bob_thread.start()
    rounds = 0
    table = first
    while table["result"] is None:
        if table["moves"] and table["view"]["seat"] == 0:
            if rounds < 4:
                rounds += 1
                back = attack_round(cycle=rounds % 2 == 1)  # nothing moves on Ann's turn meanwhile
                if back is not None:
                    table = back
                continue
            ann.send({"type": "move", "id": table["moves"][0]["id"], "step": table["step"]})
        table = ann.table(timeout=60)
    bob_thread.join(timeout=60)
    assert rounds == 4 and bob_done

    # Bob closes his page: the host cannot hand his seat to a computer (only the room's away
    # time does); Bob leaves it; nobody else may take it (the game has ended here, so this
    # runs against a fresh game: a rematch)
    ann.send({"type": "rematch"})
    ann.until(lambda m: m["type"] == "table" and m["game_index"] == 1)
    host_tab, eve = host_tabs[-1], strangers[-1]
    bob_again = Client(srv, room, token=bob.token)
    bob_again.until(lambda m: m["type"] == "seated")
    bob.close()
    refused(host_tab, {"type": "level", "seat": 1, "level": "random"}, "between games")
    bob_again.send({"type": "leave"})
    host_tab.until(lambda m: m["type"] == "room" and m["seats"][1]["kind"] == "computer")
    refused(eve, {"type": "sit", "seat": 1, "name": "Eve"}, "kept for the person who left")
    refused(host_tab, {"type": "sit", "seat": 1, "name": "Ann"}, "kept for the person who left")

    record = HTTP.get(srv.url + f"/api/rooms/{room}/games/0").json()
    # the first game's messages only: the truth is that game's record
    clients: list[tuple[int | None, list[str], list[dict[str, Any]]]] = []
    for own, c in [(0, ann), (0, ann_phone)] + [(None, c) for c in host_tabs + strangers]:
        cut = next((i for i, m in enumerate(c.seen) if m.get("game_index") == 1), len(c.seen))
        clients.append((own, c.texts[:cut], c.seen[:cut]))
    checked = check_no_hidden_card(record, clients)
    # the check really ran over the game: at least a message per move, and Ann's own
    # stream reaches the game's last step (a short game is fine; a vacuous check is not)
    steps = len(record["moves"])
    assert checked >= steps > 0, (checked, steps)
    assert any(m["type"] == "table" and m["step"] == steps for m in clients[0][2])


def test_seats_are_taken_before_the_deal_and_between_games(srv: LiveServer) -> None:
    info = create_room(srv, "line_v0", 2, level="random")
    ann = Client(srv, info["room"], host_token=info["host_token"])
    ann.sit(0, "Ann")
    eve = Client(srv, info["room"])
    ann.send({"type": "start"})
    eve.table()
    refused(eve, {"type": "sit", "seat": 1, "name": "Eve"}, "played by a computer")
    # a connection holds one seat at a time, also between games
    ann.send({"type": "leave"})  # Ann's seat is a computer: the game plays itself to its end
    eve.until(lambda m: m["type"] == "room" and m["status"] == "finished", timeout=60)
    eve.sit(1, "Eve")  # free again once the game is over
    refused(eve, {"type": "sit", "seat": 0, "name": "Eve"}, "you already sit in seat 1")
    ann.send({"type": "sit", "seat": 0, "name": "Ann"})  # her token: back for the rematch
    ann.until(lambda m: m["type"] == "seated")
    ann.send({"type": "rematch"})
    table = eve.until(lambda m: m["type"] == "table" and m["game_index"] == 1)
    assert table["view"]["seat"] == 1 and table["view"]["hand"]
