"""Coupled draws (``agents.measure.coupling``): each game dealt by the rules' odds, the
rotations of a deal alike.

The claims: (a) every draw is uniform: exactly, by enumerating every virtual pile of a small
pile with a repeated card under owners chosen from what came up, and by chi-square over the
cards a real position deals; (b) it couples: a seat's draws are the same cards whatever
the other seats draw between them; (c) the players see nothing of it and the game plays by
the rules; (d) scores stay unbiased: on the same deals, coupled and uncoupled plain scores
agree.
"""

from __future__ import annotations

import collections
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

import cardenvs
from agents import evaluate, make_agent
from agents.evaluation.tournament import Match, play_match
from agents.measure.coupling import CoupledDeck, VirtualPile, coupled_draws, draw_sequences
from cardenvs.core.loop import Turn, play

ENVS = ("line_v0", "lineit_v0", "rummy432_v0")
#: each game's face-down cards (what redraw_unseen re-orders)
PILES = {"line_v0": "draw", "lineit_v0": "deck", "rummy432_v0": "pile"}


def _uniform_sequences(cards: list[int], draws: int) -> dict[tuple[int, ...], Fraction]:
    """Drawing ``draws`` of ``cards`` uniformly without replacement, exactly."""
    out: dict[tuple[int, ...], Fraction] = {}
    orders = list(itertools.permutations(range(len(cards))))
    for perm in orders:
        key = tuple(cards[i] for i in perm[:draws])
        out[key] = out.get(key, Fraction(0)) + Fraction(1, len(orders))
    return out


def _adaptive(seen: tuple[int, ...]) -> int | None:
    """An owner per draw chosen from what came up (a seat, or nobody's chance)."""
    if not seen:
        return 0
    return None if seen[-1] == 2 else sum(seen) % 3 % 2


@pytest.mark.parametrize("seats", [2, 3])
def test_every_draw_is_uniform_exactly(seats: int) -> None:
    """Every virtual pile of a small pile with a repeated card played out: the first four
    cards to come up, with owners chosen from what came up before, are distributed exactly
    as four cards drawn uniformly without replacement."""
    cards = [0, 0, 1, 2, 3]
    assert draw_sequences(cards, seats, _adaptive, 4) == _uniform_sequences(cards, 4)


def test_an_owner_rule_that_peeks_would_be_caught() -> None:
    """The exact check can fail: drawing from one's own share only while it still holds a
    high card (a rule that reads the face-down cards) is not uniform."""
    cards = [0, 1, 2, 3]
    exact = draw_sequences(cards, 2, lambda seen: 0, 2)
    assert exact == _uniform_sequences(cards, 2)  # a fixed owner is fine

    class Peek(VirtualPile):
        def order(self, owner: int | None) -> list[int]:
            super().order(owner)
            self._emitted.sort(key=lambda i: -self.cards[i])  # the highest card first: no shuffle
            self._listed = [self.cards[i] for i in self._emitted][::-1]
            return list(self._listed)

    import agents.measure.coupling as coupling

    saved = coupling.VirtualPile
    coupling.VirtualPile = Peek  # type: ignore[misc]
    try:
        assert draw_sequences(cards, 2, lambda seen: 0, 2) != _uniform_sequences(cards, 2)
    finally:
        coupling.VirtualPile = saved  # type: ignore[misc]


def test_a_seat_draws_its_own_share_whatever_the_others_do() -> None:
    """The coupling: seat 0's draws are the same cards however the other seats' draws fall
    between them (until its share runs out)."""
    cards = list(range(12))
    runs = []
    for pattern in ([0, 1, 0, 1, 0, 1], [0, 0, 1, 1, 1, 0, 0], [1, 1, 1, 0, 0, 0]):
        deck = CoupledDeck(cardenvs.game_class("line_v0")(2), seed=7)
        pile = deck.order_for(cards, None)  # the first epoch
        mine = []
        for owner in pattern:
            pile = deck.order_for(pile, owner)
            card = pile.pop()  # Line draws the list's last card
            if owner == 0:
                mine.append(card)
        runs.append(mine[:3])
    assert runs[0] == runs[1] == runs[2] and len(set(runs[0])) == 3
    assert deck.epoch == 1  # plain draws never start a new virtual pile


