"""What the experiment scripts share: the game options of their command lines, the command
that reruns them, and where their tables go."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any


def game_options(items: list[str]) -> dict[str, Any]:
    """The ``--option KEY=VALUE`` game options: values parsed as JSON, else kept as text."""
    options: dict[str, Any] = {}
    for item in items:
        key, _, value = item.partition("=")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def command_line(module: str, argv: list[str] | None) -> str:
    """The shell line that reruns the script ``module`` (``"experiments.ladder_pairs"``) from
    the project root with ``argv`` (default: this process's arguments), each argument
    shell-quoted so JSON settings survive a paste."""
    given = sys.argv[1:] if argv is None else argv
    return shlex.join(["python", "-m", module, *given])


def publish(text: str, out: Path | str | None) -> None:
    """Print a report and, given ``out``, also write it there (making its folder)."""
    print(text)
    if out:
        path = Path(out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def machine() -> str:
    """This machine in a few words, for a table's footnote: the OS and architecture, the
    cores, the Python, and the load when measuring started (a shared machine is slower)."""
    import os
    import platform

    cores = os.cpu_count() or 1
    load = f", load {os.getloadavg()[0]:.1f} at the start" if hasattr(os, "getloadavg") else ""
    return (f"{platform.system()} {platform.machine()}, {cores} core{'s' if cores != 1 else ''}, "
            f"Python {platform.python_version()}{load}")
