"""Who is on a connection, and where a host token runs the floor.

The accounts store answers these and the transport keeps them; they live below both
(standard library and the vocabulary only), so the store never imports the transport.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from server.rules.vocabulary import AccountId

EVERY_TABLE: Final = "*"
"""The host token's scope: every table (a floor link's token runs its own table only; no table is named "*")."""


@dataclass(frozen=True, slots=True)
class Identity:
    """Who is on a connection: an account (or a spectator) and whether it is the host."""

    account: AccountId | None
    name: str | None
    host: bool = False
