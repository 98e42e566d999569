"""The HTTP API's sentences in the language of the request's ``Accept-Language`` (issue 28 item 5; docs/http.md):
an invite's invitation and time left, a refusal's sentence, a session's and the replays setting's answers and
the settle-up's lines. The codes and the data never change; English when the header names none of ours."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from server.i18n import LANGUAGES, accept_language

from .conftest import Web, token_of


async def _call(web: Web, method: str, path: str, lang: str | None, body: Any = None,
                host: bool = False) -> tuple[int, dict[str, Any]]:
    headers = {"Accept-Language": lang} if lang else {}
    if host:
        headers["Authorization"] = f"Bearer {web.server.host_token}"
    async with web.http.request(method, f"{web.main}{path}", json=body, headers=headers) as response:
        return response.status, await response.json()


async def test_an_invite_is_described_in_german_spanish_or_english(web: Web) -> None:
    invite = await web.invite("spectator", expires_seconds=90)
    body = {"token": token_of(invite["url"])}
    said = {}
    for header in ("de-DE,de;q=0.9,en;q=0.8", "es-ES", "fr-FR", None):
        status, got = await _call(web, "POST", "/api/invites/describe", header, body)
        assert status == 200, got
        said[header] = (got["invitation"], got["role_words"], got["expires_in"], got["role"], got["game_name"])
    assert said["de-DE,de;q=0.9,en;q=0.8"] == ("Sie sind eingeladen, High Card Flush an Tisch main zuzusehen.",
                                               "zum Zusehen", "1 Minute", "spectator", "High Card Flush")
    assert said["es-ES"] == ("Está invitado a mirar High Card Flush en la mesa main.", "a mirar", "1 minuto",
                             "spectator", "High Card Flush")
    assert said["fr-FR"] == said[None] == ("You are invited to watch High Card Flush at table main.", "to watch",
                                           "1 minute", "spectator", "High Card Flush")


async def test_a_refusal_says_its_sentence_in_german_and_keeps_its_code(web: Web) -> None:
    body = {"table": "main", "role": "player", "expires_seconds": 10}
    status, got = await _call(web, "POST", "/api/invites", "de", body, host=True)
    assert status == 400
    assert got == {"ok": False, "error": {"code": "request/malformed",
                                          "message": "eine Einladung gilt 1 Minute bis 30 Tage, nicht 10 Sekunden"}}
    listed = (await web.host("GET", "/api/invites"))["invites"]
    assert listed == []  # the refused invite changed nothing
    status, got = await _call(web, "POST", "/api/invites/describe", "es", {"token": "x" * 40})
    assert got["error"]["message"] == "ese enlace de invitación no es válido: pida uno nuevo al anfitrión"


async def test_a_session_and_its_settle_up_are_said_in_spanish(web: Web) -> None:
    status, opened = await _call(web, "POST", "/api/tables/main/session", "es", {"action": "open"}, host=True)
    assert status == 200, opened
    assert opened["message"] == "La sesión 1 de main está abierta: la liquidación de cuentas cuenta desde ahora."
    status, closed = await _call(web, "POST", "/api/tables/main/session", "es", {"action": "close"}, host=True)
    assert status == 200, closed
    assert closed["message"] == "La sesión 1 de main está cerrada."
    assert closed["settle_up"]["lines"][0].startswith("Liquidación de cuentas en main en la sesión 1, de ")
    assert closed["settle_up"]["lines"][-1] == "Nadie le debe nada a nadie."
    status, settle = await _call(web, "GET", "/api/tables/main/settle-up?session=1", "de", host=True)
    assert status == 200, settle
    assert settle["lines"][0].startswith("Abrechnung an main in Sitzung 1, von ")
    assert settle["lines"][-1] == "Niemand schuldet jemandem etwas."
    status, replays = await _call(web, "GET", "/api/tables/main/replays", "de", host=True)
    assert (replays["replays"], replays["message"]) == (
        "anyone", "An main: jeder mit einem Link darf die Wiederholungen dieses Tisches öffnen.")
    status, english = await _call(web, "GET", "/api/tables/main/replays", None, host=True)
    assert english["message"] == "At main, anyone with a link may open this table's replays."


TAGS = st.sampled_from(["en", "en-GB", "es", "es-MX", "de", "de-AT", "fr", "fr-CH", "pt-BR", "*", "", "x;y"])


@given(st.lists(st.tuples(TAGS, st.sampled_from(["", ";q=1", ";q=0.5", ";q=0", ";q=zz"])), max_size=6))
def test_the_header_always_chooses_one_of_our_languages(parts: list[tuple[str, str]]) -> None:
    """Whatever the header, one of en/es/de; the first tag of the highest weight that we speak wins."""
    header = ", ".join(tag + weight for tag, weight in parts)
    chosen = accept_language(header)
    assert chosen in LANGUAGES
    spoken = [(tag, weight) for tag, weight in parts if tag.split("-")[0] in LANGUAGES
              and weight not in (";q=0", ";q=zz")]
    if not spoken:
        assert chosen == "en"
    else:
        best = max(0.5 if weight == ";q=0.5" else 1.0 for _tag, weight in spoken)
        first = next(tag for tag, weight in spoken if (0.5 if weight == ";q=0.5" else 1.0) == best)
        assert chosen == first.split("-")[0]
