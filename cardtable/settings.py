"""What an operator sets when serving the table (``python -m cardtable --help``;
``docs/table.md`` says what each does).

Every limit has a safe default: a table started with no flags bounds what one client can
take (rooms, connections, message rates) and what it keeps (idle rooms expire), takes
requests from its own pages only, and keeps the export off.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit

from .addresses import IPNetwork, parse_networks

HOUR = 3600.0
DAY = 24 * HOUR
MINUTE = 60.0


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
    expire_waiting: float = 15 * MINUTE
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
    #: the reverse proxies (addresses or networks) whose ``X-Forwarded-For`` names the
    #: client; nobody else's is read
    trusted_proxies: tuple[str, ...] = ()
    #: TCP connections (HTTP requests and sockets) open at once from one client address (an
    #: IPv6 address counts as its /64); a trusted proxy's are not counted
    http_conns_per_address: int = 40
    #: seconds a request's headers may take to arrive (from its first byte, or the
    #: connection's start)
    header_seconds: float = 10.0
    #: seconds a request's body may take to arrive after its headers
    body_seconds: float = 10.0
    #: a socket that sends nothing for this long is closed (the table's pages send a
    #: ``ping`` every 25 s)
    idle_seconds: float = 120.0
    #: HTTP requests (and socket handshakes) one client address may make a second, on average
    http_rate: float = 10.0
    #: ... and at once
    http_burst: int = 120
    #: rooms one client address may hold at once where no game was dealt yet
    waiting_per_address: int = 5
    #: connections of one room that hold no seat (spectators)
    spectators_per_room: int = 100
    #: sockets of one address closed for flooding (code 1008) within 10 minutes that bar it
    flood_strikes: int = 3
    #: how long the first bar lasts (each next one twice as long, at most an hour)
    flood_bar: float = 60.0
    #: the origins as compared (lowercase, no trailing slash)
    origins: frozenset[str] = field(init=False)
    #: the trusted proxies as networks
    proxies: tuple[IPNetwork, ...] = field(init=False)

    def __post_init__(self) -> None:
        if not 0 <= self.worker_nice <= 19:
            raise ValueError(f"worker_nice is a nice increment, 0..19, got {self.worker_nice}")
        for name, (low, high) in RANGES.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise ValueError(f"{name} must be in {low:g}..{high:g}, got {value}")
        object.__setattr__(self, "proxies", parse_networks(self.trusted_proxies))
        object.__setattr__(self, "origins", frozenset(normal_origin(o) for o in self.allowed_origins))


#: the range of each numeric setting (checked when the settings are made)
RANGES: dict[str, tuple[float, float]] = {
    "rooms_per_hour": (1, 100000), "max_rooms": (1, 1000000), "conns_per_address": (1, 100000),
    "max_conns": (1, 1000000), "handshake_seconds": (0.1, HOUR), "expire_waiting": (0.1, 365 * DAY),
    "expire_idle": (0.1, 365 * DAY), "host_grace": (0.1, DAY), "sweep_seconds": (0.05, DAY),
    "http_conns_per_address": (1, 100000), "header_seconds": (0.1, HOUR), "body_seconds": (0.1, HOUR),
    "idle_seconds": (0.2, DAY), "http_rate": (0.01, 100000), "http_burst": (1, 1000000),
    "waiting_per_address": (1, 100000), "spectators_per_room": (0, 100000), "flood_strikes": (1, 1000),
    "flood_bar": (1, DAY),
}


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
