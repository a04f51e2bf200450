"""``python -m cardtable``: run the browser table on uvicorn.

    python -m cardtable [--host 127.0.0.1] [--port 8000] [--data ./data] [--bot-delay 0.6] [--workers N]

The lobby is at ``http://HOST:PORT/``; rooms and finished games are kept in
``DATA/cardtable.sqlite3`` and survive restarts.
"""

from __future__ import annotations

import argparse
import os
import sys


def default_workers() -> int:
    """Worker processes for computer players and coaches: one per core, at most 4."""
    return max(1, min(4, os.cpu_count() or 1))


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and serve until interrupted."""
    ap = argparse.ArgumentParser(prog="python -m cardtable", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--data", default="./data", help="folder of the SQLite file (created if missing)")
    ap.add_argument("--bot-delay", type=float, default=0.6,
                    help="seconds between computer moves, so people can follow them (0: no pause)")
    ap.add_argument("--workers", type=int, default=default_workers(),
                    help="processes for computer players and coaches (0: threads in the server process)")
    ap.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    ap.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                    help="also take sockets and new rooms from pages of this origin "
                         "(https://host[:port]; repeatable); by default only the table's own pages")
    ap.add_argument("--operator-token", default=os.environ.get("CARDTABLE_OPERATOR_TOKEN"), metavar="TOKEN",
                    help="turn on GET /api/export (every finished game's record) for whoever sends this "
                         "token as Authorization: Bearer TOKEN; at least 16 characters; better given as "
                         "the environment variable CARDTABLE_OPERATOR_TOKEN, which other users' ps does "
                         "not show (default: the export is off)")
    args = ap.parse_args(argv)
    if args.bot_delay < 0 or args.workers < 0:
        ap.error("--bot-delay and --workers must not be negative")
    from .settings import Settings, normal_origin

    try:
        origins = tuple(normal_origin(o) for o in args.allow_origin)
    except ValueError as err:
        ap.error(f"--allow-origin: {err}")
    if args.operator_token is not None and len(args.operator_token) < 16:
        ap.error("--operator-token: at least 16 characters (python -c 'import secrets; "
                 "print(secrets.token_urlsafe(24))' makes one)")
    settings = Settings(allowed_origins=origins, operator_token=args.operator_token or None)

    import uvicorn

    from .app import create_app
    from .store import StorageError, Store

    try:  # a damaged file stops the server here, loudly, before anything is served
        Store(args.data).close()
    except StorageError as err:
        print(f"cardtable: cannot start: {err}", file=sys.stderr, flush=True)
        return 2

    app = create_app(args.data, bot_delay=args.bot_delay, workers=args.workers, settings=settings)
    print(f"cardtable: http://{args.host}:{args.port}/  (data in {os.path.abspath(args.data)})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=65536,
                ws="websockets-sansio")
    return 0


if __name__ == "__main__":
    sys.exit(main())
