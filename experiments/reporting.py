"""What the experiment scripts share: the game options of their command lines, the command
that reruns them, and where their tables go."""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
from collections.abc import Callable
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


def level_pair(ap: argparse.ArgumentParser, text: str) -> tuple[str, str]:
    """``--pair LEVEL:LEVEL`` as two levels (a usage error otherwise)."""
    a, sep, b = text.partition(":")
    if not sep or not a or not b:
        ap.error(f"--pair is LEVEL:LEVEL, got {text!r}")
    return a, b


def side_by_side(time_one: Callable[[bool], float], repeats: int) -> tuple[float, float, float]:
    """A benchmark's two variants timed back to back ``repeats`` times, in alternating order
    (``time_one(False)``, ``time_one(True)``: a time each): the median time of each and the
    median of the ratios True / False within a repeat (a drifting load disturbs it far less)."""
    off: list[float] = []
    on: list[float] = []
    ratios: list[float] = []
    for r in range(repeats):
        order = (False, True) if r % 2 == 0 else (True, False)
        t = {variant: time_one(variant) for variant in order}
        off.append(t[False])
        on.append(t[True])
        ratios.append(t[True] / t[False])
    return statistics.median(off), statistics.median(on), statistics.median(ratios)
