"""The AIVAT control variates (``agents.measure``): unbiased, and the game unchanged.

* (a) exact enumeration on a toy game whose chance decides the winner: over every deal,
  every draw and every choice of known-random players, with the exact expectations, the
  mean correction is 0 (to rounding) for an arbitrary value function, with and without
  the players' policy terms; a wrong chance model is caught; the sampled corrector's
  mean is 0 within its interval, with independent and with stratified redraws (each of
  which is, exactly, a uniform shuffle; as many as the pile's cards give the exact
  expectation);
* (b) an agent against a copy of itself in every game at 2 players: the reduced score's
  95% interval holds 0.5 and seat 0's mean correction's holds 0;
* (c) slow: plain and reduced scores agree over 5,000 greedy-vs-random games;
* (d) the game plays move for move the same with and without the corrector, and the
  corrections are the same for the same seed;
* the value nets (shapes, loading, fallbacks) and the known policies.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import cardenvs
from agents import make_agent
from agents.evaluation.tournament import Match, play_match
from agents.measure import (
    ChanceCorrector,
    Lookahead,
    UniformValue,
    ValueNet,
    default_samples,
    default_stratified,
    game_points,
    known_policy,
    match_chance_rng,
    play_ahead,
    play_corrected,
    reads_views,
    value_for,
)
from agents.measure.aivat import _Rotation, sampled_outcomes
from agents.measure.value import value_inputs
from agents.players.base import RandomAgent
from agents.players.heuristic import HeuristicAgent
from cardenvs.core.game import Game
from cardenvs.core.loop import Turn, play
from tests.core.toy_chance import HighCardGame, exact_deals, exact_outcomes, rng_values

ENVS = ("line_v0", "lineit_v0", "rummy432_v0")


# ------------------------------------------------------------------ (a) the toy, exactly
def arbitrary_value(game: Game[Any, Any], states: Sequence[Any]) -> np.ndarray:
    """Any function of the full state (the pile's order included): a hash made a row of
    probabilities."""
    out = []
    for s in states:
        h = hashlib.sha256(repr(sorted(game.to_json(s).items())).encode()).digest()
        out.append(np.random.default_rng(list(h[:8])).dirichlet([1.0, 1.0]))
    return np.array(out)


def swap_policy(game: Game[Any, Any], view: Any, legal: list[int]) -> np.ndarray:
    """A known random player: swaps a low card often, a high one seldom."""
    p = 0.9 if view.hand < 2 else 0.2 if view.hand < 4 else 0.0
    return np.array([1 - p, p])


class ToyPlayer:
    """Chooses by :func:`swap_policy` (the enumeration picks the branch instead)."""

    action_probabilities = staticmethod(swap_policy)

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def choose(self, game: Game[Any, Any], view: Any, legal: list[int]) -> int:
        return int(self.rng.choice(legal, p=swap_policy(game, view, legal)))


class FixedRng:
    """``apply``'s rng with a chosen value (the enumeration's branch)."""

    def __init__(self, k: int) -> None:
        self.k = k

    def integers(self, high: int) -> int:
        assert 0 <= self.k < high
        return self.k


def enumerate_corrections(value: Any, policies: list[Any] | None,
                          outcomes: Any = exact_outcomes) -> tuple[np.ndarray, float]:
    """``(E[correction], E[|correction|])`` over every deal, choice and ``apply`` draw,
    with the corrector's expectations exact."""
    game = HighCardGame(2)
    mean = np.zeros(2)
    spread = 0.0

    def walk(state: Any, corr: ChanceCorrector, prob: float) -> None:
        nonlocal mean, spread
        if game.is_terminal(state):
            mean += prob * corr.total
            spread += prob * abs(corr.total[0])
            return
        seat = game.current_player(state)
        legal = game.legal_actions(state)
        view = game.view(state, seat)
        for a, pa in zip(legal, swap_policy(game, view, legal)):
            if pa == 0:
                continue
            m = rng_values(game, state, a)
            for k in range(m):
                c2 = copy.copy(corr)
                c2.total = corr.total.copy()
                c2.on_move(Turn(0, seat, a, view, legal, state))
                s2 = game.clone(state)
                game.apply(s2, a, FixedRng(k))  # type: ignore[arg-type]
                c2.after_move(Turn(0, seat, a, view, legal, s2))
                walk(s2, c2, prob * pa / m)

    for w, dealt in exact_deals(game, np.random.default_rng(0)):
        corr = ChanceCorrector(game, value, np.random.default_rng(0), outcomes=outcomes, deals=exact_deals,
                               policies=policies)
        corr.start(dealt)
        walk(dealt, corr, w)
    return mean, spread


