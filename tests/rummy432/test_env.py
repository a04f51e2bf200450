"""The PettingZoo face of Rummy 4x3x2's: what is particular to it (other packs, docs, rendering).

The checks every game keeps run in ``tests/core/test_contract.py`` (``cardenvs.testing``)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest

from cardenvs import rummy432_v0, testing
from cardenvs.rummy432.rules import Rummy432Game

from .positions import position

CONFIGS = [
    (n, pack, hs)
    for n in (2, 3, 4, 5)
    for pack, hs in (("four", 8), ("three", 9), ("mixed", 6))
] + [(2, "four", 12), (3, "three", 12), (3, "mixed", 12)]


@pytest.mark.parametrize("n,pack,hs", CONFIGS)
def test_api_and_seed_under_other_packs(n: int, pack: str, hs: int) -> None:
    """The kit's API and seed checks under the packs and hand sizes beside the default
    (which tests/core/test_contract.py runs at every seat count)."""
    options = {"pack": pack, "hand_size": hs, "max_turns_per_round": 60}
    testing.check_api("rummy432_v0", n, quick=True, options=options)
    testing.check_seed("rummy432_v0", n, quick=True, options=options)


def _table(doc: str, header: str) -> list[list[str]]:
    lines = doc.splitlines()
    i = next(k for k, line in enumerate(lines) if line.strip() == header)
    rows = []
    for line in lines[i + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def test_action_table_covers_ids() -> None:
    rows = _table(rummy432_v0.__doc__, "| actions | ids | meaning |")
    nxt = 0
    g = Rummy432Game()
    for name, ids, _ in rows:
        a, b = (int(x) for x in ids.split(".."))
        assert a == nxt and b >= a
        assert all(g.action_to_str(i).split()[0] == name for i in range(a, b + 1))
        nxt = b + 1
    assert nxt == g.num_actions == 106
    assert f"(float32, ({Rummy432Game.observation_size()},))" in rummy432_v0.__doc__.replace("Box", "")


def test_observation_and_mask_through_env() -> None:
    env = rummy432_v0.env(num_players=3)
    env.reset(seed=3)
    g = env.unwrapped.game
    for _ in range(60):
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        seat = int(agent.split("_")[1])
        assert np.array_equal(obs["observation"], g.encode(g.view(env.unwrapped.state, seat)))
        assert obs["action_mask"].dtype == np.int8
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.tolist() == g.legal_actions(env.unwrapped.state)
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(np.int64(legal[0]))  # numpy ints are accepted


def test_round_result_in_infos_and_final_rewards() -> None:
    env = rummy432_v0.env(num_players=2, rounds_to_win=2, max_turns_per_round=30)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    rounds: list[dict[str, Any]] = []
    last_rewards: dict[str, float] | None = None
    for _agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        if term or trunc:
            last_rewards = last_rewards or {a: env.unwrapped._cumulative_rewards[a] for a in env.agents}
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        if env.agents and "round_result" in env.infos[env.agents[0]]:
            res = env.infos[env.agents[0]]["round_result"]
            if not rounds or rounds[-1]["round"] != res["round"]:
                rounds.append(res)
    assert rounds and rounds[-1]["game_over"]
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1))
    assert last_rewards is not None and sorted(last_rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert not any(env.unwrapped.truncations.values())


def test_reset_from_state_and_render() -> None:
    obj = position(["7c 7d 7h 9c 9d Kc", "2c 3c 4c 5c 6c 8c"], "2s 9h", known=["", ""])
    env = rummy432_v0.env(num_players=2, hand_size=6, render_mode="ansi", render_viewer=0)
    env.reset(options={"state": obj})
    assert env.unwrapped.state_json() == {**obj, "round": 1, "turn": 0}
    text = env.unwrapped.render()
    assert "[7c 7d 7h] group of 3" in text and "loose" in text
    assert "2c" not in text.split("You")[0]  # the opponent's hand is hidden
    assert "Pile: 38 cards" in text and "Discard top: 9h" in text and "Run-outs: 0 of 3" in text
    env.step(env.unwrapped.str_to_action("take"))
    text = env.unwrapped.render()
    assert "9h*" in text and "not 9h" in text
    env.unwrapped.render_viewer = None
    text = env.unwrapped.render()
    assert "2c 3c 4c 5c 6c 8c" in text.replace("loose: ", "")


def test_render_mid_game_all_configs() -> None:
    for n, pack, hs in CONFIGS:
        g = Rummy432Game(n, pack=pack, hand_size=hs)
        rng = np.random.default_rng(n)
        s = g.new_state(rng)
        for _ in range(30):
            la = g.legal_actions(s)
            g.apply(s, la[int(rng.integers(len(la)))], rng)
        for viewer in [None, *range(n)]:
            text = g.render(s, viewer)
            assert "Scores:" in text and re.search(r"player_\d to", text)
