"""Training pipeline audit: what a cloned policy learns from is what it sees when it plays.

* Imitation labels line up with their observations: each recorded move is legal in the
  recorded mask, is the teacher's choice from the recorded observation, and the
  observation is the mover's own, taken before the move.
* The numpy export plays exactly what the torch policy would, from every seat, with the
  masks applied the same way; the evaluation plays the file it just wrote.
* Behaviour cloning reports agreement on held-out games (not only on the positions it
  memorised) and keeps the best epoch; DAgger labels the student's own positions.
* Slow (``python3 dev.py soak``): a clone of ``greedy`` at high held-out agreement scores
  within a few points of ``greedy`` itself against the planner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import agents
import cardenvs
from agents.players.trained import NumpyPolicy, TrainedAgent
from cardenvs.core.loop import Turn, play
from experiments import train

ROOT = Path(__file__).resolve().parents[2]

ENVS = list(cardenvs.ENVS)


def _best_moves(env_name: str, teacher: str, game: Any, view: Any, legal: list[int]) -> set[int]:
    """Every move the heuristic ``teacher`` scores best from ``view`` (it breaks such ties at random)."""
    agent = agents.make_agent(env_name, teacher, seed=0)
    values = agent.values(game, view, legal)  # type: ignore[attr-defined]
    return {legal[i] for i in np.flatnonzero(values >= values.max() - 1e-9)}


# ------------------------------------------------------------------ teacher data
@pytest.mark.parametrize("env_name", ENVS)
def test_teacher_labels_are_the_teachers_legal_choice_from_the_recorded_observation(env_name: str) -> None:
    obs, masks, acts = train.teacher_data(env_name, 2, "greedy", 3, seed=11, options={})
    game = cardenvs.game_class(env_name)(2)
    assert obs.dtype == np.float32 and masks.dtype == bool and len(obs) == len(masks) == len(acts)
    seats = set()
    for o, m, a in zip(obs, masks, acts):
        legal = np.flatnonzero(m).tolist()
        assert m[a], "the label is illegal in its own mask"
        view = game.decode(o)
        seats.add(view.seat)
        # the mask is the legal moves of the observation's position, for the seat it belongs to
        state = game.sample_state(view, np.random.default_rng(0))
        assert game.current_player(state) == view.seat
        assert sorted(game.legal_actions(state)) == legal
        assert int(a) in _best_moves(env_name, "greedy", game, view, legal)
    assert seats == {0, 1}, "the data should cover both seats"


@pytest.mark.parametrize("env_name", ENVS)
def test_teacher_observations_are_the_movers_before_the_move(env_name: str) -> None:
    """Replaying the same seeded games: row k is ``observe(state, mover)`` before move k."""
    obs, masks, acts = train.teacher_data(env_name, 2, "greedy", 2, seed=5, options={})
    game = cardenvs.game_class(env_name)(2)
    rng = np.random.default_rng(5)
    seats = [agents.make_agent(env_name, "greedy", seed=5 + i) for i in range(2)]
    expect: list[tuple[np.ndarray, np.ndarray, int]] = []

    def record(turn: Turn) -> None:
        assert game.current_player(turn.state) == turn.seat
        expect.append((game.observe(turn.state, turn.seat), game.legal_mask(turn.state).astype(bool),
                       turn.action))

    for _ in range(2):
        play(game, game.new_state(rng), seats, rng, on_move=record)
    assert len(expect) == len(acts)
    for k, (o, m, a) in enumerate(expect):
        np.testing.assert_array_equal(obs[k], o, err_msg=f"observation {k}")
        np.testing.assert_array_equal(masks[k], m, err_msg=f"mask {k}")
        assert acts[k] == a, f"label {k} is not the move made from observation {k}"


def test_held_out_split_keeps_whole_games_at_the_end() -> None:
    obs = np.arange(20, dtype=np.float32)[:, None]
    data = (obs, np.ones((20, 3), bool), np.arange(20) % 3)
    fitted, held = train.split_held_out(data, 0.25)
    assert held is not None
    np.testing.assert_array_equal(fitted[0][:, 0], np.arange(15))
    np.testing.assert_array_equal(held[0][:, 0], np.arange(15, 20))
    assert train.split_held_out(data, 0.0) == (data, None)


# ------------------------------------------------------------------ export and play
def _model(env_name: str, seat: int, net_arch: list[int], scale: np.ndarray | None,
           relu: bool = False) -> Any:
    sb3c = pytest.importorskip("sb3_contrib")
    torch = pytest.importorskip("torch")
    from agents.learning.sparse_policy import fast_ppo_kwargs
    from cardenvs.core.wrappers import SingleAgentEnv

    torch.set_num_threads(1)
    game = cardenvs.game_class(env_name)(2)
    env = SingleAgentEnv(game, [agents.make_agent(env_name, "greedy", seed=1)], learner_seat=seat,
                         obs_scale=scale)
    kwargs: dict[str, Any] = {"net_arch": net_arch}
    if relu:
        kwargs["activation_fn"] = torch.nn.ReLU
    return sb3c.MaskablePPO(env=env, seed=3, n_steps=64, batch_size=32, **fast_ppo_kwargs(kwargs)), env


@pytest.mark.train
@pytest.mark.parametrize("env_name", ENVS)
@pytest.mark.parametrize("seat", [0, 1])
def test_exported_policy_plays_what_torch_plays_from_every_seat(env_name: str, seat: int,
                                                                tmp_path: Path) -> None:
    """The numpy file, fed the View as the play loop feeds it, picks torch's move on the
    scaled observation the learner saw in training, for each seat, mask included."""
    torch = pytest.importorskip("torch")
    from agents.players.trained import export_sb3
    from cardenvs.core.wrappers import observation_scale

    game = cardenvs.game_class(env_name)(2)
    scale = observation_scale(game, decisions=200)
    model, env = _model(env_name, seat, [32, 32], scale, relu=env_name == "line_v0")
    path = tmp_path / "p.npz"
    export_sb3(model, {"env": env_name}, scale).save(path)
    agent = TrainedAgent(env_name, path, seed=0)
    for episode in range(4):
        obs, _ = env.reset(seed=episode)
        for _ in range(12):
            state = env.state
            assert game.current_player(state) == seat
            view, legal = game.view(state, seat), game.legal_actions(state)
            raw = game.encode(view)  # what the play loop gives the trained agent
            np.testing.assert_allclose(raw * scale, obs, rtol=1e-6)  # what training fed the network
            mask = env.action_masks()
            with torch.no_grad():
                dist = model.policy.get_distribution(torch.as_tensor(obs[None]), action_masks=mask[None])
                want = dist.distribution.probs.numpy()[0]
            assert agent.policy is not None
            np.testing.assert_allclose(agent.policy.probabilities(raw, mask), want, atol=1e-5)
            move = agent.choose(game, view, legal)
            assert move == int(np.argmax(want)) and move in legal
            obs, _, done, trunc, _ = env.step(move)
            if done or trunc:
                break


@pytest.mark.train
def test_numpy_policy_matches_torch_on_random_inputs_and_masks(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from agents.players.trained import export_sb3

    game = cardenvs.game_class("lineit_v0")(2)
    rng = np.random.default_rng(0)
    scale = rng.uniform(0.01, 1.0, game.observation_size()).astype(np.float32)
    model, _ = _model("lineit_v0", 0, [16, 8], scale)
    path = tmp_path / "p.npz"
    export_sb3(model, {}, scale).save(path)
    pol = NumpyPolicy.load(path)
    raw = rng.uniform(0, 5, (64, game.observation_size())).astype(np.float32)
    masks = rng.random((64, game.num_actions)) < 0.05
    masks[np.arange(64), rng.integers(game.num_actions, size=64)] = True
    with torch.no_grad():
        want = model.policy.get_distribution(torch.as_tensor(raw * scale), action_masks=masks)
        want_p = want.distribution.probs.numpy()
    got = pol.probabilities(raw, masks)
    np.testing.assert_allclose(got, want_p, atol=1e-5)
    assert (got[~masks] == 0).all()
    np.testing.assert_array_equal(got.argmax(1), want_p.argmax(1))


class _TorchPlayer:
    """Plays the torch model's most probable legal move (the reference for the evaluation)."""

    def __init__(self, model: Any, scale: np.ndarray | None) -> None:
        self.model, self.scale = model, scale

    def choose(self, game: Any, view: Any, legal: list[int]) -> int:
        import torch

        obs = game.encode(view)
        if self.scale is not None:
            obs = obs * self.scale
        mask = np.zeros(game.num_actions, bool)
        mask[legal] = True
        with torch.no_grad():
            dist = self.model.policy.get_distribution(torch.as_tensor(obs[None]), action_masks=mask[None])
        return int(dist.distribution.probs.numpy()[0].argmax())


