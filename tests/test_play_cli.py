"""The terminal game ``python -m agents.play``: scripted input, never a traceback.

Bad input (garbage, out-of-range numbers, illegal moves) gets a clear message and the
same prompt; ``hint``, ``help`` and ``board`` answer and ask again; a whole game played
by always typing ``1`` (or the coach's top move) ends with the result; ``quit`` and the
end of the input leave with status 1; bad options are a clear error with status 2.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cardenvs
from agents.programs.play import main, play

ROOT = Path(__file__).resolve().parents[1]
ENVS = list(cardenvs.ENVS)
PROMPT = "your move> "


class Forever(io.StringIO):
    """A stdin that answers the same line forever (and counts the reads)."""

    def __init__(self, line: str) -> None:
        super().__init__()
        self.line = line
        self.reads = 0

    def readline(self, *args: object) -> str:  # type: ignore[override]  # a text stream's readline
        self.reads += 1
        return self.line


def run(env_name: str, script: str | io.StringIO, seed: int = 1, coach: bool = False,
        players: int | None = 2, opponents: str = "planner") -> tuple[int, str]:
    stdin = io.StringIO(script) if isinstance(script, str) else script
    out = io.StringIO()
    rc = play(env_name, players, opponents, seed, coach, stdin=stdin, stdout=out)
    return rc, out.getvalue()


def first_prompt_state(env_name: str, seed: int = 1) -> tuple[str, list[str]]:
    """The table text and numbered moves shown at the first prompt."""
    rc, text = run(env_name, "quit\n", seed)
    assert rc == 1
    head = text.split(PROMPT)[0]
    moves = [line.split(". ", 1)[1] for line in head.splitlines()
             if line.strip()[:1].isdigit() and ". " in line]
    return head, moves


def answers(text: str) -> list[str]:
    """What was written after each prompt (up to the next prompt)."""
    return text.split(PROMPT)[1:]


@pytest.mark.parametrize("env_name", ENVS)
def test_quit_returns_1(env_name: str) -> None:
    rc, text = run(env_name, "quit\n")
    assert rc == 1
    assert text.count(PROMPT) == 1
    assert "bye" in text
    assert "Traceback" not in text


@pytest.mark.parametrize("env_name", ENVS)
def test_end_of_input_leaves_like_quit(env_name: str) -> None:
    rc, text = run(env_name, "")
    assert rc == 1
    assert "bye" in text


@pytest.mark.parametrize("env_name", ENVS)
def test_bad_input_gets_a_message_and_the_same_prompt(env_name: str) -> None:
    head, moves = first_prompt_state(env_name)
    assert moves, "the legal moves are listed, numbered"
    n = len(moves)
    bad = ["hello world", "0", str(n + 1), "99999", "-3", "1.5", "²", "play", "!!",
           "é" * 40, "draw draw draw"]
    rc, text = run(env_name, "\n".join(bad) + "\nquit\n")
    assert rc == 1
    assert "Traceback" not in text
    replies = answers(text)
    assert len(replies) == len(bad) + 1, "every bad line gets the same prompt again"
    for line, reply in zip(bad, replies):
        msg = reply.strip()
        assert msg, f"no message for {line!r}"
        assert "Error" not in msg.split(":")[0], f"raw exception for {line!r}: {msg}"
    assert f"choose a number from 1 to {n}" in replies[1]
    assert f"choose a number from 1 to {n}" in replies[2]
    # the table is not reprinted for bad input: the turn has not moved on
    assert text.count("    1. ") == head.count("    1. ") == 1


# a move that parses but is not legal at the first prompt of seed 1 (2 players)
ILLEGAL = {
    "line_v0": "take r4",
    "lineit_v0": "play 57",
    "rummy432_v0": "throw 7c",
}


@pytest.mark.parametrize("env_name", ENVS)
def test_illegal_move_text_is_refused(env_name: str) -> None:
    _, moves = first_prompt_state(env_name)
    move = ILLEGAL[env_name]
    assert move not in moves
    game = cardenvs.game_class(env_name)(2)
    game.str_to_action(move)  # it does parse
    rc, text = run(env_name, f"{move}\nquit\n")
    assert rc == 1
    reply = answers(text)[0]
    assert "not legal now" in reply
    assert len(answers(text)) == 2


@pytest.mark.parametrize("env_name", ENVS)
def test_help_hint_board(env_name: str) -> None:
    head, moves = first_prompt_state(env_name)
    rc, text = run(env_name, "help\nhint\nboard\n\nquit\n")
    assert rc == 1
    assert "Traceback" not in text
    replies = answers(text)
    assert len(replies) == 5
    assert "commands:" in replies[0] and "hint" in replies[0] and "quit" in replies[0]
    lines = [line for line in replies[1].splitlines() if line.strip()]
    hint_lines = [line for line in lines if not line.strip().startswith("equally good:")]
    assert 1 <= len(hint_lines) <= 5
    for line in hint_lines:
        move = line.split("] ", 1)[1].split("  (")[0]
        assert move in moves, f"hint {move!r} is not a listed legal move"
        number = int(line.split("[", 1)[1].split("]")[0])
        assert moves[number - 1] == move, "the hint gives the move's number in the list"
    for line in lines:  # equal moves are shown together, each with its number
        if line.strip().startswith("equally good:"):
            for part in line.split(":", 1)[1].split(", "):
                shown, move = part.strip()[1:].split("] ")
                assert moves[int(shown) - 1] == move
    # board prints the table and the numbered moves again
    assert moves[-1] in replies[2]
    assert replies[2].count(moves[0]) >= 1
    assert replies[3] == "" or replies[3].isspace()


@pytest.mark.parametrize("env_name", ENVS)
def test_move_by_text_is_accepted(env_name: str) -> None:
    _, moves = first_prompt_state(env_name)
    rc, text = run(env_name, f"{moves[-1]}\nquit\n")
    assert rc == 1
    assert "not legal" not in text and "cannot read" not in text
    assert text.count(PROMPT) >= 2


@pytest.mark.parametrize("env_name", ENVS)
def test_whole_game_typing_1(env_name: str) -> None:
    stdin = Forever("1\n")
    rc, text = run(env_name, stdin, seed=3)
    assert rc == 0
    assert "Traceback" not in text
    assert "game over" in text
    assert "winner:" in text.splitlines()[-1]
    # why, in the table face's words: a comparison naming the winner (unless the game was cut off)
    end = text[text.rindex("game over"):]
    if "turn cap reached" not in end:
        why = end[end.index("  why: "):end.index("winner:")]
        assert " beat " in why or " share " in why, end
    assert stdin.reads == text.count(PROMPT)


class FollowHint(io.StringIO):
    """Asks for a ``hint``, then types the text of the coach's first advice, and so on."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.asked = False
        self.moves = 0

    def readline(self, *args: object) -> str:  # type: ignore[override]  # a text stream's readline
        if not self.asked:
            self.asked = True
            return "hint\n"
        self.asked = False
        self.moves += 1
        reply = self.out.getvalue().split(PROMPT)[-2]  # what the hint printed
        first = next(line for line in reply.splitlines() if line.strip())
        return first.split("] ", 1)[1].split("  (")[0] + "\n"


