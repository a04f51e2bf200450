"""Beliefs at the environment: ``sample_worlds`` and ``information`` (docs/beliefs.md).

* every sampled world loads and shows the agent exactly its observation and View, in
  every game at 2-4 players, from the deal to the end;
* on small positions every consistent world is enumerated (all assignments of the
  unseen cards to the hidden places that load and keep the agent's View), and a
  chi-square test checks the sampled frequencies against the distribution
  docs/beliefs.md states for that game and case (a strict p > 0.001 at a fixed seed);
  where that distribution is not uniform, a uniform one must be refused;
* the errors, determinism, and that sampling leaves the environment's randomness alone.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterator
from math import comb
from typing import Any, cast

import numpy as np
import pytest
from scipy.stats import chisquare

import cardenvs
from cardenvs.core.cards import card_str, parse_card
from cardenvs.core.game import InvalidStateError
from cardenvs.line import LineGame
from tests.line import positions as line_pos
from tests.rummy432 import positions as rummy_pos

GAMES = ("line_v0", "lineit_v0", "rummy432_v0")
#: the p-value a goodness-of-fit test must pass (fixed seeds: the result is reproducible)
P_MIN = 1e-3
#: worlds drawn per goodness-of-fit test
DRAWS = 6000

Key = tuple[tuple[Any, ...], ...]


def _play(env: Any, rng: np.random.Generator, steps: int | None = None) -> Iterator[None]:
    """Random legal play; yields before each step (up to ``steps`` steps, or the end)."""
    for k, _agent in enumerate(env.agent_iter()):
        if steps is not None and k >= steps:
            return
        obs, _, term, trunc, _ = env.last()
        yield
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def _positions(name: str, n: int, seed: int) -> list[dict[str, Any]]:
    """Positions of one random game: the deal, about a dozen along the way, the end."""
    env = cardenvs.make(name, num_players=n)
    env.reset(seed=seed)
    every: list[dict[str, Any]] = []
    for _ in _play(env, np.random.default_rng(seed)):
        every.append(env.unwrapped.state_json())
    every.append(env.unwrapped.state_json())
    stride = max(1, len(every) // 12)
    return every[::stride] + [every[-2], every[-1]]


def _observations_equal(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return all(np.array_equal(a[k], b[k]) for k in ("observation", "action_mask"))


# ------------------------------------------------------------------- consistency


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("name", GAMES)
def test_every_world_loads_and_shows_the_agent_its_observation(name: str, n: int) -> None:
    env = cardenvs.make(name, num_players=n)
    twin = cardenvs.make(name, num_players=n)
    game = env.unwrapped.game
    differs = 0
    for i, pos in enumerate(_positions(name, n, seed=10 * n + len(name))):
        env.reset(options={"state": pos})
        for seat, agent in enumerate(env.possible_agents):
            view = game.view(env.unwrapped.state, seat)
            worlds = env.unwrapped.sample_worlds(agent, 3, seed=i)
            assert len(worlds) == 3
            for w in worlds:
                json.dumps(w)  # plain JSON
                twin.reset(options={"state": w})
                assert twin.unwrapped.state_json() == w  # exactly what state_json() gives
                assert game.view(twin.unwrapped.state, seat) == view
                assert _observations_equal(twin.observe(agent), env.observe(agent))
                assert twin.unwrapped.agent_selection == env.unwrapped.agent_selection
                differs += w != pos
    assert differs  # the hidden cards are really re-dealt


def test_worlds_keep_what_every_seat_knows() -> None:
    # the public part of every world is the real one, for every seat (not only the agent)
    for name in GAMES:
        env = cardenvs.make(name, num_players=3)
        twin = cardenvs.make(name, num_players=3)
        env.reset(seed=4)
        for _ in _play(env, np.random.default_rng(4), steps=40):
            pass
        public = env.unwrapped.information("player_1")["public"]
        for w in env.unwrapped.sample_worlds("player_1", 5, seed=0):
            twin.reset(options={"state": w})
            for agent in twin.possible_agents:
                assert twin.unwrapped.information(agent)["public"] == public


# -------------------------------------------------------------- the information split


@pytest.mark.parametrize("name", GAMES)
def test_information_splits_the_view_into_public_and_private(name: str) -> None:
    env = cardenvs.make(name, num_players=3)
    env.reset(seed=2)
    game = env.unwrapped.game
    for _ in _play(env, np.random.default_rng(2), steps=30):
        pass
    infos = {a: env.unwrapped.information(a) for a in env.possible_agents}
    publics = [json.dumps(i["public"], sort_keys=True) for i in infos.values()]
    assert len(set(publics)) == 1  # the public part is the same for every agent
    for seat, info in enumerate(infos.values()):
        assert set(info) == {"public", "private"}
        json.dumps(info)
        view = game.view(env.unwrapped.state, seat)
        # public + private is the agent's View
        fields = {**info["public"], **info["private"], "seat": seat}
        assert set(fields) == {f.name for f in dataclasses.fields(view)}
        as_lists = json.loads(json.dumps({k: getattr(view, k) for k in fields}))
        assert fields == as_lists
        expected_private = {} if name == "lineit_v0" else {"hand": sorted(view.hand)}
        assert info["private"] == expected_private
        assert not set(info["public"]) & set(info["private"])


# ------------------------------------------------------------ enumerating worlds
#
# A game's hidden places, in JSON terms: an opponent's unknown cards (a set) and a
# face-down pile (a sequence).  ``hidden`` reads them from a position as a key;
# ``fill`` writes a key into a copy of the real position.


def _line_hidden(pos: dict[str, Any], seat: int) -> Key:
    hands = tuple(tuple(sorted(h)) for q, h in enumerate(pos["hands"]) if q != seat)
    return (*hands, tuple(pos["draw_pile"]))


def _line_fill(pos: dict[str, Any], seat: int, key: Key) -> dict[str, Any]:
    out = json.loads(json.dumps(pos))
    others = iter(key[:-1])
    out["hands"] = [h if q == seat else list(next(others)) for q, h in enumerate(pos["hands"])]
    out["draw_pile"] = list(key[-1])
    return out


def _rummy_hidden(pos: dict[str, Any], seat: int) -> Key:
    hands = tuple(tuple(sorted(set(h) - set(pos["known"][q])))
                  for q, h in enumerate(pos["hands"]) if q != seat)
    return (*hands, tuple(pos["pile"]))


def _rummy_fill(pos: dict[str, Any], seat: int, key: Key) -> dict[str, Any]:
    out = json.loads(json.dumps(pos))
    others = iter(key[:-1])
    out["hands"] = [h if q == seat else list(pos["known"][q]) + list(next(others))
                    for q, h in enumerate(pos["hands"])]
    out["pile"] = list(key[-1])
    return out


def _lineit_hidden(pos: dict[str, Any], seat: int) -> Key:
    return (tuple(pos["deck"]),)


def _lineit_fill(pos: dict[str, Any], seat: int, key: Key) -> dict[str, Any]:
    return {**pos, "deck": list(key[0])}


HIDDEN: dict[str, tuple[Callable[[dict[str, Any], int], Key],
                        Callable[[dict[str, Any], int, Key], dict[str, Any]]]] = {
    "line": (_line_hidden, _line_fill),
    "rummy432": (_rummy_hidden, _rummy_fill),
    "lineit": (_lineit_hidden, _lineit_fill),
}


def _keys(cards: list[Any], shape: Key) -> Iterator[Key]:
    """Every way to put ``cards`` into places shaped like ``shape`` (sets, then a
    sequence last), each once."""
    if len(shape) == 1:
        yield from ((p,) for p in sorted(set(itertools.permutations(cards))))
        return
    for chosen in sorted(set(itertools.combinations(sorted(cards), len(shape[0])))):
        rest = list(cards)
        for c in chosen:
            rest.remove(c)
        for tail in _keys(rest, shape[1:]):
            yield (chosen, *tail)


def consistent_worlds(env: Any, seat: int) -> list[Key]:
    """Every assignment of the unseen cards to the hidden places of the position that
    loads and shows ``seat`` its real View: the worlds ``seat`` cannot tell apart."""
    game = env.unwrapped.game
    pos = env.unwrapped.state_json()
    hidden, fill = HIDDEN[game.name]
    real = hidden(pos, seat)
    view = game.view(env.unwrapped.state, seat)
    out = []
    for key in _keys([c for place in real for c in place], real):
        try:
            loaded = game.from_json(fill(pos, seat, key))
        except InvalidStateError:
            continue
        if game.view(loaded, seat) == view:
            out.append(key)
    assert real in out
    return out


def sampled(env: Any, agent: str, seed: int, draws: int = DRAWS) -> Counter[Key]:
    """How often each world comes out of ``draws`` worlds of ``sample_worlds``."""
    game = env.unwrapped.game
    hidden = HIDDEN[game.name][0]
    seat = env.possible_agents.index(agent)
    return Counter(hidden(w, seat) for w in env.unwrapped.sample_worlds(agent, draws, seed=seed))


def fit(counts: Counter[Key], probs: dict[Key, float]) -> float:
    """The chi-square goodness-of-fit p-value of ``counts`` against ``probs`` (every
    sampled world must be one of ``probs``)."""
    assert set(counts) <= set(probs), set(counts) - set(probs)
    total = sum(counts.values())
    keys = sorted(probs)
    expected = np.array([probs[k] for k in keys]) * total
    observed = np.array([counts.get(k, 0) for k in keys])
    assert expected.min() >= 5, "too few draws for a chi-square test"
    return float(chisquare(observed, expected / expected.sum() * observed.sum()).pvalue)


def uniform(worlds: list[Key]) -> dict[Key, float]:
    return {k: 1 / len(worlds) for k in worlds}


def _load(obj: dict[str, Any], **kw: Any) -> Any:
    env = cardenvs.make(f"{obj['game']}_v0", num_players=obj["num_players"], **obj["options"], **kw)
    env.reset(options={"state": obj})
    return env


# ------------------------------------------------------------------------------ Line
# No full row holds a joker and only row 4 is a complete run, so a card has a move
# exactly when it can be played, or shift into row 4 (4d, 9d).  All four jokers are
# face up in the discard pile: the unseen cards are distinct.
ROWS = [["2c", "3c"], ["Th", "Tc"], ["Ks", "Qs", "Js"], ["5d", "6d", "7d", "8d"]]
ROWS_OPEN = [["2c", "3c"], ["9h", "9d"], ["Ks", "Qs", "Js"], ["5d", "6d", "7d"]]
JOKERS = ["X"] * 4


def _card(text: str) -> int:
    return parse_card(text, allow_joker=True)


def _probe(game: LineGame, pos: dict[str, Any], c: str, seat: int) -> Any:
    """The position with ``seat`` to move in phase turn, holding only ``c``."""
    s = game.from_json(pos)
    s.hands = [[] for _ in s.hands]
    s.hands[seat] = [_card(c)]
    s.current, s.phase, s.pending, s.legal = seat, 0, None, None
    return s


def has_move(game: LineGame, pos: dict[str, Any], c: str, seat: int) -> bool:
    """Whether a player holding ``c`` could play, upgrade or shift it (the rules' words)."""
    return bool(game.turn_moves(_probe(game, pos, c, seat)))


def playable(game: LineGame, pos: dict[str, Any], c: str) -> bool:
    """Whether ``c`` could be played into a row (a drawn card that must go down)."""
    return bool(game.playable_rows(game.from_json(pos), _card(c)))


def test_line_turn_worlds_are_uniform() -> None:
    # player_0 to move with a draw pile: nothing is known of player_1's 3 cards
    env = _load(line_pos.position(rows=ROWS_OPEN, hands=[["Kh"], ["2h", "Ac", "3h"]],
                                  draw=["4h", "9s", "5h"], discard=JOKERS, fill="discard"))
    worlds = consistent_worlds(env, 0)
    assert len(worlds) == comb(6, 3) * 6
    assert fit(sampled(env, "player_0", 1), uniform(worlds)) > P_MIN


@pytest.mark.parametrize("phase", ["place_drawn", "over"])
def test_line_forced_player_worlds_are_uniform(phase: str) -> None:
    # player_1 (to move) drew a card that must go down, or could not move at all: their
    # hidden cards have no move; every such deal is equally likely
    over = phase == "over"
    hands = [["Kh"], ["2h", "3h"], ["Ac", "4h", "9s", "5h"]] if over else [["Kh"], ["2h", "3h", "4h"]]
    env = _load(line_pos.position(rows=ROWS_OPEN, hands=hands, current=1, phase=phase,
                                  draw=[] if over else ["5h", "Ac", "9s"],
                                  pending=None if over else "8d",
                                  discard=[*JOKERS, "Ad"], fill="discard"))
    pos = env.unwrapped.state_json()
    worlds = consistent_worlds(env, 0)
    game = env.unwrapped.game
    assert all(not has_move(game, pos, c, 1) for w in worlds for c in w[0])
    assert len(worlds) == (comb(4, 2) if over else comb(4, 3) * 6)
    assert fit(sampled(env, "player_0", 2), uniform(worlds)) > P_MIN


def _discard_weights(game: LineGame, pos: dict[str, Any], worlds: list[Key], cur: int) -> dict[Key, float]:
    """docs/beliefs.md, Line, a drawing opponent in phase discard: with ``u`` unseen
    cards that cannot be played, ``b`` of them with no move at all and ``m`` hidden
    cards in the hand, a hand of ``m`` moveless cards weighs ``m b / (b - m + 1)``
    against 1 for a hand with one card that shifts or upgrades (when ``b >= m``)."""
    unseen = [c for place in _line_hidden(pos, 0) for c in place]
    b = sum(not has_move(game, pos, c, cur) for c in unseen)
    m = len(worlds[0][0])
    assert b >= m
    weight = {k: (m * b / (b - m + 1) if all(not has_move(game, pos, c, cur) for c in k[0]) else 1.0)
              for k in worlds}
    total = sum(weight.values())
    return {k: w / total for k, w in weight.items()}


def test_line_discard_worlds_favour_the_all_dead_hand() -> None:
    # player_1 drew, could not place the card and holds 8: before the draw no hidden
    # card had a move.  Unseen: 8 cards with no move (the 7 hearts, Kd), 4d (no play,
    # but a shift into row 4: it may only be the drawn card), Ac (playable)
    env = _load(line_pos.position(
        rows=ROWS, hands=[["Kh"], ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "Kd"]],
        draw=["4d", "Ac"], discard=JOKERS, fill="discard", current=1, phase="discard"))
    game = env.unwrapped.game
    pos = env.unwrapped.state_json()
    assert has_move(game, pos, "4d", 1) and not playable(game, pos, "4d")
    worlds = consistent_worlds(env, 0)
    assert len(worlds) == 9 * 2  # the 8 dead cards, or 7 of them and 4d; the pile's 2 orders
    probs = _discard_weights(game, pos, worlds, 1)
    counts = sampled(env, "player_0", 3)
    assert fit(counts, probs) > P_MIN
    assert fit(counts, uniform(worlds)) < 1e-9  # not uniform over the consistent worlds
    dead = sum(c for k, c in counts.items() if "4d" not in k[0]) / DRAWS
    assert abs(dead - 8 / 9) < 0.02  # b / u


