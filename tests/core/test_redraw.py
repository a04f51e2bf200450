"""``Game.redraw_unseen`` and ``Game.has_chance``: the chance still to come, for AIVAT.

* redraw_unseen keeps every seat's observation, the public view and the legal moves, and
  keeps the unseen cards as a multiset (it only re-orders them);
* the order it draws is uniform (chi-square on the next card to be drawn);
* a step that ``has_chance`` calls certain is: two clones with differently redrawn
  unseen cards and different ``rng`` reach the same position (up to the unseen order);
* the toy games say what they have.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from scipy.stats import chisquare

import cardenvs
from cardenvs.core.game import Game
from tests.core.toy import ToyGame

#: (env, seat count, options) of every table tested: every seat count of every game
TABLES: list[tuple[str, int, dict[str, Any]]] = (
    [("line_v0", n, {}) for n in (2, 3, 4)] + [("lineit_v0", n, {}) for n in (2, 3, 4, 5)]
    + [("rummy432_v0", n, {}) for n in (2, 3, 4, 5)]
    + [("rummy432_v0", 2, {"run_out_limit": None, "max_turns_per_round": 60})])

#: each game's unseen cards in the state, and the next of them to be drawn
UNSEEN: dict[str, Callable[[Any], list[int]]] = {
    "line_v0": lambda s: s.draw, "lineit_v0": lambda s: s.deck, "rummy432_v0": lambda s: s.pile}
NEXT: dict[str, Callable[[list[int]], int]] = {
    "line_v0": lambda d: d[-1], "lineit_v0": lambda d: d[0], "rummy432_v0": lambda d: d[-1]}
#: and the one after it
SECOND: dict[str, Callable[[list[int]], int]] = {
    "line_v0": lambda d: d[-2], "lineit_v0": lambda d: d[1], "rummy432_v0": lambda d: d[-2]}


def _game(env: str, n: int, options: dict[str, Any]) -> Game[Any, Any]:
    return cardenvs.game_class(env)(n, **options)


def positions(game: Game[Any, Any], seed: int, games: int = 3, keep: float = 0.15) -> list[Any]:
    """Copies of random positions (random legal moves), the start and the end included."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(games):
        s = game.new_state(rng)
        out.append(game.clone(s))
        for _ in range(3000):
            if game.is_terminal(s) or game.is_truncated(s):
                break
            legal = game.legal_actions(s)
            game.apply(s, legal[int(rng.integers(len(legal)))], rng)
            if rng.random() < keep:
                out.append(game.clone(s))
        out.append(game.clone(s))
    return out


def _seen(game: Game[Any, Any], s: Any) -> tuple[list[bytes], Any, list[int]]:
    """Every seat's observation, the public view and the legal moves of ``s``."""
    return ([game.observe(s, p).tobytes() for p in range(game.num_players)], game.public_view(s),
            list(game.legal_actions(s)))


@pytest.mark.parametrize("env,n,options", TABLES)
def test_redraw_keeps_every_view(env: str, n: int, options: dict[str, Any]) -> None:
    game = _game(env, n, options)
    rng = np.random.default_rng(7)
    moved = 0
    for s in positions(game, 100 + n):
        before = _seen(game, s)
        cards = list(UNSEEN[env](s))
        game.redraw_unseen(s, rng)
        assert _seen(game, s) == before
        assert sorted(UNSEEN[env](s)) == sorted(cards)
        moved += UNSEEN[env](s) != cards
    assert moved > 5  # it did re-order something


@pytest.mark.parametrize("env", ["line_v0", "lineit_v0", "rummy432_v0"])
def test_redraw_order_is_uniform(env: str) -> None:
    game = _game(env, 2, {})
    s = game.new_state(np.random.default_rng(3))
    cards = list(UNSEEN[env](s))
    assert len(set(cards)) > 20
    rng = np.random.default_rng(11)
    tries = 100 * len(set(cards))
    tops: Counter[int] = Counter()
    seconds: Counter[int] = Counter()
    for _ in range(tries):
        t = game.clone(s)
        game.redraw_unseen(t, rng)
        d = UNSEEN[env](t)
        tops[NEXT[env](d)] += 1
        seconds[SECOND[env](d)] += 1
    kinds = sorted(set(cards))
    expected = [tries * cards.count(c) / len(cards) for c in kinds]
    for counts in (tops, seconds):
        assert chisquare([counts[c] for c in kinds], expected).pvalue > 1e-3


@pytest.mark.parametrize("env,n,options", TABLES)
def test_has_chance_false_means_certain(env: str, n: int, options: dict[str, Any]) -> None:
    game = _game(env, n, options)
    rng = np.random.default_rng(5)
    certain = chance = differs = 0
    for s in positions(game, 200 + n, keep=0.3):
        for a in game.legal_actions(s)[:6] + game.legal_actions(s)[-3:]:
            after = []
            for k in range(2):
                t = game.clone(s)
                game.redraw_unseen(t, rng)
                game.apply(t, a, np.random.default_rng(1000 * k + a))
                after.append((_seen(game, t), sorted(UNSEEN[env](t))))
            if game.has_chance(s, a):
                chance += 1
                differs += after[0] != after[1]
            else:
                certain += 1
                assert after[0] == after[1], (env, game.action_to_str(a))
    assert certain > 0 and chance > 0 and differs > 0


def test_toy_game_has_no_chance_after_the_deal() -> None:
    game = ToyGame(2)
    s = game.new_state(np.random.default_rng(0))
    before = game.to_json(s)
    game.redraw_unseen(s, np.random.default_rng(1))
    assert game.to_json(s) == before
    assert not game.has_chance(s, 0)


def test_the_base_game_says_when_it_cannot_redraw() -> None:
    class Bare(ToyGame):
        redraw_unseen = Game.redraw_unseen

    with pytest.raises(NotImplementedError, match="redraw_unseen"):
        Bare(2).redraw_unseen(ToyGame(2).new_state(np.random.default_rng(0)), np.random.default_rng(0))
    assert Game.has_chance(ToyGame(2), ToyGame(2).new_state(np.random.default_rng(0)), 0)  # the safe default
