"""Move notation: exact inverse over all ids, tolerant input, clear errors."""

from __future__ import annotations

import numpy as np
import pytest

from cardenvs.core.game import IllegalActionError, NotationError
from cardenvs.line import LineGame
from cardenvs.line.rules import NUM_ACTIONS, SHIFT_PAIRS

from .positions import load, position

G = LineGame()


def test_round_trip_every_id() -> None:
    texts = [G.action_to_str(a) for a in range(NUM_ACTIONS)]
    assert len(set(texts)) == NUM_ACTIONS
    for a, t in enumerate(texts):
        assert G.str_to_action(t) == a
    assert G.num_actions == 4014 and len(SHIFT_PAIRS) == 728


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("play 7s r2", "play 7s r2"),
        ("PLAY 10s R2", "play Ts r2"),
        ("  play   x  r1 ", "play X r1"),
        ("upgrade 5s r1 joker r3", "upgrade 5s r1 joker r3"),
        ("Upgrade 5S r1 Joker Hand", "upgrade 5s r1 joker hand"),
        ("shift 9s r2 out 5s", "shift 9s r2 out 5s"),
        ("shift X r2 out 5s", "shift X r2 out 5s"),
        ("shift 9s r2 out X", "shift 9s r2 out X"),
        ("take r4", "take r4"),
        ("DRAW", "draw"),
        ("discard Kd", "discard Kd"),
        ("discard 10D", "discard Td"),
    ],
)
def test_accepted_forms(text: str, canonical: str) -> None:
    assert G.action_to_str(G.str_to_action(text)) == canonical


@pytest.mark.parametrize(
    "text",
    ["", "play", "play 7s", "play 7s r5", "play 7s r0", "play 1s r1", "play 7z r1",
     "upgrade X r1 joker r2", "upgrade 5s r1 joker r1", "upgrade 5s r1 joker",
     "shift 9s r2 out 9s", "shift 9s r2 out 5h", "shift X r1 out X", "take", "take r9",
     "draw 2", "discard", "pass", "play 7s r2 now"],
)
def test_malformed(text: str) -> None:
    with pytest.raises(NotationError) as e:
        G.str_to_action(text)
    assert str(e.value)


def test_unreadable_message_lists_forms() -> None:
    with pytest.raises(NotationError, match="play 7s r2.*take r4.*draw.*discard Kd"):
        G.str_to_action("pass")
    with pytest.raises(NotationError):
        G.str_to_action(7)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        G.action_to_str(NUM_ACTIONS)


def test_illegal_action_changes_nothing() -> None:
    g, s = load(position(rows=[["5s", "6s"], [], [], []], hands=[["7s", "Kd"], ["Ah"]]))
    before = g.to_json(s)
    with pytest.raises(IllegalActionError, match=r"play 7h r1"):
        g.apply(s, g.str_to_action("play 7h r1"))
    with pytest.raises(ValueError, match="draw"):
        g.apply(s, g.str_to_action("draw"))
    with pytest.raises(IllegalActionError, match="out of range"):
        g.apply(s, NUM_ACTIONS)
    with pytest.raises(IllegalActionError):
        g.apply(s, -1)
    with pytest.raises(IllegalActionError):
        g.apply(s, "play 7s r1")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        g.apply(s, True)  # a bool is no action id (though Python calls it an int)
    assert g.to_json(s) == before
    g.apply(s, np.int64(g.str_to_action("play 7s r1")))
    assert sorted(g.to_json(s)["rows"][0]) == ["5s", "6s", "7s"]
    g.apply(s, np.int32(g.str_to_action("play Ah r2")))
    assert g.to_json(s)["current"] == 0


def test_no_action_after_the_end() -> None:
    rows = [["4c", "4d", "4h", "4s"], ["5c", "5d", "5h", "5s"], ["9h", "Th", "Jh", "Qh"],
            ["Jd", "Qd", "Kd", "X"]]
    g, s = load(position(rows=rows, hands=[["Kc"], ["Ks"]], phase="over"))
    with pytest.raises(IllegalActionError, match="over"):
        g.apply(s, g.str_to_action("draw"))