def test_line_discard_worlds_the_sampler_gets_wrong_are_drawn_again() -> None:
    # as above with exactly 7 moveless cards: the hand is them and 4d or 9d.  The rules'
    # sampler deals a hand that cannot have drawn in about 7/9 * 1/2 of its draws;
    # sample_worlds draws those again, which leaves the consistent worlds uniform
    env = _load(line_pos.position(
        rows=ROWS, hands=[["Kh"], ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "4d"]],
        draw=["9d", "Ac", "4c"], discard=JOKERS, fill="discard", current=1, phase="discard"))
    game = env.unwrapped.game
    view = game.view(env.unwrapped.state, 0)
    rng = np.random.default_rng(0)
    refused = 0
    for _ in range(300):
        try:
            game.from_json(game.to_json(game.sample_state(view, rng)))
        except InvalidStateError:
            refused += 1
    assert 0.25 < refused / 300 < 0.55
    worlds = consistent_worlds(env, 0)
    assert len(worlds) == 2 * 6
    assert fit(sampled(env, "player_0", 4), uniform(worlds)) > P_MIN


def _empty_pile_weights(game: LineGame, pos: dict[str, Any], worlds: list[Key], cur: int,
                        seat: int) -> dict[Key, float]:
    """docs/beliefs.md, Line, an opponent to move with no pile and no take: ``N``
    unseen cards, ``G`` of them with a move, ``m`` hidden in the mover's hand ``H``
    holding ``g(H)`` good ones: ``P(H) = 1/C(N, m) + q g(H) / (G C(N-1, m-1))``,
    ``q = C(N-G, m) / C(N, m)``."""
    unseen = [c for place in _line_hidden(pos, seat) for c in place]
    idx = cur - 1 if cur > seat else cur  # the mover's place in a key
    big_n, m = len(unseen), len(worlds[0][idx])
    good = {c for c in unseen if has_move(game, pos, c, cur)}
    q = comb(big_n - len(good), m) / comb(big_n, m)
    probs = {k: 1 / comb(big_n, m) + q * len(good & set(k[idx])) / (len(good) * comb(big_n - 1, m - 1))
             for k in worlds}
    assert abs(sum(probs.values()) - 1) < 1e-9
    return probs


