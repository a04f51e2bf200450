"""What an operator sets when serving the table (``python -m cardtable --help``;
``docs/table.md`` says what each does).

Every limit has a safe default: a table started with no flags bounds what one client can
take (rooms, connections, message rates) and what it keeps (idle rooms expire), takes
requests from its own pages only, and keeps the export off.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

HOUR = 3600.0
DAY = 24 * HOUR


@dataclass(frozen=True)
class Settings:
    """The serve-time settings of one table."""

    #: origins (``https://example.org``) besides the table's own whose pages may open its
    #: sockets and create rooms
    allowed_origins: tuple[str, ...] = ()
    #: the operator's token for ``GET /api/export`` (``None``: the export is off)
    operator_token: str | None = None
    #: rooms one client address may create per hour
    rooms_per_hour: int = 30
    #: rooms the server holds at once (a new one beyond is refused until some expire)
    max_rooms: int = 2000
    #: WebSocket connections open at once from one client address
    conns_per_address: int = 20
    #: WebSocket connections open at once in all
    max_conns: int = 4000
    #: seconds a new connection has to send ``hello`` before it is closed
    handshake_seconds: float = 10.0
    #: a room where no game was ever dealt expires after this long with nobody connected
    expire_waiting: float = DAY
    #: any room expires after this long with nobody connected and nothing played
    expire_idle: float = 7 * DAY
    #: seconds the host may be away before the host role passes to a person at the table
    host_grace: float = 15.0
    #: how much lower the worker processes' CPU priority is than the server's (``nice``
    #: increment, 0-19; 0: the same).  On a machine of its own a higher value puts a
    #: person's move before any search; where other work shares the cores it starves the
    #: computers (measured in ``docs/cardtable/load.md``), hence 0 by default
    worker_nice: int = 0
    #: how often idle rooms are looked for (seconds)
    sweep_seconds: float = 60.0
    #: the origins as compared (lowercase, no trailing slash)
    origins: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        if not 0 <= self.worker_nice <= 19:
            raise ValueError(f"worker_nice is a nice increment, 0..19, got {self.worker_nice}")
        object.__setattr__(self, "origins", frozenset(normal_origin(o) for o in self.allowed_origins))


def normal_origin(origin: str) -> str:
    """An origin as compared: ``scheme://host[:port]``, lowercase (``ValueError`` if it is
    none)."""
    parts = urlsplit(origin.strip().rstrip("/"))
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path or parts.query:
        raise ValueError(f"an origin is scheme://host[:port] (http or https), got {origin!r}")
    return f"{parts.scheme}://{parts.netloc}".lower()


def same_origin(origin: str | None, host: str | None, settings: Settings) -> bool:
    """Whether a request with this ``Origin`` header may act on this table: none at all (not a
    browser: a browser always sends one with a socket or a POST), the table's own (its host
    is the request's ``Host``), or one of ``settings.allowed_origins``."""
    if origin is None:
        return True
    parts = urlsplit(origin)
    if parts.scheme in ("http", "https") and host is not None and parts.netloc.lower() == host.lower():
        return True
    try:
        return normal_origin(origin) in settings.origins
    except ValueError:  # "null" (a sandboxed frame, a file), or junk
        return False
