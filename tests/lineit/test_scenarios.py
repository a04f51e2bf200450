"""Scenario tests from exact positions: every rule and Decision of docs/rules/lineit.md."""

from __future__ import annotations

import pytest

from cardenvs.lineit.state import OVER, PICK, PLAY, SCORE, card_text

from .positions import legal, load, play, position


def test_new_game_first_round() -> None:
    import numpy as np

    from cardenvs.lineit.rules import LineItGame

    for n in range(2, 6):
        g = LineItGame(n)
        st = g.new_state(np.random.default_rng(3))
        assert len(st.market) == n + 2 and len(st.deck) == 106 - n - 2
        assert st.current == 0 and st.first == 0 and st.picks_left == n
        assert st.phase == PICK
        # an empty line takes anything, an empty hand too: line and hand for every card
        assert legal(g, st) == {f"pick {card_text(c)} {m}" for c in set(st.market) for m in ("line", "hand")}


def test_direction_is_set_by_numbers_and_ignores_the_bet() -> None:
    g, st = load(position(2, market=[5, 20, 30, "B3"], lines=[[10, "B4"], []]))
    # one number card in the line: every number fits; a second Bet never does
    assert legal(g, st) == {
        "pick 5 line", "pick 20 line", "pick 30 line",
        "pick 5 hand", "pick 20 hand", "pick 30 hand", "pick B3 hand",
    }
    play(g, st, "pick 20 line")
    assert st.lines[0] == [10, 102, 20] and st.stats[0].dir == 1
    # empty hand: the play step (pass only) is skipped
    assert st.phase == SCORE and legal(g, st) == {"score", "pass"}
    play(g, st, "pass")
    assert st.current == 1 and st.phase == PICK


def test_descending_line_and_second_bet_refused() -> None:
    g, st = load(position(2, market=[45, 30, 60, "B5"], lines=[[50, "B3", 40], []]))
    assert legal(g, st) == {"pick 30 line", "pick 45 hand", "pick 30 hand", "pick 60 hand", "pick B5 hand"}


def test_forced_new_scores_the_line_then_starts_one() -> None:
    pos = position(2, market=[5, 15, 30, "B3"], lines=[[10, "B4", 20], []], hands=[[40, 50], []])
    g, st = load(pos)
    # hand full: only the fitting 30 goes to the line; the rest fit neither -> new
    assert legal(g, st) == {"pick 30 line", "pick 5 new", "pick 15 new", "pick B3 new"}
    play(g, st, "pick 15 new")
    assert st.tokens[0] == [-4]  # one number card after B4 < 4
    assert g.to_json(st)["discarded"][-3:] == ["B4", 10, 20]  # two numbers: both discarded
    assert st.lines[0] == [15] and st.scored[0] == []
    assert st.phase == PLAY and legal(g, st) == {"play 40", "play 50", "pass"}


def test_new_with_a_bet_when_the_line_has_one_and_the_hand_is_full() -> None:
    g, st = load(position(2, market=["B3", 70, 40, 55], lines=[[50, "B5", 60], []], hands=[[1, 2], []]))
    assert legal(g, st) == {"pick 70 line", "pick B3 new", "pick 40 new", "pick 55 new"}
    play(g, st, "pick B3 new")
    assert st.tokens[0] == [-5] and st.lines[0] == [101]
    assert legal(g, st) == {"play 1", "play 2", "pass"}  # no number yet: both fit


def test_hand_limit_two() -> None:
    g, st = load(position(2, market=[3, 70, 80, "B5"], lines=[[50, 60], []], hands=[[1, 2], []]))
    assert legal(g, st) == {"pick 70 line", "pick 80 line", "pick B5 line", "pick 3 new"}


def test_bet_to_hand_then_played() -> None:
    g, st = load(position(2, market=["B4", 11, 12, 13], lines=[[10], []]))
    play(g, st, "pick B4 hand")
    assert st.phase == PLAY and legal(g, st) == {"play B4", "pass"}
    play(g, st, "play B4")
    assert st.lines[0] == [10, 102] and st.played_hand
    assert st.phase == SCORE and legal(g, st) == {"score", "pass"}
    assert g.to_json(st)["played_hand"] is True
    play(g, st, "pass")
    assert not st.played_hand and st.current == 1


