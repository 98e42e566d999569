"""More of the HTTP API in the request's ``Accept-Language`` (issue 28 item 5; docs/http.md): a host command's
answer over HTTP (as the socket says it), grant-chips' unknown account, the trainees' refusals. The codes and the
data never change; English when the header names none of ours."""

from __future__ import annotations

from typing import Any

from .conftest import Web


async def _call(web: Web, method: str, path: str, lang: str | None, body: Any = None,
                token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Accept-Language": lang} if lang else {}
    headers["Authorization"] = f"Bearer {token or web.server.host_token}"
    async with web.http.request(method, f"{web.main}{path}", json=body, headers=headers) as response:
        return response.status, await response.json()


async def test_a_host_commands_answer_over_http_is_said_in_spanish(web: Web) -> None:
    status, opened = await _call(web, "POST", "/api/tables/main/session", "es", {"action": "open"})
    assert status == 200, opened
    status, closed = await _call(web, "POST", "/api/host", "es", {"action": "close_table", "table": "main"})
    assert status == 200, closed
    assert closed["closed"] == "now"
    lines = closed["settle_up"]["lines"]
    assert lines, closed
    status, again = await _call(web, "GET", "/api/tables/main/settle-up", "es")
    assert status == 200, again
    assert again["lines"] == lines  # the same sentences as the settle-up's own answer in Spanish
    status, english = await _call(web, "GET", "/api/tables/main/settle-up", None)
    assert english["lines"] != lines


async def test_grant_chips_to_no_account_is_refused_in_german(web: Web) -> None:
    status, got = await _call(web, "POST", "/api/host", "de", {"action": "grant_chips", "account": "zed",
                                                               "amount": 100})
    assert status != 200
    assert got["error"] == {"code": "account/unknown", "message": "kein Konto namens 'zed'"}
    status, got = await _call(web, "POST", "/api/host", None, {"action": "grant_chips", "account": "zed",
                                                               "amount": 100})
    assert got["error"]["message"] == "no account named 'zed'"


async def test_the_trainees_refusals_are_said_in_the_language_asked(web: Web) -> None:
    status, got = await _call(web, "GET", "/api/trainees/zed", "de")
    assert status != 200
    assert got["error"] == {"code": "account/unknown", "message": "für zed ist kein Übungsbericht aufbewahrt: "
                                                                  "der Verlauf eines Übenden beginnt mit seiner "
                                                                  "ersten Übung"}
    status, got = await _call(web, "GET", "/api/trainees/zed/certificates/x1", "es")
    assert got["error"]["code"] == "drill/no_certificate"
    assert got["error"]["message"] == "no hay ninguna sesión 'x1': las sesiones se numeran desde 1, como en el " \
        "historial del aprendiz"
    status, got = await _call(web, "GET", "/api/trainees", "es", token="not-a-token")
    assert got["error"]["code"].startswith("auth/")
