"""Hands and the table event log, inside one transaction.

The server seed is stored by ``start_hand`` before any card is dealt, so a hand
interrupted by a crash can be proven fair or voided afterwards. Events carry a
per-table sequence number that only grows (UNIQUE(table, seq)): the order in
which clients must apply them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import sqlalchemy as sa

from server.persistence.errors import StoreError
from server.persistence.models import CASINO_TABLE, HAND, HAND_EVENT, HAND_STATUSES
from server.persistence.records import Event, Hand, dump_json, load_json
from server.persistence.tables import TableOps
from server.rules.fairness import SEED_BYTES, SHUFFLE_VERSION

FINAL_STATUSES: Final = frozenset(HAND_STATUSES) - {"in_progress"}
_HEX = re.compile(r"[0-9a-f]+")
# Built once: every recorded command runs these (see docs/benchmarks.md, "Server").
_HAND_BY_ID = sa.select(HAND).where(HAND.c.id == sa.bindparam("hand_id"))
_LAST_SEQ = sa.select(sa.func.max(HAND_EVENT.c.seq)).where(HAND_EVENT.c.table_name == sa.bindparam("table"))
_INSERT_EVENT = sa.insert(HAND_EVENT)
_INSERT_HAND = sa.insert(HAND).returning(HAND.c.id)
# What appending events checks, in one query: the table exists, the hand's table, the table's last seq.
_EVENT_CHECKS = sa.select(
    sa.exists().where(CASINO_TABLE.c.name == sa.bindparam("table")),
    sa.select(HAND.c.table_name).where(HAND.c.id == sa.bindparam("hand_id")).scalar_subquery(),
    _LAST_SEQ.scalar_subquery(),
)
# What starting a hand checks, in one query: the table (closed?), a hand in progress, the last hand number.
_HAND_CHECKS = sa.select(
    sa.select(CASINO_TABLE.c.closed).where(CASINO_TABLE.c.name == sa.bindparam("table")).scalar_subquery(),
    sa.select(HAND.c.id)
    .where(HAND.c.table_name == sa.bindparam("table"), HAND.c.status == "in_progress")
    .scalar_subquery(),
    sa.select(sa.func.max(HAND.c.hand_no)).where(HAND.c.table_name == sa.bindparam("table")).scalar_subquery(),
)
_LAST_NUMBER = sa.select(sa.func.max(HAND.c.number)).where(HAND.c.table_name == sa.bindparam("table"))
# What numbering a hand checks, in one query: the hand's table and that table's last hand number.
_OTHER = HAND.alias("other")
_NUMBER_CHECKS = sa.select(
    HAND.c.table_name,
    sa.select(sa.func.max(_OTHER.c.number)).where(_OTHER.c.table_name == HAND.c.table_name).scalar_subquery(),
).where(HAND.c.id == sa.bindparam("hand_id"))
# Only a hand in progress and not yet numbered takes a number: a number is given once.
_NUMBER_HAND = (
    sa.update(HAND)
    .where(HAND.c.id == sa.bindparam("hand_id"), HAND.c.status == "in_progress", HAND.c.number.is_(None))
    .values(number=sa.bindparam("new_number"))
)
# Conditional, so that of two concurrent finishes (PostgreSQL) only one counts.
_FINISH_HAND = (
    sa.update(HAND)
    .where(HAND.c.id == sa.bindparam("hand_id"), HAND.c.status == "in_progress")
    .values(status=sa.bindparam("new_status"), summary=sa.bindparam("summary_text"), ended_at=sa.bindparam("ended"))
)


def _hand(row: Any) -> Hand:
    summary = load_json(row.summary) if row.summary is not None else None
    return Hand(
        row.id,
        row.table_name,
        row.hand_no,
        row.started_at,
        row.ended_at,
        row.status,
        row.server_seed,
        row.commitment,
        row.shuffle_version,
        bool(row.arranged),
        summary,
        row.number,
    )


def _event(row: Any) -> Event:
    return Event(row.table_name, row.hand_id, row.seq, row.type, load_json(row.payload), row.created_at)


def _check_hex(name: str, value: str, length: int) -> None:
    if not isinstance(value, str) or len(value) != length or not _HEX.fullmatch(value):
        raise StoreError("hand/bad_seed", f"{name} must be {length} lowercase hex digits")


class HandOps(TableOps):
    async def start_hand(
        self,
        table: str,
        server_seed_hex: str,
        commitment: str,
        arranged: bool,
        *,
        shuffle_version: int = SHUFFLE_VERSION,
    ) -> int:
        """Record a new hand (and its secret seed) before dealing; returns its id.

        ``hand/in_progress`` if the table already has an unfinished hand.
        """
        self._check_writable()
        try:
            _check_hex("server_seed_hex", server_seed_hex, 2 * SEED_BYTES)
            _check_hex("commitment", commitment, 64)
            ((closed, open_hand, last),) = await self._rows(_HAND_CHECKS, {"table": table})
            if closed is None:
                raise StoreError("table/unknown", f"there is no table {table!r}")
            if closed:
                raise StoreError("table/closed", f"the table {table!r} is closed")
            if open_hand is not None:
                raise StoreError("hand/in_progress", f"a hand is already in progress at {table!r}")
            row = {
                "table_name": table,
                "hand_no": (last or 0) + 1,
                "started_at": self.now(),
                "ended_at": None,
                "status": "in_progress",
                "server_seed": server_seed_hex,
                "commitment": commitment,
                "shuffle_version": shuffle_version,
                "arranged": arranged,
                "summary": None,
            }
            ((hand_id,),) = await self._rows(_INSERT_HAND, row)
        except sa.exc.IntegrityError as exc:
            message = f"a hand is already in progress at {table!r}"
            raise self._doom(StoreError("hand/in_progress", message)) from exc
        except StoreError as exc:
            raise self._doom(exc) from None
        return int(hand_id)

    async def append_events(
        self, table: str, hand_id: int | None, seq_start: int, payloads: Sequence[Mapping[str, Any]]
    ) -> int:
        """Append events numbered ``seq_start``, ``seq_start + 1`` ...; returns the last seq.

        Each payload is a JSON object with a string ``type``; it is stored whole.
        ``seq_start`` must be above the table's last seq (``event/seq_conflict``);
        gaps are allowed. ``hand_id`` is None for table events outside a hand.
        """
        self._check_writable()
        try:
            rows = await self._event_rows(table, hand_id, seq_start, payloads)
        except StoreError as exc:
            raise self._doom(exc) from None
        if rows:
            try:
                await self._change(_INSERT_EVENT, rows)
            except sa.exc.IntegrityError as exc:
                message = f"seq {seq_start}.. at {table!r} is already used"
                raise self._doom(StoreError("event/seq_conflict", message)) from exc
            last = seq_start + len(rows) - 1
            for key in [k for k in self._appended if k[0] == table]:
                self._appended[key] = last  # a table's seqs are one sequence, whatever the hand
            self._appended[(table, hand_id)] = last
        return seq_start + len(rows) - 1

    async def finish_hand(self, hand_id: int, status: str, summary: Mapping[str, Any] | None) -> None:
        """End a hand in progress as ``settled``, ``not_dealt`` or ``void``, with its public result."""
        self._check_writable()
        try:
            if status not in FINAL_STATUSES:
                raise StoreError("hand/bad_status", f"a hand ends as one of {sorted(FINAL_STATUSES)}, not {status!r}")
            text = dump_json(summary) if summary is not None else None
        except StoreError as exc:
            raise self._doom(exc) from None
        params = {"hand_id": hand_id, "new_status": status, "summary_text": text, "ended": self.now()}
        if await self._change(_FINISH_HAND, params) == 1:
            return
        # Nothing changed: say why (the update first, the reason after: one statement when all is well).
        hand = await self.hand(hand_id)
        if hand is None:
            raise self._doom(StoreError("hand/unknown", f"there is no hand {hand_id}"))
        if hand.status != "in_progress":
            raise self._doom(StoreError("hand/not_in_progress", f"hand {hand_id} already ended ({hand.status})"))
        raise self._doom(StoreError("hand/not_in_progress", f"hand {hand_id} ended meanwhile"))

    async def number_hand(self, hand_id: int, number: int) -> None:
        """Give a hand in progress whose cards are dealt the table's next hand ``number``.

        Attempts never dealt keep no number, so a table counts 1, 2, 3 in dealt hands
        only. ``hand/bad_number`` unless ``number`` follows the table's last one.
        """
        self._check_writable()
        found = await self._rows(_NUMBER_CHECKS, {"hand_id": hand_id})
        if not found:
            raise self._doom(StoreError("hand/unknown", f"there is no hand {hand_id}"))
        ((table, last),) = found
        last = int(last or 0)
        if number != last + 1:
            raise self._doom(StoreError("hand/bad_number", f"the next hand at {table!r} is number "
                                                           f"{last + 1}, not {number}"))
        if await self._change(_NUMBER_HAND, {"hand_id": hand_id, "new_number": number}) != 1:
            raise self._doom(StoreError("hand/not_in_progress", f"hand {hand_id} is over or numbered already"))

    async def last_hand_number(self, table: str) -> int:
        """The number of the table's last dealt hand, 0 before its first."""
        return int((await self._run(_LAST_NUMBER, {"table": table})).scalar_one() or 0)

    async def hand_by_number(self, table: str, number: int) -> Hand | None:
        """The table's dealt hand with this number, if any."""
        query = sa.select(HAND).where(HAND.c.table_name == table, HAND.c.number == number)
        row = (await self._run(query)).one_or_none()
        return _hand(row) if row is not None else None

    async def hand(self, hand_id: int) -> Hand | None:
        """The hand with this id, if any."""
        row = (await self._run(_HAND_BY_ID, {"hand_id": hand_id})).one_or_none()
        return _hand(row) if row is not None else None

    async def hands_in_progress(self) -> list[Hand]:
        """Unfinished hands of every table (after a crash: the ones to void)."""
        query = sa.select(HAND).where(HAND.c.status == "in_progress").order_by(HAND.c.id)
        return [_hand(row) for row in (await self._run(query)).all()]

    async def recent_hands(self, table: str, limit: int = 20, *, dealt_only: bool = False) -> list[Hand]:
        """The table's latest hands, newest first (``dealt_only``: only those with a number)."""
        query = sa.select(HAND).where(HAND.c.table_name == table)
        if dealt_only:
            query = query.where(HAND.c.number.is_not(None))
        query = query.order_by(HAND.c.hand_no.desc()).limit(limit)
        return [_hand(row) for row in (await self._run(query)).all()]

    async def hand_events(self, hand_id: int) -> list[Event]:
        """A hand's events in seq order."""
        query = sa.select(HAND_EVENT).where(HAND_EVENT.c.hand_id == hand_id).order_by(HAND_EVENT.c.seq)
        return [_event(row) for row in (await self._run(query)).all()]

    async def table_events(self, table: str, after_seq: int = 0, limit: int | None = None) -> list[Event]:
        """A table's events with seq above ``after_seq``, in order."""
        query = (
            sa.select(HAND_EVENT)
            .where(HAND_EVENT.c.table_name == table, HAND_EVENT.c.seq > after_seq)
            .order_by(HAND_EVENT.c.seq)
            .limit(limit)
        )
        return [_event(row) for row in (await self._run(query)).all()]

    async def last_seq(self, table: str) -> int:
        """The table's highest event seq, 0 before its first event."""
        return int((await self._run(_LAST_SEQ, {"table": table})).scalar_one() or 0)

    async def _open_hand(self, table: str) -> int | None:
        query = sa.select(HAND.c.id).where(HAND.c.table_name == table, HAND.c.status == "in_progress")
        value = (await self._run(query)).scalar_one_or_none()
        return int(value) if value is not None else None

    async def _event_rows(
        self, table: str, hand_id: int | None, seq_start: int, payloads: Sequence[Mapping[str, Any]]
    ) -> list[dict[str, Any]]:
        last = self._appended.get((table, hand_id))
        if last is None:  # checked once per transaction: a batch of commands appends at one table and hand
            ((table_exists, hand_table, found),) = await self._rows(_EVENT_CHECKS, {"table": table, "hand_id": hand_id})
            if not table_exists:
                raise StoreError("table/unknown", f"there is no table {table!r}")
            if hand_id is not None and hand_table != table:
                raise StoreError("hand/unknown", f"there is no hand {hand_id} at {table!r}")
            last = int(found or 0)
        if not isinstance(seq_start, int) or seq_start <= last:
            raise StoreError("event/seq_conflict", f"seq must start above {last} at {table!r}, not {seq_start!r}")
        now = self.now()
        rows = []
        for offset, payload in enumerate(payloads):
            kind = payload.get("type")
            if not isinstance(kind, str) or not kind:
                raise StoreError("event/bad_payload", "every event payload has a string 'type'")
            rows.append(
                {
                    "table_name": table,
                    "hand_id": hand_id,
                    "seq": seq_start + offset,
                    "type": kind,
                    "payload": dump_json(payload),
                    "created_at": now,
                }
            )
        return rows
