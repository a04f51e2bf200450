"""Hostile input: deep nesting gets an error like any malformed message (no traceback, the
socket stays open); names are cleaned (NFC, no bidi or zero-width characters), bounded by
display width, never empty and unique in a room."""

from __future__ import annotations

import json
import logging
import unicodedata

import pytest

from cardtable.names import MAX_WIDTH, NameError_, clean_name, display_width, unique_name

from .harness import HTTP, Client, LiveServer, create_room


def test_deep_nesting_is_an_error_not_a_traceback(srv: LiveServer, caplog: pytest.LogCaptureFixture) -> None:
    info = create_room(srv, "line_v0", 2)
    c = Client(srv, info["room"])
    c.until(lambda m: m["type"] == "room")
    caplog.set_level(logging.DEBUG)
    deep = "[" * 2000 + "]" * 2000  # 4,000 bytes nested 2,000 levels: past the parser's recursion limit
    assert len(deep) <= 4096
    for text in (deep, '{"type": "sit", "seat": ' + deep + "}", "[" * 900 + "]" * 900,
                 json.dumps({"type": "move", "id": 1, "step": [[[[[1]]]]]})):
        c.send(text)
        assert "nested too deeply" in c.error()["message"]
    # the socket is still open and answers
    c.send({"type": "sit", "seat": 0, "name": "Ann"})
    assert c.until(lambda m: m["type"] == "seated")["seat"] == 0
    noisy = [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert not noisy, [r.getMessage() for r in noisy]
    r = HTTP.post(srv.url + "/api/rooms", content=('{"game": ' + "[" * 1500 + "]" * 1500 + "}").encode(),
                  headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "nested too deeply" in r.json()["error"]
    r = HTTP.post(srv.url + "/api/rooms", json={"game": "line_v0", "options": {"x": [[[[1]]]]}})
    assert r.status_code == 400 and "nested too deeply" in r.json()["error"]


RLO, LRI, PDI, ZWSP, ZWJ, BOM = "\u202e", "\u2066", "\u2069", "\u200b", "\u200d", "\ufeff"


@pytest.mark.parametrize("raw, clean", [
    ("  Ann   Lee ", "Ann Lee"),
    (f"{RLO}nnA", "nnA"),  # a right-to-left override would reverse the log line around it
    (f"A{ZWSP}n{ZWJ}n{BOM}", "Ann"),
    (f"{LRI}Bob{PDI}", "Bob"),
    ("Ann\tLee\nX", "Ann Lee X"),
    ("Zoe\u0301", "Zoé"),  # NFC: one code point for é
    ("a" + "\u0301" * 40, "a\u0301\u0301\u0301"),  # at most three combining marks on a character
    ("Việt", "Việt"),
    ("漢" * 12, "漢" * 12),  # 24 columns
    ("🂡 ace", "🂡 ace"),
])
def test_names_are_cleaned(raw: str, clean: str) -> None:
    got = clean_name(raw)
    assert got == unicodedata.normalize("NFC", clean)
    assert not any(unicodedata.category(ch) in ("Cf", "Cc") for ch in got)


@pytest.mark.parametrize("raw, words", [
    ("", "at least one letter"),
    ("   ", "at least one letter"),
    (ZWSP * 5, "at least one letter"),
    (RLO + LRI + PDI, "at least one letter"),
    ("\u0301\u0301", "at least one letter"),
    ("漢" * 13, "at most 24 columns"),  # 13 wide characters are 26 columns
    ("x" * 25, "at most 24 columns"),
])
def test_unusable_names_are_refused(raw: str, words: str) -> None:
    with pytest.raises(NameError_, match=words):
        clean_name(raw)


def test_names_are_unique_and_stay_within_the_width() -> None:
    assert unique_name("Ann", ["Bob", "Rosie"]) == "Ann"
    assert unique_name("ann", ["Ann", "Bob"]) == "ann 2"
    assert unique_name("Ann", ["Ann", "ann 2", "Bob"]) == "Ann 3"
    assert unique_name("ＡＮＮ", ["ann"]) == "ＡＮＮ 2"  # fullwidth letters are the same name
    wide = "漢" * 12
    got = unique_name(wide, [wide])
    assert got != wide and got.endswith(" 2") and display_width(got) <= MAX_WIDTH


def test_names_at_the_table(srv: LiveServer) -> None:
    info = create_room(srv, "rummy432_v0", 4)
    ann = Client(srv, info["room"], host_token=info["host_token"])
    bob = Client(srv, info["room"])
    eve = Client(srv, info["room"])
    ann.sit(0, f"{RLO}Ann{ZWSP}")
    bob.sit(1, "ANN")
    room = bob.until(lambda m: m["type"] == "room" and m["you"] == 1)
    assert [s["name"] for s in room["seats"][:2]] == ["Ann", "ANN 2"]
    eve.sit(3, "mags")  # the computer at seat 2 is Mags
    room = eve.until(lambda m: m["type"] == "room" and m["you"] == 3)
    assert [s["name"] for s in room["seats"]] == ["Ann", "ANN 2", "Mags", "mags 2"]
    for bad, words in ((ZWSP * 3, "at least one letter"), ("漢" * 13, "at most 24 columns")):
        c = Client(srv, info["room"])
        c.send({"type": "sit", "seat": 2, "name": bad})
        assert words in c.error()["message"]
