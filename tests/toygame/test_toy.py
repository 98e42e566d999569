"""Top Card over Socket.IO at a real server: the toy game plugs in through the registry alone.

Two players and a spectator: each player bets or passes among the choices the server
offers, the house deals, the hand settles, and the chips moved are what the cards say.
"""

from __future__ import annotations

from typing import Any, Final

import pytest

from server.rules.cards import parse_cards, rank_of
from server.rules.events import Event
from server.rules.game import GameRules
from tests.server.conftest import Server
from tests.server.helpers import Client, replay_table

from .toy import TOP_CARD, Command, ToyHand, ToySettings, top_card_result

# mypy checks the toy against the seam with its own four types here (``mypy --strict tests/toygame``).
_CHECKED: Final[GameRules[ToySettings, ToyHand, Command, Event]] = TOP_CARD

TABLE = "top"
SETTINGS = {"game": "topcard", "min_ante": 5, "max_ante": 50, "pause_seconds": 0.2, "bet_seconds": 5}


async def seated(server: Server, name: str) -> Client:
    player = await server.player(name, sit=False)
    await player.join(TABLE)
    await player.sit(TABLE, buy_in=500)
    return player


@pytest.mark.usefixtures("top_card")
async def test_a_hand_of_top_card_is_played_from_the_offered_choices(server: Server) -> None:
    host = await server.host()
    await host.host("create_table", table=TABLE, settings=SETTINGS)
    await host.host("pause", table=TABLE)
    await host.join(TABLE)
    alice, bob = await seated(server, "alice"), await seated(server, "bob")
    mark = host.mark()
    await host.host("resume", table=TABLE)
    for player, ante in ((alice, 20), (bob, None)):
        await player.wait_for(lambda _entry, who=player: bool(who.moves(TABLE)), what="a choice")
        offered = {m["action"]: m for m in player.moves(TABLE)}
        assert offered["bet"]["ante"] == {"min": 5, "max": 50}, offered
        assert "pass" in offered
        if ante is None:
            await player.call("move", {"table": TABLE, "action": "pass"})
        else:
            await player.call("move", {"table": TABLE, "action": "bet", "ante": ante, "seed": "alice's"})
    _, called = await host.event("antes_called", since=mark)
    assert called["deadline"] is not None  # the game's own event opens its clock (Game.clocked_events)
    _, dealt = await host.event("top_cards_dealt", since=mark)
    _, revealed = await host.event("hand_revealed", since=mark)
    assert revealed["number"] == 1  # numbered by the game's own deal event (Game.deal_event)
    assert revealed["status"] == "settled"
    assert revealed["game"] == "topcard"
    card, house = parse_cards(dealt["hands"][0][1])[0], parse_cards(dealt["house"])[0]
    net = 20 * top_card_result(rank_of(card), rank_of(house))
    assert revealed["nets"] == {"1": net}
    assert revealed["player_seeds"] == [[1, "alice's"]]
    snapshot: dict[str, Any] = await alice.snapshot(TABLE)
    stacks = {s["name"]: s["stack"] for s in snapshot["seats"]}
    assert stacks == {"alice": 500 + net, "bob": 500}
    assert alice.model(TABLE)["seats"] == snapshot["seats"]  # the model the updates built, no snapshot asked
    assert await bob.refused("move", {"table": TABLE, "action": "raise", "amount": 5}) in {"hand/none",
                                                                                             "request/unknown"}
    reports = await replay_table(server.database_url, TABLE)
    assert [r.ok for r in reports] == [True], [r.problems for r in reports]  # the log alone rebuilds the hand
