"""Invite links in the database (SQLite and PostgreSQL): expiry on a moved clock, signatures, uses under concurrency."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from server.persistence import Database, StoreError, open_database
from server.persistence.invites import make_token, signed_for

START = 1_800_000_000.0


class MovedClock:
    """Seconds since the epoch, moved by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database: a SQLite file, or one on the session's PostgreSQL server (tests/conftest.py)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path}/hcf.db"
    found: str = request.getfixturevalue("fresh_postgres_url")
    return found


@pytest.fixture
async def store(url: str) -> tuple[Database, MovedClock]:
    clock = MovedClock()
    return await open_database(url, clock=clock), clock


async def refused(db: Database, token: str, name: str | None = None) -> str:
    try:
        await db.redeem_invite(token, name, 100)
    except StoreError as exc:
        return exc.code
    raise AssertionError("the invite was redeemed")


async def test_a_link_works_until_its_expiry_and_not_after(store: tuple[Database, MovedClock]) -> None:
    db, clock = store
    try:
        _, token = await db.create_invite("main", "player", START + 60, None)
        clock.now = START + 59.9
        assert (await db.redeem_invite(token, "ann", 100)).name == "ann"
        clock.now = START + 60
        assert await refused(db, token, "bea") == "invite/expired"
        assert (await db.list_invites("main"))[0].used == 1
    finally:
        await db.close()


async def test_a_floor_token_ends_with_its_session_time_and_with_its_invite(store: tuple[Database, MovedClock]) -> None:
    db, clock = store
    try:
        invite, token = await db.create_invite("main", "floor", START + 60, None)
        got = await db.redeem_invite(token, "flo", 0)
        assert got.host_token is not None
        assert await db.check_host_token(got.host_token)
        clock.now = START + db.session_ttl
        assert not await db.check_host_token(got.host_token)
        clock.now = START
        await db.revoke_invite(invite.id)
        assert not await db.check_host_token(got.host_token)
    finally:
        await db.close()


def test_the_signature_binds_the_table_and_the_role() -> None:
    secret = "ab" * 32
    token = make_token(secret, "main", "spectator")
    assert signed_for(secret, token, "main", "spectator")
    assert signed_for(secret, token, "MAIN", "spectator")  # table names are one name in any letter case
    assert not signed_for(secret, token, "main", "floor")
    assert not signed_for(secret, token, "high", "spectator")
    assert not signed_for("cd" * 32, token, "main", "spectator")


async def test_a_row_changed_without_the_key_gives_nothing(store: tuple[Database, MovedClock]) -> None:
    """Someone who can write the invite table but not read the secret cannot turn a spectator link into a floor one."""
    db, _ = store
    try:
        invite, token = await db.create_invite("main", "spectator", START + 600, None)
        async with db.engine.begin() as conn:
            await conn.execute(sa.text("UPDATE invite SET role = 'floor' WHERE id = :id"), {"id": invite.id})
        assert await refused(db, token, "eve") == "invite/invalid"
    finally:
        await db.close()


TOKEN_CHARS = st.characters(min_codepoint=32, max_codepoint=0x2FF)


def test_a_token_with_any_character_changed_is_refused(url: str) -> None:
    with asyncio.Runner() as runner:
        db = runner.run(open_database(url))
        try:
            _, token = runner.run(db.create_invite("main", "spectator", 4_000_000_000, None))

            @settings(max_examples=150, deadline=None, database=None)
            @given(where=st.integers(0, len(token) - 1), char=TOKEN_CHARS)
            def check(where: int, char: str) -> None:
                changed = token[:where] + char + token[where + 1:]
                if changed != token:
                    assert runner.run(refused(db, changed)) == "invite/invalid"

            check()
            assert runner.run(db.redeem_invite(token, None, 0)).role == "spectator"  # the real one still works
        finally:
            runner.run(db.close())


def test_uses_never_exceed_the_limit_under_concurrent_redeems(url: str) -> None:
    with asyncio.Runner() as runner:
        db = runner.run(open_database(url))
        names = (f"g{i}" for i in itertools.count())
        try:

            @settings(max_examples=25, deadline=None, database=None)
            @given(uses=st.integers(1, 6), attempts=st.integers(1, 12), role=st.sampled_from(["player", "spectator"]))
            def check(uses: int, attempts: int, role: str) -> None:
                async def go() -> None:
                    invite, token = await db.create_invite("main", role, 4_000_000_000, uses)
                    results = await asyncio.gather(*(db.redeem_invite(token, next(names), 0)
                                                     for _ in range(attempts)), return_exceptions=True)
                    won = [r for r in results if not isinstance(r, BaseException)]
                    lost = [r for r in results if isinstance(r, BaseException)]
                    assert len(won) == min(uses, attempts)
                    assert all(isinstance(r, StoreError) and r.code == "invite/used_up" for r in lost), lost
                    stored = next(i for i in await db.list_invites() if i.id == invite.id)
                    assert stored.used == len(won) <= uses

                runner.run(go())

            check()
        finally:
            runner.run(db.close())


async def test_a_link_to_a_table_closed_before_closing_revoked_links_is_refused(
        store: tuple[Database, MovedClock]) -> None:
    db, _ = store
    try:
        async with db.transaction() as tx:
            await tx.create_table("high", {})
        invite, token = await db.create_invite("high", "player", START + 600, None)
        async with db.transaction() as tx:
            await tx.close_table("high")
        assert (await db.list_invites("high"))[0].revoked  # closing revokes the table's links
        async with db.engine.begin() as conn:  # as a table closed by an older server left them
            await conn.execute(sa.text("UPDATE invite SET revoked = false WHERE id = :id"), {"id": invite.id})
        with pytest.raises(StoreError) as caught:
            await db.redeem_invite(token, "lou", 100)
        assert (caught.value.code, caught.value.message) == (
            "invite/revoked", "table high is closed: that invite link no longer works")
    finally:
        await db.close()
