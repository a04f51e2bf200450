"""The table faces' plain words: why a round or a game was won (every deciding comparison,
with both sides' numbers and the players' names), option values in words, cards and seats
as a screen reader says them, the coach's order without its raw values, and every hand at
a finished game's end."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardenvs
from cardenvs.core.cards import card_str, parse_card
from cardenvs.core.words import names_and, plural, spoken_card, value_words
from cardenvs.rummy432.rules import Rummy432Game
from cardenvs.rummy432.words import judgement, round_reasons
from cardtable import catalog
from cardtable.workers import advice_ranks

NAMES = ["Ann", "Bob", "Cy"]


def judged(*hands: str) -> dict[str, Any]:
    """A Rummy round judged by the rules (mixed pack), as the table face receives it."""
    game = Rummy432Game(len(hands), pack="mixed")
    ids = [[parse_card(c) for c in h.split()] for h in hands]
    winners, evals = game.judge(ids)
    return {"winners": winners, "hands": [
        {"cards": [card_str(c) for c in h], "shape": list(e.shape), "complete": e.complete, "value": e.value,
         "grouped_value": e.grouped_value, "loose_value": e.loose_value,
         "loose": judgement("mixed", h)["loose"]}
        for h, e in zip(ids, evals)]}


@pytest.mark.parametrize(("hands", "reasons"), [
    (("Kc Kd Kh Qc Qd Qh Jc Jd", "2c 2d 2h 3c 3d 3h 4c 4d"),
     ["Ann beat Bob on card value, 80 to 23, with the same groups 3+3+2."]),
    (("2c 2d 2h 2s 3c 3d 3h 3s", "Kc Kd Kh Qc Qd Qh Jc Jd"),
     ["Ann beat Bob on group sizes, 4+4 to 3+3+2: a group of 4 beats a group of 3 at the first difference."]),
    (("2c 2d 2h 2s 3c 3d 3h 3s", "Kc Kd Kh Qc Qd Qh Jc 9d"),
     ["Ann beat Bob: a complete hand beats an incomplete one (Bob had 2 loose cards)."]),
    (("Kc Kd 5h 7c 9d Jh Qc 2d", "Kc Kd 5h 7c 9d Jh 4c 2d"),
     ["Bob beat Ann on value, -17 to -23: nobody was complete, so grouped cards count for and loose cards "
      "against (20 - 37 against 20 - 43)."]),
    (("Kc Kd Kh Qc Qd Qh Jc Jd", "Ks Kd Kh Qs Qd Qh Js Jh"),
     ["Ann and Bob share the round: complete hands with the same groups 3+3+2 and the same card value, 80."]),
    (("2c 2d 2h 3c 3d 3h 4c 4d", "Kc Kd Kh Qc Qd Qh Jc Jd", "5c 5d 6c 6d 7c 7d 8c 8d"),
     ["Bob beat Ann on card value, 80 to 23, with the same groups 3+3+2.",
      "Bob beat Cy on group sizes, 3+3+2 to 2+2+2+2: a group of 3 beats a group of 2 at the first "
      "difference."]),
])
def test_rummy_round_why_names_every_deciding_comparison(hands: tuple[str, ...], reasons: list[str]) -> None:
    result = judged(*hands)
    assert round_reasons(result, NAMES[:len(hands)]) == reasons
    # without names, the seats are named as the environments name them
    assert round_reasons(result)[0].startswith(("player_0 ", "player_1 ", "player_0 and player_1 "))


def _finished(name: str, players: int, seed: int) -> tuple[Any, Any]:
    game = catalog.make_game(name, players, ())
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    while not game.is_terminal(state) and not game.is_truncated(state):
        legal = game.legal_actions(state)
        game.apply(state, legal[int(rng.integers(len(legal)))], rng)
    return game, state


@pytest.mark.parametrize("seed", range(4))
def test_line_game_over_names_every_comparison_and_shows_every_hand(seed: int) -> None:
    game, state = _finished("line_v0", 3, seed)
    assert game.is_terminal(state)
    result = catalog.game_result("line_v0", game, state, NAMES)
    assert result is not None
    totals = [game.hand_total(state, p) for p in range(3)]
    winners = result["winners"]
    why = result["why"]
    assert why[0] in ("The grid is full, so the game ended.",
                      "The player to move could neither take nor draw, so the game ended.")
    w = names_and([NAMES[i] for i in winners])
    for p in range(3):
        if p in winners:
            continue
        said = [s for s in why if f"beat {NAMES[p]} " in s]
        assert len(said) == 1, why
        if totals[p] != totals[winners[0]]:
            assert said[0] == (f"{w} beat {NAMES[p]} on hand total, {totals[winners[0]]} to {totals[p]} "
                               "(the lowest wins).")
    # every seat's hand, as each seat held it at the end
    hands = result["hands"]
    assert hands is not None and [sorted(h) for h in hands] == [sorted(h) for h in state.hands]


def test_line_ties_are_broken_by_cards_held_then_shared() -> None:
    game, state = _finished("line_v0", 2, 0)
    value = game.card_values
    five = [c for c in range(52) if value[c] == 5]
    two, three = ([c for c in range(52) if value[c] == v][0] for v in (2, 3))
    state.hands = [[five[0]], [two, three]]
    assert game.winners(state) == [0]
    why = catalog.game_result("line_v0", game, state, NAMES)["why"]  # type: ignore[index]
    assert why[-1] == ("Ann beat Bob on cards held, 1 to 2, with the same hand total, 5 (fewer cards win a "
                       "tie).")
    state.hands = [[five[0]], [five[1]]]
    why = catalog.game_result("line_v0", game, state, NAMES)["why"]  # type: ignore[index]
    assert why[-1] == "Ann and Bob share the win: the same hand total, 5, and the same number of cards, 1."


@pytest.mark.parametrize("seed", range(3))
def test_lineit_game_over_gives_every_score_and_comparison(seed: int) -> None:
    game, state = _finished("lineit_v0", 3, seed)
    result = catalog.game_result("lineit_v0", game, state, NAMES)
    assert result is not None
    scores = [int(i["score"]) for i in game.infos(state)]
    top = max(scores)
    why = result["why"]
    for p in range(3):
        assert f"{NAMES[p]} " in why[0] and f"= {scores[p]}" in why[0]
        if scores[p] < top:
            assert f"beat {NAMES[p]} on score, {top} to {scores[p]} (the highest wins)." in " ".join(why)
    hands = result["hands"]
    assert hands is not None and len(hands) == 3


def test_rummy_game_over_says_who_reached_the_rounds_needed() -> None:
    game, state = _finished("rummy432_v0", 3, 1)
    result = catalog.game_result("rummy432_v0", game, state, NAMES)
    assert result is not None
    scores = list(game.view(state, 0).scores)
    (w,) = result["winners"]
    assert result["why"][0].startswith(f"{NAMES[w]} was the first to win {game.rounds_to_win} rounds")
    for p in range(3):
        if p != w:
            assert f"{NAMES[p]} {scores[p]}" in result["why"][0]
    hands = result["hands"]
    assert hands is not None and [len(h) for h in hands] == [game.hand_size] * 3
    # then the last round's deciding comparisons, each player it beat by name
    last = game.infos(state)[0]["round_result"]
    assert w in last["winners"]
    assert all(any(x.startswith("In the last round, ") and f"beat {NAMES[p]}" in x for x in result["why"][1:])
               for p in range(3) if p not in last["winners"])


@pytest.mark.parametrize("name", list(cardenvs.GAMES))
def test_options_and_cards_in_plain_words(name: str) -> None:
    info = catalog.game_info(name)
    for opt in info["options"]:
        assert opt["title"] and opt["help"]
        assert len(opt["labels"]) == len(opt["allowed"])
        assert all(isinstance(x, str) and x and x != "None" for x in opt["labels"])
    names = info["card_names"]
    assert len(names) == len(info["cards"])
    assert all((a is None) == (b is None) for a, b in zip(names, info["cards"]))
    assert info["rules"] == f"/rules/{name}"


def test_rummy_option_values_are_worded() -> None:
    opts = {o["name"]: o for o in catalog.game_info("rummy432_v0")["options"]}
    run_outs = opts["run_out_limit"]
    assert run_outs["labels"][run_outs["allowed"].index(None)] == "no limit"
    assert catalog.option_text("rummy432_v0", "run_out_limit", None) == "run-outs: no limit"
    assert catalog.option_text("rummy432_v0", "pack", "mixed") == "pack: mixed (groups of 2, 3 or 4)"


def test_small_words() -> None:
    assert [spoken_card(c) for c in (0, 27, 39, 51, 52)] == [
        "ace of clubs", "7 of spades", "10 of spades", "king of spades", "joker"]
    assert names_and([]) == "" and names_and(["Ann"]) == "Ann" and names_and(NAMES) == "Ann, Bob and Cy"
    assert plural(1, "card") == "1 card" and plural(3, "card") == "3 cards"
    assert [value_words(v) for v in (None, True, False, 3, "x")] == ["none", "yes", "no", "3", "x"]


def test_the_coach_shows_its_order_not_its_values() -> None:
    assert advice_ranks([0.9, 0.5, 0.5, 0.1]) == [1, 2, 2, 4]
    assert advice_ranks([0.2, 0.2, float("nan"), float("nan")]) == [1, 1, 3, 3]
    assert advice_ranks([]) == []
