"""The layers of the project and what each may know.

* Arrows go downhill: ``cardenvs`` (rules, envs, integrations) imports none of ``agents``,
  ``cardtable``, ``experiments`` or ``tests``; ``agents`` imports no ``cardtable`` or
  ``experiments``; the shipped packages never import ``experiments`` or ``tests`` (a game
  from elsewhere is named as text by its kit, and imported through the registry).
* No import circles between the shipped modules, counting imports inside functions too.
* ``agents`` is grouped by concern (:data:`AGENTS_FORBIDDEN`): the players (``agents.players``:
  the Agent interface, the ladder, the knowledge, the coach) import none of the evaluation,
  learning, measuring or programs; the evaluation (``agents.evaluation``) and the learning
  (``agents.learning``) import no programs (``agents.programs``), which nothing else imports;
  the flat modules of ``agents`` are only :data:`AGENTS_FLAT`.
* The table (``cardtable``) is built in floors (:data:`TABLE_LAYERS`): the rooms' data and
  the rules' documents; the connections, timers, lifecycle and file; the protocol and its
  handlers, which see the server only through its narrow interfaces (``ports.Table``,
  ``presence.Host``); the server; the web edge (Starlette); the entry points.  A module
  imports its own floor and those below, and only the web edge knows the web framework;
  no class of it is over 300 lines, no function over 60.
* Every game's feature encoders (``cardenvs/*/features.py``) have no function over 60 lines.
* The generic floors (the table's server and client, the generic agents, the integrations
  and the core) know no game: no environment name, no game title or short name used as a
  key, no import of a game's own modules (``experiments/code_stats.py`` counts them).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from experiments import code_stats

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ("cardenvs", "agents", "cardtable")
#: the packages each layer may not import
FORBIDDEN = {
    "cardenvs": ("agents", "cardtable", "experiments", "tests"),
    "agents": ("cardtable", "experiments", "tests"),
    "cardtable": ("experiments", "tests"),
}


def _modules() -> dict[str, Path]:
    """Every module of the shipped packages: dotted name -> file."""
    out = {}
    for pkg in SHIPPED:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _nodes(tree: ast.AST, typing_too: bool) -> Iterator[ast.AST]:
    """Every node of ``tree``; without ``typing_too``, not those under ``if TYPE_CHECKING:``
    (imports for annotations only, never run)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if (not typing_too and isinstance(node, ast.If)
                and "TYPE_CHECKING" in ast.unparse(node.test)):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))


