"""Invite links over HTTP: the host makes, lists and revokes them; a friend redeems one.

The token travels in the link's fragment (``/join#TOKEN``): a browser never sends a
fragment to a server, so no access log or ``Referer`` ever holds it. The page
posts it to ``/api/invites/describe`` (what it invites to, using nothing up) and
``/api/invites/redeem``, and drops it from the address bar. Nothing here
logs a token: only invite ids, tables, roles and names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

import structlog
from aiohttp import web

from server import protocol as p
from server.i18n import accept_language, counted, phrase, render_text
from server.identity import EVERY_TABLE
from server.rules.drill.views import GAME_NAMES
from server.rules.errors import Refusal
from server.rules.vocabulary import JSON
from server.table.registry import Tables
from server.transport.gateway import is_text
from server.transport.http import AccountService, HttpLimits, body_of, guarded, refuse_unless_host
from server.transport.scope import check_scope

log = structlog.get_logger("hcf.invites")

ROLES: Final = ("player", "spectator", "floor")
ROLE_WORDS: Final = {"player": phrase("to play"), "spectator": phrase("to watch"),
              "floor": phrase("to run the table as floor staff")}
DEFAULT_EXPIRES: Final = 12 * 3600
MIN_EXPIRES: Final = 60
MAX_EXPIRES: Final = 30 * 86400
MAX_USES: Final = 10_000
MAX_TOKEN: Final = 200  # far above a real token (about 60 characters): a longer one is no token of ours


class InvitesPort(Protocol):
    """What these routes need from storage (server/storage/invites.py)."""

    async def create_invite(self, table: str, role: str, expires_seconds: int,
                            uses: int | None) -> tuple[JSON, str]:
        """A new invite's fields, and its token (shown once)."""
        ...

    async def list_invites(self, table: str | None) -> list[JSON]:
        """Invites, newest first."""
        ...

    async def revoke_invite(self, invite_id: int) -> JSON:
        """Revoke one; ``invite/unknown`` if there is none."""
        ...

    async def describe_invite(self, token: str) -> JSON:
        """What the link invites to (``table``, ``game``, ``role``, ``expires_at``, ``seconds_left``,
        ``uses_left``), using nothing up; the refusals of redeeming."""
        ...

    async def redeem_invite(self, token: str, name: str | None) -> JSON:
        """Count a use and give what the role gives."""
        ...


class InviteService(AccountService, InvitesPort, Protocol):
    """The host check of the account service, and the invites."""


@dataclass(slots=True)
class WebAddress:
    """Where invite links point: ``public_url`` if set, else the host the request reached, at the web port."""

    public_url: str = ""
    port: int | None = None  # the web port, once it listens (None: the pages are on the main port only)

    def base(self, request: web.Request) -> str:
        """``scheme://host[:port]`` of the pages, as the person who asked reached this server."""
        if self.public_url:
            return self.public_url.rstrip("/")
        if self.port is None:
            return f"{request.scheme}://{request.host}"
        host = request.url.host or "127.0.0.1"
        return f"{request.scheme}://{f'[{host}]' if ':' in host else host}:{self.port}"


def _whole(data: JSON, key: str, low: int, high: int) -> int | None:
    """The whole number ``data[key]`` from ``low`` to ``high``; None when absent or null (the default)."""
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Refusal("request/malformed", phrase("{key} is a whole number from {low} to {high}", key=key, low=low,
                                                  high=high))
    return value


def _expires(data: JSON) -> int:
    """``expires_seconds``, null or absent meaning :data:`DEFAULT_EXPIRES`; a refusal says the limits in words."""
    value = data.get("expires_seconds")
    if value is None:
        return DEFAULT_EXPIRES
    shortest, longest = duration_words(MIN_EXPIRES), duration_words(MAX_EXPIRES)
    if not isinstance(value, int) or isinstance(value, bool):
        raise Refusal("request/malformed", phrase("an invite lasts from {low} to {high}: send how long in whole "
                                                  "seconds", low=shortest, high=longest))
    if not MIN_EXPIRES <= value <= MAX_EXPIRES:
        raise Refusal("request/malformed", phrase("an invite lasts from {low} to {high}, not {asked}", low=shortest,
                                                  high=longest, asked=duration_words(value)))
    return value


