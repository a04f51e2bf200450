"""agents.evaluate: any policy against ladder levels, seats alternating on the same deals,
scores with Wilson intervals and a rating on the ladder's openskill scale; and plain
functions of the observation dict as players in play_game and the tournament."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import agents
import cardenvs
from agents.evaluation.evaluator import POLICY_LABEL, SB3Policy, Score, ladder_scale, main, schedule
from agents.evaluation.tournament import entrant_labels, tournament, wilson
from agents.players.knowledge import Reference, spec
from agents.players.trained import policy_path
from cardenvs.core.loop import PlayerLike

ROOT = Path(__file__).resolve().parents[2]


def first_legal(obs):  # a plain function of the observation dict
    return int(np.flatnonzero(obs["action_mask"])[0])


def test_schedule_alternates_seats_on_the_same_deals() -> None:
    ms = schedule("line_v0", POLICY_LABEL, ["greedy", "random"], games=4, players=2, seed=10, options={})
    by_level = {lvl: [m for m in ms if lvl in m.seats] for lvl in ("greedy", "random")}
    for lvl, games in by_level.items():
        assert [m.seed for m in games] == [10, 10, 11, 11]
        assert [m.seats.index(POLICY_LABEL) for m in games] == [0, 1, 0, 1]
        assert all(set(m.seats) == {POLICY_LABEL, lvl} for m in games)
    three = schedule("line_v0", POLICY_LABEL, ["greedy"], games=6, players=3, seed=0, options={})
    assert [m.seed for m in three] == [0, 0, 0, 1, 1, 1]
    assert [m.seats.index(POLICY_LABEL) for m in three] == [0, 1, 2, 0, 1, 2]
    fresh = schedule("line_v0", POLICY_LABEL, ["greedy"], games=4, players=2, seed=10, options={},
                     duplicate=False)
    assert [m.seed for m in fresh] == [10, 11, 12, 13]


def test_duplicate_deals_round_games_up_to_whole_deals() -> None:
    res = agents.evaluate(first_legal, "lineit_v0", against=["random"], games=5, players=3, progress=False,
                          verbose=False, control_variates=False)
    s = res.scores["random"]
    assert (res.games, s.games, s.deals, s.method) == (6, 6, 2, "duplicate")


def test_a_plain_function_scores_with_intervals_and_a_rating(capsys: pytest.CaptureFixture[str]) -> None:
    res = agents.evaluate(first_legal, "line_v0", against=["random", "greedy"], games=16, progress=False)
    out = capsys.readouterr().out
    assert "first_legal on line_v0, 2 players" in out and "| random | 16 |" in out
    for level in ("random", "greedy"):
        s = res.scores[level]
        assert s.games == 16 and s.wins + s.shared + s.losses == 16 and s.deals == 8
        assert s.method == "duplicate+control variates"
        assert s.low <= s.share <= s.high and s.plain_low <= s.plain_share <= s.plain_high
        assert s.plain_share == pytest.approx((s.wins + 0.5 * s.shared) / 16) or s.shared
    # the plain estimator of old: a new deal every game, Wilson's interval over games
    old = agents.evaluate(first_legal, "line_v0", against=["random", "greedy"], games=16, progress=False,
                          verbose=False, duplicate=False, control_variates=False)
    for s in old.scores.values():
        assert (s.method, s.deals, s.variance_ratio) == ("plain", 16, 1.0)
        assert (s.low, s.high) == pytest.approx(wilson(s.share, 16)) and s.share == s.plain_share
    assert res.rating is not None and res.rating.games == 32
    scale = ladder_scale("line_v0", 2)
    assert scale is not None and res.rating.reference is scale
    assert res.rating.mu < scale.ratings["greedy"][0]  # far below greedy
    assert "Rating on the ladder's scale" in out


def test_same_seed_same_result_in_one_or_two_processes() -> None:
    a = agents.evaluate(first_legal, "lineit_v0", against=["greedy"], games=6, progress=False, verbose=False)
    b = agents.evaluate(first_legal, "lineit_v0", against=["greedy"], games=6, workers=2, progress=False,
                        verbose=False)
    assert a.scores == b.scores and a.rating == b.rating


def test_every_kind_of_policy_is_accepted() -> None:
    kw: dict[str, Any] = {"against": ["random"], "games": 4, "progress": False, "verbose": False}
    shipped = policy_path("line_v0")
    for policy in (first_legal, agents.make_agent("line_v0", "greedy", seed=1), "planner", str(shipped),
                   f"policy:{shipped}", shipped):
        res = agents.evaluate(policy, "line_v0", **kw)
        assert res.scores["random"].games == 4
    # a level evaluated as the policy scores like the ladder's own measurement
    level = agents.evaluate("greedy", "line_v0", against=["random"], games=8, progress=False, verbose=False)
    policy_like = agents.evaluate(agents.make_agent("line_v0", "greedy"), "line_v0", against=["random"],
                                  games=8, progress=False, verbose=False)
    assert level.scores["random"].games == policy_like.scores["random"].games == 8


@pytest.mark.train
def test_sb3_models_and_files(tmp_path: Path) -> None:
    """A flat MaskablePPO model plays from the env's dict and in evaluate; every kind of SB3
    model the docs train, move by move: tests/agents/test_evaluate_sb3.py."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    import gymnasium
    import torch

    torch.set_num_threads(1)
    env = gymnasium.make("cardenvs/Line-v0", opponents="random")
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0,
                                    policy_kwargs={"net_arch": [16]})
    player = SB3Policy(model)
    pz = __import__("cardenvs").make("line_v0")
    pz.reset(seed=0)
    obs = pz.observe(pz.agent_selection)
    assert obs["action_mask"][player.act(obs)] == 1
    res = agents.evaluate(model, "line_v0", against=["random"], games=4, workers=2, progress=False,
                          verbose=False)
    assert res.policy == "MaskablePPO" and res.scores["random"].games == 4
    path = tmp_path / "model.zip"
    model.save(path)
    again = agents.evaluate(str(path), "line_v0", against=["random"], games=4, progress=False, verbose=False)
    assert again.scores == res.scores  # the same network plays the same moves