def test_line_empty_pile_worlds_favour_hands_with_more_moves() -> None:
    # player_1 must move with no draw pile and no take, so one of their 2 cards has a
    # move (8d or 9s); player_2 holds the other 4 unseen cards
    env = _load(line_pos.position(
        rows=ROWS_OPEN, hands=[["Kh"], ["8d", "2h"], ["9s", "3h", "4h", "5h"]],
        discard=[*JOKERS, "Ad"], fill="discard", current=1))
    game = env.unwrapped.game
    pos = env.unwrapped.state_json()
    worlds = consistent_worlds(env, 0)
    assert len(worlds) == comb(6, 2) - comb(4, 2)
    probs = _empty_pile_weights(game, pos, worlds, 1, 0)
    counts = sampled(env, "player_0", 5)
    assert fit(counts, probs) > P_MIN
    assert fit(counts, uniform(worlds)) < 1e-9


# ---------------------------------------------------------------------------- Rummy


def _rummy(hands: list[str], pile: str, known: list[str], **kw: Any) -> dict[str, Any]:
    """A position with every card not in a hand or the pile in the discard pile."""
    used = {c for h in hands for c in rummy_pos.cards(h)} | set(rummy_pos.cards(pile))
    discard = " ".join(card_str(c) for c in range(52) if card_str(c) not in used)
    return rummy_pos.position(hands, discard, pile=pile, known=known, pack="three", **kw)


