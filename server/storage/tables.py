"""The table's storage port (server/table/ports.py ``TableStorage``, and the registry's catalog).

The runner commits a :class:`Batch`; this writes it in one transaction. At start (or
when a process takes a table over) it loads the tables as recorded and voids the hands
a crash left in progress.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

import structlog

from server.config import ServerConfig
from server.persistence.database import Database
from server.persistence.records import Hand
from server.persistence.records import Transfer as LedgerTransfer
from server.persistence.tx import Tx
from server.replay import state_at_end_of_log
from server.rules.errors import Refusal, RuleError
from server.rules.events import HandVoided
from server.rules.game import AccountId
from server.rules.games import game_of
from server.rules.places import stack_place
from server.rules.vocabulary import Seat
from server.storage.nights import end_session
from server.storage.store import Store, as_table_errors
from server.table.ports import Batch, RecordedEvent
from server.table.registry import drill_for
from server.table.roster import Seated
from server.table.runner import TableSetup
from server.table.summary import hand_summary
from server.table.time_bank import restored as time_banks_restored

log = structlog.get_logger("hcf.storage")

_SEAT_KINDS = frozenset({"buy_in", "cash_out", "top_up"})


class _BatchAbandonedError(Exception):
    """Rolls back a batch's transaction whose commands did not all run (the table task ended)."""


@dataclass(slots=True)
class _Shared:
    """A table's batch of commands in one transaction: none until its first write."""

    transaction: AbstractAsyncContextManager[Tx] | None = None
    tx: Tx | None = None


