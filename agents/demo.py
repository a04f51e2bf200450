"""The demo: computer players play a rendered game, and the coach comments on seat 0.

    python -m agents.demo                    # Line, 3 players
    python -m agents.demo --env rummy432_v0 --players 4 --seed 7 --quiet
"""

from __future__ import annotations

import argparse
from typing import Any

import cardenvs

from .arena import play_game
from .ladder import CASTS, Coach, make_agent


def main(argv: list[str] | None = None) -> None:
    """Play one demo game and print it move by move."""
    ap = argparse.ArgumentParser(description="Agents play a rendered game; the coach comments.")
    ap.add_argument("--env", default="line_v0", choices=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quiet", action="store_true", help="print only the moves, not every table")
    args = ap.parse_args(argv)

    cast = CASTS[args.env]
    ladder = ["greedy", "planner", "expert", "random", "planner"]
    seats = [make_agent(args.env, "greedy", seed=args.seed, name="You (greedy)")]
    for i in range(args.players - 1):
        level = ladder[(i + 1) % len(ladder)]
        seats.append(make_agent(args.env, level, seed=args.seed + i + 1, name=f"{cast[i % len(cast)]} ({level})"))
    coach = Coach(args.env, level="planner")
    print(f"{args.env}: " + ", ".join(f"player_{i} = {a.name}" for i, a in enumerate(seats)))

    def on_move(seat: int, move: str, env: Any) -> None:
        if not args.quiet:
            print(env.game.render(env.state, None))
        line = f"player_{seat} {seats[seat].name}: {move}"
        if seat == 0:
            obs = {"observation": env.game.observe(env.state, 0), "action_mask": env.game.legal_mask(env.state)}
            line += f"\n    {coach.comment(obs, env.game.str_to_action(move))}"
        print(line + ("\n" if not args.quiet else ""))

    result = play_game(args.env, seats, seed=args.seed, on_move=on_move)
    print("=" * 60)
    print(f"game over after {result.steps} moves; rewards {result.rewards}")
    for i, info in enumerate(result.infos):
        print(f"  player_{i} {seats[i].name}: reward {result.rewards[i]:+.0f}  {_summary(info, i)}")
    print("winner(s): " + ", ".join(f"player_{w} {seats[w].name}" for w in result.winners))


def _summary(info: dict[str, Any], seat: int) -> str:
    """One line of a seat's final info (hand totals, scores or round results)."""
    rr = info.get("round_result")
    if rr is not None:
        hand = rr["hands"][seat]
        return (f"rounds won {rr['scores'][seat]}; last hand {' '.join(hand['cards'])} "
                f"shape {hand['shape']} {'complete' if hand['complete'] else 'incomplete'}")
    return ", ".join(f"{k} {v}" for k, v in info.items() if k != "winners")


if __name__ == "__main__":
    main()
