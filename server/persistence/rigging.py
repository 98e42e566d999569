"""The ledger check's look at rigged hands: a hand dealt from an arranged deck that paid someone who could rig it.

Whoever can arrange a table's deck or change what it pays may not profit from it
(docs/server.md, "What a floor link may do"). The table refuses it; this finds it in
the books anyway, had it happened (an older server, a bug): a settled hand dealt from
an arranged deck whose transfers left a net gain with an account that held floor
powers at that table (a floor link's account), changed its settings, or arranged
that very deck.
"""

from __future__ import annotations

import json
from collections import defaultdict

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from server.persistence.models import ACCOUNT, FLOOR_TOKEN, HAND, HAND_EVENT, INVITE, SETTINGS_CHANGE, TRANSFER

_SEAT_KINDS = ("stack", "felt", "fee_held")  # an account's chips at a table: ``kind:table:account``


async def rigged_hands(conn: AsyncConnection) -> list[str]:
    """A sentence for each arranged hand that paid an account with the powers to rig its table."""
    hands = (await conn.execute(
        sa.select(HAND.c.id, HAND.c.table_name, HAND.c.number)
        .where(HAND.c.arranged, HAND.c.status == "settled").order_by(HAND.c.id))).all()
    found: list[str] = []
    for hand_id, table, number in hands:
        powers = await _powers(conn, str(table)) | await _arranger(conn, int(hand_id))
        for account, gain in sorted((await _gains(conn, int(hand_id))).items()):
            if gain > 0 and account in powers:
                found.append(f"hand #{number} at {table} (server id {hand_id}) was dealt from an arranged deck and "
                             f"paid {gain} chips to {await _name(conn, account)}, who could rig that table")
    return found


async def _powers(conn: AsyncConnection, table: str) -> set[int]:
    """Accounts that held floor powers at ``table`` or changed its settings."""
    floor = sa.select(FLOOR_TOKEN.c.account_id).join(INVITE, INVITE.c.id == FLOOR_TOKEN.c.invite_id).where(
        INVITE.c.table_name == table, FLOOR_TOKEN.c.account_id.is_not(None))
    changed = sa.select(SETTINGS_CHANGE.c.by_account_id).where(
        SETTINGS_CHANGE.c.table_name == table, SETTINGS_CHANGE.c.by_account_id.is_not(None))
    rows = (await conn.execute(sa.union(floor, changed))).all()
    return {int(account) for (account,) in rows}


async def _arranger(conn: AsyncConnection, hand_id: int) -> set[int]:
    """Whose session arranged the hand's deck, as its first input records it (none for the host token alone)."""
    payload = (await conn.execute(
        sa.select(HAND_EVENT.c.payload).where(HAND_EVENT.c.hand_id == hand_id)
        .order_by(HAND_EVENT.c.seq).limit(1))).scalar_one_or_none()
    if payload is None:
        return set()
    by = (json.loads(payload).get("_input") or {}).get("arranged_by")
    return {int(by)} if isinstance(by, int) else set()


async def _gains(conn: AsyncConnection, hand_id: int) -> dict[int, int]:
    """Each account's net gain over the hand's transfers, at the table."""
    rows = (await conn.execute(
        sa.select(TRANSFER.c.src, TRANSFER.c.dst, TRANSFER.c.amount).where(TRANSFER.c.hand_id == hand_id))).all()
    gains: dict[int, int] = defaultdict(int)
    for src, dst, amount in rows:
        for place, sign in ((str(dst), 1), (str(src), -1)):
            kind, account = place.split(":", 1)[0], place.rsplit(":", 1)[-1]
            if kind in _SEAT_KINDS and account.isdigit():
                gains[int(account)] += sign * int(amount)
    return dict(gains)


async def _name(conn: AsyncConnection, account: int) -> str:
    name = (await conn.execute(sa.select(ACCOUNT.c.name).where(ACCOUNT.c.id == account))).scalar_one_or_none()
    return str(name) if name is not None else f"account {account}"
