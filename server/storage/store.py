"""What every store shares: the database handle, and the database's refusals said in table terms."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from server.config import ServerConfig
from server.persistence.database import Database
from server.persistence.errors import InsufficientFunds, StoreError
from server.table.commands import TableError


class Store:
    """A port over one :class:`Database` (the stores compose: server/bindings.py)."""

    def __init__(self, database: Database, config: ServerConfig) -> None:
        self.db = database
        self.config = config


@contextmanager
def as_table_errors() -> Iterator[None]:
    """Turn the database's refusals into :class:`TableError`, with their codes."""
    try:
        yield
    except InsufficientFunds as exc:
        # Say it in chips; the ledger's place names are internal.
        raise TableError(exc.code, f"not enough chips: {exc.available} available, {exc.amount} needed") from None
    except StoreError as exc:
        raise TableError(exc.code, exc.message) from None
