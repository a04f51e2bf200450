"""Golden traces: a seeded playthrough recorded move by move as JSON, and compared.

A trace holds, for every move of one game played through the AEC environment: the seat,
the action id and its notation, a digest of every seat's observation and of the mover's
mask; the position every few moves; each agent's reward, termination, truncation and
info at the end; and the final position.  Recording the same game again must give the
same trace; a trace saved with a commit shows, as a difference, any later change to the
rules, the observation, the notation or the JSON::

    trace = record_trace("line_v0", 2, seed=11)
    save_trace(trace, "line_2p.json")
    check_trace(load_trace("line_2p.json"))   # AssertionError naming the first difference

The moves are drawn at random by the mask from ``seed`` unless a ``policy(seat, obs)``
chooses them (the repository's golden files use ladder agents: ``tests/golden/record.py``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .checks import MAX_STEPS, QUICK_STEPS, contract_check
from .target import GameRef, resolve

#: chooses the move of ``seat`` from its observation dict (``env.last()[0]``)
Policy = Callable[[int, dict[str, Any]], int]


def digest(a: np.ndarray) -> str:
    """A short digest of an array's bytes."""
    return hashlib.sha1(np.ascontiguousarray(a).tobytes()).hexdigest()[:12]


def _plain(obj: Any) -> Any:
    """``obj`` as plain JSON data (what is not JSON becomes its ``str``)."""
    return json.loads(json.dumps(obj, default=str))


def record_trace(
    game: GameRef,
    players: int,
    seed: int = 0,
    *,
    policy: Policy | None = None,
    options: dict[str, Any] | None = None,
    every: int = 5,
    max_steps: int = 5000,
) -> dict[str, Any]:
    """Play one seeded game of ``game`` at ``players`` seats and return its trace (plain JSON
    data): ``{"game", "players", "seed", "options", "every", "events"}``; the events are
    ``{"state": ...}`` every ``every`` moves, ``{"move": [step, seat, action, notation,
    [observation digest of every seat], mask digest]}``, ``{"end": [agent, reward, term,
    trunc, info]}`` and last ``{"final": ...}``.  ``policy`` (default: random by the mask,
    drawn from ``seed``) picks the moves; it must be deterministic for the trace to be."""
    t = resolve(game, options)
    env = t.make(players)
    base = env.unwrapped
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    events: list[dict[str, Any]] = []
    step = 0
    for agent in env.agent_iter(max_steps):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            events.append({"end": [agent, float(reward), bool(term), bool(trunc), _plain(info)]})
            env.step(None)
            continue
        seat = base.possible_agents.index(agent)
        if step % every == 0:
            events.append({"state": _plain(base.state_json())})
        if policy is None:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        else:
            action = int(policy(seat, obs))
        seen = [digest(env.observe(a)["observation"]) for a in base.possible_agents]
        events.append(
            {"move": [step, seat, action, base.action_to_str(action), seen, digest(obs["action_mask"])]}
        )
        env.step(action)
        step += 1
    events.append({"final": _plain(base.state_json())})
    return {
        "game": t.name,
        "players": players,
        "seed": seed,
        "options": _plain(t.options),
        "every": every,
        "events": events,
    }


def trace_lines(trace: dict[str, Any]) -> list[str]:
    """The trace's events as text lines, one a move (the golden files' format)."""

    def js(obj: Any) -> str:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)

    out = []
    for event in trace["events"]:
        if "state" in event:
            out.append(f"state {js(event['state'])}")
        elif "move" in event:
            step, seat, action, text, seen, mask = event["move"]
            out.append(f"{step} p{seat} {action} {text} | {' '.join(seen)} | {mask}")
        elif "end" in event:
            agent, reward, term, trunc, info = event["end"]
            out.append(f"end {agent} reward {reward:+.3f} term {term} trunc {trunc} info {js(info)}")
        else:
            out.append(f"final {js(event['final'])}")
    return out


def save_trace(trace: dict[str, Any], path: str | Path) -> None:
    """Write a trace as JSON (one event a line, so a difference reads as a diff)."""
    head = {k: v for k, v in trace.items() if k != "events"}
    lines = [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in trace["events"]]
    body = ",\n".join(lines)
    Path(path).write_text(
        f'{json.dumps(head, sort_keys=True)[:-1]}, "events": [\n{body}\n]}}\n', encoding="utf-8"
    )


def load_trace(path: str | Path) -> dict[str, Any]:
    """Read a trace written by :func:`save_trace`."""
    trace: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
    return trace


def compare_traces(want: dict[str, Any], got: dict[str, Any], limit: int = 5) -> list[str]:
    """The differences between two traces (at most ``limit``), empty when they agree."""
    diffs = [
        f"{key}: {want.get(key)!r} != {got.get(key)!r}"
        for key in ("game", "players", "seed", "options")
        if want.get(key) != got.get(key)
    ]
    a, b = trace_lines(want), trace_lines(got)
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            diffs.append(f"event {i}: recorded {x[:160]!r}, now {y[:160]!r}")
        if len(diffs) >= limit:
            return diffs
    if len(a) != len(b):
        diffs.append(f"the recorded trace has {len(a)} events, now {len(b)}")
    return diffs[:limit]


def check_trace(trace: dict[str, Any], game: GameRef | None = None, *, policy: Policy | None = None) -> None:
    """Record the game of ``trace`` again (``game``: the game, default the trace's own
    name) and raise ``AssertionError`` naming the first differences."""
    again = record_trace(
        trace["game"] if game is None else game,
        trace["players"],
        trace["seed"],
        policy=policy,
        options=trace["options"] or None,
        every=trace["every"],
    )
    diffs = compare_traces(trace, again)
    assert not diffs, "the playthrough differs from its trace:\n" + "\n".join(diffs)


@contract_check
def check_golden(
    game: GameRef,
    players: int,
    *,
    quick: bool = False,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    path: str | Path | None = None,
) -> None:
    """A seeded playthrough is reproducible: recorded twice it gives the same trace, and
    the trace survives a JSON round trip.  With ``path``, it also equals the trace saved
    there (written first when the file does not exist)."""
    t = resolve(game, options)
    steps = QUICK_STEPS if quick else MAX_STEPS
    trace = record_trace(t, players, seed, max_steps=steps)
    again = record_trace(t, players, seed, max_steps=steps)
    diffs = compare_traces(trace, again)
    assert not diffs, "two recordings of the same seeded game differ:\n" + "\n".join(diffs)
    assert json.loads(json.dumps(trace)) == trace, "the trace is not plain JSON"
    if path is not None:
        if not Path(path).exists():
            save_trace(trace, path)
        diffs = compare_traces(load_trace(path), trace)
        assert not diffs, f"the playthrough differs from {path}:\n" + "\n".join(diffs)
