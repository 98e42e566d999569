"""Registering, logging in and session tokens, each as its own transaction.

scrypt costs about 50 ms of CPU, so hashing and verifying run in a worker
thread and outside any transaction: the SQLite write lock is never held while
hashing. The write that follows re-checks that the password hash it verified is
still the stored one, so a concurrent password change cannot be slipped past.
"""

from __future__ import annotations

import asyncio
import contextlib

from server.persistence.errors import StoreError
from server.persistence.invite_flows import NO_PASSWORD
from server.persistence.naming import check_account_name, check_password, taken
from server.persistence.passwords import decoy_hash, hash_password, verify_password
from server.persistence.records import Account, to_micros
from server.persistence.tx import Tx

_BAD_CREDENTIALS = "wrong name or password"


class AuthFlows:
    """Account operations of ``Database`` (which provides ``transaction``)."""

    session_ttl: float
    max_sessions: int

    def transaction(self, *, write: bool = True) -> contextlib.AbstractAsyncContextManager[Tx]:
        raise NotImplementedError

    async def register(self, name: str, password: str, starting_chips: int) -> Account:
        """Create an account and issue it ``starting_chips`` (recorded issuance), atomically."""
        check_account_name(name)
        check_password(password)
        if not isinstance(starting_chips, int) or isinstance(starting_chips, bool) or starting_chips < 0:
            raise StoreError("ledger/bad_amount", f"starting chips must be a whole number >= 0, not {starting_chips!r}")
        async with self.transaction(write=False) as tx:
            existing = await tx.account_by_name(name)
            if existing is not None:  # answer at once, before hashing
                raise StoreError("auth/name_taken", taken(name, existing.name))
        password_hash = await asyncio.to_thread(hash_password, password)
        async with self.transaction() as tx:
            account = await tx.create_account(name, password_hash)
            if starting_chips:
                await tx.issue(account.id, starting_chips, "starting chips")
        return account

    async def login(self, name: str, password: str) -> tuple[Account, str]:
        """Check the password and open a session: ``(account, token)``; ``auth/bad_credentials``."""
        account, stored = await self._verified(name, password)
        async with self.transaction() as tx:
            if await tx._credentials(name) != (account, stored):
                raise StoreError("auth/bad_credentials", _BAD_CREDENTIALS)
            token = await tx.create_session(account.id, to_micros(self.session_ttl), keep=self.max_sessions)
        return account, token

    async def resolve_token(self, token: str) -> Account:
        """The account of a live session token; ``auth/token_invalid`` or ``auth/token_expired``."""
        async with self.transaction(write=False) as tx:
            return await tx.session_account(token)

    async def revoke_token(self, token: str) -> bool:
        """Log a session out; False if the token was unknown or already revoked."""
        async with self.transaction() as tx:
            return await tx.revoke_session(token)

    async def change_password(self, account_id: int, old: str | None, new: str, *,
                              keep_token: str | None = None) -> int:
        """Change the password and revoke every other session; returns how many were revoked.

        ``keep_token`` (the session making the change) stays valid. A guest (an account made
        by an invite link, with no password yet) sets its first password with ``old=None``.
        """
        check_password(new)
        async with self.transaction(write=False) as tx:
            account = await tx.account(account_id)
            found = await tx._credentials(account.name) if account is not None else None
        if account is None or found is None:
            raise StoreError("auth/bad_credentials", _BAD_CREDENTIALS)
        if found[1] == NO_PASSWORD:
            old_hash = NO_PASSWORD
        elif old is None:
            raise StoreError("request/malformed", "old_password is required: this account has a password")
        else:
            _, old_hash = await self._verified(account.name, old)
        new_hash = await asyncio.to_thread(hash_password, new)
        async with self.transaction() as tx:
            if not await tx._replace_password_hash(account_id, old_hash, new_hash):
                raise StoreError("auth/bad_credentials", "the password changed meanwhile")
            return await tx.revoke_sessions(account_id, keep=keep_token)

    async def rotate_host_token(self) -> str:
        """A new host token; the old one stops working at once."""
        async with self.transaction() as tx:
            return await tx.rotate_host_token()

    async def check_host_token(self, token: str) -> bool:
        """Whether ``token`` is the current host token, or a live floor token (from a floor invite link)."""
        return (await self.host_token_scope(token))[0]

    async def host_token_scope(self, token: str) -> tuple[bool, str | None]:
        """Whether ``token`` runs the floor, and where: (True, None) the host token, every table;
        (True, NAME) a live floor token, its invite's table only; (False, None) neither."""
        async with self.transaction(write=False) as tx:
            if await tx.check_host_token(token):
                return True, None
            table = await tx.floor_token_table(token)
            return table is not None, table

    async def _verified(self, name: str, password: str) -> tuple[Account, str]:
        async with self.transaction(write=False) as tx:
            found = await tx._credentials(name)
        # An unknown name and a guest without a password take as long as a wrong password.
        usable = found is not None and found[1] != NO_PASSWORD
        stored = found[1] if found is not None and usable else decoy_hash()
        matches = await asyncio.to_thread(verify_password, password, stored)
        if found is None or not usable or not matches:
            raise StoreError("auth/bad_credentials", _BAD_CREDENTIALS)
        return found
