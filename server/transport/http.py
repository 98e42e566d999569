"""HTTP routes: health, the lobby, finished hands, accounts and host commands.

Bodies and answers are JSON; failures answer ``{"ok": false, "error": {...}}``
with the same codes as the socket protocol and a fitting HTTP status.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import structlog
from aiohttp import web
from pydantic import ValidationError

from server import protocol as p
from server.table.commands import TableError
from server.table.registry import Tables
from server.transport.gateway import AccountsPort, Identity, host_command, is_text

log = structlog.get_logger("hcf.http")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

STATUS = {
    "auth/bad_credentials": 401, "auth/token_invalid": 401, "auth/token_expired": 401,
    "auth/required": 401, "auth/not_host": 403, "table/unknown": 404, "hand/unknown": 404,
    "auth/name_taken": 409, "table/exists": 409, "rate/limited": 429, "request/internal": 500,
    "request/too_large": 413, "account/unknown": 404,
}
AUTH_RATE_PER_SECOND = 2.0  # per client address, on the routes that check passwords or create accounts
AUTH_BURST = 10


class AccountService(AccountsPort, Protocol):
    """Everything the HTTP face needs from accounts and history."""

    async def register(self, name: str, password: str) -> dict[str, Any]:
        """Create an account with its starting chips; returns a session token too."""
        ...

    async def login(self, name: str, password: str) -> dict[str, Any]:
        """A new session token."""
        ...

    async def logout(self, token: str) -> None:
        """Revoke a session token."""
        ...

    async def change_password(self, token: str, old: str, new: str) -> None:
        """Change the password of the token's account."""
        ...

    async def account_info(self, identity: Identity, limit: int) -> dict[str, Any]:
        """Balance and recent chip movements."""
        ...

    async def hand_summary(self, hand_id: int) -> dict[str, Any]:
        """A finished hand as everyone may see it."""
        ...

    async def recent_hands(self, table: str, limit: int) -> list[dict[str, Any]]:
        """The table's last finished hands, newest first."""
        ...


def routes(tables: Tables, service: AccountService) -> list[web.RouteDef]:
    """Every HTTP route."""
    api = _Api(tables, service)
    limited = _PerAddressLimit(AUTH_RATE_PER_SECOND, AUTH_BURST)
    return [
        web.get("/healthz", guarded(api.health)),
        web.get("/api/tables", guarded(api.lobby)),
        web.get("/api/tables/{name}/hands", guarded(api.table_hands)),
        web.get("/api/tables/{name}/odds", guarded(api.table_odds)),
        web.get("/api/hands/{hand_id}", guarded(api.hand)),
        web.post("/api/register", guarded(limited(api.register))),
        web.post("/api/login", guarded(limited(api.login))),
        web.post("/api/logout", guarded(api.logout)),
        web.post("/api/password", guarded(limited(api.password))),
        web.get("/api/account", guarded(api.account)),
        web.post("/api/host", guarded(limited(api.host))),
    ]


