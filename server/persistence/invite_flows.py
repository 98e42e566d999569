"""Making, listing, revoking and redeeming invite links, each as its own transaction.

Describing a link reads it in the same way as redeeming and counts nothing.
Redeeming counts the use, makes the guest account (no password; the server's
starting chips) and its session, and for a floor link a floor token, all in one
write transaction: a name that turns out to be taken rolls the use back too.
"""

from __future__ import annotations

import contextlib

from server.i18n import phrase
from server.persistence.errors import StoreError
from server.persistence.models import INVITE_ROLES
from server.persistence.naming import check_account_name, taken
from server.persistence.records import Invite, Redemption, TableInfo, to_micros
from server.persistence.tx import Tx

NO_PASSWORD = ""  # the stored hash of a guest: no password matches it (verify_password says False)


def refusal(invite: Invite | None, now: int) -> StoreError | None:
    """Why this invite cannot be redeemed now, or None if it can."""
    if invite is None:
        return StoreError("invite/invalid", phrase("that invite link is not valid: ask the host for a new one"))
    if invite.revoked:
        return StoreError("invite/revoked", phrase("the host has revoked that invite link: ask for a new one"))
    if now >= invite.expires_at:
        return StoreError("invite/expired", phrase("that invite link has expired: ask the host for a new one"))
    if invite.max_uses is not None and invite.used >= invite.max_uses:
        return StoreError("invite/used_up", phrase("that invite link has been used as many times as it allows"))
    return None


async def live_invite(tx: Tx, token: str) -> tuple[Invite, TableInfo | None]:
    """The invite ``token`` names and its table, if it can be redeemed now; else its refusal (a StoreError)."""
    invite = await tx.invite_by_token(token)
    refused = refusal(invite, tx.now())
    if refused is not None:
        raise refused
    assert invite is not None
    table = await tx.get_table(invite.table)
    if table is not None and table.closed:  # (a table closed before closing revoked its links)
        raise StoreError("invite/revoked", phrase("table {table} is closed: that invite link no longer works",
                                                     table=invite.table))
    return invite, table


class InviteFlows:
    """Invite operations of ``Database`` (which provides ``transaction``)."""

    session_ttl: float
    max_sessions: int

    def transaction(self, *, write: bool = True) -> contextlib.AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    async def create_invite(self, table: str, role: str, expires_at: float,
                            max_uses: int | None) -> tuple[Invite, str]:
        """A new invite (``expires_at`` in seconds since the epoch) and its token, shown once."""
        if role not in INVITE_ROLES:
            raise StoreError("request/malformed", f"role is one of {', '.join(INVITE_ROLES)}")
        async with self.transaction() as tx:
            return await tx.create_invite(table, role, to_micros(expires_at), max_uses)

    async def list_invites(self, table: str | None = None) -> list[Invite]:
        """Invites, newest first (of one table if named)."""
        async with self.transaction(write=False) as tx:
            return await tx.invites(table)

    async def revoke_invite(self, invite_id: int) -> Invite:
        """Revoke an invite (and its floor tokens); ``invite/unknown`` if there is none."""
        async with self.transaction() as tx:
            if not await tx.revoke_invite(invite_id):
                raise StoreError("invite/unknown", f"there is no invite {invite_id}")
            invite = await tx.invite(invite_id)
        assert invite is not None
        return invite

    async def describe_invite(self, token: str) -> tuple[Invite, TableInfo | None]:
        """The live invite this token names and its table, using nothing up; the refusals of redeeming."""
        async with self.transaction(write=False) as tx:
            return await live_invite(tx, token)

    async def redeem_invite(self, token: str, name: str | None, starting_chips: int) -> Redemption:
        """Count a use and give what the link's role gives; the ``invite/`` codes, ``auth/name_taken``."""
        async with self.transaction(write=False) as tx:
            invite, _table = await live_invite(tx, token)
            if invite.role != "spectator":
                if name is None:
                    raise StoreError("request/malformed", "name is required: the name to play under")
                check_account_name(name)
                existing = await tx.account_by_name(name)
                if existing is not None:  # at once, before the write lock
                    raise StoreError("auth/name_taken", f"{taken(name, existing.name)}: choose another")
        async with self.transaction() as tx:
            if not await tx.use_invite(invite.id):
                raise refusal(await tx.invite(invite.id), tx.now()) or StoreError(
                    "invite/invalid", phrase("that invite link is not valid"))
            if invite.role == "spectator":
                return Redemption(invite.id, invite.table, invite.role, name, None, None, None)
            assert name is not None
            account = await tx.create_account(name, NO_PASSWORD)
            if starting_chips:
                await tx.issue(account.id, starting_chips, "starting chips")
            ttl = to_micros(self.session_ttl)
            session = await tx.create_session(account.id, ttl, keep=self.max_sessions)
            floor = await tx.create_floor_token(invite.id, account.id, ttl) if invite.role == "floor" else None
            return Redemption(invite.id, invite.table, invite.role, account.name, account.id, session, floor)