def duration_words(seconds: int) -> str:
    """A whole number of seconds in the largest unit that divides it, as a person says it.

    >>> duration_words(60), duration_words(30 * 86400), duration_words(12 * 3600), duration_words(90)
    ('1 minute', '30 days', '12 hours', '90 seconds')
    """
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            return counted(seconds // size, unit)
    return counted(seconds, "second")


def invite_request(data: JSON) -> tuple[str, str, int, int | None]:
    """``(table, role, expires_seconds, uses)`` of a ``POST /api/invites`` body."""
    unknown = sorted(set(data) - {"table", "role", "expires_seconds", "uses"})
    if unknown:
        raise Refusal("request/malformed", phrase("unknown key {key}: send table, role, expires_seconds, uses",
                                                  key=repr(unknown[0])))
    table, role = data.get("table"), data.get("role", "player")
    if not isinstance(table, str) or not table or not is_text(table):
        raise Refusal("request/malformed", phrase("table is required (text)"))
    if role not in ROLES:
        raise Refusal("request/malformed", phrase("role is one of {roles}", roles=", ".join(ROLES)))
    return table, str(role), _expires(data), _whole(data, "uses", 1, MAX_USES)


def token_in(data: JSON) -> str:
    """The ``token`` of a describe or redeem body; ``invite/invalid`` for anything that is no token of ours."""
    token = data.get("token")
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN or not token.isascii():
        raise Refusal("invite/invalid", phrase("that invite link is not valid: ask the host for a new one"))
    return token


def time_left_words(seconds: int) -> str:
    """How long until a moment, in its two largest units, rounded down, as a person says it.

    >>> time_left_words(43_199), time_left_words(3 * 86400 + 60), time_left_words(90), time_left_words(59)
    ('11 hours and 59 minutes', '3 days', '1 minute', 'less than a minute')
    """
    counts = [(seconds // 86400, "day"), (seconds % 86400 // 3600, "hour"), (seconds % 3600 // 60, "minute")]
    first = next((i for i, (count, _) in enumerate(counts) if count), None)
    if first is None:
        return phrase("less than a minute")
    said = [counted(count, unit) for count, unit in counts[first:first + 2] if count]
    return said[0] if len(said) == 1 else phrase("{first} and {second}", first=said[0], second=said[1])


def invitation_sentence(table: str, game: str | None, role: str) -> str:
    """``You are invited to play High Card Flush at table main.`` (to watch, or to run it as floor staff)."""
    named = GAME_NAMES.get(game or "", "")
    if role == "floor":
        if named:
            return phrase("You are invited to run table {table} ({game}) as floor staff.", table=table, game=named)
        return phrase("You are invited to run table {table} as floor staff.", table=table)
    if role == "spectator":
        if named:
            return phrase("You are invited to watch {game} at table {table}.", table=table, game=named)
        return phrase("You are invited to watch at table {table}.", table=table)
    if named:
        return phrase("You are invited to play {game} at table {table}.", table=table, game=named)
    return phrase("You are invited to play at table {table}.", table=table)


def invitation(found: JSON, lang: str = "en") -> JSON:
    """The describe answer: the storage's fields, and the same in words (in ``lang``: docs/http.md)."""
    game = found["game"]
    return {**found, "game_name": GAME_NAMES.get(game or "", game),
            "role_words": render_text(ROLE_WORDS[found["role"]], lang),
            "invitation": render_text(invitation_sentence(found["table"], game, found["role"]), lang),
            "expires_in": render_text(time_left_words(found["seconds_left"]), lang)}


class _Invites:
    def __init__(self, tables: Tables, service: InviteService, limits: HttpLimits, address: WebAddress) -> None:
        self.tables, self.service, self.limits, self.address = tables, service, limits, address

    async def create(self, request: web.Request) -> web.Response:
        scope = await refuse_unless_host(request, self.service, self.limits)
        table, role, expires, uses = invite_request(await body_of(request, self.limits))
        name = await self.tables.resolve(table)  # table/unknown for no such table; the table's own spelling
        await check_scope(self.tables, scope, name, "an invite to another table")
        fields, token = await self.service.create_invite(name, role, expires, uses)
        log.info("invite_created", invite=fields["id"], table=name, role=role, uses=uses)
        return web.json_response(p.ok(url=f"{self.address.base(request)}/join#{token}", **fields))

    async def list(self, request: web.Request) -> web.Response:
        scope = await refuse_unless_host(request, self.service, self.limits)
        table = request.query.get("table") or None
        if scope != EVERY_TABLE:  # a floor link sees its own table's links only
            table = table or scope
            await check_scope(self.tables, scope, table, "another table's invites")
        return web.json_response(p.ok(invites=await self.service.list_invites(table)))

    async def revoke(self, request: web.Request) -> web.Response:
        scope = await refuse_unless_host(request, self.service, self.limits)
        text = request.match_info["invite_id"]
        if not text.isascii() or not text.isdigit() or len(text) > 18:
            raise Refusal("invite/unknown", phrase("there is no invite {invite}: invite ids are whole numbers",
                                                     invite=repr(text[:24])))
        if scope != EVERY_TABLE:  # a floor link revokes its own table's links only
            mine = {int(i["id"]) for i in await self.service.list_invites(scope)}
            if int(text) not in mine:
                raise Refusal("auth/not_host", phrase("a floor link runs table {table} only: that invite is "
                                                      "not its", table=scope))
        fields = await self.service.revoke_invite(int(text))
        log.info("invite_revoked", invite=fields["id"], table=fields["table"])
        return web.json_response(p.ok(**fields))

    async def describe(self, request: web.Request) -> web.Response:
        self.limits.check_address(request)  # as redeeming is: no guessing tokens faster here than there
        token = token_in(await body_of(request, self.limits))
        found = await self.service.describe_invite(token)
        return web.json_response(p.ok(**invitation(found, accept_language(request.headers.get("Accept-Language")))))

    async def redeem(self, request: web.Request) -> web.Response:
        self.limits.check_address(request)  # guests are made here: per address, as registering is
        data = await body_of(request, self.limits)
        token, name = token_in(data), data.get("name")
        if name is not None and (not isinstance(name, str) or not is_text(name)):
            raise Refusal("request/malformed", phrase("name is text: the name to play under"))
        got = await self.limits.new_account(request, self.service.redeem_invite(token, name or None))
        log.info("invite_redeemed", invite=got.pop("invite"), role=got["role"], table=got["table"],
                 name=got["name"], account=got["account"])
        return web.json_response(p.ok(**got))


def invite_routes(tables: Tables, service: InviteService, limits: HttpLimits,
                  address: WebAddress | None = None) -> list[web.RouteDef]:
    """``POST /api/invites``, ``GET /api/invites``, ``DELETE /api/invites/{id}``, ``POST /api/invites/describe``,
    ``POST /api/invites/redeem``."""
    api = _Invites(tables, service, limits, address or WebAddress())
    return [
        web.post("/api/invites", guarded(api.create)),
        web.get("/api/invites", guarded(api.list)),
        web.post("/api/invites/describe", guarded(api.describe)),
        web.post("/api/invites/redeem", guarded(api.redeem)),
        web.delete("/api/invites/{invite_id}", guarded(api.revoke)),
    ]
