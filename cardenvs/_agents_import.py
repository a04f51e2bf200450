"""Importing the ``agents`` package (the distribution's other top-level package) from
``cardenvs`` and the command lines, with a clear error when something else named
``agents`` shadows it.

``agents`` is a common name: a folder ``agents/`` (with or without ``__init__.py``) or a
module ``agents.py`` in the current directory, or anywhere on ``PYTHONPATH`` before the
installed packages, is what ``import agents`` finds first.  Then ``agents.learning.gym`` and the
like fail with a bare ``No module named 'agents.learning.gym'``.  :func:`import_agents` imports a
module of the package and, when it fails or finds a module that is not the
distribution's, raises :class:`AgentsShadowedError` saying what shadows it, where the
real package is and how to fix it.

The real package is told apart by its marker ``agents.__cardenvs_agents__`` and by where
it lies: next to ``cardenvs`` (both are installed into the same folder).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["MARKER", "AgentsShadowedError", "agents_home", "import_agents", "load_agents", "shadowing"]

#: the attribute the distribution's ``agents/__init__.py`` sets to ``True``
MARKER = "__cardenvs_agents__"


class AgentsShadowedError(ImportError):
    """A module named ``agents`` that is not cardenvs' hides the distribution's package."""


def agents_home() -> Path:
    """The folder of the distribution's ``agents`` package: next to ``cardenvs``."""
    return Path(__file__).resolve().parent.parent / "agents"


def _places(module: Any) -> list[Path]:
    """The folders (a package's) or file (a plain module's) a module or spec was found at."""
    paths = getattr(module, "__path__", None) or getattr(module, "submodule_search_locations", None)
    if paths:
        return [Path(p) for p in paths]
    file = getattr(module, "__file__", None) or getattr(module, "origin", None)
    return [Path(file)] if file and file not in ("built-in", "frozen") else []


def _inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` is ``folder`` or lies in it (symbolic links resolved)."""
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except OSError:  # pragma: no cover - an unreadable path is not ours
        return False


def _is_ours(module: ModuleType) -> bool:
    """Whether ``module`` (``agents`` or one of its modules) is the distribution's."""
    if module.__name__ == "agents":
        return getattr(module, MARKER, False) is True
    home = agents_home()
    places = _places(module)
    if not home.is_dir() or not places:  # installed in an unusual way: trust the parent's marker
        return getattr(sys.modules.get("agents"), MARKER, False) is True
    return all(_inside(p, home) for p in places)


def shadowing() -> str | None:
    """What shadows the distribution's ``agents`` package, in words (``None`` when nothing does).

    Looks at the ``agents`` already imported, else at what ``import agents`` would find
    (without importing it).
    """
    module: Any = sys.modules.get("agents")
    if module is not None:
        if _is_ours(module):
            return None
        places = _places(module)
    else:
        try:
            spec = importlib.util.find_spec("agents")
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            return None  # nothing named agents at all: a broken installation, not shadowing
        places = _places(spec)
        if places and all(_inside(p, agents_home()) for p in places):
            return None
    home = agents_home()
    where = ", ".join(str(p) for p in places) or repr(module)
    real = f"installed at {home}" if home.is_dir() else f"expected at {home}"
    return (f"a module named 'agents' at {where} shadows cardenvs' agents package ({real}): Python finds "
            f"it first on sys.path (the current directory, the script's folder or PYTHONPATH); rename "
            f"your 'agents' folder or module, or run from another directory")


def import_agents(submodule: str = "") -> ModuleType:
    """Import ``agents`` or ``agents.<submodule>`` of the distribution.

    :class:`AgentsShadowedError` when another module named ``agents`` shadows the
    package (the import fails, or finds a module that is not the distribution's); any
    other import error propagates as it is.
    """
    name = f"agents.{submodule}" if submodule else "agents"
    try:
        module = importlib.import_module(name)
    except ImportError as err:
        problem = shadowing()
        if problem is not None:
            raise AgentsShadowedError(f"cannot import {name}: {problem}", name=name) from err
        raise
    if not _is_ours(module):
        problem = shadowing() or f"{name} at {', '.join(map(str, _places(module)))} is not cardenvs' module"
        raise AgentsShadowedError(f"cannot import {name}: {problem}", name=name)
    return module


def load_agents(submodule: str, attribute: str) -> Any:
    """``agents.<submodule>.<attribute>`` of the distribution (see :func:`import_agents`)."""
    module = import_agents(submodule)
    try:
        return getattr(module, attribute)
    except AttributeError as err:  # a module of ours without the name: a version mismatch
        raise ImportError(f"cannot import {attribute} from {module.__name__} ({module.__file__})") from err
