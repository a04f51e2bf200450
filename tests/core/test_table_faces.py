"""Every kit's table face and the rules' public view, over random games of every game.

* ``public_view``: a spectator sees exactly what every seat sees (a field that differs
  between seats is emptied), never a seat's private cards;
* every legal move has the mover's and a third person's words, and names only card ids
  of the game's card texts; every prompt and board is JSON-ready;
* a judged Rummy round comes with its hands' groups and every deciding comparison in words.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.core.words import pretty_card, pretty_text

GAMES = list(cardenvs.GAMES)


def _states(name: str, players: int, seed: int, every: int = 5) -> list[tuple[Any, Any]]:
    """``(game, state)`` every few moves of a random game."""
    game = cardenvs.game_class(name)(players)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    out = []
    step = 0
    while not game.is_terminal(state) and not game.is_truncated(state) and step < 400:
        if step % every == 0:
            out.append((game, game.clone(state)))
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))], rng)
        step += 1
    return out


def _empty(value: Any) -> bool:
    return value in ((), [], None, -1)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [2, 3])
def test_a_spectator_sees_what_every_seat_sees_and_nothing_private(name: str, players: int) -> None:
    for game, state in _states(name, players, seed=players):
        public = game.public_view(state)
        seats = [game.view(state, p) for p in range(players)]
        assert public.seat == -1
        for f in dataclasses.fields(public):
            if f.name == "seat":
                continue
            values = [getattr(v, f.name) for v in seats]
            shown = getattr(public, f.name)
            if all(v == values[0] for v in values):
                assert shown == values[0], f.name
            else:  # a seat's own field: emptied for the spectator
                assert _empty(shown), (f.name, shown)


@pytest.mark.parametrize("name", GAMES)
def test_every_move_prompt_and_board_is_worded_by_the_face(name: str) -> None:
    kit = cardenvs.entry(name)
    face = kit.table_face()
    for game, state in _states(name, 2, seed=11, every=3):
        texts = face.card_texts(game)
        seat = game.current_player(state)
        view = game.view(state, seat)
        legal = game.legal_actions(state)
        assert face.prompt(game, view, legal)
        for a in legal:
            words = face.describe(game, a, view)
            assert words.label and words.others and words.label != words.others
            assert all(0 <= c < len(texts) and texts[c] is not None for c in words.cards)
            assert all(isinstance(s, str) and s for s in words.spots)
        for v in (view, game.public_view(state)):
            json.dumps(face.board(game, v))
            json.dumps(face.scores(game, v, None))


def test_rummy_round_results_say_how_the_round_ended_and_why() -> None:
    kit = cardenvs.entry("rummy432_v0")
    face = kit.table_face()
    game = kit.game_class(2, rounds_to_win=2)
    rng = np.random.default_rng(4)
    state = game.new_state(rng)
    judged = []
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))], rng)
        result = face.round_result(game, state)
        if result is not None:
            judged.append(result)
    assert judged
    for r in judged:
        json.dumps(r)
        assert r["ended"] and r["why"] == " ".join(r["reasons"])
        beaten = [i for i in range(2) if i not in r["winners"]]
        assert all(any(f"beat player_{i}" in x for x in r["reasons"]) for i in beaten), r["reasons"]
        for h in r["hands"]:
            assert sorted(c for g in h["groups"] for c in g["cards"]) == sorted(h["card_ids"])
        text = face.round_text(r, ["Ann", "Bob"])
        assert f"round {r['round']} over" in text
        assert all(x.replace("player_0", "Ann").replace("player_1", "Bob") in text for x in r["reasons"])


def test_card_words() -> None:
    assert [pretty_card(c) for c in (0, 27, 39, 52)] == ["A\u2663", "7\u2660", "10\u2660", "joker"]
    assert pretty_text("throw Th: keeps 7h and 7c") == "throw 10\u2665: keeps 7\u2665 and 7\u2663"
    assert pretty_text("play 12 onto the line") == "play 12 onto the line"
