"""The rules documents (``docs/rules/``) stay true to the code.

Each game's document holds one worked position (a ``json`` block) and, below it, the
legal moves the code lists for it (a ``text`` block): the position must load, list
exactly those moves and round-trip through JSON; every move written in the document in
backticks must parse in the game's notation.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import cardenvs

ROOT = Path(__file__).resolve().parents[1]
DOCS = {"line_v0": "line.md", "lineit_v0": "lineit.md", "rummy432_v0": "rummy432.md"}
VERBS = {"play", "upgrade", "shift", "take", "draw", "discard", "pick", "score", "pass", "throw", "finish"}


def _blocks(text: str, lang: str) -> list[str]:
    return [b for kind, b in re.findall(r"```(\w+)\n(.*?)```", text, re.S) if kind == lang]


@pytest.mark.parametrize("env_name", list(DOCS))
def test_worked_position_loads_and_lists_the_documented_moves(env_name: str) -> None:
    text = (ROOT / "docs" / "rules" / DOCS[env_name]).read_text()
    (position,) = _blocks(text, "json")
    (moves,) = _blocks(text, "text")
    obj = json.loads(position)
    game = cardenvs.game_class(env_name)(obj["num_players"], **obj.get("options", {}))
    state = game.from_json(obj)
    listed = sorted(m.strip() for m in re.split(r"\s{2,}|\n", moves.strip()) if m.strip())
    assert listed == sorted(game.action_to_str(a) for a in game.legal_actions(state))
    assert game.to_json(game.from_json(game.to_json(state))) == game.to_json(state)


@pytest.mark.parametrize("env_name", list(DOCS))
def test_every_move_written_in_the_document_parses(env_name: str) -> None:
    text = (ROOT / "docs" / "rules" / DOCS[env_name]).read_text()
    game = cardenvs.game_class(env_name)()
    # moves with their arguments (a bare verb in prose, like `take`, names a kind of move)
    moves = [m for m in re.findall(r"`([^`\n]+)`", text)
             if len(m.split()) > 1 and m.split()[0].lower() in VERBS and "<" not in m and "..." not in m]
    assert len(moves) >= 5
    for m in moves:
        game.str_to_action(m)  # raises NotationError naming the move if it does not parse


def test_the_index_links_every_game() -> None:
    index = (ROOT / "docs" / "rules" / "README.md").read_text()
    for name in DOCS.values():
        assert f"({name})" in index
