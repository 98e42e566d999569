"""The host's sessions (nights) and replays setting of a table over HTTP (issue 28, items 3 and 4; docs/protocol.md,
"Sessions and replays").

``POST /api/tables/{name}/session`` with ``{"action": "open"}`` or ``{"action": "close"}`` opens or closes the
table's session; closing answers the session's final settle-up. ``GET /api/tables/{name}/sessions`` lists them.
``GET``/``POST /api/tables/{name}/replays`` reads or sets who may open the table's replay links. The host token,
or the table's floor link, only.
"""

from __future__ import annotations

from typing import Protocol, cast

import structlog
from aiohttp import web

from server import protocol as p
from server.i18n import accept_language, phrase, render_all, render_text
from server.identity import EVERY_TABLE
from server.rules.errors import Refusal
from server.rules.vocabulary import JSON
from server.transport.http import AccountService, HttpLimits, body_of, guarded, refuse_unless_host

log = structlog.get_logger("hcf.table_host")


class ClosedSession(Protocol):
    """A session the host closed (server/storage/nights.py ``Session``)."""

    @property
    def number(self) -> int:
        """Its number at the table, from 1."""
        ...

    def as_json(self) -> JSON:
        """The session as the API shows it."""
        ...


class SessionsPort(Protocol):
    """What these routes need from storage (server/storage/nights.py and settle.py)."""

    async def open_session(self, table: str) -> JSON:
        """Open a session at the table now (one already open stays open)."""
        ...

    async def close_session(self, table: str) -> ClosedSession | None:
        """Close the open session: the closed session (its ``number``), or None when none was open."""
        ...

    async def sessions(self, table: str) -> JSON:
        """The table's sessions, oldest first."""
        ...

    async def replays(self, table: str) -> JSON:
        """Who may open the table's replay links, with its sentence."""
        ...

    async def set_replays(self, table: str, replays: str) -> JSON:
        """Set who may open the table's replay links."""
        ...


class TableHostService(AccountService, SessionsPort, Protocol):
    """The host's token check and settle-up, and the sessions and replays setting."""


def table_host_routes(service: TableHostService, limits: HttpLimits) -> list[web.RouteDef]:
    """The session and replays routes of a table."""
    api = _TableHost(service, limits)
    return [
        web.post("/api/tables/{name}/session", guarded(api.session)),
        web.get("/api/tables/{name}/sessions", guarded(api.sessions)),
        web.get("/api/tables/{name}/replays", guarded(api.replays)),
        web.post("/api/tables/{name}/replays", guarded(api.set_replays)),
    ]


class _TableHost:
    def __init__(self, service: TableHostService, limits: HttpLimits) -> None:
        self.service, self.limits = service, limits

    async def _host(self, request: web.Request) -> str:
        """The table's name, once the bearer is the host (or the table's floor)."""
        name = request.match_info["name"]
        scope = await refuse_unless_host(request, self.service, self.limits)
        if scope != EVERY_TABLE and scope.casefold() != name.casefold():
            raise Refusal("auth/not_host", phrase("that floor link runs the table {scope}, not {name}",
                                                    scope=scope, name=name))
        return name

    async def session(self, request: web.Request) -> web.Response:
        name = await self._host(request)
        action = (await body_of(request, self.limits)).get("action")
        if action == "open":
            opened = await self.service.open_session(name)
            log.info("session_opened", table=name, opened=opened["opened"])
            return web.json_response(p.ok(**_said(opened, request)))
        if action != "close":
            raise Refusal("request/malformed", phrase("send {open} or {close}", open='{"action": "open"}',
                                                  close='{"action": "close"}'))
        closed = await self.service.close_session(name)
        if closed is None:
            settle = await self.service.settle_up(name)
            return web.json_response(p.ok(table=settle["table"], closed=False, settle_up=_all(settle, request),
                                          message=_say(phrase("No session is open at {table}: nothing to close.",
                                                              table=settle["table"]), request)))
        settle = await self.service.settle_up(name, None, closed.number)
        log.info("session_closed", table=name, session=closed.number)
        return web.json_response(p.ok(table=settle["table"], closed=True, session=closed.as_json(),
                                      settle_up=_all(settle, request),
                                      message=_say(phrase("Session {number} at {table} is closed.",
                                                          number=closed.number, table=settle["table"]), request)))

    async def sessions(self, request: web.Request) -> web.Response:
        name = await self._host(request)
        return web.json_response(p.ok(**await self.service.sessions(name)))

    async def replays(self, request: web.Request) -> web.Response:
        name = await self._host(request)
        return web.json_response(p.ok(**_said(await self.service.replays(name), request)))

    async def set_replays(self, request: web.Request) -> web.Response:
        name = await self._host(request)
        replays = (await body_of(request, self.limits)).get("replays")
        if not isinstance(replays, str):
            raise Refusal("request/malformed", phrase("send {example}, \"players\" or \"host\"",
                                                  example='{"replays": "anyone"}'))
        return web.json_response(p.ok(**_said(await self.service.set_replays(name, replays), request)))


def _say(text: str, request: web.Request) -> str:
    """A sentence of the answer in the language of the request's ``Accept-Language`` (docs/http.md)."""
    return render_text(text, accept_language(request.headers.get("Accept-Language")))


def _said(answer: JSON, request: web.Request) -> JSON:
    """``answer`` with its ``message`` said in the request's language."""
    return {**answer, "message": _say(answer["message"], request)} if "message" in answer else answer


def _all(answer: JSON, request: web.Request) -> JSON:
    """Every sentence of ``answer`` (a settle-up's lines) in the request's language."""
    return cast(JSON, render_all(answer, accept_language(request.headers.get("Accept-Language"))))
