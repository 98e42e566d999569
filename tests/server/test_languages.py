"""A refusal is said in the language the connection asked for; its code never changes (docs/i18n.md)."""

from __future__ import annotations

import pytest
import socketio

from .conftest import Server
from .helpers import Client


async def _client(server: Server, lang: str | None, token: str | None = None) -> Client:
    client = Client(server.url, token=token)
    if lang is not None:
        client.conn.lang = lang
    server.clients.append(client)
    return await client.connect()


async def _refusal(client: Client, event: str, payload: dict[str, object]) -> dict[str, str]:
    reply = await client.conn.raw_call(event, payload)
    assert isinstance(reply, dict)
    assert reply["ok"] is False
    error: dict[str, str] = reply["error"]
    return error


@pytest.mark.parametrize(("lang", "sentence"), [
    (None, "the buy-in is 20 to 1000 chips, got 5"),
    ("es-ES", "la compra de fichas es de 20 a 1000 fichas, no 5"),
    ("de", "das Buy-in beträgt 20 bis 1000 Chips, nicht 5"),
])
@pytest.mark.parametrize("table_overrides", [{"min_buy_in": 20, "max_buy_in": 1000}])
async def test_a_table_refusal_comes_in_the_language_of_the_connection(
        server: Server, lang: str | None, sentence: str) -> None:
    account = await server.account("ana")
    client = await _client(server, lang, account["token"])
    await client.join()
    error = await _refusal(client, "sit", {"table": "main", "buy_in": 5})
    assert error == {"code": "buy_in/out_of_range", "message": sentence}


async def test_join_with_a_language_changes_it_and_a_malformed_request_is_said_in_it(server: Server) -> None:
    client = await _client(server, None)
    english = await _refusal(client, "top_up", {"table": "main", "amount": 0})
    assert english == {"code": "request/malformed", "message": "top_up: the amount is at least 1 chip"}
    await client.conn.call("join", {"table": "main", "lang": "de-DE"})
    german = await _refusal(client, "top_up", {"table": "main", "amount": 0})
    assert german == {"code": "request/malformed", "message": "top_up: der Betrag: mindestens 1 Chip"}
    spectator = await _refusal(client, "sit", {"table": "main"})
    assert spectator["code"] == "auth/required"
    assert spectator["message"].startswith("melden Sie sich an")


async def test_a_move_without_a_hand_is_refused_in_spanish(server: Server) -> None:
    account = await server.account("eva")
    client = await _client(server, "es", account["token"])
    await client.join()
    await client.conn.call("sit", {"table": "main", "buy_in": 1000})
    error = await _refusal(client, "move", {"table": "main", "action": "fold"})
    assert error == {"code": "hand/none", "message": "no hay ninguna mano en curso"}


async def test_a_chat_refusal_is_said_in_german(server: Server) -> None:
    account = await server.account("uwe")
    client = await _client(server, "de", account["token"])
    await client.join()
    await client.conn.call("sit", {"table": "main", "buy_in": 1000})
    error = await _refusal(client, "chat", {"table": "main", "text": "x" * 201})
    assert error == {"code": "chat/too_long", "message": "eine Chatzeile hat höchstens 200 Zeichen; Ihre hat 201"}


async def test_a_codes_own_sentence_is_said_in_the_language_too(server: Server) -> None:
    from server.protocol import MAX_REQUEST_BYTES

    client = await _client(server, "de")
    error = await _refusal(client, "join", {"table": "main", "x": "y" * (MAX_REQUEST_BYTES + 1)})
    assert error == {"code": "request/too_large", "message": f"die Anfrage ist größer als {MAX_REQUEST_BYTES} Bytes"}


async def test_the_hosts_refusals_are_said_in_spanish(server: Server) -> None:
    """Host commands, table settings and drills refuse in the host connection's language (issue 28 item 5)."""
    host = Client(server.url, host_token=server.host_token, name="anfitrion")
    host.conn.lang = "es"
    server.clients.append(host)
    await host.connect()
    cases = [
        ({"action": "declare_dead", "table": "main"}, "request/malformed", "declare_dead necesita un asiento"),
        ({"action": "create_table", "table": "main"}, "table/exists", "ya existe una mesa llamada main"),
        ({"action": "remove_player", "table": "main", "seat": 2}, "seat/not_seated",
         "nadie se sienta en el asiento 2 de la mesa main"),
        ({"action": "change_settings", "table": "main", "settings": {"fee_mode": "everyone"}}, "settings/invalid",
         "fee_mode: debe ser uno de "),
        ({"action": "drill_end", "table": "main"}, "drill/off",
         "no hay ningún ejercicio en curso en la mesa main"),
    ]
    for payload, code, sentence in cases:
        error = await _refusal(host, "host", payload)
        assert error["code"] == code, (payload, error)
        assert error["message"].startswith(sentence), (payload, error)


async def test_a_connect_refusal_is_said_in_german(server: Server) -> None:
    client = Client(server.url, token="not-a-token")
    client.conn.lang = "de"
    reasons: list[object] = []

    async def refused_because(data: object) -> None:
        reasons.append(data)

    client.conn.sio.on("connect_error", refused_because)
    with pytest.raises(socketio.exceptions.ConnectionError):
        await client.connect()
    await client.close()
    german = "unbekanntes oder widerrufenes Sitzungs-Token"
    assert reasons == [{"message": f"auth/token_invalid: {german}",
                        "data": {"code": "auth/token_invalid", "message": german}}]
