"""The transport's chat port (server/transport/chat.py ``ChatLog``): a table's chat, kept with its log.

Every line, quick reaction and host chat setting is a row of ``chat_line``
(server/persistence/chat.py), written before it is sent (persist, then broadcast).
"""

from __future__ import annotations

from typing import Any

from server.persistence.chat import ChatEntry
from server.persistence.database import Database
from server.storage.store import Store, as_table_errors

SPOKEN = ("line", "reaction")


def chat_fields(entry: ChatEntry) -> dict[str, Any]:
    """A chat row as the wire and the export show it: what was typed and who typed it, nothing else."""
    return {"table": entry.table, "id": entry.id, "at": entry.at / 1e6, "room": entry.room, "kind": entry.kind,
            "name": entry.name, "text": entry.text}


class ChatStore(Store):
    """Tables' chat over one :class:`Database`."""

    async def record_chat(self, table: str, *, account: int | None, name: str, room: str, kind: str,
                          text: str) -> dict[str, Any]:
        """Store one row of the table's chat; the row as it is sent."""
        with as_table_errors():
            entry = await self.db.run(lambda tx: tx.append_chat(
                table, account=account, name=name, room=room, kind=kind, text=text))
        return chat_fields(entry)

    async def chat_settings(self, table: str, kinds: tuple[str, ...]) -> list[tuple[str, str]]:
        """The table's host chat settings (kind, the name it names), oldest first."""
        entries = await self.db.run(lambda tx: tx.chat_log(table, kinds=kinds), write=False)
        return [(e.kind, e.name) for e in entries]

    async def recent_chat(self, table: str, last: int) -> list[dict[str, Any]]:
        """The table's ``last`` lines and reactions, oldest first."""
        entries = await self.db.run(lambda tx: tx.chat_log(table, kinds=SPOKEN, last=last), write=False)
        return [chat_fields(e) for e in entries]



async def exported_chat(db: Database, table: str) -> list[dict[str, Any]]:
    """Every row of the table's chat, oldest first (``hcf-server export --chat``)."""
    return [chat_fields(e) for e in await db.run(lambda tx: tx.chat_log(table), write=False)]
