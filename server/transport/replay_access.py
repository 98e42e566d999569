"""Who may open a table's replay links (issue 28, item 4; docs/web.md, "History and replays by link").

The host chooses per table: ``anyone`` (the default: a link is enough), ``players`` (the people who
played at the table, with their session token, and the host) or ``host`` (the host token, or the
table's floor link). The history routes ask :func:`check_replays` before answering; a refusal is a
sentence the history page shows as it is.
"""

from __future__ import annotations

from typing import Protocol

from aiohttp import web

from server.identity import EVERY_TABLE, Identity
from server.rules.errors import Refusal


class ReplayAccess(Protocol):
    """What the check needs from storage (server/storage/nights.py and accounts)."""

    async def replays_setting(self, table: str) -> str:
        """``anyone``, ``players`` or ``host``."""
        ...

    async def played_at(self, table: str, account: int) -> bool:
        """Whether the account ever bought in at the table."""
        ...

    async def host_scope(self, token: str) -> str | None:
        """The token's floor: every table, one table's name, or None."""
        ...

    async def identify(self, token: str) -> Identity:
        """The account of a session token (a refusal for an unknown one)."""
        ...


def bearer_of(request: web.Request) -> str | None:
    """The request's bearer token, if it sends one."""
    header = request.headers.get("Authorization", "")
    token = header[7:].strip() if header.startswith("Bearer ") else ""
    return token or None


async def check_replays(service: ReplayAccess, table: str, token: str | None) -> None:
    """Refuse, in words, a replay of ``table`` the host does not let this token's holder open."""
    setting = await service.replays_setting(table)
    if setting == "anyone":
        return
    scope = await service.host_scope(token) if token else None
    if scope is not None and (scope == EVERY_TABLE or scope.casefold() == table.casefold()):
        return
    if setting == "host":
        raise Refusal("hand/not_allowed", f"the host keeps the replays of {table} to themselves: ask the host "
                                          f"to show you the hand")
    account = await _account(service, token)
    if account is None:
        raise Refusal("auth/required", f"the host lets only the people who played at {table} open its replays: "
                                       f"log in with the account you played with")
    if not await service.played_at(table, account):
        raise Refusal("hand/not_allowed", f"the host lets only the people who played at {table} open its "
                                          f"replays, and this account has not played there")


async def _account(service: ReplayAccess, token: str | None) -> int | None:
    if token is None:
        return None
    try:
        identity = await service.identify(token)
    except Refusal:
        return None  # an unknown or expired token: as if not logged in
    return identity.account
