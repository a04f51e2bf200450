"""Who a client is, for the limits per address, and what an address has earned.

* :func:`address_key`: the unit the per-address limits count.  An IPv4 address is itself;
  an IPv6 address counts as its ``/64`` network (one subscriber is usually given a whole
  ``/64``: counting exact addresses would give them 2^64 quotas); an IPv4-mapped IPv6
  address is its IPv4 address.
* :func:`client_host`: the client's address of a connection, which is the peer's, unless
  the peer is one of the configured trusted proxies (``--trusted-proxy``): then it is the
  last address of ``X-Forwarded-For`` that is not a trusted proxy.  ``X-Forwarded-For`` from
  anyone else is never read (anybody can send one).
* :class:`AddressBuckets`: one token bucket per address key (the HTTP request rate), their
  number bounded.
* :class:`Penalties`: an address whose sockets keep being closed for flooding (code 1008)
  is barred from opening more for a while, longer each time.
"""

from __future__ import annotations

import collections
import ipaddress
import logging
import math
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .limits import Bucket, Rate

if TYPE_CHECKING:
    from .settings import Settings

log = logging.getLogger("cardtable")

#: seconds between two log lines that sum up what the defences refused
REPORT_SECONDS = 60.0

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

#: address keys a table of buckets or penalties holds before it forgets the settled ones
MAX_TRACKED = 20000