@pytest.mark.parametrize("with_policies", [False, True])
@pytest.mark.parametrize("value", [arbitrary_value, UniformValue()], ids=["arbitrary", "uniform"])
def test_exact_mean_correction_is_zero(value: Any, with_policies: bool) -> None:
    policies = [swap_policy, swap_policy] if with_policies else None
    mean, spread = enumerate_corrections(value, policies)
    assert np.abs(mean).max() < 1e-12
    assert spread > 0.01  # the corrections are not all zero


def keep_high(game: Game[Any, Any], view: Any, legal: list[int]) -> int:
    """A fixed player for the toy's lookahead: keeps a card of 2 or more, else swaps."""
    return 0 if view.hand >= 2 else 1


def test_exact_mean_correction_is_zero_with_a_lookahead() -> None:
    # the lookahead plays the keeps (no chance) ahead and stops before a swap (chance):
    # still a fixed function of the state, so every bracket keeps its mean of 0
    mean, spread = enumerate_corrections(Lookahead(arbitrary_value, choose=keep_high), None)
    assert np.abs(mean).max() < 1e-12
    assert spread > 0.01
    assert not np.isclose(spread, enumerate_corrections(arbitrary_value, None)[1])  # other values read


def test_play_ahead_stops_before_chance_and_leaves_the_state() -> None:
    game = HighCardGame(2)
    for seed in range(30):
        state = game.new_state(np.random.default_rng(seed))
        before = game.to_json(state)
        ahead = play_ahead(game, state, keep_high, 12)
        assert game.to_json(state) == before
        if ahead is not state:
            assert ahead.turn > state.turn and ahead.hands == state.hands and ahead.pile == state.pile
        if not game.is_terminal(ahead):  # stopped at a swap: the move that would meet chance
            view = game.view(ahead, game.current_player(ahead))
            assert keep_high(game, view, game.legal_actions(ahead)) == 1
            assert game.has_chance(ahead, 1)
    one = play_ahead(game, game.deal([4, 3, 0, 1, 2]), keep_high, 1)
    assert one.turn == 1  # max_moves bounds it
    with pytest.raises(ValueError, match="max_moves"):
        Lookahead(arbitrary_value, max_moves=0)


def test_a_lookahead_in_a_real_game() -> None:
    # Line, a game of greedy players: at every position the planner's moves up to the next
    # that may meet chance (a draw), the position itself left as it was
    game = cardenvs.game_class("line_v0")(2)
    rng = np.random.default_rng(4)
    state = game.new_state(rng)
    look: Lookahead[Any, Any] = Lookahead(UniformValue(), level=2)
    heuristic = look.chooser(game)
    calls = 0

    def choose(g: Game[Any, Any], view: Any, legal: list[int]) -> int:
        nonlocal calls
        calls += 1
        return heuristic(g, view, legal)

    moved = 0

    def check(turn: Turn) -> None:
        nonlocal moved, calls
        before = game.to_json(turn.state)
        calls = 0
        ahead = play_ahead(game, turn.state, choose, 12)
        asked = calls
        assert game.to_json(turn.state) == before
        moved += ahead is not turn.state
        if not game.is_terminal(ahead) and not game.is_truncated(ahead):
            # it stopped before a move that may meet chance, or after its 12 moves
            nxt = heuristic(game, game.view(ahead, game.current_player(ahead)), game.legal_actions(ahead))
            assert game.has_chance(ahead, nxt) or asked == 12

    play(game, state, [make_agent("line_v0", "greedy", seed=s) for s in (1, 2)], rng, after_move=check)
    assert moved > 5  # the lookahead plays moves in most turns


def test_a_wrong_chance_model_is_caught() -> None:
    def lowest_on_top(game: Game[Any, Any], state: Any, action: int, rng: Any) -> list[tuple[float, Any]]:
        t = game.clone(state)
        t.pile = sorted(t.pile, reverse=True)  # the top (last) is the lowest card: not the truth
        game.apply(t, action, FixedRng(0))  # type: ignore[arg-type]
        return [(1.0, t)]

    mean, _ = enumerate_corrections(arbitrary_value, [None, None], lowest_on_top)
    assert np.abs(mean).max() > 1e-3