def test_a_changed_pile_starts_a_new_epoch_keyed_by_its_cards() -> None:
    game = cardenvs.game_class("rummy432_v0")(2)
    a, b = CoupledDeck(game, seed=3), CoupledDeck(game, seed=3)
    pile = a.order_for([4, 9, 13, 20], 0)
    pile.pop()
    a.order_for(pile, 1)
    assert a.epoch == 1
    reshuffled = a.order_for([*pile, 30, 31], 0)  # cards came back: a new virtual pile
    assert a.epoch == 2 and sorted(reshuffled) == sorted([*pile, 30, 31])
    # another rotation that never saw the first epoch shuffles the same cards alike
    assert b.order_for([*pile, 30, 31], 0) == reshuffled
    # the same cards starting an epoch again in one game get a shuffle of their own
    again = [a.order_for(list(range(40, 50)), 0) for _ in range(2)]
    assert sorted(again[0]) == sorted(again[1]) and again[0] != again[1]


@pytest.mark.parametrize("env", ENVS)
def test_the_card_a_game_draws_is_uniform(env: str) -> None:
    """At a real position, the face-down cards after the coupled re-order: every unseen card
    is equally likely on each end of the pile (chi-square over 4,000 keys)."""
    game = cardenvs.game_class(env)(2)
    state = game.new_state(np.random.default_rng(11))
    pile_of = PILES[env]
    cards = sorted(getattr(state, pile_of))
    firsts: collections.Counter[int] = collections.Counter()
    lasts: collections.Counter[int] = collections.Counter()
    for s in range(4_000):
        t = game.clone(state)
        deck = CoupledDeck(game, s)
        setattr(t, pile_of, deck.order_for(getattr(t, pile_of), 0))
        pile = getattr(t, pile_of)
        assert sorted(pile) == cards  # the same cards, re-ordered
        firsts[pile[0]] += 1
        lasts[pile[-1]] += 1
    distinct = sorted(set(cards))
    expected = np.array([cards.count(c) for c in distinct], float)
    expected *= 4_000 / expected.sum()
    for counts in (firsts, lasts):
        assert chisquare([counts[c] for c in distinct], expected).pvalue > 1e-3


@pytest.mark.parametrize("env", ENVS)
def test_the_players_see_nothing_and_the_game_plays_by_the_rules(env: str) -> None:
    game = cardenvs.game_class(env)(3)
    rng = np.random.default_rng(4)
    state = game.new_state(rng)
    hook = coupled_draws(game, 4)
    reordered = 0

    def check(turn: Turn) -> None:
        nonlocal reordered
        before = game.to_json(turn.state)
        views = [game.observe(turn.state, p).copy() for p in range(game.num_players)]
        legal = game.legal_actions(turn.state)
        hook(turn)
        assert all(np.array_equal(v, game.observe(turn.state, p)) for p, v in enumerate(views))
        assert game.legal_actions(turn.state) == legal
        reordered += game.to_json(turn.state) != before

    players = [make_agent(env, "greedy", seed=i) for i in range(3)]
    play(game, state, players, rng, on_move=check)
    assert game.is_terminal(state) and reordered > 0


def test_coupled_games_follow_the_seats_across_rotations() -> None:
    """The rotations of a Line deal (greedy and planner swap seats, so their games part
    early): with coupled draws a seat's ``k``-th draw is the same card in both far more
    often than with the one shared pile."""
    env = "line_v0"
    game = cardenvs.game_class(env)(2)

    def draws(seed: int, seats: tuple[str, str], coupled: bool) -> set[tuple[int, int, int]]:
        rng = np.random.default_rng(seed)
        state = game.new_state(rng)
        players = [make_agent(env, lvl, seed=seed * 31 + i) for i, lvl in enumerate(seats)]
        hook = coupled_draws(game, seed) if coupled else None
        drawn: list[tuple[int, int, int]] = []

        def on(turn: Turn) -> None:
            if hook is not None:
                hook(turn)
            if game.has_chance(turn.state, turn.action) and turn.state.draw:
                k = sum(1 for s, _, _ in drawn if s == turn.seat)
                drawn.append((turn.seat, k, turn.state.draw[-1]))  # Line draws the last card

        play(game, state, players, rng, on_move=on)
        return set(drawn)

    shared = {True: 0, False: 0}
    for seed in range(40):
        for coupled in (True, False):
            a = draws(seed, ("greedy", "planner"), coupled)
            b = draws(seed, ("planner", "greedy"), coupled)
            shared[coupled] += len(a & b)
    assert shared[True] > 1.3 * shared[False]