@pytest.mark.parametrize("env_name", ENVS)
def test_whole_game_following_the_coach(env_name: str) -> None:
    """Three players; type the coach's top move (its text) at every turn, coach commenting."""
    out = io.StringIO()
    stdin = FollowHint(out)
    rc = play(env_name, 3, "greedy", 5, True, stdin=stdin, stdout=out)
    text = out.getvalue()
    assert rc == 0
    assert "Traceback" not in text and "not legal" not in text and "cannot read" not in text
    assert text.count("coach agrees") == stdin.moves
    assert "game over" in text
    assert "winner:" in text.splitlines()[-1]


def test_main_reports_bad_options_without_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["line_v0", "--players", "9"]) == 2
    captured = capsys.readouterr()
    assert "num_players" in captured.err and "Traceback" not in captured.err + captured.out
    assert main(["rummy432_v0", "--opponents", "grandmaster"]) == 2
    assert "grandmaster" in capsys.readouterr().err


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    return subprocess.run([sys.executable, "-m", "agents.programs.play", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=ROOT, env=env)


def test_subprocess_quit() -> None:
    res = _cli("line_v0", "--seed", "1", stdin="quit\n")
    assert res.returncode == 1, res.stderr
    assert PROMPT in res.stdout and "bye" in res.stdout
    assert "Traceback" not in res.stdout + res.stderr


def test_subprocess_bad_players() -> None:
    res = _cli("line_v0", "--players", "9", stdin="quit\n")
    assert res.returncode == 2
    assert "num_players" in res.stderr and "2..4" in res.stderr
    assert "Traceback" not in res.stdout + res.stderr


def test_subprocess_unknown_game() -> None:
    res = _cli("chess_v9", stdin="quit\n")
    assert res.returncode == 2
    assert "invalid choice" in res.stderr
    assert "Traceback" not in res.stdout + res.stderr


def test_subprocess_undecodable_line_asks_again() -> None:
    """A strictly decoding stdin and a line that is not UTF-8: say so, ask again."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)}
    res = subprocess.run([sys.executable, "-m", "agents.programs.play", "line_v0", "--seed", "1"],
                         input=b"\xff\xfe garbage\nquit\n", capture_output=True, timeout=120,
                         cwd=ROOT, env=env)
    out = res.stdout.decode()
    assert res.returncode == 1, res.stderr.decode()
    assert "could not read that line" in out
    assert out.count(PROMPT) == 2 and "bye" in out
    assert "Traceback" not in out + res.stderr.decode()


def test_rummy_rounds_end_with_a_summary_of_every_hand() -> None:
    rc, text = run("rummy432_v0", Forever("1\n"), seed=2, players=3)
    assert rc == 0
    summaries = text.split("=== round ")[1:]
    assert len(summaries) >= 3  # three rounds won at least, one summary each
    first = summaries[0]
    assert first.startswith("1 over: ")
    assert all(f"player_{i} " in first for i in range(3))  # every hand is shown ...
    assert "groups " in first and "<- wins the round" in first  # ... its groups, the winner
    assert "why: " in first and "rounds won: You " in first


@pytest.mark.parametrize("env_name", ENVS)
def test_rules_command_prints_the_rules_for_a_player(env_name: str) -> None:
    rc, text = run(env_name, "rules\nquit\n")
    assert rc == 1
    reply = answers(text)[0]
    assert "## 1. The rules for a player" in reply and "## 2." not in reply
    assert f"docs/rules/{cardenvs.game_class(env_name).name}.md" in reply


def test_your_draw_or_take_names_the_card_that_came_into_your_hand() -> None:
    rc, text = run("rummy432_v0", "1\n2\nquit\n", seed=3)  # draw, then throw
    assert rc == 1
    line = next(x for x in text.splitlines() if "into your hand:" in x)
    card = line.split("into your hand:")[1].strip()
    assert len(card.split()) == 1 and card[-1] in "cdhs"


def test_line_take_shift_and_upgrade_say_how_the_rows_changed() -> None:
    rc, text = run("line_v0", Forever("1\n"), seed=5, players=3)
    assert rc == 0
    lines = text.splitlines()
    rearranging = [i for i, x in enumerate(lines) if x.split(": ", 1)[-1].startswith(("take", "shift"))
                   and x.startswith("player_")]
    assert rearranging  # the opponents took or shifted at least once in this game
    for i in rearranging:
        follow = lines[i + 1]
        assert follow.startswith("  r") and " -> " in follow, follow