def _imports(name: str, path: Path, typing_too: bool = True) -> Iterator[str]:
    """The modules ``name`` imports anywhere in its file (resolved: a name imported from a
    package is the submodule when there is one)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in _nodes(ast.parse(path.read_text()), typing_too):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            subs = [f"{mod}.{a.name}" for a in node.names if f"{mod}.{a.name}" in MODULES]
            yield from subs or [mod]


#: what each shipped module imports when it runs (annotation-only imports left out)
GRAPH = {name: sorted({m for m in _imports(name, path, typing_too=False) if m in MODULES and m != name})
         for name, path in MODULES.items()}


@pytest.mark.parametrize("layer", list(FORBIDDEN))
def test_arrows_go_downhill(layer: str) -> None:
    wrong = []
    for name, path in MODULES.items():
        if name.split(".")[0] != layer:
            continue
        for imported in _imports(name, path):
            if imported.split(".")[0] in FORBIDDEN[layer]:
                wrong.append(f"{name} imports {imported}")
    assert not wrong, wrong


#: the subpackages of ``agents`` that each subpackage may not import (type-only imports too)
AGENTS_FORBIDDEN = {
    "players": ("evaluation", "learning", "measure", "programs"),
    "measure": ("evaluation", "learning", "programs"),
    "evaluation": ("programs",),
    "learning": ("programs",),
    "games": ("evaluation", "learning", "measure", "programs"),
}
#: the modules of ``agents`` outside its subpackages: the package, the shared types and help
#: formatter, the documented ``python -m agents.play`` / ``agents.demo`` commands, and the old
#: module paths that saved SB3 models name
AGENTS_FLAT = {"agents", "agents.types", "agents.cli", "agents.play", "agents.demo",
               "agents.sparse_policy", "agents.feature_sb3"}


def test_agents_have_only_the_known_flat_modules() -> None:
    flat = {name for name, path in MODULES.items() if name.split(".")[0] == "agents"
            and name.count(".") <= 1 and (name == "agents" or path.name != "__init__.py")}
    assert flat == AGENTS_FLAT, f"put these in a subpackage of agents: {sorted(flat - AGENTS_FLAT)}"


@pytest.mark.parametrize("sub", list(AGENTS_FORBIDDEN))
def test_agents_subpackages_import_only_what_they_may(sub: str) -> None:
    wrong = []
    for name, path in MODULES.items():
        if not name.startswith(f"agents.{sub}.") and name != f"agents.{sub}":
            continue
        for imported in _imports(name, path):
            parts = imported.split(".")
            if parts[0] == "agents" and len(parts) > 1 and parts[1] in AGENTS_FORBIDDEN[sub]:
                wrong.append(f"{name} imports {imported}")
    assert not wrong, wrong


def test_only_the_programs_and_their_commands_import_the_programs() -> None:
    allowed = {"agents.play", "agents.demo", "cardenvs.cli"}
    wrong = [f"{name} imports {imported}" for name, path in MODULES.items()
             if not name.startswith("agents.programs") and name not in allowed
             for imported in _imports(name, path) if imported.startswith("agents.programs")]
    assert not wrong, wrong


#: the table's floors, bottom up: a module of a floor imports only modules of its floor and
#: the floors below (every module of ``cardtable`` is on one)
TABLE_LAYERS: list[tuple[str, set[str]]] = [
    ("data", {"settings", "limits", "addresses", "names", "catalog", "moves", "room", "records", "rules_docs",
              "store", "types", "workers"}),
    ("rooms", {"connection", "hub", "presence", "persistence", "lifecycle"}),
    ("protocol", {"ports", "seating", "play", "coach", "computers", "protocol"}),
    ("server", {"server"}),
    ("web", {"pages", "guard", "session", "routes", "app"}),
    ("entry", {"", "__main__"}),
]
#: the packages of the web framework, which only the web edge and the entry points import
WEB = ("starlette", "uvicorn", "websockets")


def _floor(module: str) -> int:
    """The floor of a ``cardtable`` module (its index in :data:`TABLE_LAYERS`)."""
    short = module.removeprefix("cardtable").removeprefix(".")
    found = [i for i, (_, names) in enumerate(TABLE_LAYERS) if short in names]
    assert len(found) == 1, f"{module} is on {len(found)} floors of TABLE_LAYERS: put it on one"
    return found[0]


def test_every_table_module_is_on_one_floor() -> None:
    table = [name for name in MODULES if name.split(".")[0] == "cardtable"]
    for name in table:
        _floor(name)
    declared = {f"cardtable.{n}" if n else "cardtable" for _, names in TABLE_LAYERS for n in names}
    assert declared == set(table), f"not modules of cardtable: {sorted(declared - set(table))}"


def test_the_table_imports_only_downstairs() -> None:
    wrong = []
    for name, path in MODULES.items():
        if name.split(".")[0] != "cardtable":
            continue
        floor = _floor(name)
        for imported in _imports(name, path):
            top = imported.split(".")[0]
            if top == "cardtable" and imported in MODULES and _floor(imported) > floor:
                wrong.append(f"{name} ({TABLE_LAYERS[floor][0]}) imports {imported} "
                             f"({TABLE_LAYERS[_floor(imported)][0]})")
            if top in WEB and floor < _floor("cardtable.pages"):
                wrong.append(f"{name} ({TABLE_LAYERS[floor][0]}) imports the web framework: {imported}")
    assert not wrong, wrong


def test_the_handlers_see_the_server_through_its_interfaces() -> None:
    handlers = ("seating", "play", "coach", "computers", "protocol", "presence")
    for short in handlers:
        name = f"cardtable.{short}"
        assert not {"cardtable.server", "cardtable.app"} & set(_imports(name, MODULES[name])), name


#: the most lines a class, and a function, of the table's server may have
MAX_CLASS, MAX_FUNCTION = 300, 60


def test_the_table_has_no_long_class_or_function() -> None:
    long = []
    for name, path in MODULES.items():
        if name.split(".")[0] != "cardtable":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                assert node.end_lineno is not None
                start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                most = MAX_CLASS if isinstance(node, ast.ClassDef) else MAX_FUNCTION
                if node.end_lineno - start + 1 > most:
                    long.append(f"{name}.{node.name}: {node.end_lineno - start + 1} lines (at most {most})")
    assert not long, long


def _long_functions(path: Path, name: str) -> list[str]:
    """The functions of a file over :data:`MAX_FUNCTION` lines (decorators and docstring
    counted)."""
    long = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.end_lineno is not None
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            size = node.end_lineno - start + 1
            if size > MAX_FUNCTION:
                long.append(f"{name}.{node.name}: {size} lines (at most {MAX_FUNCTION})")
    return long


def test_the_feature_encoders_have_no_long_function() -> None:
    """Every game's ``features.py`` (the learners' encoders, run in training loops) is split
    into named blocks of at most :data:`MAX_FUNCTION` lines."""
    files = sorted((ROOT / "cardenvs").glob("*/features.py"))
    assert {f.parent.name for f in files} >= {"line", "lineit", "rummy432"}
    long = [line for f in files for line in _long_functions(f, f"cardenvs.{f.parent.name}.features")]
    assert not long, long


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_circles_between_shipped_modules() -> None:
    cycles = _cycles(GRAPH)
    assert not cycles, cycles


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert _cycles({"a": ["b"], "b": []}) == []


def test_the_generic_floors_know_no_game() -> None:
    names = code_stats.game_names()
    assert {n.env_name for n in names} >= {"line_v0", "lineit_v0", "rummy432_v0"}
    files = code_stats.generic_files()
    assert any(f.name == "app.js" for f in files) and any(f.name == "knowledge.py" for f in files)
    found = [code_stats.scan(f, names) for f in files]
    named = {str(f.path.relative_to(ROOT)): (f.env_names, f.name_keys, f.game_imports)
             for f in found if f.total}
    assert not named, f"generic code that names games (env names, name keys, game imports): {named}"


def test_the_scanner_sees_game_names(tmp_path: Path) -> None:
    names = code_stats.game_names()
    py = tmp_path / "x.py"
    py.write_text('"""Uses line_v0."""\nimport cardenvs.rummy432.state\nKEYS = {"Line-it": 1}\n')
    f = code_stats.scan(py, names)
    assert (f.env_names, f.name_keys, f.game_imports) == (1, 1, 1)
    js = tmp_path / "x.js"
    js.write_text('import * as r from "./games/rummy.js";\nconst T = { "Line": 1 }; // lineit_v0\n')
    f = code_stats.scan(js, names)
    assert (f.env_names, f.name_keys, f.game_imports) == (1, 1, 1)
