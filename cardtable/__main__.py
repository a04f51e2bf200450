"""``python -m cardtable``: run the browser table on uvicorn::

    python -m cardtable [--host 127.0.0.1] [--port 8000] [--data ./data] [--bot-delay 0.6] [--workers N]
                        [limits, origins, the operator's token: see --help and docs/table.md]

The lobby is at ``http://HOST:PORT/``; rooms and finished games are kept in
``DATA/cardtable.sqlite3`` and survive restarts.  Every limit has a safe default.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .settings import Settings, normal_origin


def default_workers() -> int:
    """Worker processes for computer players and coaches: one per core, at most 4."""
    return max(1, min(4, os.cpu_count() or 1))


def duration(text: str) -> float:
    """Seconds from ``90``, ``90s``, ``30m``, ``12h`` or ``7d`` (argparse type)."""
    units = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
    text = text.strip().lower()
    scale = units.get(text[-1:])
    number = text[:-1] if scale is not None else text
    try:
        value = float(number) * (scale or 1.0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a duration is a number of seconds, or with s, m, h or d "
                                         f"(90, 30m, 12h, 7d), got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"a duration must be positive, got {text!r}")
    return value


def span(seconds: float) -> str:
    """A duration as :func:`duration` reads it, in its largest whole unit (``86400`` -> ``1d``)."""
    for unit, size in (("d", 86400.0), ("h", 3600.0), ("m", 60.0)):
        if seconds >= size and seconds % size == 0:
            return f"{seconds / size:g}{unit}"
    return f"{seconds:g}s"


def positive(text: str) -> int:
    """A positive int (argparse type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number is needed, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1, got {value}")
    return value


#: the top-level modules of the web extra's packages (``pip install 'cardenvs[web]'``)
WEB_MODULES = ("uvicorn", "starlette", "websockets", "markdown_it")


def missing_web_extra(err: ImportError) -> str | None:
    """What to say when ``err`` is a module of the web extra missing (``None`` when it is not)."""
    name = (err.name or "").partition(".")[0]
    if name not in WEB_MODULES:
        return None
    return f"cardtable needs the web extra ({err}): pip install 'cardenvs[web]'"


def parser(name: str, formatter: type[argparse.HelpFormatter]) -> argparse.ArgumentParser:
    """The command line's parser (``name``: how the command was called)."""
    about = (__doc__ or "").replace("::\n", ":\n").replace("python -m cardtable", name)
    ap = argparse.ArgumentParser(prog=name, description=about, formatter_class=formatter)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    ap.add_argument("--data", default="./data", help="folder of the SQLite file (created if missing)")
    ap.add_argument("--new", action="store_true",
                    help="begin an empty table when the folder's SQLite file is missing or empty (without "
                         "it the server refuses to start there: the table it held is gone)")
    ap.add_argument("--bot-delay", type=float, default=0.6,
                    help="seconds between computer moves, so people can follow them (0: no pause)")
    ap.add_argument("--workers", type=int, default=default_workers(),
                    help="processes for computer players and coaches (0: threads in the server process)")
    ap.add_argument("--worker-nice", type=int, default=Settings().worker_nice, metavar="0-19",
                    help="how much lower the workers' CPU priority is than the server's (0: the same; "
                         "on a machine of its own, 10 puts people's moves before searches)")
    ap.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    ap.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                    help="also take sockets and new rooms from pages of this origin, https://host[:port]; "
                         "repeatable (default: only the table's own pages)")
    ap.add_argument("--operator-token", default=os.environ.get("CARDTABLE_OPERATOR_TOKEN"), metavar="TOKEN",
                    help="turn on GET /api/export (every finished game's record) for whoever sends this "
                         "token as Authorization: Bearer TOKEN; at least 16 characters; better given as "
                         "the environment variable CARDTABLE_OPERATOR_TOKEN, which other users' ps does "
                         "not show (default: the export is off)")
    _limits(ap.add_argument_group("limits (docs/table.md says what each does)"))
    _defences(ap.add_argument_group("defences (docs/table.md, \"Deploying\")"))
    return ap