def test_bet_in_hand_does_not_fit_a_line_with_a_bet() -> None:
    g, st = load(position(2, market=[20, 5, 6, 7], lines=[[10, "B4"], []], hands=[["B3"], []]))
    play(g, st, "pick 20 line")
    assert st.phase == SCORE  # B3 cannot be played: the play step is skipped


def test_jackpot_claimed_by_the_third_card_of_a_colour() -> None:
    g, st = load(position(2, market=[9, 13, 2, 3], lines=[[1, 5], []], jackpots={"red": [21, 25]}))
    play(g, st, "pick 9 line")
    assert sorted(st.scored[0]) == [21, 25] and st.jackpots[0] == []


def test_fourth_card_of_a_colour_claims_nothing() -> None:
    g, st = load(position(2, market=[13, 30, 2, 3], lines=[[1, 5, 9], []], jackpots={"red": [21]}))
    play(g, st, "pick 13 line")
    assert st.scored[0] == [] and st.jackpots[0] == [21]


def test_jackpot_claimed_by_a_hand_play() -> None:
    g, st = load(position(2, market=[30, 31, 32, 33], lines=[[1, 5], []], hands=[[9], []],
                          jackpots={"red": [21], "blue": [22]}))
    play(g, st, "pick 30 hand")
    assert legal(g, st) == {"play 9", "play 30", "pass"}
    play(g, st, "play 9")
    assert st.scored[0] == [21] and st.jackpots[1] == [22]


def test_new_line_counts_afresh_round_end_feeds_jackpots_first_rotates() -> None:
    deck: list[int | str] = [53, 6, 7, 8, 57, 10, 11, 12, 14, 15, 16, 18]
    g, st = load(position(2, deck=deck, market=[37, 2, 3, 4], lines=[[41, 45, 49], []],
                          hands=[[60, 64], []], jackpots={"red": [21]}))
    play(g, st, "pick 37 new", "pass", "pass")
    assert st.lines[0] == [37] and list(st.stats[0].col) == [1, 0, 0, 0]
    assert st.discarded[-3:] == [41, 45, 49]
    play(g, st, "pick 2 line", "pass")
    # round end: leftovers 3 (green) and 4 (yellow) under their jackpots; first moves on
    assert st.jackpots == [[21], [], [3], [4]]
    assert (st.first, st.current, st.picks_left, st.phase) == (1, 1, 2, PICK)
    assert st.market == [53, 6, 7, 8]
    play(g, st, "pick 6 line", "pass", "pick 53 line")
    assert st.scored[0] == []  # two reds in the new line
    play(g, st, "pass", "pass")
    assert st.jackpots == [[21], [], [3, 7], [4, 8]] and st.first == 0 and st.current == 0
    play(g, st, "pick 57 line")  # the third red of the new line claims
    assert st.scored[0] == [21] and st.jackpots[0] == []


def test_round_end_discards_bets_and_rotates_first_three_players() -> None:
    g, st = load(position(3, market=[10, "B5", 11], first=2, picks_left=1))
    assert st.current == 1
    play(g, st, "pick 10 line", "pass")
    assert st.discarded == [103] and st.jackpots[2] == [11]
    assert (st.first, st.current, st.picks_left, len(st.market)) == (0, 0, 3, 5)


@pytest.mark.parametrize(
    ("line", "token", "discarded", "scored"),
    [
        ([10, "B3", 20, 30, 40], [3], ["B3", 10, 20, 30], [40]),
        ([10, "B5", 20, 30, 40, 50], [-5], ["B5", 10, 20, 30], [40, 50]),
        (["B4", 1, 2, 3, 4], [4], ["B4", 1, 2, 3], [4]),
        ([10, 20, 30], [], [10, 20, 30], []),
        ([30, 20], [], [30, 20], []),
        (["B5"], [-5], ["B5"], []),
        ([90, 80, 70, "B3", 60, 50, 40, 30], [3], ["B3", 90, 80, 70], [60, 50, 40, 30]),
    ],
)
def test_scoring_a_line(line: list, token: list, discarded: list, scored: list) -> None:
    g, st = load(position(2, market=[95, 96, 97], lines=[line, []], hands=[[99, 100], []],
                          phase="score", picks_left=2, rest="discarded"))
    before = len(st.discarded)
    play(g, st, "score")
    assert st.tokens[0] == token
    assert g.to_json(st)["discarded"][before:] == discarded
    assert st.scored[0] == scored and st.lines[0] == []
    assert st.current == 1 and st.phase == PICK  # score ends the turn
    assert g.scores(st)[0] == len(scored) + sum(token)


