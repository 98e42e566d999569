"""Small in-memory stand-ins for the table's ports (a few lines each, no mocks)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from server.rules.errors import Refusal
from server.rules.game import AccountId
from server.table.ports import Batch, TableUpdates


class MemoryStorage:
    """Keeps balances and events in dicts; refuses overdrafts like the real ledger."""

    OVERDRAFT = ("issuance", "house:bank")

    def __init__(self) -> None:
        self.balances: dict[str, int] = defaultdict(int)
        self.events: list[dict[str, Any]] = []
        self.hands: dict[int, dict[str, Any]] = {}
        self.batches: list[Batch] = []
        self._next_hand = 0

    def issue(self, account: AccountId, amount: int) -> None:
        self.balances["issuance"] -= amount
        self.balances[f"account:{account}"] += amount

    async def commit(self, _table: str, hand_id: int | None, batch: Batch) -> int | None:
        trial = dict(self.balances)
        for t in batch.transfers:
            trial[t.src] = trial.get(t.src, 0) - t.amount
            trial[t.dst] = trial.get(t.dst, 0) + t.amount
            if trial[t.src] < 0 and t.src not in self.OVERDRAFT:
                raise InsufficientFunds(f"{t.src} cannot pay {t.amount}")
        self.balances.clear()
        self.balances.update(trial)
        new_hand = None
        if batch.start_hand is not None:
            self._next_hand += 1
            new_hand = hand_id = self._next_hand
            self.hands[hand_id] = {"status": "in_progress"}
        if batch.finish_hand is not None and hand_id is not None:
            self.hands[hand_id] = {"status": batch.finish_hand[0], "summary": batch.finish_hand[1]}
        self.events.extend(e.payload | {"seq": e.seq} for e in batch.events)
        self.batches.append(batch)
        return new_hand

    def total(self) -> int:
        return sum(self.balances.values())


class InsufficientFunds(Refusal):
    """What the real storage port raises for it: the one refusal type, its code already one clients see."""

    def __init__(self, message: str) -> None:
        super().__init__("ledger/insufficient_funds", message)


class RecordingPublisher:
    """Remembers every batch's updates, and the events in them per audience."""

    def __init__(self) -> None:
        self.updates: list[TableUpdates] = []
        self.public: list[tuple[int, dict[str, Any]]] = []
        self.private: list[tuple[AccountId, int, dict[str, Any]]] = []

    async def table_update(self, _table: str, updates: TableUpdates) -> None:
        self.updates.append(updates)
        self.public.extend((e["seq"], e["event"]) for e in updates.spectator["events"])
        for account, update in updates.accounts.items():
            self.private.extend((account, e["seq"], e["event"]) for e in update["events"] if e.get("private"))

    def types(self) -> list[str]:
        return [p["type"] for _, p in self.public]
