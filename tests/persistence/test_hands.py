"""Hands and the table event log: seeds stored before dealing, seq strictly increasing."""

from __future__ import annotations

import pytest
import sqlalchemy

from server.persistence import Database, StoreError
from server.rules.fairness import SHUFFLE_VERSION, commitment

from .conftest import raw_sql

SEED = "0f" * 32
COMMITMENT = commitment(bytes.fromhex(SEED))


@pytest.fixture
async def table(db: Database) -> str:
    async with db.transaction() as tx:
        await tx.create_table("main", {})
    return "main"


async def _code(db: Database, op: str, *args: object) -> str:
    with pytest.raises(StoreError) as caught:
        async with db.transaction() as tx:
            await getattr(tx, op)(*args)
    return caught.value.code


async def test_a_hand_and_its_events_round_trip(db: Database, table: str) -> None:
    events = [{"type": "hand_started", "hand_no": 1}, {"type": "bets_placed", "seat": 2, "bets": [5, 5]}]
    async with db.transaction() as tx:
        hand_id = await tx.start_hand(table, SEED, COMMITMENT, False)
        assert await tx.append_events(table, hand_id, 1, events) == 2
    assert [h.id for h in await db.hands_in_progress()] == [hand_id]
    async with db.transaction() as tx:
        assert await tx.append_events(table, hand_id, 3, [{"type": "hand_settled"}]) == 3
        await tx.finish_hand(hand_id, "settled", {"winners": [2], "deck": "2c 3d"})
    hand = await db.get_hand(hand_id)
    assert (hand.table, hand.hand_no, hand.status, hand.server_seed, hand.commitment) == (
        table,
        1,
        "settled",
        SEED,
        COMMITMENT,
    )
    assert (hand.shuffle_version, hand.arranged, hand.summary) == (
        SHUFFLE_VERSION,
        False,
        {"winners": [2], "deck": "2c 3d"},
    )
    assert hand.ended_at is not None
    stored = await db.hand_events(hand_id)
    assert [e.payload for e in stored] == [*events, {"type": "hand_settled"}]
    assert [(e.seq, e.type) for e in stored] == [(1, "hand_started"), (2, "bets_placed"), (3, "hand_settled")]
    assert await db.last_seq(table) == 3
    assert await db.hands_in_progress() == []


async def test_hands_are_numbered_per_table_and_listed_newest_first(db: Database, table: str) -> None:
    async with db.transaction() as tx:
        await tx.create_table("annex", {})
        for _ in range(3):
            hand_id = await tx.start_hand(table, SEED, COMMITMENT, False)
            await tx.finish_hand(hand_id, "not_dealt", None)
        other = await tx.start_hand("annex", SEED, COMMITMENT, True)
    assert [h.hand_no for h in await db.recent_hands(table, 2)] == [3, 2]
    assert (await db.get_hand(other)).hand_no == 1
    assert (await db.get_hand(other)).arranged


async def test_only_dealt_hands_take_a_number_each_table_its_own(db: Database, table: str) -> None:
    async with db.transaction() as tx:
        await tx.create_table("annex", {})
        skipped = await tx.start_hand(table, SEED, COMMITMENT, False)
        await tx.finish_hand(skipped, "not_dealt", None)  # nobody banked: no number
        dealt = await tx.start_hand(table, SEED, COMMITMENT, False)
        await tx.number_hand(dealt, 1)
        await tx.finish_hand(dealt, "settled", {})
        annex = await tx.start_hand("annex", SEED, COMMITMENT, False)
        await tx.number_hand(annex, 1)
    assert (await db.get_hand(skipped)).number is None
    assert (await db.get_hand(dealt)).number == 1
    assert [h.id for h in await db.recent_hands(table, 5, dealt_only=True)] == [dealt]
    assert (await db.hand_by_number("annex", 1)).id == annex
    with pytest.raises(StoreError, match="hand/unknown"):
        await db.hand_by_number(table, 2)
    assert await _code(db, "number_hand", annex, 2) == "hand/not_in_progress", "a hand is numbered once"
    async with db.transaction() as tx:
        third = await tx.start_hand(table, SEED, COMMITMENT, False)
    assert await _code(db, "number_hand", third, 3) == "hand/bad_number", "numbers follow on, no gaps"
    assert await _code(db, "number_hand", third, 1) == "hand/bad_number"
    assert await _code(db, "number_hand", dealt, 2) == "hand/not_in_progress"


