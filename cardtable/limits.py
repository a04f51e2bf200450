"""How much one client may ask of the table: message rates per connection.

Every connection has a token bucket per message type (:data:`RATES`) and one for all its
messages together (:data:`TOTAL`).  A message over its rate is ignored and answered with an
``error``; refused messages (over a rate, or malformed) are counted in a third bucket
(:data:`STRIKES`), and a connection that empties it is closed (code 1008): only the flooder,
never the other clients of its room.  A move that is played is not counted: a person moves
as fast as the game lets them (the other seats move in between); the refused ones (out of
turn, illegal, stale) are.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rate:
    """``per_second`` messages a second on average, at most ``burst`` at once."""

    per_second: float
    burst: int

    def words(self) -> str:
        """The rate in words, for an error message."""
        if self.per_second >= 1:
            return f"{self.per_second:g} a second"
        return f"one every {1 / self.per_second:g} seconds"


#: per message type: its rate on one connection
RATES: dict[str, Rate] = {
    "hello": Rate(1, 5),
    "sit": Rate(2, 10),
    "leave": Rate(2, 10),
    "level": Rate(4, 12),
    "start": Rate(1, 3),
    "rematch": Rate(1, 3),
    "move": Rate(10, 30),  # refused moves only: a move that is played is not counted
    "coach": Rate(1, 6),
    "resign": Rate(1, 3),
    "settings": Rate(2, 6),
    "ping": Rate(1, 5),
}
#: every message of one connection, whatever its type (malformed ones too); a played move
#: is not counted
TOTAL = Rate(30, 60)
#: refused messages (over a rate, or malformed) a connection may send before it is closed
STRIKES = Rate(2, 40)


class Bucket:
    """A token bucket: :meth:`take` one token (``False`` when none is left); tokens come
    back at ``rate.per_second`` up to ``rate.burst``."""

    __slots__ = ("rate", "tokens", "stamp")

    def __init__(self, rate: Rate) -> None:
        self.rate = rate
        self.tokens = float(rate.burst)
        self.stamp: float | None = None

    def take(self, now: float) -> bool:
        """Spend one token at time ``now`` (seconds, monotonic) if there is one."""
        if self.stamp is not None:
            self.tokens = min(float(self.rate.burst), self.tokens + (now - self.stamp) * self.rate.per_second)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def refund(self) -> None:
        """Give back the token of a message that does not count."""
        self.tokens = min(float(self.rate.burst), self.tokens + 1.0)


class ConnLimits:
    """The buckets of one connection."""

    __slots__ = ("buckets", "total", "strikes")

    def __init__(self) -> None:
        self.buckets: dict[str, Bucket] = {}
        self.total = Bucket(TOTAL)
        self.strikes = Bucket(STRIKES)

    def kind(self, kind: str) -> Bucket:
        """The bucket of one message type."""
        bucket = self.buckets.get(kind)
        if bucket is None:
            bucket = self.buckets[kind] = Bucket(RATES[kind])
        return bucket
