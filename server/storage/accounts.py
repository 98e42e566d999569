"""The transport's accounts port (server/transport/gateway.py ``AccountsPort``, and the HTTP routes').

Who a session token is, registering and logging in, grants of chips (the host's),
what an account holds, and the host token.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from server.i18n import phrase
from server.identity import EVERY_TABLE, Identity
from server.persistence.models import HOST_TOKEN, TRANSFER
from server.persistence.tx import Tx
from server.rules.errors import Refusal
from server.rules.game import AccountId
from server.rules.places import account_place
from server.rules.vocabulary import Answer
from server.storage.store import Store, as_table_errors


class AccountStore(Store):
    """Accounts, sessions and the host token, over one :class:`Database`."""

    async def identify(self, token: str) -> Identity:
        """The account of a session token."""
        with as_table_errors():
            account = await self.db.resolve_token(token)
        return Identity(AccountId(account.id), account.name, False)

    async def is_host_token(self, token: str) -> bool:
        """Whether ``token`` is the current host token."""
        return await self.db.check_host_token(token)

    async def host_scope(self, token: str) -> str | None:
        """Where ``token`` runs the floor: :data:`EVERY_TABLE` (the host token), one table's name (a floor
        link's token), or None (neither)."""
        valid, table = await self.db.host_token_scope(token)
        if not valid:
            return None
        return EVERY_TABLE if table is None else table

    async def grant_chips(self, name: str, amount: int, by: AccountId | None) -> Answer:
        """Issue chips to the named account (recorded issuance)."""
        with as_table_errors():
            async with self.db.transaction() as tx:
                account = await tx.account_by_name(name)
                if account is None:
                    raise Refusal("account/unknown", phrase("no account named {name}", name=repr(name)))
                await tx.issue(account.id, amount, await _granted_by(tx, by))
                balance = await tx.balance(account_place(account.id))
        return {"account": account.name, "granted": amount, "balance": balance}

    async def register(self, name: str, password: str) -> dict[str, Any]:
        """A new account with its starting chips, logged in."""
        with as_table_errors():
            await self.db.register(name, password, self.config.starting_chips)
        return await self.login(name, password)

    async def login(self, name: str, password: str) -> dict[str, Any]:
        """A new session token."""
        with as_table_errors():
            account, token = await self.db.login(name, password)
        return {"account_id": account.id, "name": account.name, "token": token}

    async def logout(self, token: str) -> None:
        """Revoke a session token."""
        await self.db.revoke_token(token)

    async def change_password(self, token: str, old: str | None, new: str) -> None:
        """Change the password; other sessions are logged out."""
        with as_table_errors():
            account = await self.db.resolve_token(token)
            await self.db.change_password(account.id, old, new, keep_token=token)

    async def account_info(self, identity: Identity, limit: int) -> dict[str, Any]:
        """Balance, stacks at tables, and recent movements of the account balance."""
        assert identity.account is not None
        place = account_place(identity.account)
        async with self.db.transaction(write=False) as tx:
            balance = await tx.balance(place)
            stacks = {k.split(":")[1]: v for k, v in (await tx.balances("stack:")).items()
                      if k.endswith(f":{identity.account}") and v}
            rows = (await tx._run(
                sa.select(TRANSFER).where(sa.or_(TRANSFER.c.src == place, TRANSFER.c.dst == place))
                .order_by(TRANSFER.c.id.desc()).limit(limit))).all()
        movements = [{"at": row.created_at / 1e6, "kind": row.kind, "table": row.table_name,
                      "amount": row.amount if row.dst == place else -row.amount,
                      "memo": row.memo} for row in rows]
        return {"name": identity.name, "balance": balance, "stacks": stacks, "movements": movements}

    async def first_host_token(self) -> str | None:
        """A host token if none exists yet (a fresh database), else None."""
        async with self.db.transaction(write=False) as tx:
            exists = (await tx._run(sa.select(sa.func.count()).select_from(HOST_TOKEN))).scalar_one()
        return None if exists else await self.db.rotate_host_token()


async def _granted_by(tx: Tx, by: AccountId | None) -> str:
    """The memo of a grant: the host, and the account it was logged in as, if any."""
    account = await tx.account(by) if by is not None else None
    return f"granted by the host ({account.name})" if account is not None else "granted by the host"
