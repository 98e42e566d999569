"""The host's sessions (nights) at a table, for settle-up, and who may open its replay links (issue 28, items 3
and 4; docs/web.md, "Settle-up" and "History and replays by link").

A session runs from when the host opens it to when the host closes it (``hcf host session open|close``,
``POST /api/tables/{name}/session``); at most one is open at a table. Settle-up reads a session's window
(:mod:`server.storage.settle`); a table where no session was ever opened settles by its night or by day, as
before. The replays setting is one of ``anyone`` (no row: the default), ``players`` or ``host``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, cast, get_args

import sqlalchemy as sa

from server.i18n import phrase
from server.persistence.models import TABLE_REPLAYS, TABLE_SESSION, TRANSFER
from server.persistence.records import TableInfo
from server.persistence.tx import Tx
from server.rules.errors import Refusal
from server.storage.invites import iso
from server.storage.store import Store

Replays = Literal["anyone", "players", "host"]
REPLAYS: Final[tuple[str, ...]] = get_args(Replays)
REPLAYS_WORDS: Final[dict[str, str]] = {
    "anyone": phrase("anyone with a link may open this table's replays"),
    "players": phrase("only the people who played at this table (and the host) may open its replays"),
    "host": phrase("only the host may open this table's replays"),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Session:
    """One of a table's sessions: its number at the table (1, 2, 3 ...) and its window in microseconds."""

    number: int
    opened_at: int
    closed_at: int | None

    def as_json(self) -> dict[str, Any]:
        """The session as the API shows it."""
        return {"number": self.number, "opened": iso(self.opened_at),
                "closed": iso(self.closed_at) if self.closed_at is not None else None}


async def table_sessions(tx: Tx, table: str) -> list[Session]:
    """The table's sessions, oldest first."""
    query = sa.select(TABLE_SESSION).where(TABLE_SESSION.c.table_name == table).order_by(TABLE_SESSION.c.id)
    rows = (await tx._run(query)).all()
    return [Session(number=i, opened_at=r.opened_at, closed_at=r.closed_at) for i, r in enumerate(rows, 1)]


async def known_table(tx: Tx, table: str) -> TableInfo:
    """The table (open or closed), or ``table/unknown``."""
    info = await tx.get_table(table)
    if info is None:
        raise Refusal("table/unknown", phrase("there is no table named {table}", table=repr(table)))
    return info


async def end_session(tx: Tx, table: str, at: int) -> Session | None:
    """Close the table's open session at ``at`` (never before it opened): the closed session, or None."""
    sessions = await table_sessions(tx, table)
    if not sessions or sessions[-1].closed_at is not None:
        return None
    now = max(at, sessions[-1].opened_at)
    await tx._run(sa.update(TABLE_SESSION).where(TABLE_SESSION.c.table_name == table,
                                                 TABLE_SESSION.c.closed_at.is_(None)).values(closed_at=now))
    return Session(number=sessions[-1].number, opened_at=sessions[-1].opened_at, closed_at=now)


class NightStore(Store):
    """Sessions and the replays setting over one :class:`Database`."""

    async def open_session(self, table: str) -> dict[str, Any]:
        """Open a session at ``table`` now; one already open stays open (and is said so).

        Two opens at once (two hosts, a double click) open one session: the other is told it is open, in
        words, as an open that came second is (the database's one-open index refuses the second row).
        """
        try:
            async with self.db.transaction() as tx:
                info = await known_table(tx, table)
                if info.closed:
                    raise Refusal("table/closed", phrase("the table {table} is closed: a session opens at an open "
                                                         "table", table=info.name))
                sessions = await table_sessions(tx, info.name)
                if sessions and sessions[-1].closed_at is None:
                    return _already_open(info.name, sessions[-1])
                now = max(tx.now(), sessions[-1].closed_at if sessions and sessions[-1].closed_at else 0)
                await tx._run(sa.insert(TABLE_SESSION).values(table_name=info.name, opened_at=now, closed_at=None))
        except sa.exc.IntegrityError:  # another open won the race: answer with its session
            async with self.db.transaction(write=False) as tx:
                info = await known_table(tx, table)
                return _already_open(info.name, (await table_sessions(tx, info.name))[-1])
        session = Session(number=len(sessions) + 1, opened_at=now, closed_at=None)
        return {"table": info.name, "session": session.as_json(), "opened": True,
                "message": phrase("Session {number} at {table} is open: settle-up counts from now.",
                                  number=session.number, table=info.name)}

    async def close_session(self, table: str) -> Session | None:
        """Close the open session at ``table`` now: the closed session, or None when none was open."""
        async with self.db.transaction() as tx:
            info = await known_table(tx, table)
            return await end_session(tx, info.name, tx.now())

    async def sessions(self, table: str) -> dict[str, Any]:
        """The table's sessions, oldest first."""
        async with self.db.transaction(write=False) as tx:
            info = await known_table(tx, table)
            found = await table_sessions(tx, info.name)
        return {"table": info.name, "sessions": [s.as_json() for s in found]}

    async def replays_setting(self, table: str) -> Replays:
        """Who may open the table's replay links (``anyone`` unless the host said otherwise)."""
        async with self.db.transaction(write=False) as tx:
            info = await known_table(tx, table)
            row = (await tx._run(sa.select(TABLE_REPLAYS.c.replays)
                                 .where(TABLE_REPLAYS.c.table_name == info.name))).first()
        return _replays(row.replays if row is not None else "anyone")

    async def replays(self, table: str) -> dict[str, Any]:
        """The replays setting, with its sentence."""
        replays = await self.replays_setting(table)
        return {"table": table, "replays": replays,
                "message": phrase("At {table}, {who}.", table=table, who=REPLAYS_WORDS[replays])}

    async def set_replays(self, table: str, replays: str) -> dict[str, Any]:
        """Set who may open the table's replay links; anything but the three values is refused in words."""
        if replays not in REPLAYS:
            raise Refusal("request/malformed", phrase("replays is one of anyone, players or host"))
        async with self.db.transaction() as tx:
            info = await known_table(tx, table)
            await tx._run(sa.delete(TABLE_REPLAYS).where(TABLE_REPLAYS.c.table_name == info.name))
            await tx._run(sa.insert(TABLE_REPLAYS).values(table_name=info.name, replays=replays))
        return {"table": info.name, "replays": replays,
                "message": phrase("At {table}, {who}.", table=info.name, who=REPLAYS_WORDS[replays])}

    async def played_at(self, table: str, account: int) -> bool:
        """Whether the account ever had chips at the table (a buy-in: it sat and played there)."""
        async with self.db.transaction(write=False) as tx:
            info = await known_table(tx, table)
            place = f"stack:{info.name}:{account}"
            query = sa.select(TRANSFER.c.id).where(TRANSFER.c.table_name == info.name, TRANSFER.c.dst == place)
            return (await tx._run(query.limit(1))).first() is not None


def _already_open(table: str, session: Session) -> dict[str, Any]:
    return {"table": table, "session": session.as_json(), "opened": False,
            "message": phrase("Session {number} at {table} is already open, since {since}.",
                              number=session.number, table=table, since=iso(session.opened_at))}


def _replays(value: str) -> Replays:
    return cast("Replays", value) if value in REPLAYS else "anyone"
