"""The double-entry ledger: transfers, funds, idempotency and the ledger check."""

from __future__ import annotations

import pytest
import sqlalchemy

from server.persistence import (
    HOUSE_BANK,
    HOUSE_FEES,
    ISSUANCE,
    Database,
    InsufficientFunds,
    StoreError,
    Transfer,
    account_place,
    fee_held_place,
    felt_place,
    stack_place,
)

from .conftest import raw_sql

ANN, BOB = account_place(1), account_place(2)


async def test_a_transfer_moves_chips_between_places_created_on_first_use(db: Database) -> None:
    async with db.transaction() as tx:
        assert await tx.issue(1, 1_000, "welcome")
        assert await tx.transfer(ANN, BOB, 300, "settle")
        assert await tx.balance(ANN) == 700
        assert await tx.balance(BOB) == 300
        assert await tx.balance(ISSUANCE) == -1_000
        assert await tx.balance(account_place(3)) == 0
    report = await db.ledger_check()
    assert report.ok, report.discrepancies
    assert report.totals == {"account": 1_000, "issuance": -1_000, "sum": 0}
    assert (report.places, report.transfers) == (3, 2)


async def test_balances_by_prefix(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.create_table("main", {})
        await tx.issue(1, 100)
        await tx.issue(2, 100)
        await tx.transfer(ANN, stack_place("main", 1), 60, "buy_in", table="main")
        await tx.transfer(stack_place("main", 1), fee_held_place("main", 1), 5, "fee", table="main")
        assert await tx.balances("account:") == {ANN: 40, BOB: 100}
        assert await tx.balances("stack:main:") == {stack_place("main", 1): 55}
        assert await tx.balances("fee_held:") == {fee_held_place("main", 1): 5}


async def test_insufficient_funds_rolls_back_the_whole_transaction(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.issue(1, 100)

    async def pay_60_twice() -> None:
        async with db.transaction() as tx:
            await tx.transfer(ANN, BOB, 60, "settle")
            await tx.transfer(ANN, BOB, 60, "settle")

    with pytest.raises(InsufficientFunds) as caught:
        await pay_60_twice()
    assert caught.value.code == "ledger/insufficient_funds"
    assert (caught.value.place, caught.value.available, caught.value.amount) == (ANN, 40, 60)
    assert "account:1 holds 40 chips and cannot give 60" in str(caught.value)
    assert await db.balance(ANN) == 100
    assert await db.balance(BOB) == 0
    assert (await db.ledger_check()).transfers == 1


async def test_an_unused_place_has_no_funds(db: Database) -> None:
    with pytest.raises(InsufficientFunds, match="holds 0 chips"):
        async with db.transaction() as tx:
            await tx.transfer(BOB, ANN, 1, "settle")


async def test_the_house_bank_and_issuance_may_go_below_zero(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.transfer(HOUSE_BANK, ANN, 50, "win")
        await tx.transfer(ANN, HOUSE_FEES, 5, "fee")
        assert await tx.balance(HOUSE_BANK) == -50
    report = await db.ledger_check()
    assert report.ok
    assert report.totals["house:bank"] == -50
    assert report.totals["house:fees"] == 5


async def test_a_repeated_idempotency_key_is_a_no_op(db: Database) -> None:
    async with db.transaction() as tx:
        assert await tx.issue(1, 100, key="grant-1")
    async with db.transaction() as tx:
        assert not await tx.issue(1, 100, key="grant-1")
        assert (
            await tx.transfers(
                [Transfer(ANN, BOB, 10, "settle", key="s-1"), Transfer(ANN, BOB, 10, "settle", key="s-1")]
            )
            == 1
        )
    assert await db.balance(ANN) == 90
    assert (await db.ledger_check()).transfers == 2


async def test_an_idempotency_key_cannot_be_reused_for_another_transfer(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.issue(1, 100, key="grant-1")
    with pytest.raises(StoreError) as caught:
        async with db.transaction() as tx:
            await tx.issue(1, 200, key="grant-1")
    assert caught.value.code == "ledger/key_reused"


@pytest.mark.parametrize(
    ("src", "dst", "amount", "kind", "code"),
    [
        (ISSUANCE, ANN, 0, "issue", "ledger/bad_amount"),
        (ISSUANCE, ANN, -5, "issue", "ledger/bad_amount"),
        (ISSUANCE, ANN, 1.5, "issue", "ledger/bad_amount"),
        (ISSUANCE, ANN, True, "issue", "ledger/bad_amount"),
        (ISSUANCE, "wallet:1", 5, "issue", "ledger/bad_place"),
        (ISSUANCE, "stack:a:b:1", 5, "issue", "ledger/bad_place"),
        (ISSUANCE, "account:01", 5, "issue", "ledger/bad_place"),
        (ANN, ANN, 5, "settle", "ledger/same_place"),
        (ISSUANCE, ANN, 5, "gift", "ledger/bad_kind"),
    ],
)
async def test_malformed_transfers_are_refused(
    db: Database, src: str, dst: str, amount: int, kind: str, code: str
) -> None:
    with pytest.raises(StoreError) as caught:
        async with db.transaction() as tx:
            await tx.transfer(src, dst, amount, kind)
    assert caught.value.code == code


async def test_a_transfer_for_an_unknown_table_is_refused(db: Database) -> None:
    with pytest.raises(StoreError) as caught:
        async with db.transaction() as tx:
            await tx.transfer(ISSUANCE, ANN, 5, "issue", table="nowhere")
    assert caught.value.code == "ledger/refused"
    assert await db.balance(ANN) == 0


async def test_the_check_detects_a_tampered_balance(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.issue(1, 100)
    await raw_sql(db, "UPDATE place SET balance = 150 WHERE key = 'account:1'")
    report = await db.ledger_check()
    assert not report.ok
    assert "account:1 holds 150 but its transfers add up to 100" in report.discrepancies
    assert "all balances sum to 50, not 0" in report.discrepancies
    assert report.summary().startswith("ledger BROKEN: 2 discrepancies")


@pytest.mark.usefixtures("changes_the_schema")
async def test_the_check_detects_a_negative_balance(db: Database) -> None:
    with pytest.raises(sqlalchemy.exc.IntegrityError, match=r"(?i)check constraint"):
        await raw_sql(db, "INSERT INTO place VALUES ('account:1', -5, FALSE)")
    # Only someone who turns the check off can store it; the ledger check still finds it.
    if db.is_sqlite:
        async with db.engine.connect() as conn:
            await conn.exec_driver_sql("PRAGMA ignore_check_constraints = ON")
            await conn.exec_driver_sql("INSERT INTO place VALUES ('account:1', -5, FALSE), ('account:2', 5, FALSE)")
            await conn.commit()
            await conn.exec_driver_sql("PRAGMA ignore_check_constraints = OFF")
    else:
        await raw_sql(db, "ALTER TABLE place DROP CONSTRAINT ck_place_no_overdraw")
        await raw_sql(db, "INSERT INTO place VALUES ('account:1', -5, FALSE), ('account:2', 5, FALSE)")
    report = await db.ledger_check()
    assert not report.ok
    assert "account:1 is negative (-5) and may not overdraw" in report.discrepancies


async def test_the_check_detects_a_place_granted_overdraft(db: Database) -> None:
    await raw_sql(db, "INSERT INTO place VALUES ('account:1', 0, TRUE)")
    report = await db.ledger_check()
    assert report.discrepancies == ["account:1 has overdraft=True, expected False"]


async def test_chips_on_the_felt_outside_a_hand_are_reported(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.create_table("main", {})
        await tx.create_table("side", {})
        await tx.issue(1, 100)
        await tx.transfer(ANN, felt_place("main", 1), 10, "bet", table="main")
        await tx.transfer(ANN, fee_held_place("side", 1), 2, "fee", table="side")
    report = await db.ledger_check()
    assert report.ok
    assert report.open_felt_places == {felt_place("main", 1): 10, fee_held_place("side", 1): 2}
    assert "2 felt places hold chips outside a hand" in report.summary()
    in_play = await db.ledger_check(tables_in_play={"main"})
    assert in_play.open_felt_places == {fee_held_place("side", 1): 2}


async def test_the_transfers_of_a_hand_can_be_listed(db: Database) -> None:
    async with db.transaction() as tx:
        await tx.create_table("main", {})
        hand_id = await tx.start_hand("main", "ab" * 32, "cd" * 32, False)
        await tx.issue(1, 100)
        await tx.transfer(ANN, felt_place("main", 1), 10, "bet", table="main", hand_id=hand_id, memo="ante")
        assert await tx.hand_transfers(hand_id) == [
            Transfer(ANN, felt_place("main", 1), 10, "bet", "main", hand_id, None, "ante")
        ]