class EnumeratedRng:
    """The corrector's generator in :func:`test_each_stratified_redraw_is_a_uniform_shuffle`:
    its one shuffle and its start are the enumeration's branch."""

    def __init__(self, base: Sequence[int], start: int) -> None:
        self.base, self.start = np.array(base), start

    def permutation(self, n: int) -> np.ndarray:
        assert n == len(self.base)
        return self.base.copy()

    def integers(self, high: int) -> int:
        assert 0 <= self.start < high
        return self.start


@pytest.mark.parametrize("samples", [1, 3, 4, 8])
def test_each_stratified_redraw_is_a_uniform_shuffle(samples: int) -> None:
    """Over every shuffle and start (exactly), sample k's order of a 4-card pile is each of
    the 24 orders equally often (so each sample's V has the true expectation); within one
    event the samples put different cards on top, each card equally often at 4 or 8."""
    m = 4
    for k in range(samples):
        seen: dict[tuple[int, ...], int] = {}
        for base in itertools.permutations(range(m)):
            for start in range(m):
                perm = _Rotation(EnumeratedRng(base, start), [], k, samples).permutation(m)  # type: ignore[arg-type]
                seen[tuple(perm.tolist())] = seen.get(tuple(perm.tolist()), 0) + 1
        assert len(seen) == 24 and set(seen.values()) == {m}
    rng = np.random.default_rng(3)
    for _ in range(20):
        shuffles: list[tuple[np.ndarray, int]] = []
        tops = [int(_Rotation(rng, shuffles, k, samples).permutation(m)[-1]) for k in range(samples)]
        counts = np.bincount(tops, minlength=m)
        if samples <= m:
            assert counts.max() == 1  # no card twice on top
        else:
            assert set(counts.tolist()) == {samples // m}
        assert len(shuffles) == 1  # one shuffle per event, shared by its samples


def hands_value(game: Game[Any, Any], states: Sequence[Any]) -> np.ndarray:
    """A value of the hands alone (not the pile's order): after a draw, of the drawn card."""
    out = []
    for s in states:
        e = np.exp(np.array(s.hands, float))
        out.append(e / e.sum())
    return np.array(out)


def test_as_many_stratified_samples_as_cards_give_the_exact_expectation() -> None:
    """With one sample per pile card, the stratified mean of a value of the drawn card is its
    exact expectation (every card once on top), every time; independent samples miss it."""
    game = HighCardGame(2)
    state = game.new_state(np.random.default_rng(5))
    truth = exact_outcomes(game, state, 1, np.random.default_rng(0))
    exact = sum(w * hands_value(game, [t])[0] for w, t in truth)
    rng = np.random.default_rng(6)
    for stratified, close in ((True, True), (False, False)):
        means = [sum(w * hands_value(game, [t])[0] for w, t in
                     sampled_outcomes(len(state.pile), stratified)(game, state, 1, rng)) for _ in range(30)]
        hit = [np.allclose(m, exact, atol=1e-12) for m in means]
        assert all(hit) if close else not all(hit)
    assert state.pile == game.new_state(np.random.default_rng(5)).pile  # the state itself is untouched


@pytest.mark.parametrize("stratified", [False, True])
def test_sampled_corrections_average_zero_either_way(stratified: bool) -> None:
    game = HighCardGame(2)
    rng = np.random.default_rng(1)
    corr = []
    for g in range(3000):
        state = game.new_state(rng)
        done = play_corrected(game, state, [ToyPlayer(2 * g), ToyPlayer(2 * g + 1)], rng, arbitrary_value,
                              samples=2, chance_rng=g, stratified=stratified)
        corr.append(done.corrections[0])
    x = np.array(corr)
    assert x.std() > 0.05
    assert abs(x.mean()) < 4 * x.std() / math.sqrt(len(x))


def test_a_nets_stratified_setting(tmp_path: Any) -> None:
    game = cardenvs.game_class("rummy432_v0")(2)
    d = game.observation_size()
    layers = [(np.zeros((d, 1)), np.zeros(1))]
    net = ValueNet(layers, np.zeros(d), np.ones(d), {"stratified": True, "samples": 3})
    net.save(tmp_path / "v.npz")
    back = ValueNet.load(tmp_path / "v.npz")
    assert back.stratified is True and default_stratified(back)
    corr = ChanceCorrector(game, back, np.random.default_rng(0))
    assert corr.stratified
    assert not ChanceCorrector(game, back, np.random.default_rng(0), stratified=False).stratified
    assert not default_stratified(ValueNet(layers, np.zeros(d), np.ones(d)))
    assert not default_stratified(UniformValue())
    for bad in ("yes", 1):
        with pytest.raises(ValueError, match="meta stratified is true or false"):
            ValueNet(layers, np.zeros(d), np.ones(d), {"stratified": bad})


def test_stratified_redraws_leave_the_game_as_it_plays() -> None:
    game = cardenvs.game_class("line_v0")(2)
    outs = []
    for stratified in (None, True):
        rng = np.random.default_rng(11)
        state = game.new_state(rng)
        moves: list[int] = []
        done = play_corrected(game, state, [make_agent("line_v0", "greedy", seed=s) for s in (1, 2)], rng,
                              samples=4, chance_rng=7, stratified=stratified,
                              after_move=functools.partial(_record, moves))
        outs.append((moves, done.rewards, done.corrections))
    assert outs[0][:2] == outs[1][:2]  # the same game, move for move
    assert outs[0][2] != outs[1][2]  # other samples, other corrections


# ------------------------------------------------------------- (b) an agent against itself
def _make(env: str, label: str, seed: int | None = None) -> Any:
    """The ladder's agent of ``label``; ``level#k`` is ``level`` with another seed."""
    level, _, k = label.partition("#")
    return make_agent(env, level, seed=None if seed is None else seed + 7919 * int(k or 0))


def corrected_scores(env: str, levels: tuple[str, str], deals: int, seed: int) -> tuple[np.ndarray, ...]:
    """Entrant (``levels[0]``) points and corrections over ``deals`` deals, seats swapped
    on each (tournament matches); and seat 0's corrections.  A level against itself
    plays a copy with other seeds (``level#1``), so the two seatings differ."""
    if levels[0] == levels[1]:
        levels = (levels[0], levels[1] + "#1")
    pts, corr, seat0 = [], [], []
    for d in range(deals):
        for rot in (0, 1):
            seats = levels if rot == 0 else levels[::-1]
            res = play_match(Match(env, seats, seed + d, control_variates=True), make=_make)
            assert res.corrections is not None
            pts.append(game_points_of(res.rewards)[rot])
            corr.append(res.corrections[rot])
            seat0.append(res.corrections[0])
    return np.array(pts), np.array(corr), np.array(seat0)


def game_points_of(rewards: list[float]) -> list[float]:
    best = max(rewards)
    k = sum(r == best for r in rewards)
    return [1.0 / k if r == best else 0.0 for r in rewards]


def interval(x: np.ndarray, z: float = 1.96) -> tuple[float, float]:
    """95% interval (``z``) of the mean over deals: the two games of a deal (consecutive
    entries) are not independent (same cards, same fresh deals for the deal's correction)."""
    per_deal = x.reshape(-1, 2).mean(axis=1)
    half = z * per_deal.std(ddof=1) / math.sqrt(len(per_deal))
    return per_deal.mean() - half, per_deal.mean() + half


@pytest.mark.parametrize("env", ENVS)
def test_an_agent_against_itself_scores_one_half(env: str) -> None:
    pts, corr, seat0 = corrected_scores(env, ("greedy", "greedy"), 40, 300_000)
    lo, hi = interval(pts - corr)
    assert lo <= 0.5 <= hi, (lo, hi)
    lo, hi = interval(seat0, z=3.29)  # 99.9%: a second check per game, and a gross bias still shows
    assert lo <= 0.0 <= hi, (lo, hi)
    assert np.abs(corr).max() > 0.01  # corrected, not a no-op


@pytest.mark.slow
@pytest.mark.parametrize("env", ENVS)
def test_an_agent_against_itself_many_games(env: str) -> None:
    pts, corr, seat0 = corrected_scores(env, ("planner", "planner"), 300, 400_000)
    lo, hi = interval(pts - corr)
    assert lo <= 0.5 <= hi
    lo, hi = interval(seat0)
    assert lo <= 0.0 <= hi


# ------------------------------------------------------------- (c) plain and reduced agree
@pytest.mark.slow
@pytest.mark.parametrize("env", ENVS)
def test_plain_and_reduced_agree_over_5000_games(env: str) -> None:
    pts, corr, _ = corrected_scores(env, ("greedy", "random"), 2500, 600_000)
    plo, phi = interval(pts)
    rlo, rhi = interval(pts - corr)
    assert max(plo, rlo) <= min(phi, rhi)  # the intervals overlap
    diff = pts - (pts - corr)  # the corrections: their mean is 0 within its interval
    lo, hi = interval(diff)
    assert lo <= 0.0 <= hi


# ---------------------------------------------------------------- (d) the game unchanged
def _record(moves: list[int], turn: Turn) -> None:
    moves.append(turn.action)


@pytest.mark.parametrize("env", ENVS)
@pytest.mark.parametrize("levels", [("greedy", "random"), ("planner", "greedy")])
def test_the_game_plays_the_same_with_the_corrector(env: str, levels: tuple[str, str]) -> None:
    game = cardenvs.game_class(env)(2)
    for seed in (11, 12):
        runs = []
        for corrected in (False, True):
            rng = np.random.default_rng(seed)
            players = [make_agent(env, lvl, seed=seed * 31 + i) for i, lvl in enumerate(levels)]
            state = game.new_state(rng)
            moves: list[int] = []
            record = functools.partial(_record, moves)
            if corrected:
                done = play_corrected(game, state, players, rng, after_move=record)
                assert done.steps == len(moves)
            else:
                play(game, state, players, rng, after_move=record)
            runs.append((moves, game.returns(state), rng.random()))  # the game's rng drew alike
        assert runs[0] == runs[1]


@pytest.mark.parametrize("env", ENVS)
def test_the_match_is_the_same_and_the_corrections_repeat(env: str) -> None:
    m = Match(env, ("greedy", "planner"), 21)
    plain = play_match(m)
    a = play_match(Match(env, m.seats, m.seed, control_variates=True))
    b = play_match(Match(env, m.seats, m.seed, control_variates=True))
    assert plain.corrections is None
    assert (a.rewards, a.steps) == (plain.rewards, plain.steps)
    assert a.corrections == b.corrections and a.corrections is not None
    assert abs(sum(a.corrections)) < 1e-9  # V sums to 1 over the seats: so do the corrections


class _Hidden:
    """A value as ``value`` is, but not saying it reads only Views (so nothing is shared)."""

    def __init__(self, value: Any) -> None:
        self.value = value
        self.calls = 0

    def __call__(self, game: Game[Any, Any], states: Sequence[Any]) -> np.ndarray:
        self.calls += len(states)
        return self.value(game, states)

    def __getattr__(self, name: str) -> Any:
        if name == "reads_views":
            raise AttributeError(name)
        return getattr(self.value, name)


@pytest.mark.parametrize(("env", "players"), [("line_v0", 2), ("lineit_v0", 2), ("rummy432_v0", 2),
                                              ("line_v0", 3), ("rummy432_v0", 4)])
def test_outcomes_alike_in_every_view_are_valued_once(env: str, players: int) -> None:
    """A value that reads states only through the Views (the shipped nets, the lookahead)
    is asked once per distinct set of Views: the corrections are what valuing every outcome
    gives (to float32 rounding), with fewer states valued."""
    game = cardenvs.game_class(env)(players)
    net = value_for(game)
    assert reads_views(net) and not reads_views(_Hidden(net)) and not reads_views(arbitrary_value)
    shared = everyone = 0
    for seed in (5, 6):
        totals = []
        for value in (net, _Hidden(net)):
            rng = np.random.default_rng(seed)
            seats = [make_agent(env, "planner", seed=seed * 31 + i) for i in range(players)]
            state = game.new_state(rng)
            corr = ChanceCorrector(game, value, match_chance_rng(seed), deal_term=False)
            corr.start(state)
            play(game, state, seats, rng, on_move=corr.on_move, after_move=corr.after_move)
            totals.append(corr.total)
            if isinstance(value, _Hidden):
                everyone += value.calls
            else:
                shared += corr.valued
        assert np.abs(totals[0] - totals[1]).max() < 1e-5
        assert np.abs(totals[0]).max() > 1e-3  # corrections there are
    assert 0 < shared < everyone


@pytest.mark.parametrize(("env", "players"), [("rummy432_v0", 2), ("line_v0", 3)])
def test_the_deals_bracket_cancels_over_the_rotations(env: str, players: int) -> None:
    """``deal_term=False`` (what duplicate schedules ask for) changes no deal's mean
    correction over its rotations, though each game's own deal bracket is far from 0."""
    for deal in (3, 4):
        with_deal: list[float] = []
        without: list[float] = []
        for rot in range(players):
            seats = ["random"] * players
            seats[rot] = "greedy"
            for term, out in ((True, with_deal), (False, without)):
                res = play_match(Match(env, tuple(seats), deal, control_variates=True, deal_term=term))
                assert res.corrections is not None
                out.append(res.corrections[rot])
        differences = np.array(with_deal) - np.array(without)  # each game's deal bracket
        assert np.abs(differences).max() > 1e-3
        assert abs(sum(with_deal) - sum(without)) < 1e-9


def test_duplicate_schedules_leave_the_deals_bracket_out() -> None:
    from agents.evaluation.evaluator import schedule as eval_schedule
    from agents.evaluation.tournament import full_rotations
    from experiments.ladder_pairs import matches

    assert [full_rotations(g, 2, 5) for g in range(5)] == [True] * 4 + [False]
    pairs = matches("line_v0", "greedy", "planner", 2, 5, 0, True)
    assert [m.deal_term for m in pairs] == [False] * 4 + [True]
    dup = eval_schedule("line_v0", "me", ["greedy"], 4, 2, 0, {}, duplicate=True, control_variates=True)
    fresh = eval_schedule("line_v0", "me", ["greedy"], 4, 2, 0, {}, duplicate=False, control_variates=True)
    assert [m.deal_term for m in dup] == [False] * 4 and [m.deal_term for m in fresh] == [True] * 4


def test_the_derived_generator_leaves_the_games_untouched() -> None:
    game = cardenvs.game_class("rummy432_v0")(2)
    rng = np.random.default_rng(5)
    state = game.new_state(rng)
    before = rng.bit_generator.state
    done = play_corrected(game, game.clone(state), [make_agent("rummy432_v0", "greedy", seed=1)] * 2,
                          np.random.default_rng(5), samples=2)
    again = play_corrected(game, game.clone(state), [make_agent("rummy432_v0", "greedy", seed=1)] * 2,
                           np.random.default_rng(5), samples=2)
    assert rng.bit_generator.state == before
    assert done == again


# ------------------------------------------------------------ value nets and policies
def test_a_value_net_round_trips_and_sums_to_one(tmp_path: Any) -> None:
    game = cardenvs.game_class("line_v0")(2)
    d = game.observation_size()
    rng = np.random.default_rng(0)
    net = ValueNet([(rng.normal(size=(d, 8)), np.zeros(8)), (rng.normal(size=(8, 1)), np.zeros(1))],
                   np.zeros(d), np.ones(d), {"options": game.options})
    net.save(tmp_path / "v.npz")
    back = ValueNet.load(tmp_path / "v.npz")
    states = [game.new_state(np.random.default_rng(i)) for i in range(3)]
    v = back(game, states)
    assert v.shape == (3, 2) and np.allclose(v.sum(axis=1), 1) and np.allclose(v, net(game, states))
    assert len(set(np.round(v[:, 0], 6))) > 1
    end = states[0]
    play(game, end, [make_agent("line_v0", "greedy", seed=0)] * 2, np.random.default_rng(0))
    assert np.array_equal(back(game, [end])[0], game_points(game, end))


#: the shipped value nets: every game at 2 players, Line and Rummy 4x3x2's at 3 and 4 (Line-it's
#: 2-player net reduces nothing, so none was trained for more seats)
SHIPPED_NETS = [(env, 2) for env in ENVS] + [(env, n) for env in ("line_v0", "rummy432_v0") for n in (3, 4)]


@pytest.mark.parametrize(("env", "players"), SHIPPED_NETS)
def test_the_shipped_value_nets(env: str, players: int) -> None:
    game = cardenvs.game_class(env)(players)
    v = value_for(game)
    assert isinstance(v, ValueNet), f"no value net shipped for {env} at {players} players"
    assert v.meta["num_players"] == players and v.meta["options"] == game.options
    seeds = v.meta["seeds"]
    assert isinstance(seeds, list) and min(seeds) >= 10**7  # trained on deals no evaluation uses
    rng = np.random.default_rng(3)
    state = game.new_state(rng)
    out = v(game, [state])
    assert out.shape == (1, players) and np.allclose(out.sum(axis=1), 1)
    assert value_inputs(game, [state], v.features).shape == (players, v.layers[0][0].shape[0])


def test_a_net_with_a_lookahead(tmp_path: Any) -> None:
    game = cardenvs.game_class("line_v0")(2)
    d = game.observation_size()
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(d, 8)), np.zeros(8)), (rng.normal(size=(8, 1)), np.zeros(1))]
    plain = ValueNet(layers, np.zeros(d), np.ones(d), {"options": game.options})
    net = ValueNet(layers, np.zeros(d), np.ones(d), {"options": game.options,
                                                      "lookahead": {"level": 2, "max_moves": 12}})
    net.save(tmp_path / "v.npz")
    back = ValueNet.load(tmp_path / "v.npz")
    assert back.lookahead is not None and back.lookahead.max_moves == 12
    states = []
    for i in range(4):
        s = game.new_state(np.random.default_rng(i))
        greedy = make_agent("line_v0", "greedy", seed=i)
        play(game, s, [greedy, greedy], np.random.default_rng(i), max_moves=5 + i)
        states.append(s)
    assert np.allclose(back(game, states), Lookahead(plain)(game, states))
    assert not np.allclose(back(game, states), plain(game, states))  # it reads other states
    for bad in ({"level": 0}, {"depth": 3}, [2, 12], {"max_moves": "12"}, {"level": True}):
        with pytest.raises(ValueError, match="lookahead"):
            ValueNet(layers, np.zeros(d), np.ones(d), {"lookahead": bad})
    # the samples per chance event a net asks for, the corrector's default with it
    assert default_samples(plain) == 8 and default_samples(UniformValue()) == 8
    many = ValueNet(layers, np.zeros(d), np.ones(d), {"options": game.options, "samples": 16})
    assert default_samples(many) == 16
    corr = ChanceCorrector(game, many, np.random.default_rng(0))
    assert corr.deals is not None and len(corr.deals(game, np.random.default_rng(0))) == 16
    assert len(ChanceCorrector(game, many, np.random.default_rng(0), samples=3).outcomes(
        game, states[0], game.legal_actions(states[0])[0], np.random.default_rng(0))) == 3
    for bad_samples in (0, 2.5, True, "16"):
        with pytest.raises(ValueError, match="samples"):
            ValueNet(layers, np.zeros(d), np.ones(d), {"samples": bad_samples})


