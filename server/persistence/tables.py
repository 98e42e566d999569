"""Tables, their settings history and their seats, inside one transaction.

Buying in and cashing out are ledger transfers (account <-> stack) that the
caller makes in the same transaction as ``take_seat`` / ``free_seat``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeAlias

import sqlalchemy as sa

from server.persistence.errors import StoreError
from server.persistence.models import ACCOUNT, CASINO_TABLE, INVITE, SEAT, SETTINGS_CHANGE
from server.persistence.naming import check_table_name
from server.persistence.records import Seat, SettingsChange, TableInfo, dump_json, load_json
from server.persistence.txbase import TxBase

RowLock: TypeAlias = Literal["update", "share"] | None
# Built once: every recorded command looks its table up (see docs/benchmarks.md, "Server").
_TABLE_BY_NAME = sa.select(CASINO_TABLE).where(CASINO_TABLE.c.name == sa.bindparam("name"))


def _table_info(row: Any) -> TableInfo:
    return TableInfo(row.name, row.game, load_json(row.settings), row.created_at, bool(row.closed))


def _seat(row: Any) -> Seat:
    return Seat(
        row.table_name,
        row.seat_no,
        row.account_id,
        bool(row.willing_to_bank),
        bool(row.sitting_out),
        row.sat_out_at,
    )


class TableOps(TxBase):
    async def create_table(self, name: str, settings: Mapping[str, Any], *, game: str = "hcf") -> TableInfo:
        """A new open table; ``table/exists`` if the name is used (closed tables included)."""
        self._check_writable()
        try:
            check_table_name(name)
            if await self.get_table(name) is not None:
                raise StoreError("table/exists", f"there is already a table {name!r}")
            await self._run(
                sa.insert(CASINO_TABLE).values(
                    name=name, game=game, settings=dump_json(settings), created_at=self.now(), closed=False
                )
            )
        except sa.exc.IntegrityError as exc:
            raise self._doom(StoreError("table/exists", f"there is already a table {name!r}")) from exc
        except StoreError as exc:
            raise self._doom(exc) from None
        return await self._require_table(name)

    async def get_table(self, name: str) -> TableInfo | None:
        """The table, open or closed, if it exists."""
        row = (await self._run(sa.select(CASINO_TABLE).where(CASINO_TABLE.c.name == name))).one_or_none()
        return _table_info(row) if row is not None else None

    async def list_tables(self, *, include_closed: bool = False) -> list[TableInfo]:
        """Tables by name."""
        query = sa.select(CASINO_TABLE).order_by(CASINO_TABLE.c.name)
        if not include_closed:
            query = query.where(sa.not_(CASINO_TABLE.c.closed))
        return [_table_info(row) for row in (await self._run(query)).all()]

    async def update_settings(self, name: str, settings: Mapping[str, Any], *, by: int | None = None) -> TableInfo:
        """Replace the settings of an open table and log the change (who, when, before, after)."""
        self._check_writable()
        try:
            old = await self._require_open(name, lock="update")
            new_json = dump_json(settings)
        except StoreError as exc:
            raise self._doom(exc) from None
        await self._run(sa.update(CASINO_TABLE).where(CASINO_TABLE.c.name == name).values(settings=new_json))
        await self._run(
            sa.insert(SETTINGS_CHANGE).values(
                table_name=name,
                at=self.now(),
                by_account_id=by,
                old_settings=dump_json(old.settings),
                new_settings=new_json,
            )
        )
        return await self._require_table(name)

    async def settings_history(self, name: str) -> list[SettingsChange]:
        """Every settings change of a table, oldest first."""
        query = sa.select(SETTINGS_CHANGE).where(SETTINGS_CHANGE.c.table_name == name).order_by(SETTINGS_CHANGE.c.id)
        return [
            SettingsChange(r.table_name, r.at, r.by_account_id, load_json(r.old_settings), load_json(r.new_settings))
            for r in (await self._run(query)).all()
        ]

    async def close_table(self, name: str) -> None:
        """Close a table nobody sits at (``table/occupied`` otherwise); closing twice is harmless."""
        self._check_writable()
        try:
            await self._require_table(name, lock="update")
            if await self.seats(name):
                raise StoreError("table/occupied", f"players still sit at {name!r}")
        except StoreError as exc:
            raise self._doom(exc) from None
        await self._run(sa.update(CASINO_TABLE).where(CASINO_TABLE.c.name == name).values(closed=True))
        # Its invite links go with it (and the floor tokens they gave, which need a live invite).
        await self._run(sa.update(INVITE).where(INVITE.c.table_name == name, sa.not_(INVITE.c.revoked))
                        .values(revoked=True))

    async def take_seat(self, table: str, seat_no: int, account_id: int, *, willing_to_bank: bool = False) -> Seat:
        """Seat an account: ``seat/taken``, ``seat/already_seated``, ``table/closed`` ...

        The primary key (table, seat_no) and the unique (table, account_id) make a
        double booking impossible even if two requests race.
        """
        self._check_writable()
        try:
            await self._require_open(table, lock="share")
            await self._check_free(table, seat_no, account_id)
            await self._run(
                sa.insert(SEAT).values(
                    table_name=table,
                    seat_no=seat_no,
                    account_id=account_id,
                    willing_to_bank=willing_to_bank,
                    sitting_out=False,
                    sat_out_at=None,
                )
            )
        except sa.exc.IntegrityError as exc:
            message = f"seat {seat_no} at {table!r} cannot be taken by account {account_id}"
            raise self._doom(StoreError("seat/taken", message)) from exc
        except StoreError as exc:
            raise self._doom(exc) from None
        return Seat(table, seat_no, account_id, willing_to_bank, False, None)

    async def free_seat(self, table: str, account_id: int) -> Seat:
        """Stand an account up; returns the seat it had (``seat/not_seated`` if none)."""
        self._check_writable()
        seat = await self._require_seat(table, account_id)
        await self._run(sa.delete(SEAT).where(SEAT.c.table_name == table, SEAT.c.account_id == account_id))
        return seat

    async def set_seat_flags(
        self,
        table: str,
        account_id: int,
        *,
        willing_to_bank: bool | None = None,
        sitting_out: bool | None = None,
    ) -> Seat:
        """Change a seated player's flags; ``sat_out_at`` records when they sat out."""
        self._check_writable()
        seat = await self._require_seat(table, account_id)
        values: dict[str, Any] = {}
        if willing_to_bank is not None:
            values["willing_to_bank"] = willing_to_bank
        if sitting_out is not None and sitting_out != seat.sitting_out:
            values["sitting_out"] = sitting_out
            values["sat_out_at"] = self.now() if sitting_out else None
        if values:
            await self._run(
                sa.update(SEAT).where(SEAT.c.table_name == table, SEAT.c.account_id == account_id).values(**values)
            )
        return await self._require_seat(table, account_id)

    async def seats(self, table: str) -> list[Seat]:
        """The taken seats of a table, by seat number."""
        query = sa.select(SEAT).where(SEAT.c.table_name == table).order_by(SEAT.c.seat_no)
        return [_seat(row) for row in (await self._run(query)).all()]

    async def seat_of(self, table: str, account_id: int) -> Seat | None:
        """Where the account sits at this table, if it does."""
        query = sa.select(SEAT).where(SEAT.c.table_name == table, SEAT.c.account_id == account_id)
        row = (await self._run(query)).one_or_none()
        return _seat(row) if row is not None else None

    async def _require_table(self, name: str, *, lock: RowLock = None) -> TableInfo:
        """The table; ``lock`` (PostgreSQL; SQLite's writer holds everything) keeps it as read until commit.

        "update" (closing, new settings) and "share" (taking a seat) exclude each other,
        so a seat cannot be taken at a table that is being closed.
        """
        query = _TABLE_BY_NAME
        if lock == "update":
            query = query.with_for_update(key_share=True)  # FOR NO KEY UPDATE: inserts referring to it go on
        elif lock == "share":
            query = query.with_for_update(read=True)
        row = (await self._run(query, {"name": name})).one_or_none()
        if row is None:
            raise StoreError("table/unknown", f"there is no table {name!r}")
        return _table_info(row)

    async def _require_open(self, name: str, *, lock: RowLock = None) -> TableInfo:
        info = await self._require_table(name, lock=lock)
        if info.closed:
            raise StoreError("table/closed", f"the table {name!r} is closed")
        return info

    async def _require_seat(self, table: str, account_id: int) -> Seat:
        seat = await self.seat_of(table, account_id)
        if seat is None:
            raise self._doom(StoreError("seat/not_seated", f"account {account_id} has no seat at {table!r}"))
        return seat

    async def _check_free(self, table: str, seat_no: int, account_id: int) -> None:
        if not isinstance(seat_no, int) or isinstance(seat_no, bool) or seat_no < 1:
            raise StoreError("seat/bad_number", f"seats are numbered from 1, not {seat_no!r}")
        if (await self._run(sa.select(ACCOUNT.c.id).where(ACCOUNT.c.id == account_id))).one_or_none() is None:
            raise StoreError("auth/unknown_account", f"there is no account {account_id}")
        if await self.seat_of(table, account_id) is not None:
            raise StoreError("seat/already_seated", f"account {account_id} already sits at {table!r}")
        query = sa.select(SEAT.c.account_id).where(SEAT.c.table_name == table, SEAT.c.seat_no == seat_no)
        if (await self._run(query)).one_or_none() is not None:
            raise StoreError("seat/taken", f"seat {seat_no} at {table!r} is taken")