async def test_one_hand_at_a_time_per_table(db: Database, table: str) -> None:
    async with db.transaction() as tx:
        await tx.start_hand(table, SEED, COMMITMENT, False)
    assert await _code(db, "start_hand", table, SEED, COMMITMENT, False) == "hand/in_progress"


async def test_seeds_are_256_bit_lowercase_hex(db: Database, table: str) -> None:
    assert await _code(db, "start_hand", table, "ab" * 16, COMMITMENT, False) == "hand/bad_seed"
    assert await _code(db, "start_hand", table, "AB" * 32, COMMITMENT, False) == "hand/bad_seed"
    assert await _code(db, "start_hand", table, SEED, "not hex", False) == "hand/bad_seed"
    assert await _code(db, "start_hand", "nowhere", SEED, COMMITMENT, False) == "table/unknown"


async def test_a_hand_ends_once(db: Database, table: str) -> None:
    async with db.transaction() as tx:
        hand_id = await tx.start_hand(table, SEED, COMMITMENT, False)
        await tx.finish_hand(hand_id, "void", {"reason": "server restart"})
    assert await _code(db, "finish_hand", hand_id, "settled", None) == "hand/not_in_progress"
    assert await _code(db, "finish_hand", hand_id + 1, "settled", None) == "hand/unknown"
    with pytest.raises(StoreError, match="hand/unknown"):
        await db.get_hand(hand_id + 1)


async def test_an_unfinished_hand_cannot_end_in_progress(db: Database, table: str) -> None:
    async with db.transaction() as tx:
        hand_id = await tx.start_hand(table, SEED, COMMITMENT, False)
    assert await _code(db, "finish_hand", hand_id, "in_progress", None) == "hand/bad_status"


async def test_seq_strictly_increases_per_table(db: Database, table: str) -> None:
    async with db.transaction() as tx:
        await tx.create_table("annex", {})
        assert await tx.append_events(table, None, 1, [{"type": "seated"}]) == 1
        assert await tx.append_events(table, None, 5, [{"type": "seated"}]) == 5  # gaps are allowed
        assert await tx.append_events("annex", None, 1, [{"type": "seated"}]) == 1  # seqs are per table
        assert await tx.append_events(table, None, 6, []) == 5
    assert await _code(db, "append_events", table, None, 5, [{"type": "x"}]) == "event/seq_conflict"
    assert await _code(db, "append_events", table, None, 3, [{"type": "x"}]) == "event/seq_conflict"
    assert await _code(db, "append_events", table, None, 6, [{"kind": "x"}]) == "event/bad_payload"
    assert await _code(db, "append_events", table, 99, 6, [{"type": "x"}]) == "hand/unknown"
    async with db.transaction(write=False) as tx:
        assert [e.seq for e in await tx.table_events(table)] == [1, 5]
        assert [e.seq for e in await tx.table_events(table, after_seq=1)] == [5]


async def test_the_event_key_holds_even_without_the_checks(db: Database, table: str) -> None:
    async with db.transaction() as tx:
        await tx.append_events(table, None, 1, [{"type": "seated"}])
    with pytest.raises(sqlalchemy.exc.IntegrityError, match=r"(?i)unique"):
        await raw_sql(
            db,
            "INSERT INTO hand_event (table_name, hand_id, seq, type, payload, created_at) "
            "VALUES ('main', NULL, 1, 'x', '{}', 0)",
        )
