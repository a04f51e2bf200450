"""``python -m cardenvs.testing GAME [--players N] [--quick]``: the contract on one game."""

from __future__ import annotations

import argparse
import json
import sys

from .runner import CHECKS, run_contract


def _option(text: str) -> tuple[str, object]:
    key, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"an option is KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


def main(argv: list[str] | None = None) -> int:
    """Run the contract, print one line per check and seat count; 1 when any failed."""
    ap = argparse.ArgumentParser(
        prog="python -m cardenvs.testing",
        description="Run the contract every cardenvs game keeps (cardenvs.testing) on one game.",
    )
    ap.add_argument("game", help="a registered environment name (line_v0) or module:attr of a plugin's game")
    ap.add_argument("--players", type=int, action="append", help="only this seat count (repeatable)")
    ap.add_argument("--quick", action="store_true", help="fewer steps per check")
    ap.add_argument("--check", action="append", choices=list(CHECKS), help="only this check (repeatable)")
    ap.add_argument(
        "--option",
        type=_option,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option (value read as JSON where it parses)",
    )
    args = ap.parse_args(argv)
    try:
        report = run_contract(
            args.game, args.players, args.quick, options=dict(args.option) or None, checks=args.check
        )
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(report)
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
