"""Play a game in the terminal against named computer opponents.

    python -m cardenvs.play line_v0 --players 3 --opponents planner --seed 4 --coach

You sit in seat 0. The table is printed from your seat with the legal moves numbered;
type a number or the move in RULES.md notation (``play 7s r2``, ``throw 9h``...),
``hint`` for the coach's ranked advice with reasons, ``board`` to print the table again,
``help`` for the commands, ``quit`` to leave. Bad input gets a message and the same prompt.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

import cardenvs


def _prompt(read: Callable[[], str | None], out: TextIO, text: str) -> str | None:
    out.write(text)
    out.flush()
    line = read()
    return None if line is None else line.strip()


def play(
    env_name: str,
    players: int | None = None,
    opponents: str = "planner",
    seed: int | None = None,
    coach: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    **options: Any,
) -> int:
    """Run one interactive game; returns 0 when it ends normally, 1 on ``quit``."""
    import agents

    inp = stdin or sys.stdin
    out = stdout or sys.stdout

    def read() -> str | None:
        line = inp.readline()
        return line if line else None

    game = cardenvs.game_class(env_name)(players, **options)
    n = game.num_players
    bots = agents.opponents(env_name, opponents, n - 1, seed=seed)
    names = ["You"] + [b.name for b in bots]
    advisor = agents.Coach(env_name) if coach else None
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    out.write(f"{env_name}: " + ", ".join(f"player_{i} {names[i]}" for i in range(n)) + "\n")
    out.write("type a move number or its text; 'hint', 'board', 'help', 'quit'\n\n")
    shown = False
    while not game.is_terminal(state) and not game.is_truncated(state):
        p = game.current_player(state)
        obs = {"observation": game.observe(state, p), "action_mask": game.legal_mask(state)}
        if p != 0:
            action = bots[p - 1].act(obs)
            out.write(f"player_{p} {names[p]}: {game.action_to_str(action)}\n")
            game.apply(state, action, rng)
            shown = False
            continue
        legal = game.legal_actions(state)
        if not shown:
            out.write("\n" + game.render(state, 0) + "\n")
            for i, a in enumerate(legal, 1):
                out.write(f"  {i:>3}. {game.action_to_str(a)}\n")
            shown = True
        line = _prompt(read, out, "your move> ")
        if line is None or line.lower() in ("quit", "exit", "q"):
            out.write("bye\n")
            return 1
        if not line:
            continue
        low = line.lower()
        if low == "help":
            out.write("commands: a number from the list, a move such as "
                      f"'{game.action_to_str(legal[0])}', hint, board, quit\n")
            continue
        if low == "board":
            shown = False
            continue
        if low == "hint":
            if advisor is None:
                advisor = agents.Coach(env_name)
            for k, adv in enumerate(advisor.advise(obs, top=5), 1):
                number = legal.index(adv.action) + 1 if adv.action in legal else "?"
                out.write(f"  {k}. [{number}] {adv.move}  ({adv.value:+.2f})  {adv.reason}\n")
            continue
        try:
            if line.isdecimal() and line.isascii():
                k = int(line)
                if not 1 <= k <= len(legal):
                    raise ValueError(f"choose a number from 1 to {len(legal)}")
                action = legal[k - 1]
            else:
                action = game.str_to_action(line)
            if action not in legal:
                raise ValueError(f"'{game.action_to_str(action)}' is not legal now")
        except ValueError as err:
            out.write(f"  {err}\n")
            continue
        if advisor is not None and coach:
            out.write(f"  {advisor.comment(obs, action)}\n")
        game.apply(state, action, rng)
        shown = False
    out.write("\n" + game.render(state, None) + "\n")
    ret = game.returns(state)
    infos = game.infos(state)
    out.write("game over" + (" (turn cap reached)" if not game.is_terminal(state) else "") + "\n")
    for i in range(n):
        out.write(f"  player_{i} {names[i]}: reward {ret[i]:+.0f}{_brief(infos[i])}\n")
    if game.is_terminal(state):
        best = max(ret)
        winners = [names[i] for i in range(n) if ret[i] == best]
        out.write("winner: " + " and ".join(winners) + "\n")
    else:
        out.write("winner: none (the game was cut off)\n")
    return 0


def _brief(info: dict[str, Any]) -> str:
    """The short entries of a player's end-of-game info (numbers, words, short lists)."""
    parts = []
    for key, value in info.items():
        if isinstance(value, (bool, int, float, str)) or (
            isinstance(value, (list, tuple)) and len(value) <= 8
            and all(isinstance(v, (bool, int, float, str)) for v in value)
        ):
            parts.append(f"{key} {value}")
    return ("  (" + ", ".join(parts) + ")") if parts else ""


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    import agents

    ap = argparse.ArgumentParser(prog="python -m cardenvs.play", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("env", choices=list(cardenvs.ENVS))
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--opponents", default="planner", help="level: " + ", ".join(agents.LEVELS))
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--coach", action="store_true", help="the coach comments on each of your moves")
    args = ap.parse_args(argv)
    try:
        return play(args.env, args.players, args.opponents, args.seed, args.coach)
    except (ValueError, KeyboardInterrupt) as err:
        if isinstance(err, KeyboardInterrupt):
            print("\nbye")
            return 130
        print(f"error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