@pytest.mark.parametrize("kwargs, match", [
    ({"games": 0}, "games must be a positive int"),
    ({"workers": 0}, "workers must be a positive int"),
    ({"against": ["grandmaster"]}, "against takes level names"),
    ({"against": ["greedy", "greedy"]}, "twice"),
    ({"against": []}, "against is empty"),
    ({"players": 9}, "num_players"),
])
def test_bad_arguments_are_clear_errors(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        agents.evaluate(first_legal, "line_v0", progress=False, verbose=False, **kwargs)


def test_bad_policies_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="neither a level of line_v0"):
        agents.evaluate("no/such/file.npz", "line_v0", against=["random"], games=2, verbose=False)
    with pytest.raises(TypeError, match="policy must be"):
        agents.evaluate(42, "line_v0", against=["random"], games=2, verbose=False)
    with pytest.raises(ValueError, match="is the level 'greedy' itself"):
        agents.evaluate("greedy", "line_v0", against=["greedy"], games=2, verbose=False)


def test_an_illegal_move_names_the_move() -> None:
    with pytest.raises(ValueError, match="illegal|not legal"):
        agents.evaluate(lambda obs: 4013, "line_v0", against=["random"], games=2, progress=False,
                        verbose=False)


def test_no_rating_where_the_ladder_has_none() -> None:
    res = agents.evaluate(first_legal, "rummy432_v0", against=["random"], games=2, players=2,
                          progress=False, verbose=False, max_turns_per_round=40, rounds_to_win=1)
    assert res.rating is None
    assert "default options, not rounds_to_win=1, max_turns_per_round=40" in res.unrated
    same = agents.evaluate(first_legal, "line_v0", against=["random"], games=2, progress=False, verbose=False,
                           joker_points=25)  # the default value: still the ladder's table
    assert same.rating is not None
    res = agents.evaluate(first_legal, "line_v0", against=["trained"], games=2, progress=False, verbose=False)
    assert res.rating is None and "published rating" in res.unrated


