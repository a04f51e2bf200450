"""Play a game in the terminal against named computer opponents::

    python -m agents.play <env> --players 3 --opponents planner --seed 4 --coach

You sit in seat 0. The table is printed from your seat with the legal moves numbered;
type a number or the move in the game's notation (``play 7s r2``, ``throw 9h``...),
``rules`` for the rules of the game (from its rules document, shipped in the package as
``cardenvs/<game>/RULES.md``), ``hint`` for the coach's ranked advice with reasons,
``board`` to print the table again, ``help`` for the commands, ``quit`` to leave. Bad
input gets a message and the same prompt.
"""

from __future__ import annotations

import argparse
import importlib.resources
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

import numpy as np

import cardenvs
from cardenvs.core.cards import card_str
from cardenvs.core.game import Game
from cardenvs.core.loop import Turn
from cardenvs.core.loop import play as play_loop

from ..cli import HelpFormatter, prog
from ..players.coach import Coach
from ..players.ladder import LEVELS, opponents
from ..types import S, V


class Quit(Exception):
    """The person left the table (``quit`` or the end of the input)."""


class TerminalPlayer:
    """Seat 0 played by a person at the terminal: reads moves, answers commands."""

    name = "You"

    def __init__(self, env_name: str, read: Callable[[], str | None], out: TextIO,
                 table: Callable[[], str], coach: Coach | None, comment: bool,
                 names: Sequence[str] | None = None) -> None:
        self.env_name = env_name
        self.names = names  # the players' names by seat: how the coach's reasons name seats
        self.read = read
        self.out = out
        self.table = table
        self.coach = coach
        self.comment = comment

    def choose(self, game: Game[S, V], view: V, legal: list[int]) -> int:
        """Show the table and the numbered moves; ask until a legal move is given."""
        self._show(game, legal)
        while True:
            line = self._prompt("your move> ")
            if line is None or line.lower() in ("quit", "exit", "q"):
                raise Quit
            action = self._answer(game, view, legal, line)
            if action is not None:
                if self.comment and self.coach is not None:
                    self.out.write(f"  {self.coach.comment_view(game, view, legal, action)}\n")
                return action

    def _show(self, game: Game[S, V], legal: list[int]) -> None:
        self.out.write("\n" + self.table() + "\n")
        for i, a in enumerate(legal, 1):
            self.out.write(f"  {i:>3}. {game.action_to_str(a)}\n")

    def _prompt(self, text: str) -> str | None:
        self.out.write(text)
        self.out.flush()
        try:
            line = self.read()
        except UnicodeDecodeError:
            return "\x00undecodable"
        return None if line is None else line.strip()

    def _answer(self, game: Game[S, V], view: V, legal: list[int], line: str) -> int | None:
        """The move ``line`` names, or ``None`` after answering a command or an error."""
        low = line.lower()
        if not line:
            return None
        if line == "\x00undecodable":
            self.out.write("  could not read that line (not valid text); type a move again\n")
            return None
        if low == "help":
            self.out.write("commands: a number from the list, a move such as "
                           f"'{game.action_to_str(legal[0])}', hint, board, rules, quit\n")
            return None
        if low == "board":
            self._show(game, legal)
            return None
        if low == "rules":
            self.out.write(rules_text(self.env_name) + "\n")
            return None
        if low == "hint":
            self._hint(game, view, legal)
            return None
        try:
            return _parse_move(game, legal, line)
        except ValueError as err:
            self.out.write(f"  {err}\n")
            return None

    def _hint(self, game: Game[S, V], view: V, legal: list[int]) -> None:
        if self.coach is None:
            self.coach = Coach(self.env_name, names=self.names)
        for k, adv in enumerate(self.coach.advise_view(game, view, legal, top=5, group=True), 1):
            number = legal.index(adv.action) + 1 if adv.action in legal else "?"
            self.out.write(f"  {k}. [{number}] {adv.move}  ({adv.value:+.2f})  {adv.reason}\n")
            if adv.equals:
                others = ", ".join(f"[{legal.index(game.str_to_action(m)) + 1}] {m}" for m in adv.equals)
                self.out.write(f"       equally good: {others}\n")


def rules_text(env_name: str) -> str:
    """The rules for a player of ``env_name``: section 1 of the rules document its kit
    names (shipped in the package, e.g. ``cardenvs/line/RULES.md``), and where it is."""
    kit = cardenvs.entry(env_name)
    try:
        text = kit.rules_text()
    except (OSError, ValueError) as err:
        return f"  the rules document of {kit.title} ({kit.rules}) could not be read: {err}"
    if text is None or kit.rules is None:
        return f"  {kit.title} has no rules document"
    package, _, name = kit.rules.partition(":")
    # resolved: in a clone the package file is a link to docs/rules/<game>.md
    path = Path(str(importlib.resources.files(package).joinpath(name))).resolve()
    start = text.find("## 1.")
    end = text.find("\n## 2.", start)
    body = text[start:end] if start >= 0 else text
    return body.strip() + f"\n\n(all of it, with the notation and positions: {path})"


