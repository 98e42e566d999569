"""Trainees' drill histories and certificates over HTTP (issue 27, items 4 and 7; docs/protocol.md, "Trainees").

The host lists the trainees and reads one's history and certificates; a trainee reads their own (never
another's) and sends the report of a rehearsal or practice done on their own machine (``hcf drill``), at
most :data:`REPORTS_BURST` at once and then one every :data:`REPORTS_EVERY_SECONDS` seconds. A live drill
table keeps its reports itself, through the same store (server/storage/trainees.py).
"""

from __future__ import annotations

from typing import Final, Protocol

import structlog
from aiohttp import web

from server import protocol as p
from server.i18n import phrase
from server.identity import EVERY_TABLE, Identity
from server.rules.errors import Refusal
from server.rules.names import name_key
from server.rules.vocabulary import JSON
from server.transport.http import AccountService, HttpLimits, body_of, guarded, refuse_unless_host
from server.transport.limits import BucketTable
from server.transport.quotas import refuse_after

log = structlog.get_logger("hcf.trainees")

SENT_SOURCES = ("offline", "practice")
"""Where a report a client sends may come from (a live table's are kept by the table itself)."""
REPORT_BYTES: Final = 48 * 1024  # an exam's answer log (at most 150 answers) with its figures; the app takes 64 KB
REPORTS_BURST: Final = 10
REPORTS_EVERY_SECONDS: Final = 60
"""A trainee's reports sent (``POST /api/drill-reports``): 10 at once, then one a minute. A session takes
minutes, so a trainee never meets it; a flood of rows in the database does."""


class TraineesPort(Protocol):
    """What these routes need from storage (server/storage/trainees.py)."""

    async def keep_drill_report(self, trainee: str, report: object, *, source: str = "live",
                                mode: str = "training", partial: bool = False) -> None:
        """Keep one report in the trainee's history."""
        ...

    async def trainees(self) -> list[JSON]:
        """Every trainee's line."""
        ...

    async def trainee_history(self, trainee: str) -> JSON:
        """One trainee's history; ``account/unknown`` without one."""
        ...

    async def drill_certificate(self, trainee: str, session: int) -> JSON:
        """The certificate of one session, its digest checked; ``drill/no_certificate`` for no exam passed."""
        ...


class TraineeService(AccountService, TraineesPort, Protocol):
    """Accounts (to know who sends a report) and the trainees' reports."""


def trainee_routes(service: TraineeService, limits: HttpLimits) -> list[web.RouteDef]:
    """``GET /api/trainees`` (the host), ``GET /api/trainees/{name}`` and its certificates (the host, or that
    trainee), ``GET /api/drill-history`` and ``POST /api/drill-reports`` (a trainee, their own)."""
    api = _Trainees(service, limits)
    return [
        web.get("/api/trainees", guarded(api.list)),
        web.get("/api/trainees/{name}", guarded(api.one)),
        web.get("/api/trainees/{name}/certificates/{session}", guarded(api.certificate)),
        web.get("/api/drill-history", guarded(api.mine)),
        web.post("/api/drill-reports", guarded(api.send)),
    ]


def _token(request: web.Request) -> str:
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer ") or not header[7:].strip():
        raise Refusal("auth/required", phrase("send 'Authorization: Bearer <token>' with your session token"))
    return header[7:].strip()


def _floor_only(scope: str) -> str:
    return phrase("that floor link runs the table {table} only; the trainees' histories take the host token",
                  table=scope)


class _Trainees:
    def __init__(self, service: TraineeService, limits: HttpLimits) -> None:
        self.service, self.limits = service, limits
        self.reports = BucketTable(1 / REPORTS_EVERY_SECONDS, REPORTS_BURST, 10_000, limits.clock)

    async def _host(self, request: web.Request) -> None:
        scope = await refuse_unless_host(request, self.service, self.limits)
        if scope != EVERY_TABLE:
            raise Refusal("auth/not_host", _floor_only(scope))

    async def _trainee(self, request: web.Request) -> Identity:
        identity = await self.service.identify(_token(request))
        if identity.account is None or not identity.name:
            raise Refusal("auth/required", phrase("log in with your account to keep and read your drill history"))
        return identity

    async def _host_or(self, request: web.Request, name: str) -> None:
        """The host token, or the session of the trainee ``name`` themself; anyone else is refused."""
        self.limits.check_address(request)
        token = _token(request)
        scope = await self.service.host_scope(token)
        if scope == EVERY_TABLE:
            return
        if scope is not None:
            raise Refusal("auth/not_host", _floor_only(scope))
        try:
            identity = await self.service.identify(token)
        except Refusal as exc:
            if exc.code != "auth/token_invalid":
                raise  # (an expired session says so: log in again)
            raise Refusal("auth/not_host", phrase("that is neither the host token nor a session of {name}: a "
                                                  "trainee reads their own drill history only, and the host every "
                                                  "trainee's", name=name)) from None
        if identity.name is None or name_key(identity.name) != name_key(name):
            raise Refusal("auth/not_host", phrase("you are logged in as {name}: a trainee reads their own drill "
                                                  "history only, and the host every trainee's",
                                                  name=identity.name or phrase("a guest")))

    async def list(self, request: web.Request) -> web.Response:
        await self._host(request)
        return web.json_response(p.ok(trainees=await self.service.trainees()))

    async def one(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        await self._host_or(request, name)
        return web.json_response(p.ok(**await self.service.trainee_history(name)))

    async def certificate(self, request: web.Request) -> web.Response:
        name, text = request.match_info["name"], request.match_info["session"]
        await self._host_or(request, name)
        if not text.isascii() or not text.isdigit() or len(text) > 9 or int(text) < 1:
            raise Refusal("drill/no_certificate", phrase("there is no session {session}: sessions are numbered from "
                                                         "1, as in the trainee's history", session=repr(text[:24])))
        return web.json_response(p.ok(**await self.service.drill_certificate(name, int(text))))

    async def mine(self, request: web.Request) -> web.Response:
        identity = await self._trainee(request)
        assert identity.name is not None  # _trainee refuses an identity without a name
        return web.json_response(p.ok(**await self.service.trainee_history(identity.name)))

    async def send(self, request: web.Request) -> web.Response:
        identity = await self._trainee(request)
        assert identity.name is not None
        key = name_key(identity.name)
        refuse_after(self.reports.take(key), f"too many drill reports sent by {identity.name} (the server keeps "
                                             f"{REPORTS_BURST} at once, then one a minute)")
        try:
            await self._keep(request, identity)
        except Refusal:
            self.reports.refund(key)  # a report refused keeps nothing, so it uses nothing up
            raise
        return web.json_response(p.ok())

    async def _keep(self, request: web.Request, identity: Identity) -> None:
        assert identity.name is not None
        body: JSON = await body_of(request, self.limits, REPORT_BYTES)
        source, mode, partial = body.get("source"), body.get("mode", "training"), body.get("partial", False)
        if source not in SENT_SOURCES or not isinstance(mode, str) or not isinstance(partial, bool):
            raise Refusal("request/malformed", "send the report with its source (offline or practice), its "
                                               "mode and whether it was stopped before its end (partial)")
        await self.service.keep_drill_report(identity.name, body.get("report"), source=source, mode=mode,
                                             partial=partial)
        log.info("drill_report_kept", account=identity.account, source=source, partial=partial)
