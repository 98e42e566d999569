"""Registering, logging in, session tokens, password changes and the host token."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa

from server.persistence import Database, StoreError, account_place
from server.persistence.models import metadata
from server.persistence.passwords import hash_password, verify_password

from .conftest import FakeClock


async def _code(awaitable: object) -> str:
    with pytest.raises(StoreError) as caught:
        await awaitable  # type: ignore[misc]
    return caught.value.code


async def test_register_issues_the_starting_chips_as_recorded_issuance(db: Database) -> None:
    account = await db.register("Ann", "correct horse", 1_000)
    assert account.name == "Ann"
    assert not account.is_host
    assert await db.balance(account_place(account.id)) == 1_000
    report = await db.ledger_check()
    assert report.ok
    assert report.totals["issuance"] == -1_000


async def test_names_are_taken_whatever_their_letter_case(db: Database) -> None:
    await db.register("Ann", "correct horse", 0)
    assert await _code(db.register("aNN", "another pass", 0)) == "auth/name_taken"


@pytest.mark.parametrize("name", ["", "a" * 25, "ann smith", "ann:1", "p\u0430ypal", "ann\n", "an\u200bn"])
async def test_names_have_1_to_24_letters_digits_or_underscore_dash_dot(db: Database, name: str) -> None:
    # (letters of any alphabet, but of one: "p\u0430ypal" has a Cyrillic a; tests/persistence/test_names.py)
    assert await _code(db.register(name, "correct horse", 0)) == "auth/bad_name"


async def test_a_name_of_24_allowed_characters_is_fine(db: Database) -> None:
    assert (await db.register("A_b-c.d" + "9" * 17, "correct horse", 0)).id == 1


async def test_passwords_have_at_least_8_characters(db: Database) -> None:
    assert await _code(db.register("ann", "1234567", 0)) == "auth/weak_password"


async def test_login_returns_a_token_that_resolves_to_the_account(db: Database) -> None:
    ann = await db.register("Ann", "correct horse", 0)
    account, token = await db.login("ANN", "correct horse")
    assert account == ann
    assert await db.resolve_token(token) == ann


@pytest.mark.parametrize(("name", "password"), [("ann", "wrong horse"), ("bob", "correct horse")])
async def test_wrong_names_and_passwords_look_the_same(db: Database, name: str, password: str) -> None:
    await db.register("ann", "correct horse", 0)
    with pytest.raises(StoreError) as caught:
        await db.login(name, password)
    assert caught.value.code == "auth/bad_credentials"
    assert caught.value.message == "wrong name or password"


async def test_tokens_expire_after_the_session_ttl(db: Database, clock: FakeClock) -> None:
    await db.register("ann", "correct horse", 0)
    _, token = await db.login("ann", "correct horse")
    clock.advance(3599)
    await db.resolve_token(token)
    clock.advance(1)
    assert await _code(db.resolve_token(token)) == "auth/token_expired"


async def test_unknown_and_revoked_tokens_are_invalid(db: Database) -> None:
    await db.register("ann", "correct horse", 0)
    _, token = await db.login("ann", "correct horse")
    assert await _code(db.resolve_token("not-a-token")) == "auth/token_invalid"
    assert await db.revoke_token(token)
    assert not await db.revoke_token(token)
    assert await _code(db.resolve_token(token)) == "auth/token_invalid"


async def test_only_the_token_digest_is_stored(db: Database) -> None:
    await db.register("ann", "correct horse", 0)
    _, token = await db.login("ann", "correct horse")
    stored = []
    async with db.engine.connect() as conn:
        for table in metadata.sorted_tables:
            stored += [str(value) for row in (await conn.execute(sa.select(table))).all() for value in row]
    assert not [value for value in stored if token in value or "correct horse" in value]


async def test_not_even_the_sqlite_files_hold_the_token(sqlite_db: Database, db_path: Path) -> None:
    await sqlite_db.register("ann", "correct horse", 0)
    _, token = await sqlite_db.login("ann", "correct horse")
    raw = b"".join(path.read_bytes() for path in db_path.parent.glob("hcf.db*"))
    assert token.encode() not in raw
    assert b"correct horse" not in raw


async def test_changing_the_password_revokes_the_other_sessions(db: Database) -> None:
    ann = await db.register("ann", "correct horse", 0)
    _, phone = await db.login("ann", "correct horse")
    _, laptop = await db.login("ann", "correct horse")
    assert await db.change_password(ann.id, "correct horse", "battery staple", keep_token=laptop) == 1
    assert await _code(db.resolve_token(phone)) == "auth/token_invalid"
    assert await db.resolve_token(laptop) == ann
    assert await _code(db.login("ann", "correct horse")) == "auth/bad_credentials"
    await db.login("ann", "battery staple")


async def test_changing_the_password_needs_the_old_one(db: Database) -> None:
    ann = await db.register("ann", "correct horse", 0)
    assert await _code(db.change_password(ann.id, "wrong horse", "battery staple")) == "auth/bad_credentials"
    assert await _code(db.change_password(ann.id, "correct horse", "short")) == "auth/weak_password"


async def test_the_host_token_rotates(db: Database) -> None:
    assert not await db.check_host_token("anything")
    first = await db.rotate_host_token()
    assert await db.check_host_token(first)
    second = await db.rotate_host_token()
    assert not await db.check_host_token(first)
    assert await db.check_host_token(second)


async def test_concurrent_rotations_leave_exactly_one_host_token(db: Database) -> None:
    tokens = await asyncio.gather(*(db.rotate_host_token() for _ in range(6)))
    assert [await db.check_host_token(token) for token in tokens].count(True) == 1


async def test_concurrent_registrations_of_one_name_make_one_account(db: Database) -> None:
    results = await asyncio.gather(
        *(db.register(name, "correct horse", 100) for name in ["ann", "ANN", "Ann"]), return_exceptions=True
    )
    accounts = [r for r in results if not isinstance(r, BaseException)]
    assert len(accounts) == 1
    assert all(isinstance(r, StoreError) and r.code == "auth/name_taken" for r in results if r not in accounts)
    assert (await db.ledger_check()).totals["issuance"] == -100


def test_password_hashes_describe_themselves_and_use_random_salts() -> None:
    first, second = hash_password("correct horse"), hash_password("correct horse")
    assert first != second
    scheme, n, r, p, _salt, _digest = first.split("$")
    assert (scheme, n, r, p) == ("scrypt", "16384", "8", "1")
    assert verify_password("correct horse", second)
    assert not verify_password("correct horse", "garbage")
    assert not verify_password("correct horse", "scrypt$1$1$1$!!$!!")


async def test_the_name_key_is_the_lowercase_name(db: Database) -> None:
    await db.register("MiXeD", "correct horse", 0)
    async with db.engine.connect() as conn:
        assert [tuple(r) for r in await conn.exec_driver_sql("SELECT name, name_key FROM account")] == [
            ("MiXeD", "mixed")
        ]