def test_rummy_worlds_are_uniform() -> None:
    # each opponent holds 4 known cards (taken from the discard) and 2 unseen ones
    env = _load(_rummy(["Ac Ad Ah 2c 2d 2h", "3c 3d 3h 4c Kc Kd", "5c 5d 5h 6c Kh Ks"], "Qc Qd",
                       known=["", "3c 3d 3h 4c", "5c 5d 5h 6c"], turn=12))
    worlds = consistent_worlds(env, 0)
    assert len(worlds) == comb(6, 2) * comb(4, 2) * 2
    counts = sampled(env, "player_0", 6, draws=DRAWS * 2)
    assert fit(counts, uniform(worlds)) > P_MIN


def test_rummy_worlds_ignore_that_a_finisher_holds_complete_groups() -> None:
    # player_1 finished (their hand is three 7s and three Ks: complete), but the deal is
    # uniform over their 3 unseen cards: only 1 hand in 20 is complete
    env = _load(_rummy(["Ac Ad Ah 2c 2d 2h", "7c 7d 7h Kc Kd Kh"], "2s 5d 9s",
                       known=["", "7c 7d 7h"], finished_by=1, last_turns_left=[0], turn=9))
    game = env.unwrapped.game
    assert game.evaluate(game.from_json(env.unwrapped.state_json()).hands[1]).complete
    worlds = consistent_worlds(env, 0)
    assert len(worlds) == comb(6, 3) * 6
    worlds_json = env.unwrapped.sample_worlds("player_0", DRAWS, seed=7)
    counts = Counter(_rummy_hidden(w, 0) for w in worlds_json)
    assert fit(counts, uniform(worlds)) > P_MIN
    complete = sum(game.evaluate([parse_card(c) for c in w["hands"][1]]).complete for w in worlds_json)
    assert abs(complete / DRAWS - 1 / 20) < 0.015


