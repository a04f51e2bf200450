"""The demo: computer players play a rendered game, and the coach comments on seat 0.

    python -m agents.demo                    # the first registered game, 3 players
    python -m agents.demo --env <env> --players 4 --seed 7 --quiet
"""

from __future__ import annotations

import argparse

import cardenvs
from cardenvs.core.loop import Turn

from ..cli import HelpFormatter, prog
from ..evaluation.arena import play_between
from ..players.coach import Coach
from ..players.ladder import cast, make_agent


def main(argv: list[str] | None = None) -> None:
    """Play one demo game and print it move by move."""
    name = prog("agents.demo")  # cardenvs-demo, or python -m agents.demo
    ap = argparse.ArgumentParser(prog=name, formatter_class=HelpFormatter,
                                 description="Computer players play a rendered game; the coach comments on "
                                             "player_0's moves.",
                                 epilog=f"examples:\n  {name}\n  {name} --env {list(cardenvs.ENVS)[-1]} "
                                        "--players 4 --seed 7 --quiet")
    ap.add_argument("--env", default=next(iter(cardenvs.ENVS)), choices=list(cardenvs.ENVS), help="the game")
    ap.add_argument("--players", type=int, default=3, help="seats at the table")
    ap.add_argument("--seed", type=int, default=1, help="the deal")
    ap.add_argument("--quiet", action="store_true", help="print only the moves, not every table")
    args = ap.parse_args(argv)

    names = cast(args.env)
    ladder = ["greedy", "planner", "expert", "random", "planner"]
    # every seat is a computer player; the coach watches seat 0, a greedy player, so
    # that it has something to say
    seats = []
    for i in range(args.players):
        level = ladder[i % len(ladder)]
        seats.append(make_agent(args.env, level, seed=args.seed + i,
                                name=f"{names[i % len(names)]} ({level})"))
    coach = Coach(args.env, level="planner")
    game = cardenvs.game_class(args.env)(args.players)
    print(f"{args.env}: " + ", ".join(f"player_{i} = {a.name}" for i, a in enumerate(seats))
          + "; the coach comments on player_0's moves")

    def on_move(turn: Turn) -> None:
        if not args.quiet:
            print(game.render(turn.state, None))
        line = f"player_{turn.seat} {seats[turn.seat].name}: {game.action_to_str(turn.action)}"
        if turn.seat == 0:
            line += f"\n    {coach.comment_view(game, turn.view, turn.legal, turn.action)}"
        print(line + ("\n" if not args.quiet else ""))

    result = play_between(game, seats, seed=args.seed, on_move=on_move)
    print("=" * 60)
    print(f"game over after {result.steps} moves; rewards {result.rewards}")
    for i, info in enumerate(result.infos):
        print(f"  player_{i} {seats[i].name}: reward {result.rewards[i]:+.0f}  {_summary(info, i)}")
    print("winner(s): " + ", ".join(f"player_{w} {seats[w].name}" for w in result.winners))


def _summary(info: dict[str, object], seat: int) -> str:
    """One line of a seat's final info (hand totals, scores or round results)."""
    rr = info.get("round_result")
    if isinstance(rr, dict):  # a game of rounds: the JSON result of the last one
        hand = rr["hands"][seat]
        return (f"rounds won {rr['scores'][seat]}; last hand {' '.join(hand['cards'])} "
                f"shape {hand['shape']} {'complete' if hand['complete'] else 'incomplete'}")
    return ", ".join(f"{k} {v}" for k, v in info.items() if k != "winners")


if __name__ == "__main__":
    main()
