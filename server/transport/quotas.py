"""How many new accounts an address (and everyone) may make, and the refusal every rate limit answers with.

Registering and redeeming a player's or floor invite link each make an account
with the starting chips. Before, only the per-address password limit slowed that:
200 accounts and 2,000,000 chips came from 20 addresses in under 22 s. Now each
address has a bucket of new accounts (bursts of ``register_address_burst``, then
``register_address_per_hour``), and all addresses together another
(``register_burst``, ``register_per_hour``). An attempt that makes no account
(a taken name, a spectator's link) gives its tokens back.

A client on the server's own machine is not counted: a client address on loopback
is the operator (``hcf bot``, tests). Behind a proxy, ``trusted_proxies`` and the
proxy's ``X-Forwarded-For`` make each client its own address (docs/reliability.md);
a proxy that sent none would make every client look local.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass

from server.clock import SYSTEM_CLOCK, Clock
from server.rules.errors import Refusal
from server.transport.limits import BucketTable, TokenBucket


class RateLimitedError(Refusal):
    """``rate/limited`` with the seconds to wait (sent as ``retry_after`` and ``Retry-After``)."""

    def __init__(self, seconds: int, what: str = "too many attempts") -> None:
        super().__init__("rate/limited", f"{what}: try again in {wait_words(seconds)}")
        self.seconds = seconds


def refuse_after(wait: float, what: str = "too many attempts") -> None:
    """Raise :class:`RateLimitedError` if ``wait`` (a bucket's answer) is more than nothing."""
    if wait > 0:
        raise RateLimitedError(max(1, math.ceil(wait)), what)


def wait_words(seconds: int) -> str:
    """A wait as a person says it.

    >>> wait_words(1), wait_words(45), wait_words(120), wait_words(361), wait_words(7200)
    ('1 s', '45 s', '2 minutes', '7 minutes', '2 hours')
    """
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{math.ceil(seconds / 60)} minutes"
    return f"{math.ceil(seconds / 3600)} hours"


def is_local(address: str) -> bool:
    """Whether the client ``address`` (after any trusted proxy's ``X-Forwarded-For``) is this machine's own."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


@dataclass(slots=True)
class NewAccounts:
    """New accounts per address and from everyone: take before making one, give back if none was made."""

    per_address: BucketTable
    everyone: TokenBucket

    @classmethod
    def build(cls, *, address_burst: int = 10, address_rate: float = 10 / 3600, burst: int = 100,
              rate: float = 200 / 3600, keys: int = 10_000, clock: Clock = SYSTEM_CLOCK) -> NewAccounts:
        """The limits with their defaults (ServerConfig's)."""
        return cls(BucketTable(address_rate, address_burst, keys, clock), TokenBucket(rate, burst, clock))

    def take(self, address: str) -> str | None:
        """Spend a new account of ``address`` and of everyone's, or refuse; the key to give it back with
        (None: not counted)."""
        if is_local(address):
            return None
        refuse_after(self.per_address.take(address), "too many new accounts from your address")
        wait = self.everyone.take()
        if wait > 0:
            self.per_address.refund(address)
            refuse_after(wait, "too many new accounts on this server just now")
        return address

    def give_back(self, key: str | None) -> None:
        """The attempt made no account: its tokens return."""
        if key is not None:
            self.per_address.refund(key)
            self.everyone.refund()