def test_rummy_worlds_put_the_buried_discards_in_card_order() -> None:
    env = cardenvs.make("rummy432_v0", num_players=2)
    env.reset(seed=3)
    for _ in _play(env, np.random.default_rng(3), steps=60):
        pass
    real = env.unwrapped.state_json()["discard"]
    for w in env.unwrapped.sample_worlds("player_0", 3, seed=0):
        assert w["discard"][-1] == real[-1]
        buried = [parse_card(c) for c in w["discard"][:-1]]
        assert buried == sorted(buried) and sorted(w["discard"]) == sorted(real)


# -------------------------------------------------------------------------- Line-it


def test_lineit_deck_orders_are_uniform() -> None:
    # late in a 4-player game the deck holds a few cards; their order is all that is hidden
    env = cardenvs.make("lineit_v0", num_players=4)
    env.reset(seed=0)
    for _ in _play(env, np.random.default_rng(0)):
        if 3 <= len(env.unwrapped.state_json()["deck"]) <= 5:
            break
    deck = env.unwrapped.state_json()["deck"]
    assert 3 <= len(deck) <= 5
    worlds = consistent_worlds(env, 2)
    assert len(worlds) == len(set(itertools.permutations(deck)))
    assert fit(sampled(env, "player_2", 8), uniform(worlds)) > P_MIN


