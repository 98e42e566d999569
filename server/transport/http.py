"""HTTP routes: health, the lobby, finished hands, accounts and host commands.

Bodies and answers are JSON; failures answer ``{"ok": false, "error": {...}}``
with the same codes as the socket protocol and a fitting HTTP status.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol, cast

import structlog
from aiohttp import web

from server import protocol as p
from server.clock import SYSTEM_CLOCK, Clock
from server.i18n import accept_language, phrase, render_all, render_text
from server.identity import EVERY_TABLE, Identity
from server.rules.errors import Refusal
from server.rules.game import AccountId
from server.rules.names import name_key
from server.rules.vocabulary import JSON, RefusalCode, Reply
from server.table.registry import Tables
from server.transport.gateway import AccountsPort, host_command, is_text
from server.transport.limits import BucketTable, Network, client_address
from server.transport.quotas import NewAccounts, RateLimitedError, refuse_after
from server.transport.replay_access import ReplayAccess, bearer_of, check_replays

if TYPE_CHECKING:
    from server.analysis.analyze import Settings

log = structlog.get_logger("hcf.http")

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

STATUS: Final[Mapping[RefusalCode, int]] = {
    "auth/bad_credentials": 401, "auth/token_invalid": 401, "auth/token_expired": 401,
    "auth/required": 401, "auth/not_host": 403, "hand/not_allowed": 403, "table/unknown": 404, "hand/unknown": 404,
    "auth/name_taken": 409, "table/exists": 409, "rate/limited": 429, "request/internal": 500,
    "request/too_large": 413, "account/unknown": 404, "invite/unknown": 404, "invite/expired": 410,
    "invite/revoked": 410, "invite/used_up": 410, "drill/no_certificate": 404,
}
JSON_TYPE = "application/json"
HAND_ID_MAX = 2**63 - 1  # the database's integer: a larger id names no hand


class SessionCloser(Protocol):
    """Closes the live connections of revoked session tokens (the gateway)."""

    async def close_token(self, token: str) -> int:
        """Close every connection opened with ``token``; how many."""
        ...

    async def close_account(self, account: AccountId, *, keep_token: str) -> int:
        """Close every connection of ``account`` opened with another token than ``keep_token``."""
        ...


@dataclass(slots=True, kw_only=True)
class HttpLimits:
    """Password guessing limits per client address and per account name; new accounts (server/transport/
    quotas.py) and hand history requests per address. Bounded, on one clock."""

    per_address: BucketTable
    per_account: BucketTable
    new_accounts: NewAccounts
    history: BucketTable
    trusted: tuple[Network, ...] = ()
    body_timeout: float = 10.0
    clock: Clock = SYSTEM_CLOCK

    @classmethod
    def build(cls, *, address_rate: float = 2.0, address_burst: int = 10, account_rate: float = 0.2,
              account_burst: int = 10, keys: int = 10_000, trusted: tuple[Network, ...] = (),
              new_accounts: NewAccounts | None = None, history_rate: float = 10.0, history_burst: int = 60,
              body_timeout: float = 10.0, clock: Clock = SYSTEM_CLOCK) -> HttpLimits:
        """The limits with their defaults (ServerConfig's), each overridable."""
        return cls(per_address=BucketTable(address_rate, address_burst, keys, clock),
                   per_account=BucketTable(account_rate, account_burst, keys, clock),
                   new_accounts=new_accounts or NewAccounts.build(keys=keys, clock=clock),
                   history=BucketTable(history_rate, history_burst, keys, clock),
                   trusted=trusted, body_timeout=body_timeout, clock=clock)

    def address_of(self, request: web.Request) -> str:
        """The client's address (X-Forwarded-For only from a trusted proxy)."""
        return client_address(request.remote, request.headers.get("X-Forwarded-For"), self.trusted)

    def check_address(self, request: web.Request) -> None:
        """Spend one attempt of the request's address, or refuse with the wait."""
        refuse_after(self.per_address.take(self.address_of(request)))

    def check_account(self, key: str) -> None:
        """Spend one attempt at an account (given back if the password was right), or refuse. Every spelling
        of one account's name (letter case, full-width, look-alike letters) shares its bucket."""
        refuse_after(self.per_account.take(name_key(key)))

    def check_history(self, request: web.Request) -> None:
        """Spend one hand history request of the request's address, or refuse with the wait."""
        refuse_after(self.history.take(self.address_of(request)), "too many hand history requests from your "
                     "address")

    async def new_account(self, request: web.Request, make: Awaitable[JSON]) -> JSON:
        """Run ``make`` under the new-account limits; its tokens come back if it made no account."""
        try:
            key = self.new_accounts.take(self.address_of(request))
        except RateLimitedError:
            if asyncio.iscoroutine(make):
                make.close()
            raise
        try:
            made = await make
        except BaseException:
            self.new_accounts.give_back(key)
            raise
        if made.get("account") is None and made.get("account_id") is None:  # a spectator's link: nobody made
            self.new_accounts.give_back(key)
        return made


class AccountService(AccountsPort, Protocol):
    """Everything the HTTP face needs from accounts and history."""

    async def register(self, name: str, password: str) -> JSON:
        """Create an account with its starting chips; returns a session token too."""
        ...

    async def login(self, name: str, password: str) -> JSON:
        """A new session token."""
        ...

    async def logout(self, token: str) -> None:
        """Revoke a session token."""
        ...

    async def change_password(self, token: str, old: str | None, new: str) -> None:
        """Change the password of the token's account (``old=None``: a guest's first password)."""
        ...

    async def account_info(self, identity: Identity, limit: int) -> JSON:
        """Balance and recent chip movements."""
        ...

    async def hand_summary(self, hand_id: int) -> JSON:
        """A finished hand as everyone may see it."""
        ...

    async def recent_hands(self, table: str, limit: int) -> list[JSON]:
        """The table's last finished hands, newest first."""
        ...

    async def hand_by_number(self, table: str, number: int) -> JSON:
        """A table's finished hand by its own number (1, 2, 3 at each table)."""
        ...

    async def settle_up(self, table: str, day: str | None = None, session: int | None = None) -> JSON:
        """Each person's net at the table for a session (the host's, its night, or one UTC day), who pays whom."""
        ...


class HistoryService(AccountService, ReplayAccess, Protocol):
    """Accounts and history, and who the host lets open a table's replays."""


def routes(tables: Tables, service: HistoryService, *, limits: HttpLimits | None = None,
           sessions: SessionCloser | None = None) -> list[web.RouteDef]:
    """Every HTTP route."""
    api = _Api(tables, service, limits or HttpLimits.build(), sessions)
    return [
        web.get("/healthz", guarded(api.health)),
        web.get("/api/tables", guarded(api.lobby)),
        web.get("/api/tables/{name}/hands", guarded(api.table_hands)),
        web.get("/api/tables/{name}/hands/{number}", guarded(api.table_hand)),
        web.get("/api/tables/{name}/odds", guarded(api.table_odds)),
        web.get("/api/tables/{name}/settle-up", guarded(api.settle_up)),
        web.get("/api/hands/{hand_id}", guarded(api.hand)),
        web.post("/api/register", guarded(api.register)),
        web.post("/api/login", guarded(api.login)),
        web.post("/api/logout", guarded(api.logout)),
        web.post("/api/password", guarded(api.password)),
        web.get("/api/account", guarded(api.account)),
        web.post("/api/host", guarded(api.host)),
    ]


def _limit(request: web.Request) -> int:
    try:
        return min(max(int(request.query.get("limit", "20")), 1), 200)
    except ValueError:
        raise Refusal("request/malformed", phrase("limit is a whole number from 1 to 200")) from None


def _answer(data: Reply, status: int = 200) -> web.Response:
    return web.json_response(data, status=status)


def _refusal(code: RefusalCode, message: str | None = None, retry_after: int | None = None, *,
             lang: str = "en") -> web.Response:
    answer = p.error(code, render_text(message or p.ERROR_CODES[code], lang))
    headers = {}
    if retry_after is not None:
        answer["error"]["retry_after"] = retry_after
        headers["Retry-After"] = str(retry_after)
    return web.json_response(answer, status=STATUS.get(code, 400), headers=headers)


def guarded(fn: Handler) -> Handler:
    """Every route answers JSON, refusals included, marked so that no browser reads it as anything else."""
    async def wrapper(request: web.Request) -> web.StreamResponse:
        response = await _answered(fn, request)
        if not response.prepared:  # (a streamed answer sent its headers already)
            response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response
    return wrapper


async def _answered(fn: Handler, request: web.Request) -> web.StreamResponse:
    """What ``fn`` answers, or its refusal as JSON."""
    try:
        return await fn(request)
    except RateLimitedError as exc:
        return _refusal(exc.code, exc.message, exc.seconds, lang=_lang(request))
    except Refusal as exc:
        return _refusal(exc.code, exc.message, lang=_lang(request))
    except RecursionError:  # a structure nested past what any request of ours takes
        return _refusal("request/malformed", phrase("the request is nested too deeply"), lang=_lang(request))
    except Exception:
        log.exception("http_failed", path=request.path)
        return _refusal("request/internal", lang=_lang(request))


def _lang(request: web.Request) -> str:
    """The language of the request's ``Accept-Language``: its refusals and sentences are said in it (docs/http.md)."""
    return accept_language(request.headers.get("Accept-Language"))


def _too_large(most: int) -> Refusal:
    return Refusal("request/too_large", phrase("the request body is larger than the {most} bytes this request "
                                                "takes", most=f"{most:,}"))


async def _body(request: web.Request, timeout: float, most: int = p.MAX_REQUEST_BYTES) -> JSON:
    if request.content_length is not None and request.content_length > most:
        raise _too_large(most)
    try:
        async with asyncio.timeout(timeout):  # a body sent a byte at a time would hold the connection
            raw = await request.read()  # a chunked body has no Content-Length: measure what came
    except web.HTTPRequestEntityTooLarge:
        raise _too_large(most) from None
    except TimeoutError:
        raise Refusal("request/malformed", phrase("the request body did not arrive within {seconds} s",
                                                  seconds=f"{timeout:g}")) from None
    if len(raw) > most:
        raise _too_large(most)
    if raw and request.content_type != JSON_TYPE:
        # A page on another site may post text/plain, a form or an untyped body from a visitor's browser
        # without asking first; a JSON body makes the browser ask (CORS), and we never say yes.
        raise Refusal("request/malformed", phrase("send the body as JSON, with the header {header}",
                                                  header="'Content-Type: application/json'"))
    try:
        data = json.loads(raw or b"{}")
    except RecursionError:
        raise Refusal("request/malformed", phrase("the body is nested too deeply")) from None
    except ValueError:  # not JSON, or not UTF-8
        raise Refusal("request/malformed", phrase("the body must be JSON")) from None
    if not isinstance(data, dict):
        raise Refusal("request/malformed", phrase("the body must be a JSON object"))
    return data


def hand_id_of(text: str) -> int:
    """A hand id from a URL: a whole number the database can hold, else ``hand/unknown``."""
    if not text.isascii() or not text.isdigit() or len(text) > 19 or int(text) > HAND_ID_MAX:
        raise Refusal("hand/unknown", phrase("there is no hand {hand}: hand ids are whole numbers",
                                                  hand=repr(text[:24])))
    return int(text)


async def body_of(request: web.Request, limits: HttpLimits, most: int = p.MAX_REQUEST_BYTES) -> JSON:
    """The request's JSON object, within the time limit and ``most`` bytes."""
    return await _body(request, limits.body_timeout, most)


async def refuse_unless_host(request: web.Request, service: AccountService, limits: HttpLimits) -> str:
    """Spend an attempt of the address, then refuse unless the bearer is the host token (or a floor token);
    the token's scope (``EVERY_TABLE``, or a floor link's table)."""
    limits.check_address(request)
    # (per address only: a 256-bit token cannot be guessed, and a shared bucket would let
    # anyone lock the real host out)
    scope = await service.host_scope(_bearer(request))
    if scope is None:
        raise Refusal("auth/not_host", phrase("that is not the host token"))
    return scope


def _text(data: JSON, key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value or not is_text(value):
        raise Refusal("request/malformed", phrase("{key} is required (text)", key=key))
    return value


def _bearer(request: web.Request) -> str:
    header = request.headers.get("Authorization", "")
    if not header.startswith("Bearer ") or not header[7:].strip():
        raise Refusal("auth/required", phrase("send {header}", header="'Authorization: Bearer <token>'"))
    return header[7:].strip()


class _Api:
    def __init__(self, tables: Tables, service: HistoryService, limits: HttpLimits,
                 sessions: SessionCloser | None) -> None:
        self.tables, self.service, self.limits, self.sessions = tables, service, limits, sessions

    async def health(self, _request: web.Request) -> web.Response:
        return _answer(p.ok(tables=len(self.tables.runners)))

    async def lobby(self, _request: web.Request) -> web.Response:
        return _answer(p.ok(tables=self.tables.lobby()))

    async def table_hands(self, request: web.Request) -> web.Response:
        self.limits.check_history(request)
        name = request.match_info["name"]
        await check_replays(self.service, name, bearer_of(request))
        return _answer(p.ok(hands=await self.service.recent_hands(name, _limit(request))))

    async def table_hand(self, request: web.Request) -> web.Response:
        self.limits.check_history(request)
        name, text = request.match_info["name"], request.match_info["number"]
        if not text.isdigit() or len(text) > 9:
            raise Refusal("hand/unknown", phrase("a hand number is a whole number from 1"))
        await check_replays(self.service, name, bearer_of(request))
        return _answer(p.ok(**await self.service.hand_by_number(name, int(text))))

    async def table_odds(self, request: web.Request) -> web.Response:
        """The odds of the table's settings (docs/odds.md): from the cache, or worked out off the loop."""
        from server.analysis.service import ODDS, OddsBusyError, at_meter, summary

        runner = self.tables.get(request.match_info["name"])
        # A change made during a hand applies after it: the host asking after a change sees its odds.
        pending = runner.pending_settings is not None
        # The analysis names the three games it analyses; any other game's settings have no report.
        settings = cast("Settings", runner.pending_settings if pending else runner.settings)
        try:
            report = at_meter(await ODDS.report(settings), settings, runner.carry.get("meter"))
        except OddsBusyError as busy:
            raise Refusal("rate/limited", str(busy)) from None
        return _answer(p.ok(table=runner.name, pending=pending, odds=summary(report), report=report))

    async def settle_up(self, request: web.Request) -> web.Response:
        """The host's (or the table's floor's) settle-up: docs/web.md, "Settle-up"."""
        name = request.match_info["name"]
        scope = await refuse_unless_host(request, self.service, self.limits)
        if scope not in (EVERY_TABLE, name) and scope.lower() != name.lower():
            raise Refusal("auth/not_host", phrase("that floor link runs the table {scope}, not {name}",
                                                    scope=scope, name=name))
        session = request.query.get("session") or None
        if session is not None and not (session.isascii() and session.isdigit() and len(session) < 7):
            raise Refusal("request/malformed", phrase("a session is its number at the table: 1, 2, 3 ..."))
        day = request.query.get("day") or None
        settle = await self.service.settle_up(name, day, int(session) if session else None)
        return _answer(p.ok(**cast(JSON, render_all(settle, _lang(request)))))

    async def hand(self, request: web.Request) -> web.Response:
        self.limits.check_history(request)
        hand_id = hand_id_of(request.match_info["hand_id"])
        hand = await self.service.hand_summary(hand_id)
        await check_replays(self.service, str(hand.get("table", "")), bearer_of(request))
        return _answer(p.ok(**hand))

    async def register(self, request: web.Request) -> web.Response:
        self.limits.check_address(request)
        data = await _body(request, self.limits.body_timeout)
        made = self.service.register(_text(data, "name"), _text(data, "password"))
        return _answer(p.ok(**await self.limits.new_account(request, made)))

    async def login(self, request: web.Request) -> web.Response:
        self.limits.check_address(request)
        data = await _body(request, self.limits.body_timeout)
        name, password = _text(data, "name"), _text(data, "password")
        return _answer(p.ok(**await self._checked(name, self.service.login(name, password))))

    async def _checked(self, account: str, attempt: Awaitable[JSON]) -> JSON:
        """Run a password check under the account's limit: only wrong passwords use it up."""
        try:
            self.limits.check_account(account)
        except RateLimitedError:
            if asyncio.iscoroutine(attempt):
                attempt.close()
            raise
        try:
            result = await attempt
        except Refusal as exc:
            if exc.code != "auth/bad_credentials":
                self.limits.per_account.refund(name_key(account))
            raise
        self.limits.per_account.refund(name_key(account))
        return result

    async def logout(self, request: web.Request) -> web.Response:
        token = _bearer(request)
        await self.service.logout(token)
        if self.sessions is not None:
            await self.sessions.close_token(token)
        return _answer(p.ok())

    async def password(self, request: web.Request) -> web.Response:
        self.limits.check_address(request)
        token = _bearer(request)
        data = await _body(request, self.limits.body_timeout)
        # "new" is the browser client's name for it; a guest (no password yet) sends no old one
        new = _text(data, "new_password" if "new_password" in data else "new")
        old = _text(data, "old_password") if data.get("old_password") not in (None, "") else None
        identity = await self.service.identify(token)

        async def change() -> JSON:
            await self.service.change_password(token, old, new)
            return {}

        if old is None:
            await change()  # nothing to guess: an account with a password refuses a change without one
        else:
            await self._checked(identity.name or "", change())
        if self.sessions is not None and identity.account is not None:
            await self.sessions.close_account(identity.account, keep_token=token)
        return _answer(p.ok())

    async def account(self, request: web.Request) -> web.Response:
        identity = await self.service.identify(_bearer(request))
        return _answer(p.ok(**await self.service.account_info(identity, _limit(request))))

    async def host(self, request: web.Request) -> web.Response:
        scope = await refuse_unless_host(request, self.service, self.limits)
        # refusals in our words, as on the socket
        action = p.parse_request("host", await _body(request, self.limits.body_timeout))
        assert isinstance(action, p.HostAction)
        reply = await host_command(self.tables, self.service, action, None, scope)
        if action.action in ("create_table", "change_settings") and action.table in self.tables.runners:
            from server.analysis.service import ODDS

            runner = self.tables.runners[action.table]
            # the host asks for the odds next; a table's latest settings only, a bounded share per token
            ODDS.prefetch(cast("Settings", runner.pending_settings or runner.settings), table=runner.name, by=scope)
        if action.action == "close_table" and reply.get("closed") == "now" and action.table:
            # closing the table closed its session: answer the final settle-up, as closing a session does
            reply["settle_up"] = await self.service.settle_up(action.table)
        # each sentence of the answer in the request's language, as the socket says it in the connection's
        return _answer(p.ok(**cast(JSON, render_all(reply, _lang(request)))))