def test_pass_only_steps_are_skipped() -> None:
    # pick to hand with an empty line: the card fits the empty line -> play step
    g, st = load(position(2, market=[57, 2, 3, 4]))
    play(g, st, "pick 57 hand")
    assert st.phase == PLAY and legal(g, st) == {"play 57", "pass"}
    # pass: the score step would offer only pass (empty line) -> next player
    play(g, st, "pass")
    assert st.current == 1 and st.phase == PICK
    # pick to hand, nothing in hand fits the line -> straight to the score step
    g, st = load(position(2, market=[5, 70, 2, 3], lines=[[50, 60], []], hands=[[10], []]))
    play(g, st, "pick 5 hand")
    assert st.phase == SCORE and legal(g, st) == {"score", "pass"}


def _final_position(hand0: list) -> dict:
    return position(
        2, deck=[15, 16, "B4"], market=[12, 13, 14], first=0, picks_left=1,
        lines=[[10, "B3", 21, 30, 41, 50], [90, 80]], hands=[hand0, [85, 70]], rest="discarded",
    )


def test_final_phase_play_claims_and_every_line_is_scored() -> None:
    g, st = load(_final_position([61, 5]))
    assert st.current == 1
    assert legal(g, st) == {"pick 12 line", "pick 13 line", "pick 14 line"}
    play(g, st, "pick 14 line", "pass")
    # the round ends; the deck cannot fill a market: final phase, deck goes away
    assert st.deck == [] and st.market == []
    assert st.jackpots == [[13], [], [15], [12, 16]] and st.discarded[-1] == 102
    # seat 1 (the new first player) holds nothing that fits: skipped; seat 0 may play
    assert (st.phase, st.current, st.picks_left, st.first) == (3, 0, 1, 1)
    assert legal(g, st) == {"play 61", "pass"}
    j = g.to_json(st)
    assert j["phase"] == "final" and g.to_json(g.from_json(j)) == j
    play(g, st, "play 61")  # third red of the line: claims 13
    assert st.phase == OVER and g.current_player(st) == -1 and legal(g, st) == set()
    assert sorted(st.scored[0]) == [13, 41, 50, 61] and st.tokens[0] == [3]
    assert st.scored[1] == [] and st.lines == [[], []]
    assert g.scores(st) == [7, 0] and g.returns(st) == [1.0, -1.0]
    assert g.infos(st)[0] == {"score": 7, "scored_cards": 4, "token_total": 3}
    assert g.to_json(st)["current"] is None


def test_final_phase_pass() -> None:
    g, st = load(_final_position([61, 5]))
    play(g, st, "pick 14 line", "pass", "pass")
    assert st.phase == OVER
    assert sorted(st.scored[0]) == [41, 50] and st.tokens[0] == [3]
    assert st.hands[0] == [61, 5]  # cards left in hand are worth nothing
    assert g.scores(st) == [5, 0]


def test_final_phase_with_nobody_able_to_play_ends_at_once() -> None:
    g, st = load(_final_position([5]))
    play(g, st, "pick 14 line", "pass")
    assert st.phase == OVER and g.scores(st) == [5, 0]


@pytest.mark.parametrize(
    ("scored", "tokens", "move", "returns"),
    [
        ([[91, 92], [93, 94], [95]], [[], [], []], "pass", [0.0, 0.0, -1.0]),
        ([[91, 92], [93, 94], [95, 96]], [[], [], []], "pass", [0.0, 0.0, 0.0]),
        ([[91, 92], [93, 94], [95, 96, 97]], [[], [], [-3]], "play 5", [0.0, 0.0, -1.0]),
        ([[91, 92], [93, 94], [95, 96, 97]], [[], [-3], []], "pass", [-1.0, -1.0, 1.0]),
    ],
)
def test_ties_share_the_win(scored: list, tokens: list, move: str, returns: list) -> None:
    pos = position(3, deck=[], first=0, picks_left=1, phase="final", hands=[[], [], [5]],
                   scored=scored, tokens=tokens, discarded=["B3"], rest="discarded")
    g, st = load(pos)
    assert st.current == 2 and legal(g, st) == {"play 5", "pass"}
    play(g, st, move)
    assert st.phase == OVER and g.returns(st) == returns
