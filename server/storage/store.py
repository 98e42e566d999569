"""What every store shares: the database handle, and the database's refusals said as a client may see them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from server.config import ServerConfig
from server.persistence.database import Database
from server.persistence.errors import StoreError, refusal_of


class Store:
    """A port over one :class:`Database` (the stores compose: server/bindings.py)."""

    def __init__(self, database: Database, config: ServerConfig) -> None:
        self.db = database
        self.config = config


@contextmanager
def as_table_errors() -> Iterator[None]:
    """Turn the database's refusals into refusals a client may see (the store's own codes mapped once)."""
    try:
        yield
    except StoreError as exc:
        raise refusal_of(exc) from None