def address_key(host: str | None) -> str:
    """The unit the per-address limits count for a client address (see the module)."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host.strip().strip("[]").split("%")[0])
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def parse_networks(text: str | Iterable[str]) -> tuple[IPNetwork, ...]:
    """Addresses or networks (``10.0.0.1``, ``10.0.0.0/8``, ``::1``), comma-separated or
    given one by one (``ValueError`` naming a wrong one)."""
    items = text.split(",") if isinstance(text, str) else list(text)
    out = []
    for item in (i.strip() for i in items):
        if not item:
            continue
        try:
            out.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"not an IP address or network: {item[:60]!r}") from None
    return tuple(out)


def is_trusted(host: str | None, proxies: tuple[IPNetwork, ...]) -> bool:
    """Whether ``host`` is one of the trusted proxies."""
    if not host or not proxies:
        return False
    try:
        ip = ipaddress.ip_address(host.strip("[]").split("%")[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == net.version and ip in net for net in proxies)


def client_host(peer: str | None, forwarded_for: str | None, proxies: tuple[IPNetwork, ...]) -> str | None:
    """The client's address: the peer's, or, when the peer is a trusted proxy, the last
    address of ``X-Forwarded-For`` that is not one (each proxy appends the address it got
    the request from; those before the first untrusted one may be forged)."""
    if not forwarded_for or not is_trusted(peer, proxies):
        return peer
    for item in reversed(forwarded_for.split(",")[-32:]):
        candidate = item.strip().strip('"')
        if candidate.startswith("[") and "]" in candidate:  # [v6]:port
            candidate = candidate[1:candidate.index("]")]
        elif candidate.count(":") == 1:  # v4:port
            candidate = candidate.partition(":")[0]
        try:
            ipaddress.ip_address(candidate)
        except ValueError:
            return peer  # junk where an address should be: the proxy's own address it is
        if not is_trusted(candidate, proxies):
            return candidate
    return peer


class AddressBuckets:
    """A token bucket (:class:`~.limits.Bucket`) per address key; settled ones are forgotten
    when there are many."""

    def __init__(self, rate: Rate) -> None:
        self.rate = rate
        self.buckets: dict[str, Bucket] = {}

    def take(self, key: str, now: float) -> float:
        """Spend one token of ``key``'s bucket: 0 if there was one, else the seconds until
        there is."""
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= MAX_TRACKED:
                self._forget(now)
            bucket = self.buckets[key] = Bucket(self.rate)
        if bucket.take(now):
            return 0.0
        return (1.0 - bucket.tokens) / self.rate.per_second

    def _forget(self, now: float) -> None:
        """Drop the buckets that are full again (their owners took nothing for long)."""
        for key, b in list(self.buckets.items()):
            if b.stamp is None or b.tokens + (now - b.stamp) * self.rate.per_second >= self.rate.burst:
                del self.buckets[key]
        if len(self.buckets) >= MAX_TRACKED:  # all busy: forget the oldest half
            for key in list(self.buckets)[: MAX_TRACKED // 2]:
                del self.buckets[key]


class Penalties:
    """Addresses barred after repeated flood closes: ``strikes`` closes within ``window``
    seconds bar the address for ``base`` seconds, twice as long at each new bar (at most
    ``longest``); a bar is forgotten after ``longest`` seconds without one."""

    def __init__(self, strikes: int = 3, window: float = 600.0, base: float = 60.0,
                 longest: float = 3600.0) -> None:
        self.strikes, self.window, self.base, self.longest = strikes, window, base, longest
        #: per address key: the times of its recent flood closes
        self.closes: dict[str, list[float]] = {}
        #: per address key: (barred until, how many bars in a row)
        self.bars: dict[str, tuple[float, int]] = {}
        #: bars given since the start (for the log's counters)
        self.barred_total = 0

    def flooded(self, key: str, now: float) -> float:
        """A socket of ``key`` was closed for flooding; the seconds it is barred for now (0:
        not barred)."""
        if len(self.closes) >= MAX_TRACKED:
            self.forget(now)
        recent = [t for t in self.closes.get(key, []) if now - t < self.window] + [now]
        self.closes[key] = recent
        if len(recent) < self.strikes:
            return 0.0
        self.closes.pop(key, None)
        until, count = self.bars.get(key, (0.0, 0))
        if now - until > self.longest:
            count = 0
        seconds = min(self.longest, self.base * 2.0 ** count)
        self.bars[key] = (now + seconds, count + 1)
        self.barred_total += 1
        return seconds

    def barred(self, key: str, now: float) -> int:
        """Whole seconds ``key`` is still barred for (0: it is not)."""
        bar = self.bars.get(key)
        if bar is None or bar[0] <= now:
            return 0
        return max(1, math.ceil(bar[0] - now))

    def forget(self, now: float) -> None:
        """Forget the old closes and the bars long over."""
        for key, times in list(self.closes.items()):
            if not any(now - t < self.window for t in times):
                del self.closes[key]
        for key, (until, _) in list(self.bars.items()):
            if now - until > self.longest:
                del self.bars[key]


class Defences:
    """What the table's edge keeps per address (the HTTP rate, the bars after floods) and
    counts (what it refused, by kind: see ``docs/table.md``, "Deploying"), summed up in the
    log once a minute when something was refused."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.http = AddressBuckets(Rate(settings.http_rate, settings.http_burst))
        self.penalties = Penalties(settings.flood_strikes, 600.0, settings.flood_bar)
        #: what was refused or closed since the start, by kind
        self.counts: collections.Counter[str] = collections.Counter()
        self._reported: collections.Counter[str] = collections.Counter()
        #: since the last report, per kind: how many from each address
        self._keys: collections.defaultdict[str, collections.Counter[str]] = \
            collections.defaultdict(collections.Counter)
        self._report_at = time.monotonic() + REPORT_SECONDS

    def count(self, kind: str, key: str | None = None) -> None:
        """One more of ``kind`` (from the address ``key``, for the log line's worst one)."""
        self.counts[kind] += 1
        if key is not None and (key in self._keys[kind] or len(self._keys[kind]) < MAX_TRACKED):
            self._keys[kind][key] += 1
        now = time.monotonic()
        if now >= self._report_at:
            self.report(now)

    def report(self, now: float) -> None:
        """Log what was refused since the last report (one line), if anything."""
        self._report_at = now + REPORT_SECONDS
        new = {k: v - self._reported[k] for k, v in self.counts.items() if v > self._reported[k]}
        if new:
            worst = [f"{kind}: most from {keys.most_common(1)[0][0]} ({keys.most_common(1)[0][1]})"
                     for kind, keys in sorted(self._keys.items()) if kind in new and keys]
            log.warning("defences since the last report: %s%s",
                        ", ".join(f"{v} {k}" for k, v in sorted(new.items())),
                        f" [{'; '.join(worst)}]" if worst else "")
        self._reported = collections.Counter(self.counts)
        self._keys.clear()
