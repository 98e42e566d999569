"""The server's HTTP API for the short commands, on the standard library alone.

``hcf host``, ``hcf history``, ``hcf account`` and the login of ``hcf play``
need one or two JSON requests each. aiohttp (and what it pulls in) takes longer
to import than those requests take to answer, and a player typing ``hcf host
...`` against a 15 s bank clock waits for every import; so these requests go
through :mod:`urllib` in a worker thread instead. The live table connection
(:mod:`client_cli.connection`) still uses Socket.IO on aiohttp.
"""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.error
import urllib.request
from typing import Any

from server.i18n import _, chosen_language

CALL_TIMEOUT = 10.0


class ServerRefused(Exception):  # noqa: N818 - reads as what happened
    """The server answered ``ok: false``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)  # a person reads the sentence; the code is for programs
        self.code = code
        self.message = message


class UnreachableError(OSError):
    """No answer from the server; the message says why in a person's words."""


def request_json(method: str, url: str, body: dict[str, Any] | None = None,
                 token: str | None = None, timeout: float = CALL_TIMEOUT) -> dict[str, Any]:
    """One JSON request, blocking; raises ServerRefused on ``ok: false``, UnreachableError without an answer."""
    headers = {"Accept": "application/json", "Accept-Language": chosen_language()}  # its answers in our language
    data = None
    if body is not None:
        data = json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
    except urllib.error.HTTPError as exc:  # a refusal still carries its JSON body
        raw = exc.read()
    except urllib.error.URLError as exc:
        raise UnreachableError(_why(exc.reason)) from None
    except TimeoutError:
        raise UnreachableError(_("no answer within {seconds} s", seconds=f"{timeout:g}")) from None
    try:
        answer: Any = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise ServerRefused("request/internal", _("the server's answer is not one this client can read")) from None
    if not isinstance(answer, dict):
        raise ServerRefused("request/internal", _("the server's answer is not one this client can read"))
    if answer.get("ok") is False:
        err = answer.get("error") or {}
        raise ServerRefused(str(err.get("code")), str(err.get("message")))
    return answer


async def http_json(method: str, url: str, body: dict[str, Any] | None = None,
                    token: str | None = None) -> dict[str, Any]:
    """:func:`request_json` in a worker thread, for the async callers."""
    return await asyncio.to_thread(request_json, method, url, body, token)


def unreachable_words(exc: BaseException) -> str:
    """Why no answer came, in a person's words: never the HTTP library's own text ("ssl:default [...]").

    >>> unreachable_words(ConnectionRefusedError(111, "Connection refused"))
    'nothing answers at that address (is the server running?)'
    """
    if isinstance(exc, UnreachableError):
        return str(exc)
    underlying = getattr(exc, "os_error", None)  # aiohttp's connector errors wrap the socket's own
    return _why(underlying if isinstance(underlying, OSError) else exc)


def _why(reason: object) -> str:
    if isinstance(reason, ConnectionRefusedError):
        return _("nothing answers at that address (is the server running?)")
    if isinstance(reason, socket.gaierror):
        return _("no machine has that name (check the address)")
    if isinstance(reason, TimeoutError):
        return _("no answer in time")
    if isinstance(reason, OSError) and reason.strerror:
        return str(reason.strerror)
    return str(reason)
