"""Tables, settings history and seats; a taken seat can never be taken by another account."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy

from server.persistence import Database, StoreError, account_place, stack_place

from .conftest import FakeClock, MakeAccount, raw_sql


async def _code(db: Database, op: str, *args: object, **kwargs: object) -> str:
    with pytest.raises(StoreError) as caught:
        async with db.transaction() as tx:
            await getattr(tx, op)(*args, **kwargs)
    return caught.value.code


async def test_create_get_and_list_tables(db: Database, clock: FakeClock) -> None:
    async with db.transaction() as tx:
        created = await tx.create_table("main", {"seats": 6, "profile": "california"})
        await tx.create_table("annex", {}, game="hcf")
    assert created.settings == {"seats": 6, "profile": "california"}
    assert created.created_at == round(clock.now * 1_000_000)
    assert await db.get_table("main") == created
    assert [t.name for t in await db.list_tables()] == ["annex", "main"]
    assert await db.get_table("nowhere") is None


async def test_table_names_are_unique_and_well_formed(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.create_table("main", {})
    assert await _code(db, "create_table", "main", {}) == "table/exists"
    assert await _code(db, "create_table", "a:b", {}) == "table/bad_name"
    assert await _code(db, "create_table", "x" * 33, {}) == "table/bad_name"
    assert await _code(db, "create_table", "odd", {"x": float("nan")}) == "db/not_json"


async def test_settings_changes_are_logged(db: Database, make_account: MakeAccount) -> None:
    host = await make_account("host")
    async with db.transaction() as tx:
        await tx.create_table("main", {"seats": 6})
        updated = await tx.update_settings("main", {"seats": 7}, by=host.id)
        history = await tx.settings_history("main")
    assert updated.settings == {"seats": 7}
    assert [(c.by_account_id, c.old, c.new) for c in history] == [(host.id, {"seats": 6}, {"seats": 7})]
    assert await _code(db, "update_settings", "nowhere", {}) == "table/unknown"


async def test_closed_tables_are_hidden_and_take_no_one(db: Database, make_account: MakeAccount) -> None:
    ann = await make_account("ann")
    async with db.transaction() as tx:
        await tx.create_table("main", {})
        await tx.close_table("main")
    assert await db.list_tables() == []
    assert [t.closed for t in await db.list_tables(include_closed=True)] == [True]
    assert await _code(db, "take_seat", "main", 1, ann.id) == "table/closed"
    assert await _code(db, "update_settings", "main", {}) == "table/closed"


async def test_a_table_with_players_cannot_close(db: Database, make_account: MakeAccount) -> None:
    ann = await make_account("ann")
    async with db.transaction() as tx:
        await tx.create_table("main", {})
        await tx.take_seat("main", 1, ann.id)
    assert await _code(db, "close_table", "main") == "table/occupied"


async def test_buying_in_and_cashing_out_with_the_seat(db: Database, make_account: MakeAccount) -> None:
    ann = await make_account("ann")
    async with db.transaction() as tx:
        await tx.issue(ann.id, 500)
        await tx.create_table("main", {})
        seat = await tx.take_seat("main", 3, ann.id, willing_to_bank=True)
        await tx.transfer(account_place(ann.id), stack_place("main", ann.id), 200, "buy_in", table="main")
    assert (seat.seat_no, seat.willing_to_bank, seat.sitting_out) == (3, True, False)
    async with db.transaction() as tx:
        freed = await tx.free_seat("main", ann.id)
        stack = await tx.balance(stack_place("main", ann.id))
        await tx.transfer(stack_place("main", ann.id), account_place(ann.id), stack, "cash_out", table="main")
        assert await tx.seats("main") == []
    assert freed == seat
    assert await db.balance(account_place(ann.id)) == 500
    assert (await db.ledger_check()).ok


async def test_another_account_cannot_take_a_taken_seat(db: Database, make_account: MakeAccount) -> None:
    ann, bob = await make_account("ann"), await make_account("bob")
    async with db.transaction() as tx:
        await tx.create_table("main", {})
        await tx.take_seat("main", 1, ann.id)
    assert await _code(db, "take_seat", "main", 1, bob.id) == "seat/taken"
    assert await _code(db, "take_seat", "main", 2, ann.id) == "seat/already_seated"
    assert await _code(db, "take_seat", "main", 0, bob.id) == "seat/bad_number"
    assert await _code(db, "take_seat", "nowhere", 1, bob.id) == "table/unknown"
    assert await _code(db, "free_seat", "main", bob.id) == "seat/not_seated"
    assert await _code(db, "take_seat", "main", 2, 999) == "auth/unknown_account"


async def test_racing_for_one_seat_seats_exactly_one(db: Database, make_account: MakeAccount) -> None:
    accounts = [await make_account(f"p{i}") for i in range(6)]
    async with db.transaction() as tx:
        await tx.create_table("main", {})

    async def sit(account_id: int) -> None:
        async with db.transaction() as tx:
            await tx.take_seat("main", 4, account_id)

    results = await asyncio.gather(*(sit(a.id) for a in accounts), return_exceptions=True)
    refusals = [r for r in results if r is not None]
    assert len(refusals) == 5
    assert all(isinstance(r, StoreError) and r.code == "seat/taken" for r in refusals)
    async with db.transaction(write=False) as tx:
        assert len(await tx.seats("main")) == 1


async def test_the_seat_keys_hold_even_without_the_checks(db: Database, make_account: MakeAccount) -> None:
    ann, bob = await make_account("ann"), await make_account("bob")
    async with db.transaction() as tx:
        await tx.create_table("main", {})
        await tx.take_seat("main", 1, ann.id)
    with pytest.raises(sqlalchemy.exc.IntegrityError, match=r"(?i)unique"):
        await raw_sql(db, f"INSERT INTO seat VALUES ('main', 1, {bob.id}, FALSE, FALSE, NULL)")
    with pytest.raises(sqlalchemy.exc.IntegrityError, match=r"(?i)unique"):
        await raw_sql(db, f"INSERT INTO seat VALUES ('main', 2, {ann.id}, FALSE, FALSE, NULL)")


async def test_seat_flags_record_when_a_player_sat_out(
    db: Database, clock: FakeClock, make_account: MakeAccount
) -> None:
    ann = await make_account("ann")
    async with db.transaction() as tx:
        await tx.create_table("main", {})
        await tx.take_seat("main", 1, ann.id)
    clock.advance(10)
    async with db.transaction() as tx:
        out = await tx.set_seat_flags("main", ann.id, sitting_out=True, willing_to_bank=True)
    assert (out.sitting_out, out.willing_to_bank, out.sat_out_at) == (
        True,
        True,
        round(clock.now * 1_000_000),
    )
    async with db.transaction() as tx:
        back = await tx.set_seat_flags("main", ann.id, sitting_out=False)
    assert (back.sitting_out, back.willing_to_bank, back.sat_out_at) == (False, True, None)


@pytest.mark.parametrize("game", ["hcf", "caribbean", "sixcard"])
async def test_a_table_row_names_the_game_its_settings_name(db: Database, game: str) -> None:
    from server.config import ServerConfig
    from server.storage.tables import TableStore

    store = TableStore(db, ServerConfig())
    await store.create_table(f"t-{game}", {"game": game}, None)
    info = await db.get_table(f"t-{game}")
    assert info is not None
    assert info.game == game  # the row said hcf for every table