class _PerAddressLimit:
    """A token bucket per client address, so passwords cannot be guessed at speed."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.buckets: dict[str, tuple[float, float]] = {}

    def __call__(self, fn: Handler) -> Handler:
        async def wrapper(request: web.Request) -> web.StreamResponse:
            if not self.take(request.remote or "?"):
                raise TableError("rate/limited", "too many attempts: wait a moment")
            return await fn(request)
        return wrapper

    def take(self, address: str) -> bool:
        now = time.monotonic()
        tokens, at = self.buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if len(self.buckets) > 10_000:
            self.buckets.clear()  # bounded memory; a reset only forgives
        if tokens < 1:
            self.buckets[address] = (tokens, now)
            return False
        self.buckets[address] = (tokens - 1, now)
        return True


def _limit(request: web.Request) -> int:
    try:
        return min(max(int(request.query.get("limit", "20")), 1), 200)
    except ValueError:
        raise TableError("request/malformed", "limit is a whole number from 1 to 200") from None


def _answer(data: dict[str, Any], status: int = 200) -> web.Response:
    return web.json_response(data, status=status)


def _refusal(code: str, message: str | None = None) -> web.Response:
    return _answer(p.error(code, message), STATUS.get(code, 400))


def guarded(fn: Handler) -> Handler:
    """Every route answers JSON, refusals included."""
    async def wrapper(request: web.Request) -> web.StreamResponse:
        try:
            return await fn(request)
        except TableError as exc:
            return _refusal(exc.code, exc.message)
        except p.ProtocolError as exc:
            return _refusal(exc.code, exc.message)
        except Exception:
            log.exception("http_failed", path=request.path)
            return _refusal("request/internal")
    return wrapper


async def _body(request: web.Request) -> dict[str, Any]:
    if request.content_length is not None and request.content_length > p.MAX_REQUEST_BYTES:
        raise TableError("request/too_large", "the request body is too large")
    try:
        raw = await request.read()  # a chunked body has no Content-Length: measure what came
    except web.HTTPRequestEntityTooLarge:
        raise TableError("request/too_large", "the request body is too large") from None
    if len(raw) > p.MAX_REQUEST_BYTES:
        raise TableError("request/too_large", "the request body is too large")
    try:
        data = json.loads(raw or b"{}")
    except ValueError:  # not JSON, or not UTF-8
        raise TableError("request/malformed", "the body must be JSON") from None
    if not isinstance(data, dict):
        raise TableError("request/malformed", "the body must be a JSON object")
    return data


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or not is_text(value):
        raise TableError("request/malformed", f"{key} is required (text)")
    return value


def _bearer(request: web.Request) -> str:
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer ") or not header[7:].strip():
        raise TableError("auth/required", "send 'Authorization: Bearer <token>'")
    return header[7:].strip()


class _Api:
    def __init__(self, tables: Tables, service: AccountService) -> None:
        self.tables, self.service = tables, service

    async def health(self, _request: web.Request) -> web.Response:
        return _answer(p.ok(tables=len(self.tables.runners)))

    async def lobby(self, _request: web.Request) -> web.Response:
        return _answer(p.ok(tables=self.tables.lobby()))

    async def table_hands(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        return _answer(p.ok(hands=await self.service.recent_hands(name, _limit(request))))

    async def table_odds(self, request: web.Request) -> web.Response:
        """The odds of the table's settings (docs/odds.md): from the cache, or worked out off the loop."""
        from server.analysis.service import ODDS, at_meter, summary

        runner = self.tables.get(request.match_info["name"])
        # A change made during a hand applies after it: the host asking after a change sees its odds.
        pending = runner.pending_settings is not None
        settings = runner.pending_settings if pending else runner.settings
        report = at_meter(await ODDS.report(settings), settings, runner.carry.get("meter"))
        return _answer(p.ok(table=runner.name, pending=pending, odds=summary(report), report=report))

    async def hand(self, request: web.Request) -> web.Response:
        try:
            hand_id = int(request.match_info["hand_id"])
        except ValueError:
            raise TableError("hand/unknown", "hand ids are numbers") from None
        return _answer(p.ok(**await self.service.hand_summary(hand_id)))

    async def register(self, request: web.Request) -> web.Response:
        data = await _body(request)
        return _answer(p.ok(**await self.service.register(_text(data, "name"), _text(data, "password"))))

    async def login(self, request: web.Request) -> web.Response:
        data = await _body(request)
        return _answer(p.ok(**await self.service.login(_text(data, "name"), _text(data, "password"))))

    async def logout(self, request: web.Request) -> web.Response:
        await self.service.logout(_bearer(request))
        return _answer(p.ok())

    async def password(self, request: web.Request) -> web.Response:
        data = await _body(request)
        await self.service.change_password(_bearer(request), _text(data, "old_password"),
                                           _text(data, "new_password"))
        return _answer(p.ok())

    async def account(self, request: web.Request) -> web.Response:
        identity = await self.service.identify(_bearer(request))
        return _answer(p.ok(**await self.service.account_info(identity, _limit(request))))

    async def host(self, request: web.Request) -> web.Response:
        token = _bearer(request)
        if not await self.service.is_host_token(token):
            raise TableError("auth/not_host", "that is not the host token")
        try:
            action = p.HostAction.model_validate(await _body(request))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(x) for x in first["loc"]) or "body"
            raise TableError("request/malformed", f"{where}: {first['msg']}") from None
        reply = await host_command(self.tables, self.service, action, None)
        if action.action in ("create_table", "change_settings") and action.table in self.tables.runners:
            from server.analysis.service import ODDS

            runner = self.tables.runners[action.table]
            ODDS.prefetch(runner.pending_settings or runner.settings)  # the host asks for the odds next
        return _answer(p.ok(**reply))
