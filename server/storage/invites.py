"""The transport's invites port (server/transport/invites.py ``InvitesPort``): invite links and guests."""

from __future__ import annotations

import datetime as dt
from typing import Any

from server.persistence.records import Invite
from server.storage.store import Store, as_table_errors


def iso(micros: int) -> str:
    """An instant as ISO 8601 in UTC, to the second.

    >>> iso(1_795_953_924_604_176)
    '2026-11-29T12:05:24Z'
    """
    moment = dt.datetime.fromtimestamp(micros // 1_000_000, tz=dt.UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def invite_fields(invite: Invite) -> dict[str, Any]:
    """An invite as the API shows it (never its token)."""
    return {"id": invite.id, "table": invite.table, "role": invite.role, "created_at": iso(invite.created_at),
            "expires_at": iso(invite.expires_at), "uses": invite.max_uses, "used": invite.used,
            "revoked": invite.revoked}


class InviteStore(Store):
    """Invite links over one :class:`Database`."""

    async def create_invite(self, table: str, role: str, expires_seconds: int,
                            uses: int | None) -> tuple[dict[str, Any], str]:
        """A new invite and its token (shown once: only its digest is kept)."""
        with as_table_errors():
            invite, token = await self.db.create_invite(table, role, self.db.clock() + expires_seconds, uses)
        return invite_fields(invite), token

    async def list_invites(self, table: str | None) -> list[dict[str, Any]]:
        """Invites, newest first (of one table if named)."""
        return [invite_fields(invite) for invite in await self.db.list_invites(table)]

    async def revoke_invite(self, invite_id: int) -> dict[str, Any]:
        """Revoke an invite and the floor tokens it gave."""
        with as_table_errors():
            return invite_fields(await self.db.revoke_invite(invite_id))

    async def describe_invite(self, token: str) -> dict[str, Any]:
        """What a link invites to, using nothing up: table, game, role, expiry, uses left (None: any)."""
        with as_table_errors():
            invite, table = await self.db.describe_invite(token)
        left = None if invite.max_uses is None else invite.max_uses - invite.used
        game = str(table.settings.get("game", "hcf")) if table is not None else None  # the settings say the game
        return {"table": invite.table, "game": game, "role": invite.role,
                "expires_at": iso(invite.expires_at),
                "seconds_left": max(0, invite.expires_at // 1_000_000 - int(self.db.clock())), "uses_left": left}

    async def redeem_invite(self, token: str, name: str | None) -> dict[str, Any]:
        """Count a use; a guest account and its session for a player or floor link, a host token for floor."""
        with as_table_errors():
            got = await self.db.redeem_invite(token, name, self.config.starting_chips)
        return {"invite": got.invite_id, "role": got.role, "table": got.table, "name": got.name,
                "account": got.account_id, "token": got.session_token, "host_token": got.host_token}
