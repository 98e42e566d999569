"""Finished hands as everyone may see them (the HTTP routes and ``hcf-server books``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.i18n import phrase
from server.persistence.records import Hand
from server.rules.errors import Refusal
from server.storage.store import Store, as_table_errors


class HandStore(Store):
    """The record of finished hands, over one :class:`Database`."""

    async def hand_summary(self, hand_id: int) -> dict[str, Any]:
        """A finished hand as everyone may see it."""
        with as_table_errors():
            hand = await self.db.get_hand(hand_id)
        if hand.status == "in_progress" or hand.summary is None:
            raise Refusal("hand/unknown", f"hand {hand_id} is still in progress")
        return public_hand(hand)

    async def recent_hands(self, table: str, limit: int) -> list[dict[str, Any]]:
        """The table's last finished hands, newest first; ``table/unknown`` for a table never created.

        Attempts never dealt are not hands. A closed table's hands stay readable: only a name no
        table ever had is refused.
        """
        if table not in {t.name for t in await self.db.list_tables(include_closed=True)}:
            raise Refusal("table/unknown", phrase("there is no table named {table}", table=repr(table)))
        hands = await self.db.recent_hands(table, limit + 1, dealt_only=True)
        return [public_hand(h) for h in hands if h.status != "in_progress" and h.summary][:limit]

    async def hand_by_number(self, table: str, number: int) -> dict[str, Any]:
        """The table's finished hand ``number`` (its own count), as everyone may see it."""
        with as_table_errors():
            hand = await self.db.hand_by_number(table, number)
        if hand.status == "in_progress" or hand.summary is None:
            raise Refusal("hand/unknown", phrase("hand {number} at {table} is still in progress", number=number,
                                                 table=table))
        return public_hand(hand)


def public_hand(hand: Hand) -> dict[str, Any]:
    """A finished hand as everyone may see it (the seed is revealed once the hand is over)."""
    summary: Mapping[str, Any] = hand.summary or {}
    return {**summary, "hand_id": hand.id, "number": hand.number, "hand_no": hand.hand_no, "status": hand.status,
            "started_at": hand.started_at / 1e6,
            "ended_at": hand.ended_at / 1e6 if hand.ended_at else None}