class TableStore(Store):
    """The tables' events, seats, stacks and hands, over one :class:`Database`."""

    def __init__(self, database: Database, config: ServerConfig) -> None:
        super().__init__(database, config)
        # Several processes (server/cluster): checks, inside each table write, that this process owns the table.
        self.fence: Callable[[Tx, str], Awaitable[None]] | None = None
        self._shared: dict[str, _Shared] = {}  # table -> its batch's one transaction (begin_batch)

    async def commit(self, table: str, hand_id: int | None, batch: Batch) -> int | None:
        """Write everything one table command changed, atomically.

        Inside a batch (``begin_batch``) it is a savepoint of the batch's one transaction:
        refused, it is undone alone; written, it is durable once ``end_batch`` commits.
        """
        shared = self._shared.get(table)
        with as_table_errors():
            if shared is None:
                async with self.db.transaction() as tx:
                    if self.fence is not None:
                        await self.fence(tx, table)
                    return await self._write(tx, table, hand_id, batch)
            tx = await self._open_shared(shared, table)
            async with tx.savepoint():
                return await self._write(tx, table, hand_id, batch)

    def begin_batch(self, table: str) -> None:
        """The table's next commands share one transaction, committed by ``end_batch`` (SQLite only).

        On SQLite one writer holds the whole database anyway, so a batch in one transaction
        costs one commit instead of one per command (docs/benchmarks.md, sixth round). On
        PostgreSQL writers run side by side and each command locks its places in key order:
        held to the end of a batch, two tables' locks could deadlock, so each command there
        stays its own transaction.
        """
        if self.db.is_sqlite:
            self._shared[table] = _Shared()

    async def end_batch(self, table: str, *, commit: bool = True) -> None:
        """Commit (or roll back) what the table's batch wrote; raises if the commit fails."""
        shared = self._shared.pop(table, None)
        if shared is None or shared.transaction is None:
            return
        if not commit:
            await shared.transaction.__aexit__(_BatchAbandonedError, _BatchAbandonedError(), None)
            return
        with as_table_errors():
            await shared.transaction.__aexit__(None, None, None)

    async def _open_shared(self, shared: _Shared, table: str) -> Tx:
        """The batch's transaction, begun (and the table's ownership checked) at its first write."""
        if shared.tx is not None:
            return shared.tx
        transaction = self.db.transaction()
        tx = await transaction.__aenter__()
        try:
            if self.fence is not None:
                await self.fence(tx, table)
        except BaseException as exc:
            await transaction.__aexit__(type(exc), exc, exc.__traceback__)
            raise
        shared.transaction, shared.tx = transaction, tx
        return tx

    async def _write(self, tx: Tx, table: str, hand_id: int | None, batch: Batch) -> int | None:
        new_hand: int | None = None
        if batch.start_hand is not None:
            seed_hex, commitment, arranged = batch.start_hand
            new_hand = hand_id = await tx.start_hand(table, seed_hex, commitment, arranged)
        for change in batch.seat_changes:
            if change.action == "take":
                await tx.take_seat(table, change.seat, change.account, willing_to_bank=change.willing_to_bank)
        for change in batch.seat_changes:
            if change.action == "flags":
                await tx.set_seat_flags(table, change.account, willing_to_bank=change.willing_to_bank,
                                        sitting_out=change.sitting_out)
        await tx.transfers(LedgerTransfer(t.src, t.dst, t.amount, t.kind, table,
                                          hand_id if t.kind not in _SEAT_KINDS else None)
                           for t in batch.transfers)
        for change in batch.seat_changes:
            if change.action == "free":
                await tx.free_seat(table, change.account)
        await self._append(tx, table, hand_id, batch.events)
        if batch.hand_number is not None and hand_id is not None:
            await tx.number_hand(hand_id, batch.hand_number)
        if batch.finish_hand is not None and hand_id is not None:
            await tx.finish_hand(hand_id, *batch.finish_hand)
        if batch.settings is not None:
            await tx.update_settings(table, batch.settings[1], by=batch.settings[2])
        if batch.close_table:
            await tx.close_table(table)
            # The night ends with the table: its open session closes after this commit's last row.
            await end_session(tx, table, tx.now() + 1)
        return new_hand

    @staticmethod
    async def _append(tx: Tx, table: str, hand_id: int | None, events: list[RecordedEvent]) -> None:
        run: list[RecordedEvent] = []
        for event in events:
            if run and (event.in_hand != run[0].in_hand or event.seq != run[-1].seq + 1):
                await tx.append_events(table, hand_id if run[0].in_hand else None, run[0].seq,
                                       [e.payload for e in run])
                run = []
            run.append(event)
        if run:
            await tx.append_events(table, hand_id if run[0].in_hand else None, run[0].seq,
                                   [e.payload for e in run])

    async def create_table(self, name: str, settings: dict[str, Any], by: AccountId | None) -> None:
        """Record a new table (who created it shows in the log, not the row)."""
        del by
        drill = settings.get("drill") or {}
        trainees = drill.get("trainees") or ([drill["trainee"]] if "trainee" in drill else [])
        with as_table_errors():
            async with self.db.transaction() as tx:
                # Each trainee is an account that exists now: else whoever registers the name first would be it.
                for trainee in trainees:
                    if await tx.account_by_name(str(trainee)) is None:
                        raise Refusal("account/unknown", f"no account is named {trainee}: the trainee registers "
                                                         "(or takes an invite) first, then the drill table can be made")
                await tx.create_table(name, settings, game=str(settings.get("game", "hcf")))  # the row says its game

    async def any_table_recorded(self) -> bool:
        """Whether any table was ever created (closed ones count)."""
        return bool(await self.db.list_tables(include_closed=True))

    async def load_tables(self) -> list[TableSetup]:
        """Every open table with its seats, stacks and sequence, as recorded."""
        setups = []
        async with self.db.transaction(write=False) as tx:
            for info in await tx.list_tables():
                stored = dict(info.settings)
                drill_values = stored.pop("drill", None)
                game = game_of(stored)
                settings = game.settings_from_mapping(stored)
                drill = None if drill_values is None else drill_for(drill_values, settings)
                answers = [] if drill is None else [
                    dict(e.payload) for e in await tx.table_events(info.name)
                    if e.hand_id is None and e.type == "drill_answered"]
                banks = {} if not settings.time_bank_seconds else time_banks_restored(
                    e.payload for e in await tx.table_events(info.name) if e.hand_id is None)
                seats = []
                for seat in await tx.seats(info.name):
                    account = await tx.account(seat.account_id)
                    seats.append(Seated(Seat(seat.seat_no), AccountId(seat.account_id),
                                        account.name if account else "?", seat.willing_to_bank, seat.sitting_out,
                                        seat.sat_out_at / 1e6 if seat.sat_out_at else None))
                stacks = {AccountId(int(k.rsplit(":", 1)[1])): v
                          for k, v in (await tx.balances(f"stack:{info.name}:")).items()}
                recent = await tx.recent_hands(info.name, 5)
                last = next((h for h in recent if h.status != "in_progress" and h.summary), None)
                carried = next((h.summary["carry"] for h in recent if h.summary and "carry" in h.summary), None)
                setups.append(TableSetup(info.name, settings, seats, stacks, await tx.last_seq(info.name),
                                         _offer_from(recent, settings.seats),
                                         hands_played=recent[0].hand_no if recent else 0,
                                         hands_dealt=await tx.last_hand_number(info.name),
                                         # so a client back after a crash is told how the hand ended
                                         last_summary=dict(last.summary) if last and last.summary else None,
                                         game=game.name, carry=dict(carried or {}), drill=drill,
                                         drill_answers=answers, time_banks=banks))
        return setups

    async def void_interrupted_hands(self, table: str | None = None) -> int:
        """After a crash: every hand left in progress (at ``table``, or anywhere) is dead as a whole.

        docs/rules/hcf.md section 5.
        """
        hands = [h for h in await self.db.hands_in_progress() if table is None or h.table == table]
        for hand in hands:
            await self._void(hand)
        return len(hands)

    async def _void(self, hand: Hand) -> None:
        table = hand.table
        async with self.db.transaction() as tx:
            refunds = []
            for prefix, kind in ((f"felt:{table}:", "refund"), (f"fee_held:{table}:", "fee_refund")):
                for place, balance in (await tx.balances(prefix)).items():
                    if balance > 0:
                        account = int(place.rsplit(":", 1)[1])
                        refunds.append(LedgerTransfer(place, stack_place(table, account), balance, kind,
                                                      table, hand.id))
            await tx.transfers(refunds)
            summary: dict[str, Any] = {"table": table, "hand_id": hand.id, "number": hand.number, "status": "void",
                                       "reason": "interrupted", "commitment": hand.commitment,
                                       "server_seed": hand.server_seed, "arranged": hand.arranged}
            summary = await self._crash_summary(tx, hand) or summary
            seq = await tx.last_seq(table) + 1
            await tx.append_events(table, hand.id, seq, [
                {"type": "hand_voided", "reason": "interrupted"},
                {"type": "hand_revealed", **summary},
            ])
            await tx.finish_hand(hand.id, "void", summary)
        log.warning("hand_voided_after_restart", table=table, hand=hand.id,
                    refunded=sum(t.amount for t in refunds))

    @staticmethod
    async def _crash_summary(tx: Tx, hand: Hand) -> dict[str, Any] | None:
        """The public record of a hand cut off by a crash, rebuilt from its recorded inputs."""
        rows = [dict(e.payload) for e in await tx.hand_events(hand.id)]
        try:
            game, state, accounts, carry = state_at_end_of_log(rows, hand.server_seed)
        except (StopIteration, KeyError, ValueError, RuleError):
            return None  # an older log without inputs: keep the short summary
        names = {}
        for seat, account_id in accounts.items():
            account = await tx.account(account_id)
            names[seat] = account.name if account else "?"
        state = game.evolve(state, HandVoided("interrupted"))
        return hand_summary(game, state, hand.table, hand.id, names, carry, hand.number)


def _offer_from(recent: list[Hand], seats: int) -> int:
    for hand in recent:
        dealer = (hand.summary or {}).get("dealer")
        if hand.status == "settled" and isinstance(dealer, int):
            return dealer % seats + 1
    return 1
