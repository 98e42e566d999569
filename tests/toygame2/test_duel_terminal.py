"""Dealer Duel through the terminal client's own play loop: a game it does not know, played from the choices.

The real in-process server, a real Socket.IO connection, and the play loop of
client_cli/play.py with a face that records what it says; lines are typed as a
person would type them, a typo and a value out of range included.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from client_cli.connection import Connection
from client_cli.play import PlayOptions, TableSession
from tests.client_cli.test_unknown_game import RecordingFace
from tests.server.conftest import Server

SETTINGS = {"game": "duel", "min_stake": 5, "max_stake": 50, "pause_seconds": 0.2, "bet_seconds": 30,
            "call_seconds": 30}


@pytest.mark.usefixtures("dealer_duel")
async def test_dealer_duel_is_played_through_the_terminal_from_the_choices(server: Server) -> None:
    host = await server.host()
    await host.host("create_table", table="duel", settings=SETTINGS)
    await host.host("pause", table="duel")
    account = await server.account("ann")
    conn = Connection(server.url, token=account["token"])
    await conn.connect()
    face = RecordingFace()
    session = TableSession(conn, PlayOptions(server.url, table="duel", buy_in=300), face)  # type: ignore[arg-type]
    playing = asyncio.create_task(session.run())
    try:
        await face.saw("This client does not know the game 'duel'")
        await host.host("resume", table="duel")
        await face.saw("Your move: wager STAKE (5 to 50), pass")
        assert face.type_line is not None
        face.type_line("wagr 20")
        await face.saw("wagr is not a move here now")
        face.type_line("wager 60")
        await face.saw("the stake is 5 to 50 chips")
        face.type_line("wager stake=20")
        await face.saw("Your move: hold, surrender")
        face.type_line("hold")
        result = await face.saw("hand #1 settled:")  # the result, in the server's own words
        assert re.search(r"ann (wins 20|loses 20|pushes)$", result), result  # the net, a sentence
        assert not any("High Card" in line or "DP" in line for line in face.said), face.said
        assert not any(re.search(r"\d{9}", line) for line in face.said), face.said  # no raw clock time
        assert not any(re.search(r"\bcarry\b| -$|: -,", line) for line in face.said), face.said  # nothing empty said
        assert await face.saw("stakes called; the clock runs")
        assert await face.saw("cards: ann ")  # her card by her name, not by a bare seat number
        face.type_line(None)  # the end of the input: leave
        assert await asyncio.wait_for(playing, 10) == 0
    finally:
        playing.cancel()
        await conn.close()
