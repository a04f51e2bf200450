"""Sphinx extension of the cardenvs site: what makes the docs written once.

* **Environment specs from the docstrings.**  Each registered game's environment
  module docstring (``cardenvs/<game>_v0.py``: properties, options, the observation and
  action tables, rewards, infos, positions, version history) is its spec, written in
  Markdown.  At the start of every build it is written to
  ``docs/_generated/spec/<env>.md``, which the game's page includes
  (``docs/games/<game>.md``); nothing is copied by hand.  A registered game without a
  page is a build warning (so an error in the strict build) that says which file to add.
* **Titles for results files.**  Files under ``docs/results/`` are written by the
  experiment scripts, some without a title or starting at a level-3 heading.  Each is
  read with its headings lifted so its first heading is the page title, or, without
  any heading, with a title made from its file name (:data:`RESULT_TITLES`).  The file
  on disk is not changed.
* **Re-exported names resolve.**  ``agents.make_agent`` and ``cardenvs.Game`` are the
  public names of objects documented where they are defined (``agents.players.ladder.make_agent``,
  ``cardenvs.core.game.Game``); a reference to the public name finds that entry
  (:func:`resolve_reexport`).  A name that leads nowhere stays a missing reference, which
  the strict build reports.
* **Code in docstrings renders as code.**  An indented block in a docstring that is not
  introduced by ``::`` (or a directive) becomes a block quote: the example runs on as
  prose with curly quotes.  Every block quote that comes from a docstring is a warning
  (:func:`check_docstring_quotes`), so an error in the strict build.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

log = logging.getLogger(__name__)

#: titles of results files that have no heading of their own (by file stem)
RESULT_TITLES = {
    "bench_speed": "Environment speed (bench_speed.py)",
    "bench_train": "Training throughput (bench_train.py)",
    "bench_agents": "Decision time of every level (bench_agents.py)",
    "memory_line_v0": "Memory over many games (bench_speed.py --memory)",
}

_FENCE = re.compile(r"^(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})(\s+\S.*)$")


def spec_text(module: Any) -> str:
    """An environment module's docstring as a Markdown document to include."""
    doc = (module.__doc__ or "").strip("\n")
    if not doc:
        return f"*`{module.__name__}` has no docstring.*\n"
    return doc + "\n"


def write_specs(app: Sphinx) -> None:
    """Write every registered environment's spec and check each game has a page."""
    import cardenvs

    srcdir = Path(app.srcdir)
    out = srcdir / "_generated" / "spec"
    out.mkdir(parents=True, exist_ok=True)
    for env_name, entry in cardenvs.GAMES.items():
        path = out / f"{env_name}.md"
        text = spec_text(entry.env_module())
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        page = srcdir / "games" / f"{entry.game_class.name}.md"
        if not page.exists():
            log.warning(f"the registered game {env_name!r} has no page: add docs/games/{page.name} "
                        f"(copy docs/games/line.md: it includes docs/rules/<game>.md and "
                        f"_generated/spec/{env_name}.md) and list it in docs/games/index.md",
                        type="cardenvs", subtype="game-page")


def lift_headings(text: str, fallback_title: str) -> str:
    """``text`` with its headings lifted so the first is level 1 (outside code fences);
    with no heading at all, ``fallback_title`` is put on top."""
    lines = text.split("\n")
    levels = []
    fenced = False
    for line in lines:
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            levels.append(len(m.group(1)))
    if not levels:
        return f"# {fallback_title}\n\n{text}"
    shift = levels[0] - 1
    if shift <= 0:
        return text
    out, fenced = [], False
    for line in lines:
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            line = "#" * max(1, len(m.group(1)) - shift) + m.group(2)
        out.append(line)
    return "\n".join(out)


def title_results(app: Sphinx, docname: str, source: list[str]) -> None:
    """Give a results file a title (see the module docstring)."""
    if not docname.startswith("results/"):
        return
    stem = docname.rsplit("/", 1)[-1]
    title = RESULT_TITLES.get(stem, stem.replace("_", " "))
    source[0] = lift_headings(source[0], title)


def resolve_reexport(app: Sphinx, env: Any, node: Any, contnode: Any) -> Any:
    """A Python reference to a re-exported name, resolved to where the object is documented."""
    if node.get("refdomain") != "py":
        return None
    target = node.get("reftarget", "")
    module_name, _, name = target.rpartition(".")
    if not module_name.startswith(("cardenvs", "agents", "cardtable")):
        return None
    import importlib

    try:
        obj = getattr(importlib.import_module(module_name), name)
    except (ImportError, AttributeError, ValueError):
        return None
    home = getattr(obj, "__module__", None)
    if not home or home == module_name:
        return None
    canonical = f"{home}.{getattr(obj, '__qualname__', name)}"
    domain = env.get_domain("py")
    return domain.resolve_xref(env, node["refdoc"], app.builder, node["reftype"], canonical, node, contnode)


def check_docstring_quotes(app: Sphinx, doctree: Any) -> None:
    """Warn of each block quote made from a docstring (see the module docstring)."""
    from docutils import nodes

    for quote in doctree.findall(nodes.block_quote):
        source = quote.source or ""
        if "docstring of" not in source:
            continue  # a Markdown page's "> " quotes are meant
        text = quote.astext().strip().split("\n", 1)[0]
        log.warning(f"an indented block renders as a quote, not code: {text[:60]!r}; end the line "
                    "before it with '::' (or use a code-block directive)",
                    location=quote, type="cardenvs", subtype="docstring-quote")


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", write_specs)
    app.connect("doctree-read", check_docstring_quotes)
    app.connect("source-read", title_results)
    app.connect("missing-reference", resolve_reexport)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