@pytest.mark.train
def test_evaluation_plays_the_policy_it_was_given(tmp_path: Path) -> None:
    """``train.evaluate`` on the exported file gives, game for game, what the torch model
    itself scores on the same deals and seats."""
    pytest.importorskip("torch")
    from agents.evaluation.tournament import Match, play_match
    from agents.players.trained import export_sb3
    from cardenvs.core.wrappers import observation_scale

    env_name = "line_v0"
    game = cardenvs.game_class(env_name)(2)
    scale = observation_scale(game, decisions=200)
    model, _ = _model(env_name, 0, [32], scale)
    path = tmp_path / "p.npz"
    export_sb3(model, {}, scale).save(path)
    games = 6
    rates = train.evaluate(env_name, 2, str(path), ["greedy"], games, seed=40, workers=1)
    score = 0.0
    for g in range(games):
        seats = ["greedy", "greedy"]
        seats[g % 2] = f"policy:{path}"
        match = Match(env_name, tuple(seats), 40 + g // 2)
        rng = np.random.default_rng(match.seed)
        players: list[Any] = [agents.make_agent(env_name, "greedy", seed=match.seed * 31 + i)
                              for i in range(2)]
        players[g % 2] = _TorchPlayer(model, scale)
        state = game.new_state(rng)
        play(game, state, players, rng)
        rewards = game.returns(state)
        assert rewards == play_match(match).rewards, f"game {g}"
        best = max(rewards)
        winners = [i for i, r in enumerate(rewards) if r == best]
        score += 1 / len(winners) if g % 2 in winners else 0.0
    assert rates["greedy"] == pytest.approx(score / games)


# ------------------------------------------------------------------ cloning
@pytest.mark.train
def test_imitation_reports_held_out_agreement_of_the_kept_epoch() -> None:
    pytest.importorskip("torch")
    data = train.teacher_data("line_v0", 2, "greedy", 12, seed=3, options={})
    fitted, held = train.split_held_out(data, 0.25)
    assert held is not None
    model, _ = _model("line_v0", 0, [32], None)
    result = train.imitate(model, fitted, epochs=3, batch=64, seed=0, held_out=held)
    assert 1 <= result.epoch <= 3 and result.held_out is not None
    assert result.held_out == pytest.approx(train.agreement(model, held))  # the kept parameters' score
    assert result.fitted == pytest.approx(train.agreement(model, fitted))
    assert result.fitted > 0.5


@pytest.mark.train
def test_dagger_labels_are_the_teachers_choice_on_the_students_positions(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from agents.players.trained import export_sb3

    env_name = "rummy432_v0"
    model, _ = _model(env_name, 0, [16], None)
    path = tmp_path / "student.npz"
    export_sb3(model, {}).save(path)
    (obs, masks, acts), on_policy = train.student_data(env_name, 2, "greedy", path, 2, seed=9, options={})
    game = cardenvs.game_class(env_name)(2)
    student = NumpyPolicy.load(path)
    seats, same = set(), 0
    for o, m, a in zip(obs, masks, acts):
        view = game.decode(o)
        seats.add(view.seat)
        legal = np.flatnonzero(m).tolist()
        assert m[a] and int(a) in _best_moves(env_name, "greedy", game, view, legal)
        same += int(np.argmax(student.probabilities(o, m))) == a
    assert seats == {0, 1}  # the student sat in each seat once
    assert on_policy == pytest.approx(same / len(acts))


# ------------------------------------------------------------------ strength (soak)
@pytest.mark.slow
@pytest.mark.train
@pytest.mark.parametrize(("env_name", "games", "epochs"), [("line_v0", 300, 6)])
def test_greedy_clone_plays_about_as_well_as_greedy(env_name: str, games: int, epochs: int,
                                                    tmp_path: Path) -> None:
    """Cloned from ``greedy`` through the training script's own path (scaled inputs, held-out
    early stopping, numpy export, ``policy:FILE`` in the tournament), the clone scores within
    a few points of ``greedy`` against the planner on the same deals and seats."""
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    export = tmp_path / "clone.npz"
    train.main(["--env", env_name, "--imitate", "greedy", "--imitate-games", str(games),
                "--imitate-epochs", str(epochs), "--steps", "0", "--n-envs", "1", "--net-arch", "256,256",
                "--eval-games", "2", "--eval-levels", "random", "--out", str(tmp_path / "run"),
                "--export", str(export)])
    n = 200
    clone = train.evaluate(env_name, 2, str(export), ["planner"], n, 10_000, 1)["planner"]
    teacher = _score_of("greedy", env_name, "planner", n, 10_000)
    assert clone >= teacher - 0.08, f"clone {clone:.3f} vs greedy {teacher:.3f} against the planner"


def _score_of(level: str, env_name: str, opponent: str, games: int, seed: int) -> float:
    """``level``'s win share against ``opponent``, seats alternating on the same deals as ``evaluate``."""
    from agents.evaluation.tournament import Match, run_matches

    matches = [Match(env_name, (level, opponent) if g % 2 == 0 else (opponent, level), seed + g // 2)
               for g in range(games)]
    score = 0.0
    for res in run_matches(matches, progress=False):
        me = res.match.seats.index(level)
        best = max(res.rewards)
        winners = [i for i, r in enumerate(res.rewards) if r == best]
        score += 1 / len(winners) if me in winners else 0.0
    return score / games
