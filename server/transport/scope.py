"""Where a host token runs the floor: the host token at every table, a floor link's token at its own table."""

from __future__ import annotations

from server.identity import EVERY_TABLE
from server.rules.errors import Refusal
from server.table.registry import Tables


async def check_scope(tables: Tables, scope: str, table: str | None, what: str) -> None:
    """Refuse ``auth/not_host`` unless a token of ``scope`` may run ``what`` at ``table`` (None: no table)."""
    if scope == EVERY_TABLE:
        return
    if table is None or (await tables.resolve(table)).lower() != scope.lower():
        raise Refusal("auth/not_host", f"a floor link runs table {scope} only: {what} takes the host token")
