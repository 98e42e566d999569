"""The shutdown notice is a sentence every client says in its own language (issue 28 item 5; docs/i18n.md): it
keeps its English text and carries its message id in ``say``, which the terminal says in German or Spanish."""

from __future__ import annotations

import asyncio

from server.i18n import heard

from .conftest import Server

ENGLISH = "the server is shutting down: no new hands; a hand in progress finishes or is voided"


async def test_the_shutdown_notice_is_said_in_each_clients_language(server: Server) -> None:
    host = await server.host()
    stopping = asyncio.create_task(server.stop())
    _, notice = await host.wait_for(lambda e: e.get("kind") == "notice", what="the shutdown notice")
    await stopping
    assert notice["message"] == ENGLISH  # an older client shows it as before
    assert notice["say"] == {"message": {"id": ENGLISH}}
    assert heard(notice, "message", "de") == \
        "der Server fährt herunter: keine neuen Hände; eine laufende Hand wird beendet oder annulliert"
    assert heard(notice, "message", "es") == \
        "el servidor se está apagando: no hay manos nuevas; una mano en curso termina o se anula"
