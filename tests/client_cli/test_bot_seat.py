"""A bot knows where it sits from the sit's answer until its model has caught up with that answer."""

from __future__ import annotations

import random
from typing import Any

from client_cli.bots import Bot, BotOptions, Team
from client_cli.store import TokenStore
from tests.client_cli.fakes import FakeConnection
from tests.client_cli.test_offers import LEAVE, TABLE, hcf_model

SIT = {"request": "sit", "buy_in": {"min": 100, "max": 1000}}


def _seated_answer(event: str, payload: dict[str, Any]) -> dict[str, Any]:
    assert event == "sit", (event, payload)
    return {"ok": True, "seat": 2, "stack": 1000, "update": {"table": TABLE, "from_seq": 9, "seq": 9}}


def _spectator_model(seq: int) -> dict[str, Any]:
    model = hcf_model("betting", [SIT, LEAVE])
    model.update(seq=seq, you={"seat": None})
    return model


async def test_a_model_older_than_the_sit_answer_does_not_unseat_the_bot() -> None:
    """Found by hand at a table 17 watched: the answer came before the spectators' update held for the bot, whose
    model (seq 7) did not show the seat; the bot took itself for stood up and left without playing."""
    bot = Bot("b-1", BotOptions("http://x", table=TABLE, fast=True),  # type: ignore[arg-type]
              Team(["b-1"], 3), TokenStore(), random.Random(1))
    connection = FakeConnection(TABLE, _spectator_model(7), _seated_answer)
    bot.conn = connection  # type: ignore[assignment]
    bot.balance = 5000
    bot._take_model()
    assert bot.seat is None

    assert await bot._sit()
    assert bot.seat == 2
    bot._take_model()  # an update the bot takes while the answer's one still waits behind the gap
    assert bot.seat == 2

    connection.models[TABLE] = {**_spectator_model(9), "you": {"seat": 2}}  # the answer's update applied
    bot._take_model()
    assert bot.seat == 2

    connection.models[TABLE] = _spectator_model(12)  # stood up later: the model is newer than the answer
    bot._take_model()
    assert bot.seat is None
