"""Re-Bet's last bets belong to the player, not the chair (issue 23 item 1; docs/games/caribbean.md, sixcard.md).

Bots played at a Caribbean Stud table and left; a new account sat in a bot's old seat, typed ``rebet``, and was
dealt the bot's ``spot 3 ante 5 +jackpot``.
"""

from __future__ import annotations

from .conftest import Server
from .test_caribbean_table import STUD, StudBot, revealed_hands, stud_table


async def test_a_new_player_in_a_chair_repeats_nothing_and_the_old_one_repeats_their_own_elsewhere(
        server: Server) -> None:
    host, _ = await stud_table(server)
    bot = await server.player("robo", table=STUD, seat=3)
    playing = StudBot(bot, [3], ante=5).start()
    since = host.mark()
    await host.host("resume", table=STUD)
    (first,) = await revealed_hands(host, 1, since)
    await host.host("pause", table=STUD)
    await playing.stop()
    assert [s["spot"] for s in first["settlement"]["spots"]] == [3]
    await bot.call("stand", {"table": STUD})

    ann = await server.player("ann", table=STUD, seat=3)  # the bot's old chair
    await bot.sit(STUD, seat=5)  # the bot, back in another
    since, ann_since, bot_since = host.mark(), ann.mark(), bot.mark()
    await host.host("resume", table=STUD)
    await ann.event("betting_opened", since=ann_since)
    await bot.event("betting_opened", since=bot_since)
    assert "rebet" not in {m["action"] for m in ann.moves(STUD)}, "nothing to repeat: not offered"
    reply = await ann.conn.raw_call("move", {"table": STUD, "action": "rebet"})
    assert reply == {"ok": False, "error": {"code": "bet/no_last_bets",
                                            "message": "you have no bets from a last hand to repeat"}}
    assert "rebet" in {m["action"] for m in bot.moves(STUD)}, "the bot's own last bets follow it"
    await bot.call("move", {"table": STUD, "action": "rebet"})
    _, placed = await host.event("spot_bets_placed", since=since)
    assert placed["seat"] == 5
    assert [(b["spot"], b["ante"], b["jackpot"]) for b in placed["bets"]] == [(3, 5, True)]
    await ann.call("move", {"table": STUD, "action": "pass"})
    await bot.call("move", {"table": STUD, "action": "deal"})
    _, turn = await bot.event("turn_started", since=bot_since)
    await bot.call("move", {"table": STUD, "action": "play", "spot": turn["spot"]})
    (second,) = await revealed_hands(host, 1, since)
    await host.host("pause", table=STUD)
    assert [s["spot"] for s in second["settlement"]["spots"]] == [3]
    assert [e for e in host.table_events(since) if e["type"] == "spot_bets_placed" and e["seat"] == 3] == [], \
        "nothing was placed for the new player"
    assert "robo" in second["carry"]["last_bets_of"]
    assert "ann" not in second["carry"]["last_bets_of"]
