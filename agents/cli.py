"""What the project's command lines share: a help formatter that shows every default.

``argparse.ArgumentDefaultsHelpFormatter`` appends ``(default: ...)`` only to options
that have a help text; :class:`HelpFormatter` shows the default of every option that has
one (and keeps the description's and epilog's line breaks, as
``RawDescriptionHelpFormatter`` does), so ``--help`` tells what a plain run does.
"""

from __future__ import annotations

import argparse
import copy
import re

#: a help text that already says its default: ``(default: 30)``, ``(default 30)``, ``...; default: 1d``
SAYS_DEFAULT = re.compile(r"\(default\b|\bdefault:")


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """``--help`` with each option's default, the description's line breaks kept."""

    @staticmethod
    def _has_default(action: argparse.Action) -> bool:
        if action.default in (None, argparse.SUPPRESS) or isinstance(action, argparse._HelpAction):
            return False
        if action.nargs == 0:  # store_true / store_false / count: the flag says it
            return False
        return bool(action.option_strings) or action.nargs in ("?", "*")

    @staticmethod
    def _default_text(action: argparse.Action) -> str:
        default = action.default
        if isinstance(default, (list, tuple)):
            shown = " ".join(map(str, default)).replace("%", "%%") if default else "none"
            return f"(default: {shown})"
        return "(default: %(default)s)"

    def _format_action(self, action: argparse.Action) -> str:
        if self._has_default(action) and not (action.help or "").strip():
            action = copy.copy(action)  # argparse writes help (and so the default) only when there is some
            action.help = self._default_text(action)
        return super()._format_action(action)

    @staticmethod
    def prog_name(module: str) -> str:
        """:func:`prog`, for command lines that import the formatter alone."""
        return prog(module)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = (action.help or "").strip()
        if self._has_default(action) and "%(default)" not in text and not SAYS_DEFAULT.search(text):
            text = f"{text} {self._default_text(action)}".strip()
        return text

def prog(module: str) -> str:
    """The program name for ``--help``: the console script's name when run as one
    (``cardenvs-play``), else ``python -m <module>``."""
    import os
    import sys

    name = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if not name or name in ("__main__.py", "-c", "-m") or name.endswith(".py"):
        return f"python -m {module}"
    return name
