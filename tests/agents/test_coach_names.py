"""The coach names only what is there (issue 37): over whole games of every game, with the
coach advising every decision of every seat, each card a reason names is a card of the
position, where the reason says it is (the advised player's hand, the grid, the discard,
the market, the player's line); a rank spoken of as a rank is a word ("a pair of fives",
never "5s", which a table prints as the card 5♠); seats are named by the players' names
when the coach is given them, else by the seat number people see (1 .. n, never
``player_0``); and a count agrees with its noun ("1 point", never "1 points").
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np
import pytest

import cardenvs
from agents.players.coach import Coach
from cardenvs.core.cards import JOKER, RANKS, SUIT_SYMBOLS
from cardenvs.core.words import pretty_card
from cardenvs.lineit.state import B3, NUM_NUMBERS

GAMES_PER_ENV = 30
NAMES = ("Ann", "Bob", "Cyd", "Dee")
RANK_WORDS = ("aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
              "jacks", "queens", "kings")

#: a standard card as a table prints it (``5♠``, ``10♥``, ``J♦``)
_PRETTY = re.compile(r"(?<![\w♣♦♥♠])(10|[A2-9JQK])([♣♦♥♠])")
#: a rank in figures with a plural s ("5s", "10s"): a table prints "5s" as the card 5♠
_DIGIT_PLURAL = re.compile(r"(?<![\w.])(?:10|[2-9])s\b")
#: a seat by number
_SEAT = re.compile(r"player[ _]?(\d+)")
#: a count of one with a plural noun ("1 points", "1 number cards")
_ONE_PLURAL = re.compile(r"(?<![\w.+\-])1 (?:[a-z]+ )?(?:cards|points|values)\b")
#: Line-it: numbers a reason names as cards (after these words), and Bets
_LINEIT_CARD = re.compile(r"\b(?:pick|play|keeps|line at|from|end|beyond|after) (\d+)\b")
_LINEIT_LIST = re.compile(r"hand cards? ([\dB, ]+?) for")
_BET = re.compile(r"\bB(\d)\b")


def _card(rank: str, suit: str) -> int:
    return RANKS.index("T" if rank == "10" else rank) * 4 + SUIT_SYMBOLS.index(suit)


def _pretty_cards(text: str) -> list[tuple[int, str]]:
    """Every standard card a printed reason names, with the words just before it."""
    return [(_card(m.group(1), m.group(2)), text[max(0, m.start() - 12):m.start()])
            for m in _PRETTY.finditer(text)]


def _seat_label(seat: int, names: tuple[str, ...] | None) -> str:
    return names[seat] if names else f"player {seat + 1}"


def _check_line(view: Any, printed: str) -> list[str]:
    hand = set(view.hand) | ({view.pending} if view.pending is not None else set())
    grid = {c for row in view.rows for c in row}
    top = {view.discard[-1]} if view.discard else set()
    bad = []
    for card, before in _pretty_cards(printed):
        if before.endswith(("takes ", "take ")):
            where = top
        elif before.endswith("drawn "):
            where = {view.pending}
        elif before.endswith(("discard ", "play ", "upgrade ", "shift ")):
            where = hand
        else:
            where = hand | grid | top
        if card not in where:
            bad.append(f"names {pretty_card(card)}, which is not there (after {before!r})")
    if ("joker" in printed or re.search(r"\bX\b", printed)) and JOKER not in hand | grid | top:
        bad.append("names a joker, and there is none in hand, on the grid or on the discard")
    return bad


def _check_rummy(view: Any, printed: str, names: tuple[str, ...] | None) -> list[str]:
    hand = set(view.hand)
    top = {view.discard_top} if view.discard_top >= 0 else set()
    bad = []
    for card, before in _pretty_cards(printed):
        if before.endswith(("face-up ", "take ", "taking ")):
            where = top
        elif before.endswith(("throw ", "throwing ", "finish ")):
            where = hand
        else:
            where = hand | top
        if card not in where:
            bad.append(f"names {pretty_card(card)}, which is not there (after {before!r})")
    m = re.search(r"careful, (.+?) took (\w+)", printed)
    if m:
        seats = [s for s in range(view.num_players) if _seat_label(s, names) == m.group(1)]
        rank = RANK_WORDS.index(m.group(2)) if m.group(2) in RANK_WORDS else -1
        if not seats or rank < 0 or not any(c >> 2 == rank for c in view.known[seats[0]]):
            bad.append(f"'{m.group(0)}': no such seat took that rank")
    return bad


def _check_lineit(view: Any, reason: str) -> list[str]:
    me = view.seat
    there = set(view.market) | set(view.hands[me]) | set(view.lines[me])
    bad = []
    named = [int(x) for x in _LINEIT_CARD.findall(reason)]
    for m in _LINEIT_LIST.finditer(reason):
        named += [int(x) for x in m.group(1).split(", ") if x.isdigit()]  # Bets: below
    for x in named:
        if not 1 <= x <= NUM_NUMBERS or x not in there:
            bad.append(f"names the number card {x}, which is not in the market, the hand or the line")
    for v in _BET.findall(reason):
        if int(v) + B3 - 3 not in there:
            bad.append(f"names the Bet B{v}, which is not in the market, the hand or the line")
    return bad


def _check(env: str, face: Any, view: Any, reason: str, names: tuple[str, ...] | None) -> list[str]:
    printed = face.words(reason)
    bad = []
    for text in {reason, printed}:
        for m in _SEAT.finditer(text):
            if names or "_" in m.group(0) or not 1 <= int(m.group(1)) <= view.num_players:
                bad.append(f"seat named as {m.group(0)!r}")
        bad += [f"count and noun disagree: {m.group(0)!r}" for m in _ONE_PLURAL.finditer(text)]
    bad += [f"a rank in figures: {m.group(0)!r}" for m in _DIGIT_PLURAL.finditer(printed)]
    if env == "line_v0":
        bad += _check_line(view, printed)
    elif env == "rummy432_v0":
        bad += _check_rummy(view, printed, names)
    else:
        bad += _check_lineit(view, reason)
    return bad


def _games(env: str) -> tuple[list[str], Counter[str]]:
    """Play ``GAMES_PER_ENV`` seeded games (2 to 4 players, names given in every other one),
    the coach advising every legal move of every decision; the faults found, and how many
    reasons were read and how many of them named a card or a seat."""
    kit = cardenvs.registry.entry(env)
    face = kit.table_face()
    faults: list[str] = []
    seen: Counter[str] = Counter()
    for g in range(GAMES_PER_ENV):
        n = 2 + g % 3
        names = NAMES[:n] if g % 2 else None
        game = kit.game_class(n)
        rng = np.random.default_rng(1000 + g)
        coaches = [Coach(env, seed=g, names=names) for _ in range(n)]
        state = game.new_state(rng)
        for _ in range(3000):
            if game.is_terminal(state):
                break
            p = game.current_player(state)
            view = game.view(state, p)
            legal = game.legal_actions(state)
            advice = coaches[p].advise_view(game, view, legal)
            for a in advice:
                faults += [f"{env} game {g} ({n} players), {a.reason!r}: {why}"
                           for why in _check(env, face, view, a.reason, names)]
                printed = face.words(a.reason)
                seen["reasons"] += 1
                seen["cards"] += bool(_PRETTY.search(printed) or _LINEIT_CARD.search(a.reason))
                seen["seats"] += bool(_SEAT.search(printed) or any(x in printed for x in NAMES))
            coaches[p].observe(game, view)
            # mostly the coach's move, sometimes another, to reach more kinds of positions
            action = advice[0].action if rng.random() < 0.7 else legal[int(rng.integers(len(legal)))]
            game.apply(state, action, rng)
    return faults, seen


@pytest.mark.parametrize("env", ["line_v0", "lineit_v0", "rummy432_v0"])
def test_the_coach_names_only_what_is_there(env: str) -> None:
    faults, seen = _games(env)
    assert seen["reasons"] > 5000 and seen["cards"] > 1000, seen  # the check has something to check
    if env != "line_v0":  # Line's reasons name no seat
        assert seen["seats"] > 20, seen
    assert not faults, f"{len(faults)} faults, e.g.:\n" + "\n".join(list(dict.fromkeys(faults))[:12])