def test_value_for_falls_back_to_uniform() -> None:
    assert isinstance(value_for(cardenvs.game_class("line_v0")(2, joker_points=10)), UniformValue)
    assert isinstance(value_for(cardenvs.game_class("lineit_v0")(5)), UniformValue)
    with pytest.raises(ValueError, match="unknown value features"):
        value_inputs(cardenvs.game_class("line_v0")(2), [], ("psychic",))


def test_known_policies() -> None:
    game = cardenvs.game_class("line_v0")(2)
    state = game.new_state(np.random.default_rng(0))
    view, legal = game.view(state, 0), game.legal_actions(state)
    greedy = make_agent("line_v0", "greedy", seed=0)
    assert type(greedy) is HeuristicAgent
    p = known_policy(greedy)
    assert p is not None
    probs = p(game, view, legal)
    assert np.isclose(probs.sum(), 1) and set(np.flatnonzero(probs)) <= set(range(len(legal)))
    chosen = {greedy.choose(game, view, legal) for _ in range(30)}
    assert chosen <= {legal[i] for i in np.flatnonzero(probs)}  # among the ties, nothing else
    rand = known_policy(RandomAgent(0))
    assert rand is not None and np.allclose(rand(game, view, legal), 1 / len(legal))
    assert known_policy(ToyPlayer(0)) is swap_policy
    assert known_policy(object()) is None
