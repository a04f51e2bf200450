"""Size and game-knowledge of the code: the largest files, the longest functions, and how
often the generic floors name a game.

    python -m experiments.code_stats            # markdown tables on stdout
    python -m experiments.code_stats --top 15

The *generic floors* are the code that must work for any registered game: the table's
server (``cardtable/*.py``) and client (``cardtable/static/*.js``, not the per-game boards in
``static/games/``), the generic agents (``agents/*.py`` and the subpackages
``agents/{players,evaluation,learning,programs}/``, not ``agents/games/``), the
integrations (``cardenvs/integrations/``) and the core (``cardenvs/core/``).  In them it
counts, per file:

* ``env names``: every mention of a registered environment name (``line_v0``...), in code,
  comments or docstrings;
* ``name keys``: string literals that are exactly a game's title (``"Line-it"``) or its
  short name (``"rummy432"``), i.e. a game named in code rather than in prose;
* ``game imports``: imports of a game's own modules (``cardenvs.line``, ``cardenvs.line_v0``,
  ``agents.games.line``; in JavaScript an import of ``./games/...``).

``tests/test_layering.py`` keeps every count at zero.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from agents.cli import HelpFormatter

ROOT = Path(__file__).resolve().parents[1]
#: the project's own code (what ruff checks), where file and function sizes are measured
PROJECT = ("cardenvs", "agents", "cardtable", "experiments", "tests", "notebooks", "dev.py")


def generic_files(root: Path = ROOT) -> list[Path]:
    """The files of the generic floors (see the module docstring), sorted."""
    out: list[Path] = []
    for folder, pattern in (("cardtable", "*.py"), ("cardtable/static", "*.js"), ("agents", "*.py"),
                            ("agents/players", "*.py"), ("agents/evaluation", "*.py"),
                            ("agents/learning", "*.py"), ("agents/programs", "*.py"),
                            ("cardenvs/integrations", "*.py"), ("cardenvs/core", "*.py")):
        out += sorted((root / folder).glob(pattern))
    return out


@dataclass(frozen=True)
class GameNames:
    """What names one registered game: its env name, title, short name and modules."""

    env_name: str
    title: str
    short: str
    modules: tuple[str, ...]


def game_names() -> list[GameNames]:
    """The names of every registered game (read from the registry)."""
    import cardenvs

    out = []
    for name, entry in cardenvs.GAMES.items():
        cls = entry.game_class
        rules_pkg = cls.__module__.rsplit(".", 1)[0]
        modules = {entry.module, rules_pkg, entry.agents}
        modules |= {m for m in (getattr(entry, "words", None),) if m}
        out.append(GameNames(name, entry.title, cls.name, tuple(sorted(m.split(":")[0] for m in modules))))
    return out


@dataclass
class Found:
    """What one generic file says of the games."""

    path: Path
    env_names: int = 0
    name_keys: int = 0
    game_imports: int = 0

    @property
    def total(self) -> int:
        return self.env_names + self.name_keys + self.game_imports


def _python_keys_and_imports(text: str, names: list[GameNames]) -> tuple[int, int]:
    keys = {n.title for n in names} | {n.short for n in names}
    mods = [m for n in names for m in n.modules]
    tree = ast.parse(text)
    k = i = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in keys:
            k += 1
        elif isinstance(node, ast.Import):
            i += sum(any(a.name == m or a.name.startswith(m + ".") for m in mods) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            i += any(node.module == m or node.module.startswith(m + ".") for m in mods)
    return k, i


_JS_STRING = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")
_JS_GAME_IMPORT = re.compile(r"""^\s*import\b[^;]*?from\s+["']\./games/""", re.M)


def scan(path: Path, names: list[GameNames]) -> Found:
    """Count what ``path`` says of the games ``names``."""
    text = path.read_text()
    found = Found(path)
    for n in names:
        found.env_names += len(re.findall(rf"\b{re.escape(n.env_name)}\b", text))
    if path.suffix == ".py":
        found.name_keys, found.game_imports = _python_keys_and_imports(text, names)
    else:
        keys = {n.title for n in names} | {n.short for n in names}
        found.name_keys = sum(m.group(2) in keys for m in _JS_STRING.finditer(text))
        found.game_imports = len(_JS_GAME_IMPORT.findall(text))
    return found


def project_files(root: Path = ROOT) -> Iterator[Path]:
    """The project's Python and JavaScript files."""
    for top in PROJECT:
        p = root / top
        if p.is_file():
            yield p
            continue
        for f in sorted(p.rglob("*")):
            if f.suffix in (".py", ".js") and "__pycache__" not in f.parts:
                yield f


def line_count(path: Path) -> int:
    """Lines of a file."""
    return len(path.read_text().splitlines())


def functions(path: Path) -> Iterator[tuple[str, int]]:
    """``(qualified name, lines)`` of every Python function or method in ``path``."""
    tree = ast.parse(path.read_text())

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                assert child.end_lineno is not None
                start = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                yield f"{prefix}{child.name}", child.end_lineno - start + 1
                yield from walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")

    yield from walk(tree, "")


def _rel(p: Path, root: Path) -> str:
    return p.relative_to(root).as_posix()


def _table(head: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    head = list(head)
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def report(top: int = 10, root: Path = ROOT) -> str:
    """The three tables as markdown."""
    files = list(project_files(root))
    largest = sorted(((line_count(f), _rel(f, root)) for f in files), reverse=True)[:top]
    funcs = sorted(((n, _rel(f, root), name) for f in files if f.suffix == ".py" for name, n in functions(f)),
                   reverse=True)[:top]
    names = game_names()
    found = [scan(f, names) for f in generic_files(root)]
    hits = [f for f in found if f.total]
    parts = [
        f"## The {top} largest files (lines)\n",
        _table(["file", "lines"], [(f, n) for n, f in largest]),
        f"\n## The {top} longest functions (lines)\n",
        _table(["function", "file", "lines"], [(name, f, n) for n, f, name in funcs]),
        "\n## Games named in the generic floors\n",
        _table(["file", "env names", "name keys", "game imports"],
               [(_rel(f.path, root), f.env_names, f.name_keys, f.game_imports) for f in hits]
               + [(f"**total** ({len(found)} files)", sum(f.env_names for f in found),
                   sum(f.name_keys for f in found), sum(f.game_imports for f in found))]),
    ]
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the report."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=HelpFormatter)
    ap.add_argument("--top", type=int, default=10, help="rows of the size tables")
    args = ap.parse_args(argv)
    sys.stdout.write(report(args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