# --------------------------------------------------------------------------- errors


def test_errors_say_what_is_allowed() -> None:
    env = cardenvs.make("line_v0", num_players=3)
    with pytest.raises(RuntimeError, match=r"reset\(\) before sample_worlds"):
        env.unwrapped.sample_worlds("player_0", 1)
    with pytest.raises(RuntimeError, match=r"reset\(\) before information"):
        env.unwrapped.information("player_0")
    env.reset(seed=0)
    for bad in ("player_3", "player0", 0, None):
        with pytest.raises(ValueError, match="the agents are player_0, player_1, player_2"):
            env.unwrapped.sample_worlds(bad, 1)
        with pytest.raises(ValueError, match="the agents are player_0, player_1, player_2"):
            env.unwrapped.information(bad)
    for bad_n in (0, -1, 1.0, 2.5, "3", True, None):
        with pytest.raises(ValueError, match=r"n must be an int >= 1"):
            env.unwrapped.sample_worlds("player_0", bad_n)
    for bad_seed in (1.5, "7", True, [1, 2]):
        with pytest.raises(TypeError, match="seed must be None, an int >= 0 or a numpy Generator"):
            env.unwrapped.sample_worlds("player_0", 1, seed=bad_seed)
    with pytest.raises(ValueError, match="seed must be None, an int >= 0"):
        env.unwrapped.sample_worlds("player_0", 1, seed=-1)
    assert len(env.unwrapped.sample_worlds("player_0", np.int64(2), seed=np.int64(1))) == 2
    assert len(env.sample_worlds("player_0", 1, seed=0)) == 1  # through the wrapper too


# ----------------------------------------------------------- determinism, isolation


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_gives_the_same_worlds(name: str) -> None:
    env = cardenvs.make(name, num_players=3)
    env.reset(seed=5)
    u = env.unwrapped
    first = u.sample_worlds("player_1", 4, seed=11)
    assert u.sample_worlds("player_1", 4, seed=11) == first
    assert u.sample_worlds("player_1", 4, seed=np.random.default_rng(11)) == first
    assert u.sample_worlds("player_1", 4, seed=12) != first
    rng = np.random.default_rng(11)  # a Generator is drawn from, and advanced
    assert u.sample_worlds("player_1", 2, seed=rng) + u.sample_worlds("player_1", 2, seed=rng) == first
    assert len({json.dumps(w, sort_keys=True) for w in first}) > 1


def _global_key() -> np.ndarray:
    """The key of numpy's global (legacy) generator: changed by any draw from it."""
    return np.asarray(cast(Any, np.random.get_state())[1])


@pytest.mark.parametrize("name", GAMES)
def test_sampling_leaves_the_environment_as_it_was(name: str) -> None:
    # two environments reset alike; one is asked for worlds and information at every
    # step: both must then see the same observations, draws, states and samples.
    # Rummy's short rounds reshuffle and re-deal with the environment's generator.
    opts = {"max_turns_per_round": 6, "run_out_limit": 2} if name == "rummy432_v0" else {}
    envs = [cardenvs.make(name, num_players=3, **opts) for _ in range(2)]
    for e in envs:
        e.reset(seed=9)
    global_state = np.array(_global_key())
    trace: list[list[Any]] = [[], []]
    for i, e in enumerate(envs):
        for k, agent in enumerate(e.agent_iter(max_iter=150)):
            if i == 0 and k % 3 == 0:
                e.unwrapped.sample_worlds(agent, 2)
                e.unwrapped.sample_worlds(agent, 2, seed=k)
                e.unwrapped.information(agent)
            obs, _, term, trunc, _ = e.last()
            action = None if term or trunc else e.action_space(agent).sample(obs["action_mask"])
            trace[i].append((agent, obs["observation"].tobytes(), action, e.unwrapped.state_json()))
            e.step(action)
    assert trace[0] == trace[1]
    assert np.array_equal(_global_key(), global_state)  # no global RNG used
    if name == "rummy432_v0":
        assert trace[0][-1][3]["round"] > 1 or trace[0][-1][3]["run_outs"] > 0