def test_the_ladder_scale_is_the_published_tables() -> None:
    """Each game's ladder scale (its knowledge's ``ladder_scale``) holds the ratings of
    docs/results/<env>_<n>p.md (mu, 2 sigma / 2)."""
    found = {}
    for path in sorted((ROOT / "docs" / "results").glob("*_[0-9]p.md")):
        named = re.match(r"(.+)_(\d)p\.md", path.name)
        assert named is not None
        env, n = named.groups()
        text = path.read_text()
        rows = re.findall(r"^\| (\w+) \| [\d.]+% \| \[.*?\] \| \d+ \| [-+\d.]+ \| ([-\d.]+) ± ([\d.]+) \|",
                          text, re.M)
        found[(env, int(n))] = {lvl: (float(mu), float(two) / 2) for lvl, mu, two in rows}
        scale = ladder_scale(env, int(n))
        assert scale is not None and scale.source == f"docs/results/{path.name}"
    published = {(env, n): ref.ratings for env in cardenvs.ENVS for n, ref in spec(env).ladder_scale.items()}
    assert found == published, (
        "docs/results/<env>_<n>p.md changed: copy its ratings into the game's SPEC (ladder_scale) "
        "in agents/games/")


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, js = tmp_path / "t.md", tmp_path / "t.json"
    assert main(["greedy", "--env", "line_v0", "--against", "random", "--games", "4", "--no-progress",
                 "--out", str(out), "--json", str(js)]) == 0
    printed = capsys.readouterr().out
    assert "| random | 4 |" in printed and out.read_text() in printed
    data = json.loads(js.read_text())
    assert data["scores"]["random"]["games"] == 4 and data["rating"]["source"].endswith("line_v0_2p.md")
    with pytest.raises(SystemExit):
        main(["nonsense", "--env", "line_v0", "--games", "2"])
    assert "neither a level" in capsys.readouterr().err


# ------------------------------------------------------------ callables in the other tools


def test_play_game_and_the_tournament_take_plain_functions() -> None:
    players: list[PlayerLike] = [first_legal, agents.make_agent("line_v0", "random", seed=0)]
    result = agents.play_game("line_v0", players, seed=3)
    assert sorted(result.rewards) in ([-1.0, 1.0], [0.0, 0.0])
    labels, objects = entrant_labels(["greedy", first_legal, first_legal])
    assert labels == ["greedy", "first_legal", "first_legal#2"] and set(objects) == set(labels[1:])
    for workers in (1, 2):
        rep = tournament("line_v0", ["random", first_legal], players=2, games=4, workers=workers,
                         progress=False)
        assert rep.levels == ["random", "first_legal"] and rep.overall["first_legal"][1] == 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_rating_fit_recovers_a_known_mu(players: int) -> None:
    from agents.evaluation.evaluator import BETA, _fit_mu

    levels = np.array([10.0, 25.0, 31.0])
    sigmas = np.array([1.0, 0.8, 1.2])
    c = np.sqrt(BETA**2 + (players - 1) * (sigmas**2 + BETA**2))
    for mu in (5.0, 27.0, 40.0):
        p = np.exp(mu / c) / (np.exp(mu / c) + (players - 1) * np.exp(levels / c))
        assert _fit_mu(p, np.full(3, 1e8), levels, sigmas, players) == pytest.approx(mu, abs=1e-3)


def test_the_rating_rests_on_the_reduced_scores() -> None:
    from agents.evaluation.evaluator import _rate

    ref = Reference("x.md", 100, {"greedy": (25.0, 1.0), "planner": (28.0, 1.0)})

    def score(level: str, share: float, half: float) -> Score:
        return Score(share=share, low=share - half, high=share + half, plain_share=0.5, plain_low=0.4,
                     plain_high=0.6, games=200, deals=100, variance_ratio=2.0,
                     method="duplicate+control variates", level=level, wins=100, shared=0, losses=100,
                     truncated=0, mean_reward=0.0, players=2)

    strong = _rate([score("greedy", 0.7, 0.05), score("planner", 0.6, 0.05)], ref, 2, seed=0)
    weak = _rate([score("greedy", 0.3, 0.05), score("planner", 0.2, 0.05)], ref, 2, seed=0)
    # the plain shares are the same (0.5): only the reduced ones differ
    assert strong[0] > 28.0 > 25.0 > weak[0] and strong[2] == weak[2] == 400
    narrow = _rate([score("greedy", 0.7, 0.01), score("planner", 0.6, 0.01)], ref, 2, seed=0)
    assert 0 < narrow[1] < strong[1]  # a narrower interval, a smaller sigma
    assert _rate([score("trained", 0.7, 0.05)], ref, 2, seed=0)[2] == 0


