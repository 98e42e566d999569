"""Invite links inside one transaction: the signing key, the invites, their uses, floor tokens.

An invite token is ``NONCE.SIGNATURE``: a random nonce from :mod:`secrets` and an
HMAC-SHA256 over the nonce, the table and the role, under the server's secret
(kept in the database, made at first use). Only the token's SHA-256 is stored;
the row found by it must also carry a valid signature for its table and role, so a
token is bound to both. A use is counted by one conditional UPDATE: concurrent
redemptions can never count past ``max_uses``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any, Final

import sqlalchemy as sa

from server.persistence.models import FLOOR_TOKEN, INVITE, INVITE_ROLES, SERVER_SECRET
from server.persistence.passwords import new_token, token_digest
from server.persistence.records import Invite, Micros
from server.persistence.txbase import TxBase

NONCE_BYTES: Final = 18
SIGNATURE_BYTES: Final = 16
_INVITE_COLUMNS: Final = (INVITE.c.id, INVITE.c.table_name, INVITE.c.role, INVITE.c.created_at,
                          INVITE.c.expires_at, INVITE.c.max_uses, INVITE.c.used, INVITE.c.revoked)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def signature(secret: str, nonce: str, table: str, role: str) -> str:
    """The signature binding a nonce to its table and role."""
    message = "\n".join((nonce, table.lower(), role)).encode("utf-8")
    return _b64(hmac.new(bytes.fromhex(secret), message, hashlib.sha256).digest()[:SIGNATURE_BYTES])


def make_token(secret: str, table: str, role: str) -> str:
    """A new invite token for ``table`` and ``role``."""
    nonce = _b64(secrets.token_bytes(NONCE_BYTES))
    return f"{nonce}.{signature(secret, nonce, table, role)}"


def signed_for(secret: str, token: str, table: str, role: str) -> bool:
    """Whether ``token`` carries a valid signature for ``table`` and ``role`` (constant-time)."""
    nonce, dot, given = token.partition(".")
    return bool(dot) and role in INVITE_ROLES and hmac.compare_digest(
        given.encode("utf-8", "replace"), signature(secret, nonce, table, role).encode("ascii"))


def _invite(row: Any) -> Invite:
    return Invite(id=row.id, table=row.table_name, role=row.role, created_at=row.created_at,
                  expires_at=row.expires_at, max_uses=row.max_uses, used=row.used, revoked=bool(row.revoked))


class InviteOps(TxBase):
    async def signing_secret(self) -> str:
        """The server's invite-signing key (hex), made at first use."""
        found = (await self._run(sa.select(SERVER_SECRET.c.secret))).scalar_one_or_none()
        if found is not None:
            return str(found)
        self._check_writable()
        insert = self._upsert(SERVER_SECRET).values(id=1, secret=secrets.token_hex(32), created_at=self.now())
        await self._run(insert.on_conflict_do_nothing(index_elements=[SERVER_SECRET.c.id]))
        return str((await self._run(sa.select(SERVER_SECRET.c.secret))).scalar_one())

    async def create_invite(self, table: str, role: str, expires_at: Micros,
                            max_uses: int | None) -> tuple[Invite, str]:
        """A new invite and its token (the token is returned once and never stored)."""
        self._check_writable()
        token = make_token(await self.signing_secret(), table, role)
        result = await self._run(sa.insert(INVITE).values(
            token_hash=token_digest(token), table_name=table, role=role, created_at=self.now(),
            expires_at=expires_at, max_uses=max_uses, used=0, revoked=False).returning(*_INVITE_COLUMNS))
        return _invite(result.one()), token

    async def invite(self, invite_id: int) -> Invite | None:
        """The invite with this id, if any."""
        row = (await self._run(sa.select(*_INVITE_COLUMNS).where(INVITE.c.id == invite_id))).one_or_none()
        return _invite(row) if row is not None else None

    async def invite_by_token(self, token: str) -> Invite | None:
        """The invite this token names, if its digest is known and its signature holds."""
        query = sa.select(*_INVITE_COLUMNS).where(INVITE.c.token_hash == token_digest(token))
        row = (await self._run(query)).one_or_none()
        if row is None or not signed_for(await self.signing_secret(), token, row.table_name, row.role):
            return None
        return _invite(row)

    async def invites(self, table: str | None = None) -> list[Invite]:
        """Invites, newest first; of one table (any letter case) if named."""
        query = sa.select(*_INVITE_COLUMNS).order_by(INVITE.c.id.desc())
        if table is not None:
            query = query.where(sa.func.lower(INVITE.c.table_name) == table.lower())
        return [_invite(row) for row in (await self._run(query)).all()]

    async def revoke_invite(self, invite_id: int) -> bool:
        """Revoke an invite and the floor tokens it gave; False if there is no such invite."""
        self._check_writable()
        result = await self._run(sa.update(INVITE).where(INVITE.c.id == invite_id).values(revoked=True))
        await self._run(sa.delete(FLOOR_TOKEN).where(FLOOR_TOKEN.c.invite_id == invite_id))
        return result.rowcount == 1

    async def use_invite(self, invite_id: int) -> bool:
        """Count one use, if the invite is live and not used up (one conditional UPDATE)."""
        self._check_writable()
        result = await self._run(sa.update(INVITE).where(
            INVITE.c.id == invite_id, sa.not_(INVITE.c.revoked), INVITE.c.expires_at > self.now(),
            sa.or_(INVITE.c.max_uses.is_(None), INVITE.c.used < INVITE.c.max_uses),
        ).values(used=INVITE.c.used + 1))
        return result.rowcount == 1

    async def create_floor_token(self, invite_id: int, account_id: int | None, ttl: Micros) -> str:
        """A host token with the floor's powers, tied to its invite."""
        self._check_writable()
        token, now = new_token(), self.now()
        await self._run(sa.insert(FLOOR_TOKEN).values(token_hash=token_digest(token), invite_id=invite_id,
                                                      account_id=account_id, created_at=now, expires_at=now + ttl))
        return token

    async def check_floor_token(self, token: str) -> bool:
        """Whether ``token`` is a live floor token (unexpired, its invite not revoked)."""
        return await self.floor_token_table(token) is not None

    async def floor_token_table(self, token: str) -> str | None:
        """The table a live floor token runs (its invite's), or None for no live floor token."""
        query = (sa.select(FLOOR_TOKEN.c.expires_at, INVITE.c.table_name).join_from(FLOOR_TOKEN, INVITE)
                 .where(FLOOR_TOKEN.c.token_hash == token_digest(token), sa.not_(INVITE.c.revoked)))
        row = (await self._run(query)).one_or_none()
        return str(row.table_name) if row is not None and self.now() < row.expires_at else None