@pytest.mark.parametrize("env", ENVS)
def test_coupled_and_plain_duplicate_scores_agree(env: str) -> None:
    """Unbiased: over the same 400 deals (800 games), greedy against the planner, the plain
    duplicate score with and without coupled draws; their difference's interval holds 0."""
    diffs = []
    for deal in range(400):
        per = []
        for coupled in (False, True):
            pts = []
            for seats, me in ((("greedy", "planner"), 0), (("planner", "greedy"), 1)):
                r = play_match(Match(env, seats, 9_000 + deal, coupled_draws=coupled))
                best = max(r.rewards)
                win = [x == best for x in r.rewards]
                pts.append(win[me] / sum(win))
            per.append(np.mean(pts))
        diffs.append(per[1] - per[0])
    d = np.array(diffs)
    half = 1.97 * d.std(ddof=1) / math.sqrt(len(d))
    assert abs(d.mean()) <= half
    assert d.std() > 0  # the games did differ


def test_evaluate_takes_and_reports_coupled_draws() -> None:
    res = evaluate("planner", "line_v0", against=["greedy"], games=8, progress=False, verbose=False,
                   coupled_draws=True, control_variates=False)
    assert res.coupled_draws and res.to_dict()["coupled_draws"] is True
    assert "draws coupled" in res.markdown()
    with pytest.raises(ValueError, match="coupled_draws is True or False"):
        evaluate("planner", "line_v0", against=["greedy"], games=2, progress=False, verbose=False,
                 coupled_draws="yes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="nothing to couple"):
        evaluate("planner", "line_v0", against=["greedy"], games=2, progress=False, verbose=False,
                 coupled_draws=True, duplicate=False)


def _epochs_and_growths(env: str, seed: int) -> tuple[int, int, int]:
    """A greedy game with coupled draws: (epochs, chance steps, times the pile grew)."""
    pile_of = PILES[env]
    game = cardenvs.game_class(env)(2)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    deck = CoupledDeck(game, seed)
    sizes: list[int] = []

    def on(turn: Turn) -> None:
        if game.has_chance(turn.state, turn.action):
            sizes.append(len(getattr(turn.state, pile_of)))
        deck(turn)

    play(game, state, [make_agent(env, "greedy", seed=i) for i in range(2)], rng, on_move=on)
    return deck.epoch, len(sizes), sum(b > a for a, b in zip(sizes, sizes[1:]))


@pytest.mark.parametrize("env", ENVS)
def test_each_game_draws_from_the_top_it_names(env: str) -> None:
    """A game's ``UNSEEN_TOP`` is where its draws come from: the virtual pile follows every
    draw, and a new epoch begins only when the face-down cards grew (a reshuffle, a round)."""
    for seed in (1, 2, 3):
        epochs, steps, grew = _epochs_and_growths(env, seed)
        assert steps > 5 and 1 <= epochs <= 1 + grew



@settings(max_examples=12, deadline=None)
@given(env=st.sampled_from(ENVS), players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_coupled_games_only_reorder_what_nobody_sees(env: str, players: int, seed: int) -> None:
    """Random games with coupled draws, any seats: the hook changes only the order of the
    face-down cards (the same cards, every observation and the legal moves as they were),
    and the game ends as a game of the rules does."""
    game = cardenvs.game_class(env)(players)
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    hook = coupled_draws(game, seed)

    def check(turn: Turn) -> None:
        pile = sorted(getattr(turn.state, PILES[env]))
        views = [game.observe(turn.state, p).copy() for p in range(players)]
        legal = game.legal_actions(turn.state)
        hook(turn)
        assert sorted(getattr(turn.state, PILES[env])) == pile
        assert all(np.array_equal(v, game.observe(turn.state, p)) for p, v in enumerate(views))
        assert game.legal_actions(turn.state) == legal

    play(game, state, [make_agent(env, "random", seed=seed + i) for i in range(players)], rng, on_move=check)
    assert game.is_terminal(state)
    assert game.to_json(game.from_json(game.to_json(state))) == game.to_json(state)