def rate(text: str) -> float:
    """A positive number (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number is needed, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {text!r}")
    return value


def _defences(group: argparse._ArgumentGroup) -> None:
    """The options of the table's edge (defaults: :class:`~.settings.Settings`')."""
    d = Settings()
    group.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR[,ADDR]",
                       help="behind a reverse proxy: its addresses or networks, whose X-Forwarded-For then "
                            "gives the client's address for the per-address limits; repeatable (default: "
                            "none; X-Forwarded-For from anyone else is never read)")
    group.add_argument("--forwarded-allow-ips", action="append", default=[], metavar="IPS",
                       help="the older name of --trusted-proxy")
    group.add_argument("--http-conns-per-address", type=positive, default=d.http_conns_per_address,
                       metavar="N", help="TCP connections (requests and sockets) open at once from one "
                                         "address; an IPv6 address counts as its /64")
    group.add_argument("--header-timeout", type=duration, default=d.header_seconds, metavar="TIME",
                       help=f"a request's headers must arrive within this "
                            f"(default: {span(d.header_seconds)})")
    group.add_argument("--body-timeout", type=duration, default=d.body_seconds, metavar="TIME",
                       help=f"a request's body must arrive within this after its headers "
                            f"(default: {span(d.body_seconds)})")
    group.add_argument("--idle-timeout", type=duration, default=d.idle_seconds, metavar="TIME",
                       help="a socket that sends nothing for this long is closed; the table's pages ping "
                            f"every 25 s (default: {span(d.idle_seconds)})")
    group.add_argument("--http-rate", type=rate, default=d.http_rate, metavar="PER_SECOND",
                       help="HTTP requests and socket handshakes one address may make a second, on average "
                            "(over it: 429 with Retry-After)")
    group.add_argument("--http-burst", type=positive, default=d.http_burst, metavar="N",
                       help="... and at once")
    group.add_argument("--waiting-rooms-per-address", type=positive, default=d.waiting_per_address,
                       metavar="N", help="rooms one address may hold at once where no game was started")
    group.add_argument("--spectators-per-room", type=int, default=d.spectators_per_room, metavar="N",
                       help="connections of one room that hold no seat (0: no spectators)")
    group.add_argument("--flood-strikes", type=positive, default=d.flood_strikes, metavar="N",
                       help="an address whose sockets are closed for flooding this often within 10 minutes "
                            "is barred from opening sockets")
    group.add_argument("--flood-bar", type=duration, default=d.flood_bar, metavar="TIME",
                       help=f"how long the first bar lasts; each next one twice as long, at most an hour "
                            f"(default: {span(d.flood_bar)})")


#: the Settings field of each option of :func:`_defences`
DEFENCES = {"http_conns_per_address": "http_conns_per_address", "header_timeout": "header_seconds",
            "body_timeout": "body_seconds", "idle_timeout": "idle_seconds", "http_rate": "http_rate",
            "http_burst": "http_burst", "waiting_rooms_per_address": "waiting_per_address",
            "spectators_per_room": "spectators_per_room", "flood_strikes": "flood_strikes",
            "flood_bar": "flood_bar"}


def _defence_settings(ap: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    """The :class:`~.settings.Settings` fields of the defences' options (checked)."""
    from .addresses import parse_networks
    from .settings import RANGES

    out: dict[str, Any] = {field: getattr(args, option) for option, field in DEFENCES.items()}
    for option, field in DEFENCES.items():
        low, high = RANGES[field]
        if not low <= out[field] <= high:
            ap.error(f"--{option.replace('_', '-')}: must be in {low:g}..{high:g}, got {out[field]:g}")
    given = args.trusted_proxy + args.forwarded_allow_ips
    proxies = [p for text in given for p in text.split(",") if p.strip()]
    try:
        parse_networks(proxies)
    except ValueError as err:
        ap.error(f"--trusted-proxy: {err}")
    out["trusted_proxies"] = tuple(p.strip() for p in proxies)
    return out