def _parse_move(game: Game[S, V], legal: list[int], line: str) -> int:
    """A legal action from a move number or move text (``ValueError`` saying what is wrong)."""
    if line.isdecimal() and line.isascii():
        k = int(line)
        if not 1 <= k <= len(legal):
            raise ValueError(f"choose a number from 1 to {len(legal)}")
        return legal[k - 1]
    action = game.str_to_action(line)
    if action not in legal:
        raise ValueError(f"'{game.action_to_str(action)}' is not legal now")
    return action


def play(
    env_name: str,
    players: int | None = None,
    opponents_level: str = "planner",
    seed: int | None = None,
    coach: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    **options: object,
) -> int:
    """Run one interactive game; returns 0 when it ends normally, 1 on ``quit``."""
    inp = stdin or sys.stdin
    out = stdout or sys.stdout

    def read() -> str | None:
        line = inp.readline()
        return line if line else None

    game = cardenvs.game_class(env_name)(players, **options)
    n = game.num_players
    bots = opponents(env_name, opponents_level, n - 1, seed=seed)
    names = ["You"] + [b.name for b in bots]
    rng = np.random.default_rng(seed)
    state = game.new_state(rng)
    person = TerminalPlayer(env_name, read, out, lambda: game.render(state, 0),
                            Coach(env_name, names=names) if coach else None, coach, names)
    face = cardenvs.entry(env_name).table_face()
    out.write(f"{env_name}: " + ", ".join(f"player_{i} {names[i]}" for i in range(n)) + "\n")
    out.write("type a move number or its text; 'hint', 'board', 'rules', 'help', 'quit'\n\n")

    def said(turn: Turn) -> None:
        if turn.seat != 0:
            out.write(f"player_{turn.seat} {names[turn.seat]}: {game.action_to_str(turn.action)}\n")

    def results(turn: Turn) -> None:
        now = game.view(turn.state, 0)
        if turn.seat == 0:
            out.write(new_cards(turn.view, now))
        out.write(changed_rows(turn.view, now, game.action_to_str(turn.action)))
        judged = face.round_result(game, turn.state)
        if judged is not None:
            out.write(face.round_text(judged, names))

    try:
        play_loop(game, state, [person, *bots], rng, on_move=said, after_move=results)
    except Quit:
        out.write("bye\n")
        return 1
    _result(game, state, names, out, face.game_why(game, state, names) if game.is_terminal(state) else [])
    return 0


def new_cards(before: object, after: object) -> str:
    """A line naming the cards that came into your hand with your move (a draw or a
    take), for games whose View has a ``hand`` of standard card ids; else nothing."""
    if not hasattr(before, "hand") or not hasattr(after, "hand"):
        return ""
    came = list(after.hand)
    for c in before.hand:
        if c in came:
            came.remove(c)
    if not came:
        return ""
    return "  into your hand: " + " ".join(card_str(c) for c in came) + "\n"


#: moves that rearrange rows already on the table (Line's take, shift and upgrade)
_REARRANGING = ("take", "shift", "upgrade")


def changed_rows(before: object, after: object, move: str) -> str:
    """Words for the rows a take, shift or upgrade changed, before and after (for games
    whose View has public ``rows`` of standard card ids); else nothing."""
    if not move.startswith(_REARRANGING) or not hasattr(before, "rows") or not hasattr(after, "rows"):
        return ""
    lines = []
    for r, (old, new) in enumerate(zip(before.rows, after.rows), 1):
        if sorted(old) != sorted(new):
            was = " ".join(card_str(c) for c in old) or "empty"
            now = " ".join(card_str(c) for c in new) or "empty"
            lines.append(f"  r{r}: {was} -> {now}")
    return "".join(line + "\n" for line in lines)


def _result(game: Game[S, V], state: S, names: list[str], out: TextIO,
            why: list[str] | None = None) -> None:
    """The final table, rewards, why (the table face's deciding comparisons) and winners."""
    out.write("\n" + game.render(state, None) + "\n")
    ret = game.returns(state)
    infos = game.infos(state)
    out.write("game over" + (" (turn cap reached)" if not game.is_terminal(state) else "") + "\n")
    for i in range(game.num_players):
        out.write(f"  player_{i} {names[i]}: reward {ret[i]:+.0f}{_brief(infos[i])}\n")
    for k, sentence in enumerate(why or []):
        out.write(("  why: " if k == 0 else "       ") + sentence + "\n")
    if game.is_terminal(state):
        best = max(ret)
        winners = [names[i] for i in range(game.num_players) if ret[i] == best]
        out.write("winner: " + " and ".join(winners) + "\n")
    else:
        out.write("winner: none (the game was cut off)\n")


def _brief(info: dict[str, object]) -> str:
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
    name = prog("agents.play")  # cardenvs-play, or python -m agents.play
    about = (__doc__ or "").replace("::\n", ":\n").replace("python -m agents.play", name)
    ap = argparse.ArgumentParser(prog=name, description=about, formatter_class=HelpFormatter)
    ap.add_argument("env", choices=list(cardenvs.ENVS), help="the game")
    ap.add_argument("--players", type=int, default=None, help="seats (default: the game's default)")
    ap.add_argument("--opponents", default="planner",
                    help="level: " + ", ".join(LEVELS) + ", trained (where shipped) or policy:FILE.npz")
    ap.add_argument("--seed", type=int, default=None, help="the deal (default: a fresh one)")
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
