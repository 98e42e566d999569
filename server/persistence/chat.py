"""A table's chat inside one transaction: append a line (or a host chat setting), read them back in order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from server.persistence.models import CHAT_LINE
from server.persistence.records import Micros
from server.persistence.txbase import TxBase


@dataclass(frozen=True, slots=True)
class ChatEntry:
    """One row of a table's chat log, as stored."""

    id: int
    table: str
    at: Micros
    account: int | None
    name: str
    room: str
    kind: str
    text: str


def _entry(row: Any) -> ChatEntry:
    return ChatEntry(id=row.id, table=row.table_name, at=row.at, account=row.account_id, name=row.name,
                     room=row.room, kind=row.kind, text=row.text)


class ChatOps(TxBase):
    async def append_chat(self, table: str, *, account: int | None, name: str, room: str, kind: str,
                          text: str) -> ChatEntry:
        """Add one row to the table's chat log, stamped with the transaction's time."""
        self._check_writable()
        result = await self._run(sa.insert(CHAT_LINE).values(
            table_name=table, at=self.now(), account_id=account, name=name, room=room, kind=kind,
            text=text).returning(*CHAT_LINE.c))
        return _entry(result.one())

    async def chat_log(self, table: str, *, kinds: tuple[str, ...] | None = None,
                       last: int | None = None) -> list[ChatEntry]:
        """The table's chat rows, oldest first (only ``kinds`` if given; only the ``last`` ones if given)."""
        query = sa.select(*CHAT_LINE.c).where(CHAT_LINE.c.table_name == table)
        if kinds is not None:
            query = query.where(CHAT_LINE.c.kind.in_(kinds))
        query = query.order_by(CHAT_LINE.c.id.desc())
        if last is not None:
            query = query.limit(last)
        rows = [_entry(row) for row in await self._run(query)]
        rows.reverse()
        return rows
