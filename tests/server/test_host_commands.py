"""The host's commands as a person uses them: settings shown and changed, the tables listed (issue 14 B.14)."""

from __future__ import annotations

import asyncio

import pytest

from client_cli.connection import ServerRefused, http_json
from client_cli.host import run_host
from client_cli.lobby import show_tables

from .conftest import Server
from .helpers import Policy, replay_table, run_hands, silent


async def test_show_settings_and_a_change_during_a_hand_says_what_changes(
        server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    host, _ = await server.table(Policy(), Policy(decide=silent))
    shown = await host.host("show_settings")
    assert shown["settings"]["min_ante"] == 5
    assert shown["pending"] == {}
    assert shown["game"] == "hcf"
    mark = host.mark()
    hand = asyncio.create_task(run_hands(host, 1))
    await host.event("turn_started", since=mark)
    changed = await host.host("change_settings", settings={"min_ante": 10, "fee": 1})
    assert changed["applied"] == "after_hand"
    assert changed["changes"] == {"min_ante": {"old": 5, "new": 10}}, "only what differs, old and new"
    assert (await host.host("show_settings"))["pending"] == {"min_ante": {"old": 5, "new": 10}}

    code = await run_host(server.url, server.host_token, "show-settings", {"table": "main"}, False)
    out = capsys.readouterr().out
    assert code == 0
    assert "table main (hcf, playing)" in out
    assert "min_ante" in out
    assert "(10 from the next hand)" in out

    code = await run_host(server.url, server.host_token, "change-settings",
                          {"table": "main", "settings": {"max_ante": 400}}, False)
    out = capsys.readouterr().out
    assert code == 0
    # Everything the next hand changes, the change asked before included.
    said = out.splitlines()
    start = said.index("from the next hand (a hand is in play):")
    assert said[start + 1:start + 3] == ["  max_ante 500 -> 400", "  min_ante 5 -> 10"]
    await hand
    after = await host.host("show_settings")
    assert (after["settings"]["min_ante"], after["settings"]["max_ante"], after["pending"]) == (10, 400, {})
    again = await host.host("change_settings", settings={"min_ante": 10})
    assert (again["applied"], again["changes"]) == ("now", {})


async def test_anyone_can_list_the_tables(server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    host, _ = await server.table(Policy(), names=("alice",))
    await host.host("create_table", table="stud", settings={"game": "caribbean", "min_ante": 10})
    assert await show_tables(server.url, False) == 0
    lines = capsys.readouterr().out.splitlines()  # the server's own log lines come out here too
    assert "2 open tables:" in lines
    main = next(line for line in lines if line.startswith("main "))
    assert "High Card Flush" in main
    assert "1/7 seated" in main
    assert "Ante 5-500" in main
    assert "alice" in main
    stud = next(line for line in lines if line.startswith("stud "))
    assert "Caribbean Stud" in stud
    assert "nobody seated" in stud
    assert "Ante 10-" in stud


PYDANTIC = ("Input should", "String should", "Field required", "Extra inputs", "List should", "valid integer")


async def _host_http(server: Server, body: dict[str, object]) -> dict[str, object]:
    """POST /api/host as ``hcf host`` does; the error object when refused."""
    try:
        return await http_json("POST", f"{server.url}/api/host", body, token=server.host_token)
    except ServerRefused as exc:
        return {"code": exc.code, "message": exc.message}


async def test_refusals_are_our_sentences_with_the_tables_real_limits(server: Server) -> None:
    host, (alice,) = await server.table(Policy(), names=("alice",))
    await host.host("create_table", table="small", settings={"seats": 5})
    refusals = {
        "amount 0": await _host_http(server, {"action": "grant_chips", "account": "alice", "amount": 0}),
        "seat 99": await _host_http(server, {"action": "remove_player", "table": "main", "seat": 99}),
        "seat 6 of 5": await _host_http(server, {"action": "declare_dead", "table": "small", "seat": 6}),
        "nobody": await _host_http(server, {"action": "remove_player", "table": "main", "seat": 4}),
        "typo": await _host_http(server, {"action": "pause", "tabel": "main"}),
        "bad action": await _host_http(server, {"action": "shuffle"}),
    }
    for what, refusal in refusals.items():
        assert not any(words in str(refusal["message"]) for words in PYDANTIC), f"{what}: {refusal}"
    assert refusals["amount 0"] == {"code": "request/malformed", "message": "host: the amount is at least 1 chip"}
    assert refusals["seat 99"] == {"code": "seat/invalid", "message": "table main has seats 1 to 7, not 99"}
    assert refusals["seat 6 of 5"] == {"code": "seat/invalid", "message": "table small has seats 1 to 5, not 6"}
    assert refusals["nobody"] == {"code": "seat/not_seated", "message": "nobody sits at seat 4 at table main"}
    assert refusals["typo"]["message"] == "host: 'tabel' is not part of this request"
    assert str(refusals["bad action"]["message"]).startswith("host: the action is one of 'create_table'")

    # A player's seat, on the socket, against the table's own number of seats.
    bob = await server.player("bob", sit=False, table="small")
    reply = await bob.conn.raw_call("sit", {"table": "small", "seat": 9})
    assert reply["error"] == {"code": "seat/invalid", "message": "table small has seats 1 to 5"}
    reply = await bob.conn.raw_call("top_up", {"table": "small", "amount": 0})
    assert reply["error"]["message"] == "top_up: the amount is at least 1 chip"

    await _host_http(server, {"action": "grant_chips", "account": "alice", "amount": 25})
    movements = (await http_json("GET", f"{server.url}/api/account", token=alice.token))["movements"]
    assert movements[0]["memo"] == "granted by the host", "no 'account None'"


async def test_a_short_deck_is_warned_of_and_a_deck_by_seat_deals_as_given(server: Server) -> None:
    host, _ = await server.table(Policy(), Policy(bank=False), Policy(bank=False))
    short = await _host_http(server, {"action": "arrange_deck", "table": "main", "cards": "Ah,Kh"})
    assert short["warning"] == ("this deck has 2 cards: a hand for the 3 players seated now needs 21 "
                                "(7 each, the DP's included); a seat dealt short is dead, and a DP dealt "
                                "short voids the hand")
    full = " ".join(["2c 3c 4c 5c 6c 7c 8c", "9c Tc Jc Qc Kc Ac 2d", "3d 4d 5d 6d 7d 8d 9d"])
    assert "warning" not in await _host_http(server, {"action": "arrange_deck", "table": "main", "cards": full})

    bob, dp = "Ah Kh Qh Jh Th 9h 8h", "2s 3s 4s 5s 6s 7s 9d"
    reply = await _host_http(server, {"action": "arrange_deck", "table": "main", "hands": {"2": bob, "dp": dp}})
    assert (reply["arranged_cards"], reply["by_seat"]) == (14, True)
    assert (await host.snapshot())["arranged_next"] is True
    (hand,) = await run_hands(host, 1)
    assert hand["arranged"] is True
    assert hand["dealer"] == 1, "alice banks: the deal starts at seat 2, the DP last"
    assert hand["arranged_hands"] == {"2": bob.split(), "dp": dp.split()}
    assert hand["dealer_cards"] == dp.split()
    assert hand["shown"]["2"] == bob.split()
    assert not set(hand["shown"]["3"]) & {*bob.split(), *dp.split()}, "the rest of the deal is random"
    assert (await host.snapshot())["arranged_next"] is False
    reports = await replay_table(server.database_url, "main")
    assert reports
    assert all(r.ok for r in reports), [r.problems for r in reports]  # the deck by seat replays as dealt

    bad = await _host_http(server, {"action": "arrange_deck", "table": "main", "hands": {"8": "Ah"}})
    assert bad == {"code": "cards/invalid",
                   "message": "there is no seat 8: the seats are 1 to 7, and 'dp' for the dealer"}


async def test_a_caribbean_deck_by_spot_deals_the_spot_and_the_dealer_as_given(server: Server) -> None:
    from .test_caribbean_table import STUD, StudBot, revealed_hands, stud_table

    host, (ann,) = await stud_table(server, "ann")
    spot4, dealer = "Ah Kh Qh Jh Th", "2s 3s 4s 5s 7d"
    bad = await _host_http(server, {"action": "arrange_deck", "table": STUD, "hands": {"8": spot4}})
    assert bad["message"] == "there is no spot 8: the spots are 1 to 7, and 'dp' for the dealer"
    reply = await _host_http(server, {"action": "arrange_deck", "table": STUD, "hands": {"4": spot4, "dp": dealer}})
    assert (reply["arranged_cards"], reply["by_seat"]) == (10, True)
    bot = StudBot(ann, [2, 4]).start()
    await host.host("resume", table=STUD)
    (hand,) = await revealed_hands(host, 1, host.mark())
    await bot.stop()
    assert hand["arranged"] is True
    assert hand["dealer_cards"] == dealer.split()
    assert hand["arranged_hands"] == {"4": spot4.split(), "dp": dealer.split()}
    reports = await replay_table(server.database_url, STUD)
    assert all(r.ok for r in reports), [r.problems for r in reports]