def _limits(limits: argparse._ArgumentGroup) -> None:
    """The limits' options (their defaults are :class:`~.settings.Settings`')."""
    d = Settings()
    limits.add_argument("--rooms-per-hour", type=positive, default=d.rooms_per_hour, metavar="N",
                        help="rooms one client address may create per hour")
    limits.add_argument("--max-rooms", type=positive, default=d.max_rooms, metavar="N",
                        help="rooms held at once; a new one beyond is refused until some expire")
    limits.add_argument("--conns-per-address", type=positive, default=d.conns_per_address, metavar="N",
                        help="sockets open at once from one client address")
    limits.add_argument("--max-conns", type=positive, default=d.max_conns, metavar="N",
                        help="sockets open at once in all")
    limits.add_argument("--handshake-timeout", type=duration, default=d.handshake_seconds, metavar="TIME",
                        help="a socket that sends no hello within this is closed "
                             f"(default: {span(d.handshake_seconds)})")
    limits.add_argument("--expire-waiting", type=duration, default=d.expire_waiting, metavar="TIME",
                        help="a room where no game was dealt expires after this with nobody connected "
                             f"(default: {span(d.expire_waiting)}; a duration such as 90, 30m, 12h or 7d)")
    limits.add_argument("--expire-idle", type=duration, default=d.expire_idle, metavar="TIME",
                        help="any room expires after this with nobody connected and nothing played; its "
                             f"finished games' records are kept (default: {span(d.expire_idle)})")
    limits.add_argument("--host-grace", type=duration, default=d.host_grace, metavar="TIME",
                        help=f"how long the host may be away before the host role passes to a person at the "
                             f"table (default: {span(d.host_grace)})")


def settings_of(ap: argparse.ArgumentParser, args: argparse.Namespace) -> Settings:
    """The :class:`~.settings.Settings` the arguments ask for (a wrong one: ``ap.error``)."""
    if args.bot_delay < 0 or args.workers < 0:
        ap.error("--bot-delay and --workers must not be negative")
    try:
        origins = tuple(normal_origin(o) for o in args.allow_origin)
    except ValueError as err:
        ap.error(f"--allow-origin: {err}")
    if args.operator_token is not None and len(args.operator_token) < 16:
        ap.error("--operator-token: at least 16 characters (python -c 'import secrets; "
                 "print(secrets.token_urlsafe(24))' makes one)")
    try:  # the workers' priority range lives in Settings (the origins were checked above)
        return Settings(allowed_origins=origins, operator_token=args.operator_token or None,
                        rooms_per_hour=args.rooms_per_hour, max_rooms=args.max_rooms,
                        conns_per_address=args.conns_per_address, max_conns=args.max_conns,
                        handshake_seconds=args.handshake_timeout, expire_waiting=args.expire_waiting,
                        expire_idle=args.expire_idle, host_grace=args.host_grace,
                        worker_nice=args.worker_nice, **_defence_settings(ap, args))
    except ValueError as err:
        ap.error(f"--worker-nice: {err}")


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and serve until interrupted."""
    from cardenvs._agents_import import AgentsShadowedError, import_agents

    try:  # a folder named agents that shadows the package is named, with the fix
        import_agents("cli")
    except AgentsShadowedError as err:
        print(f"cardtable: error: {err}", file=sys.stderr)
        return 2
    from agents.cli import HelpFormatter, prog

    ap = parser(prog("cardtable"), HelpFormatter)  # cardtable, or python -m cardtable
    args = ap.parse_args(argv)
    return serve(args, settings_of(ap, args))


def serve(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the table the arguments describe until interrupted (2: it cannot start)."""
    try:  # all of the web extra now, not at the first socket (websockets) or rules page (markdown_it)
        import markdown_it  # noqa: F401
        import uvicorn
        import websockets  # noqa: F401

        from .app import create_app
    except ImportError as err:
        message = missing_web_extra(err)
        if message is None:
            raise
        print(f"cardtable: error: {message}", file=sys.stderr)
        return 2
    from .store import StorageError, Store

    try:  # a damaged file stops the server here, loudly, before anything is served
        Store(args.data, new=args.new).close()
    except StorageError as err:
        print(f"cardtable: cannot start: {err}", file=sys.stderr, flush=True)
        return 2

    app = create_app(args.data, bot_delay=args.bot_delay, workers=args.workers, settings=settings)
    print(f"cardtable: http://{args.host}:{args.port}/  (data in {os.path.abspath(args.data)})", flush=True)
    from .guard import uvicorn_options  # the connection limits and request timeouts

    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, **uvicorn_options(app))
    return 0


if __name__ == "__main__":
    sys.exit(main())
