"""Rate limits that cannot be walked around: bounded token buckets, and the client's real address.

A limit keyed by something an attacker chooses (an address, an account name) must
keep its memory bounded without forgiving everyone at once: a table of buckets
holds at most ``capacity`` keys and, when full, forgets the least recently used
one. A forgotten bucket comes back full, so eviction only ever forgives (it never
refuses anyone the unbounded table would let through), and it forgives the key
that waited longest. Time comes from an injected clock, so tests move it by hand.
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass

from server.clock import SYSTEM_CLOCK, Clock

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(slots=True)
class _Level:
    tokens: float
    at: float


class TokenBucket:
    """One token bucket, full at first: ``rate`` tokens a second, bursts of ``burst`` (a connection's requests)."""

    __slots__ = ("at", "burst", "clock", "rate", "tokens")

    def __init__(self, rate: float, burst: float, clock: Clock = SYSTEM_CLOCK) -> None:
        self.rate, self.burst, self.clock = rate, float(burst), clock
        self.tokens, self.at = self.burst, clock.monotonic()

    def take(self) -> float:
        """Spend a token: 0.0 if there was one, else the seconds until there is."""
        now = self.clock.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate

    def refund(self) -> None:
        """Give back a token taken for an attempt that turned out not to count."""
        self.tokens = min(self.burst, self.tokens + 1)


class BucketTable:
    """A token bucket per key (``rate`` a second, bursts of ``burst``), at most ``capacity`` keys."""

    def __init__(self, rate: float, burst: float, capacity: int, clock: Clock = SYSTEM_CLOCK) -> None:
        if rate <= 0 or burst < 1 or capacity < 1:
            raise ValueError("a bucket table needs rate > 0, burst >= 1 and capacity >= 1")
        self.rate, self.burst, self.capacity, self.clock = rate, float(burst), capacity, clock
        self._levels: OrderedDict[str, _Level] = OrderedDict()

    def __len__(self) -> int:
        return len(self._levels)

    def take(self, key: str) -> float:
        """Spend one token of ``key``: 0.0 if there was one, else the seconds until there is."""
        level = self._level(key)
        if level.tokens >= 1:
            level.tokens -= 1
            return 0.0
        return (1 - level.tokens) / self.rate

    def refund(self, key: str) -> None:
        """Give back a token taken for an attempt that turned out not to count (a good password)."""
        level = self._levels.get(key)
        if level is not None:
            level.tokens = min(self.burst, level.tokens + 1)

    def _level(self, key: str) -> _Level:
        now = self.clock.monotonic()
        level = self._levels.get(key)
        if level is None:
            while len(self._levels) >= self.capacity:
                self._levels.popitem(last=False)  # the least recently used: it waited longest
            level = self._levels[key] = _Level(self.burst, now)
        else:
            self._levels.move_to_end(key)
            level.tokens = min(self.burst, level.tokens + max(0.0, now - level.at) * self.rate)
            level.at = now
        return level


def parse_networks(text: str) -> tuple[Network, ...]:
    """``"10.0.0.1, 192.168.0.0/16"`` as networks; raises ValueError naming the bad entry."""
    networks = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(f"{part!r} is not an IP address or network") from None
    return tuple(networks)


def is_trusted(address: str | None, trusted: Iterable[Network]) -> bool:
    """Whether ``address`` (a peer's IP) is one of the configured trusted proxies."""
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client_address(peer: str | None, forwarded_for: str | None, trusted: tuple[Network, ...]) -> str:
    """The client's address: the peer's, unless the peer is a trusted proxy.

    Behind trusted proxies, ``X-Forwarded-For`` is read from the right: each proxy
    appends the address it saw, so the first entry that is not itself a trusted
    proxy is the client. Entries to its left were written by the client and are
    not believed.
    """
    address = peer or "?"
    if not forwarded_for or not is_trusted(peer, trusted):
        return address
    for hop in reversed([h.strip() for h in forwarded_for.split(",")]):
        if not hop:
            break
        address = hop
        if not is_trusted(hop, trusted):
            break
    return address