def test_a_tournaments_intervals_are_over_its_deals() -> None:
    from agents.evaluation.estimate import mean_interval
    from agents.evaluation.tournament import Match, MatchResult, analyse

    # deal d: the first seat wins both rotations when d is even (each level wins once: the
    # deal scores 0.5), the second seat when d is odd but for deal 1, where "a" wins twice
    results = []
    for d in range(6):
        for seats in (("a", "b"), ("b", "a")):
            first_wins = d % 2 == 0 if d != 1 else seats[0] == "a"
            results.append(MatchResult(Match("line_v0", seats, d), [1.0, 0.0] if first_wins else [0.0, 1.0],
                                       10, False))
    rep = analyse(results, ["a", "b"])
    per_deal = [0.5, 1.0, 0.5, 0.5, 0.5, 0.5]  # a's points averaged over each deal's rotations
    share, lo, hi, _ = mean_interval(per_deal)
    assert rep.pairwise[("a", "b")] == pytest.approx((share, 12, lo, hi))
    assert rep.pairwise[("b", "a")] == pytest.approx((1 - share, 12, 1 - hi, 1 - lo))
    assert rep.overall["a"][:4] == pytest.approx((share, 12, lo, hi))
    assert hi - lo < wilson(share, 12)[1] - wilson(share, 12)[0]  # the games as if independent: wider
    assert "interval over deals" in rep.markdown()


def test_the_corrections_cpu_is_stated_and_flagged_where_it_costs_more_than_it_saves() -> None:
    import dataclasses
    import time

    from agents.measure import play_corrected

    # a value that burns CPU: the corrector's part of the game's CPU is at least what it burned
    burned = []

    def slow_uniform(game: Any, states: Any) -> np.ndarray:
        t = time.process_time()
        while time.process_time() - t < 0.002:
            pass
        burned.append(time.process_time() - t)
        n = game.num_players
        out = np.full((len(states), n), 1.0 / n)
        for i, s in enumerate(states):
            if game.is_terminal(s):
                r = game.returns(s)
                win = np.array([x == max(r) for x in r], float)
                out[i] = win / win.sum()
        return out

    game = cardenvs.game_class("lineit_v0")(2)
    rng = np.random.default_rng(0)
    state = game.new_state(rng)
    players = [agents.make_agent("lineit_v0", "random", seed=s) for s in (1, 2)]
    done = play_corrected(game, state, players, rng, slow_uniform, samples=2)
    assert len(burned) > 3 and sum(burned) <= done.correction_seconds <= done.seconds

    res = agents.evaluate(first_legal, "lineit_v0", against=["greedy"], games=4, progress=False,
                          verbose=False)
    s = res.scores["greedy"]
    assert 0 < s.correction_seconds < s.seconds and s.overhead == pytest.approx(
        s.seconds / (s.seconds - s.correction_seconds))
    data: Any = res.to_dict()
    assert data["cpu"]["greedy"]["overhead"] == s.overhead and "seconds" not in data["scores"]["greedy"]
    # the note appears exactly where the CPU factor exceeds the variance ratio
    for ratio, flagged in ((s.overhead * 2, False), (s.overhead / 2, True)):
        res.scores["greedy"] = dataclasses.replace(s, variance_ratio=ratio)
        assert ("cost more CPU than they took out" in res.markdown()) is flagged
        assert f"| {s.overhead:.1f}x |" in res.markdown()
    plain = agents.evaluate(first_legal, "lineit_v0", against=["greedy"], games=4, progress=False,
                            verbose=False, control_variates=False)
    assert plain.scores["greedy"].overhead == 1.0 and "| – |" in plain.markdown()


def test_a_tournament_with_coupled_draws() -> None:
    from agents.evaluation.tournament import schedule as round_robin

    ms = round_robin("line_v0", ["greedy", "planner", "random"], 2, 4, coupled_draws=True)
    assert len(ms) == 12 and all(m.coupled_draws for m in ms)
    assert not any(m.coupled_draws for m in round_robin("line_v0", ["greedy", "random"], 3, 3))
    coupled = tournament("line_v0", ["greedy", "planner"], games=8, progress=False, coupled_draws=True)
    shared = tournament("line_v0", ["greedy", "planner"], games=8, progress=False)
    assert coupled.pairwise.keys() == shared.pairwise.keys() and coupled.games == shared.games == 8
    assert coupled.pairwise != shared.pairwise  # the same deals, other draws after the first turn
    with pytest.raises(ValueError, match="coupled_draws is True or False"):
        round_robin("line_v0", ["greedy", "random"], 2, 2, coupled_draws="yes")  # type: ignore[arg-type]
