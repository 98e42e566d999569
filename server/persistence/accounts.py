"""Accounts, session tokens and the host token, inside one transaction.

Password hashing is slow on purpose, so ``Database`` hashes and verifies outside
any transaction and hands the results to these operations.
"""

from __future__ import annotations

import hmac
from typing import Any

import sqlalchemy as sa

from server.i18n import phrase
from server.persistence.errors import StoreError
from server.persistence.models import ACCOUNT, HOST_TOKEN, SESSION_TOKEN
from server.persistence.naming import account_name, name_key, taken
from server.persistence.passwords import new_token, token_digest
from server.persistence.records import Account, Micros
from server.persistence.txbase import TxBase

MAX_SESSIONS = 20  # live session tokens per account (ServerConfig.max_sessions_per_account)
_ACCOUNT_COLUMNS = (ACCOUNT.c.id, ACCOUNT.c.name, ACCOUNT.c.created_at, ACCOUNT.c.is_host)


def _account(row: Any) -> Account:
    return Account(id=row.id, name=row.name, created_at=row.created_at, is_host=bool(row.is_host))


class AccountOps(TxBase):
    async def create_account(self, name: str, password_hash: str, *, is_host: bool = False) -> Account:
        """Insert an account (its name NFKC-normalised); ``auth/bad_name`` for a name naming.py refuses,
        ``auth/name_taken`` if it, or a name that looks like it, exists."""
        self._check_writable()
        try:
            shown, key = account_name(name)
            existing = await self.account_by_name(shown)
            if existing is not None:
                raise StoreError("auth/name_taken", taken(shown, existing.name))
            values = {"name": shown, "name_key": key, "password_hash": password_hash, "is_host": is_host}
            result = await self._run(
                sa.insert(ACCOUNT).values(created_at=self.now(), **values).returning(*_ACCOUNT_COLUMNS)
            )
        except sa.exc.IntegrityError as exc:
            raise self._doom(StoreError("auth/name_taken", taken(shown, shown))) from exc  # (a race)
        except StoreError as exc:
            raise self._doom(exc) from None
        return _account(result.one())

    async def account(self, account_id: int) -> Account | None:
        """The account with this id, if any."""
        result = await self._run(sa.select(*_ACCOUNT_COLUMNS).where(ACCOUNT.c.id == account_id))
        row = result.one_or_none()
        return _account(row) if row is not None else None

    async def account_by_name(self, name: str) -> Account | None:
        """The account with this name, or one that looks like it (in any letter case: naming.py), if any."""
        result = await self._run(sa.select(*_ACCOUNT_COLUMNS).where(ACCOUNT.c.name_key == name_key(name)))
        row = result.one_or_none()
        return _account(row) if row is not None else None

    async def _credentials(self, name: str) -> tuple[Account, str] | None:
        # Internal to the package: the hash leaves the database only to be verified by AuthFlows.
        query = sa.select(*_ACCOUNT_COLUMNS, ACCOUNT.c.password_hash).where(ACCOUNT.c.name_key == name_key(name))
        row = (await self._run(query)).one_or_none()
        return (_account(row), str(row.password_hash)) if row is not None else None

    async def _replace_password_hash(self, account_id: int, old_hash: str, new_hash: str) -> bool:
        # Swap the hash only if it is still ``old_hash`` (no concurrent change won).
        self._check_writable()
        result = await self._run(
            sa.update(ACCOUNT)
            .where(ACCOUNT.c.id == account_id, ACCOUNT.c.password_hash == old_hash)
            .values(password_hash=new_hash)
        )
        return result.rowcount == 1

    async def set_host(self, account_id: int, is_host: bool) -> None:
        """Grant or withdraw the host role."""
        self._check_writable()
        await self._run(sa.update(ACCOUNT).where(ACCOUNT.c.id == account_id).values(is_host=is_host))

    async def create_session(self, account_id: int, ttl: Micros, *, keep: int = MAX_SESSIONS) -> str:
        """A new session token for the account; only its digest is stored. The account keeps at most
        ``keep`` live sessions: the oldest others are revoked (so its owner, logging in, is never refused)."""
        self._check_writable()
        token, now = new_token(), self.now()
        digest = token_digest(token)
        await self._run(
            sa.insert(SESSION_TOKEN).values(
                token_hash=digest, account_id=account_id, created_at=now, expires_at=now + ttl
            )
        )
        older = (sa.select(SESSION_TOKEN.c.token_hash)
                 .where(SESSION_TOKEN.c.account_id == account_id, sa.not_(SESSION_TOKEN.c.revoked),
                        SESSION_TOKEN.c.expires_at > now, SESSION_TOKEN.c.token_hash != digest)
                 .order_by(SESSION_TOKEN.c.created_at.desc()).offset(max(0, keep - 1)))
        await self._run(sa.update(SESSION_TOKEN).where(SESSION_TOKEN.c.token_hash.in_(older)).values(revoked=True))
        return token

    async def session_account(self, token: str) -> Account:
        """The account a live token belongs to; ``auth/token_invalid`` or ``auth/token_expired``."""
        query = (
            sa.select(*_ACCOUNT_COLUMNS, SESSION_TOKEN.c.expires_at, SESSION_TOKEN.c.revoked)
            .join_from(SESSION_TOKEN, ACCOUNT)
            .where(SESSION_TOKEN.c.token_hash == token_digest(token))
        )
        row = (await self._run(query)).one_or_none()
        if row is None or row.revoked:
            raise StoreError("auth/token_invalid", phrase("unknown or revoked session token"))
        if self.now() >= row.expires_at:
            raise StoreError("auth/token_expired", "the session has expired: log in again")
        return _account(row)

    async def revoke_session(self, token: str) -> bool:
        """Revoke one token; False if it was unknown or already revoked."""
        self._check_writable()
        result = await self._run(
            sa.update(SESSION_TOKEN)
            .where(SESSION_TOKEN.c.token_hash == token_digest(token), sa.not_(SESSION_TOKEN.c.revoked))
            .values(revoked=True)
        )
        return result.rowcount == 1

    async def revoke_sessions(self, account_id: int, *, keep: str | None = None) -> int:
        """Revoke every live token of the account except ``keep``; returns how many."""
        self._check_writable()
        query = sa.update(SESSION_TOKEN).where(
            SESSION_TOKEN.c.account_id == account_id, sa.not_(SESSION_TOKEN.c.revoked)
        )
        if keep is not None:
            query = query.where(SESSION_TOKEN.c.token_hash != token_digest(keep))
        return (await self._run(query.values(revoked=True))).rowcount

    async def rotate_host_token(self) -> str:
        """A new host token; the previous one stops working."""
        self._check_writable()
        token = new_token()
        insert = self._upsert(HOST_TOKEN).values(id=1, token_hash=token_digest(token), created_at=self.now())
        excluded = insert.excluded
        await self._run(
            insert.on_conflict_do_update(
                index_elements=[HOST_TOKEN.c.id],
                set_={"token_hash": excluded.token_hash, "created_at": excluded.created_at},
            )
        )
        return token

    async def check_host_token(self, token: str) -> bool:
        """Whether ``token`` is the current host token (constant-time comparison)."""
        stored = (await self._run(sa.select(HOST_TOKEN.c.token_hash))).scalar_one_or_none()
        return stored is not None and hmac.compare_digest(str(stored), token_digest(token))
