"""Caribbean Stud tables at the real server (docs/rules/caribbean.md): spots, the meter, privacy, restarts."""

from __future__ import annotations

import asyncio
from typing import Any

from server.persistence import open_database

from .conftest import Server
from .helpers import Client, cancel_and_wait, everyone_bet, replay_table

STUD = "stud"
SETTINGS = {"game": "caribbean", "bet_seconds": 5, "action_seconds": 5, "pause_seconds": 0.2,
            "max_hands_while_waiting": 3}  # the scripted players take several spots in any order


async def stud_table(server: Server, *names: str, **settings: Any) -> tuple[Client, list[Client]]:
    host = await server.host()
    await host.host("create_table", table=STUD, settings=SETTINGS | settings)
    await host.host("pause", table=STUD)  # the test resumes it once everyone sits and its bots listen
    await host.join(STUD)
    players = [await server.player(name, table=STUD) for name in names]
    return host, players


class StudBot:
    """Bets its spots with the jackpot wager, confirms, and plays or folds each of its spots in turn."""

    def __init__(self, client: Client, spots: list[int], *, ante: int = 10, play: bool | None = True) -> None:
        self.client, self.spots, self.ante, self.play = client, spots, ante, play
        self.refusals: list[str] = []
        self.task: asyncio.Task[None] | None = None

    def start(self) -> StudBot:
        self.task = asyncio.create_task(self._run(self.client.mark()))
        return self

    async def stop(self) -> None:
        if self.task is not None:
            await cancel_and_wait(self.task)

    async def _run(self, since: int) -> None:
        i = since
        while True:
            i, entry = await self.client.wait_for(lambda e: e.get("kind") == "table", since=i, timeout=None)
            i += 1
            ev = entry["event"]
            try:
                await self._react(ev)
            except Exception as exc:  # a refusal the test reads afterwards
                self.refusals.append(f"{ev.get('type')}: {exc}")

    async def _react(self, ev: dict[str, Any]) -> None:
        if ev["type"] == "betting_opened" and self.client.seat in ev["seats"]:
            bets = [{"spot": s, "ante": self.ante, "jackpot": True} for s in self.spots]
            since = self.client.mark()
            await self.client.call("move", {"table": STUD, "action": "bet", "bets": bets,
                                            "seed": f"{self.client.name}-{ev['hand_id']}"})
            await everyone_bet(self.client, ev["seats"], "spot_bets_placed", since)
            await self.client.call("move", {"table": STUD, "action": "deal"})
        elif ev["type"] == "turn_started" and ev["seat"] == self.client.seat and self.play is not None:
            action = "play" if self.play else "fold"
            await self.client.call("move", {"table": STUD, "action": action, "spot": ev["spot"]})


async def revealed_hands(client: Client, count: int, since: int = 0) -> list[dict[str, Any]]:
    hands = []
    i = since
    while len(hands) < count:
        i, ev = await client.event("hand_revealed", since=i, timeout=30)
        i += 1
        if ev["status"] != "not_dealt":
            hands.append(ev)
    return hands


async def jackpot_balance(database_url: str) -> int:
    database = await open_database(database_url)
    try:
        async with database.transaction(write=False) as tx:
            return sum((await tx.balances(f"jackpot:{STUD}")).values())
    finally:
        await database.close()


async def test_players_bet_spots_play_and_the_meter_grows_into_the_ledger(server: Server) -> None:
    host, (ann, bob) = await stud_table(server, "ann", "bob")
    start = (await host.snapshot(STUD))
    assert start["game"] == "caribbean"
    assert start["jackpot_meter"] == 10_000 * 100, "a new table shows the seed on its meter"
    bots = [StudBot(ann, [1, 2]).start(), StudBot(bob, [5]).start()]
    await host.host("resume", table=STUD)
    mark = host.mark()
    hands = await revealed_hands(host, 3, mark)
    for bot in bots:
        await bot.stop()
    assert not [r for bot in bots for r in bot.refusals]
    meters = [h["carry"]["meter"] for h in hands]
    for before, h in zip([10_000 * 100, *meters], hands, strict=False):
        settlement = h["settlement"]
        assert sorted(settlement["order"], reverse=True) == settlement["order"], "paid from the highest spot down"
        assert [r["spot"] for r in settlement["spots"]] == [5, 2, 1]
        awards = sum(r["jackpot_award"] for r in settlement["spots"])
        if not awards:  # each of the 3 wagers adds half a chip
            assert h["carry"]["meter"] == before + 150
    snap = await host.snapshot(STUD)
    assert snap["jackpot_meter"] == meters[-1]
    # The meter's whole chips sit in the ledger's jackpot place (the fraction is kept beside it).
    assert await jackpot_balance(server.database_url) == meters[-1] // 100


async def test_nobody_sees_another_players_cards_before_the_showdown(server: Server) -> None:
    host, (ann, bob) = await stud_table(server, "ann", "bob")
    bots = [StudBot(ann, [3], play=False).start(), StudBot(bob, [4]).start()]
    await host.host("resume", table=STUD)
    hands = await revealed_hands(host, 2, host.mark())
    for bot in bots:
        await bot.stop()
    for h in hands:
        shown = {int(spot): cards for spot, cards in h["shown"].items()} if isinstance(h["shown"], dict) \
            else {int(spot): cards for spot, cards in h["shown"]}
        assert 3 not in shown or any(r["spot"] == 3 and r["jackpot_award"] for r in h["settlement"]["spots"]), \
            "a folded spot stays hidden unless it wins a jackpot award"
        assert 4 in shown
    # Before each hand_settled, no table event and no private event of ann names bob's spot cards.
    for watcher, other_spot in ((ann, 4), (host, 3), (host, 4)):
        for entry in watcher.log:
            ev = entry.get("event") or {}
            if entry.get("kind") == "table" and ev.get("type") == "cards_dealt":
                assert "hands" not in ev or all(int(s) != other_spot for s, _ in ev["hands"])
            if entry.get("kind") == "private":
                for spot in ev.get("spots", []):
                    assert spot["spot"] != other_spot, f"{watcher.name} was sent spot {other_spot}'s cards"


async def test_bets_out_of_line_are_refused_and_change_nothing(server: Server) -> None:
    host, (ann, bob) = await stud_table(server, "ann", "bob")
    await host.host("resume", table=STUD)
    _, opened = await host.event("betting_opened", since=0, timeout=30)
    assert opened["meter"] == 10_000 * 100
    await ann.call("move", {"table": STUD, "action": "bet", "bets": [{"spot": 2, "ante": 10}]})
    cases = [
        ({"bets": [{"spot": 2, "ante": 10}]}, "spot/taken"),
        ({"bets": [{"spot": 1, "ante": 2}]}, "bet/below_min"),
        ({"bets": [{"spot": 1, "ante": 501}]}, "bet/above_max"),
        ({"bets": [{"spot": 1, "ante": 10}, {"spot": 3, "ante": 10}, {"spot": 4, "ante": 10},
                   {"spot": 6, "ante": 10}]}, "bet/too_many"),
        ({"bets": [{"spot": 8, "ante": 10}]}, "spot/invalid"),
        ({"bets": [{"spot": 1, "ante": 400}]}, "bet/insufficient_stack"),
    ]
    for payload, code in cases:
        assert await bob.refused("move", {"table": STUD, "action": "bet", **payload}) == code, payload
    assert await bob.refused("move", {"table": STUD, "action": "play", "spot": 1}) == "phase/wrong"
    assert await bob.refused("move", {"table": STUD, "action": "bet", "bets": [{"spot": "1"}]}) \
        == "request/malformed"
    assert await bob.refused("move", {"table": STUD, "action": "buy"}) == "request/unknown"
    hand = (await bob.snapshot(STUD))["hand"]
    assert [(b["spot"], b["seat"]) for b in hand["bets"]] == [(2, ann.seat)], "the refusals changed nothing"


async def test_the_meter_survives_a_restart_and_the_books_replay(server: Server) -> None:
    host, (ann,) = await stud_table(server, "ann")
    bot = StudBot(ann, [1, 2, 3]).start()
    await host.host("resume", table=STUD)
    hands = await revealed_hands(host, 2, host.mark())
    await host.host("pause", table=STUD)
    await bot.stop()
    await asyncio.sleep(0.3)
    before = (await host.snapshot(STUD))["jackpot_meter"]
    assert before == hands[-1]["carry"]["meter"] or (await host.snapshot(STUD))["hand"] is not None
    again = await server.restart()
    watcher = await again.client(name="watcher")
    snap = await watcher.join(STUD)
    assert snap["game"] == "caribbean"
    assert snap["jackpot_meter"] == before, "the meter (fraction included) is the same after a restart"
    assert await jackpot_balance(server.database_url) == before // 100


async def test_a_crash_mid_hand_voids_it_at_restart_and_the_meter_is_untouched(server: Server) -> None:
    # bob bets but never answers his turn: the hand waits on his spot until a crash cuts it off. His clock is long:
    # 5 s ran out before the crash on a loaded machine, and the hand settled.
    host, (ann, bob) = await stud_table(server, "ann", "bob", action_seconds=120)
    bots = [StudBot(ann, [1]).start(), StudBot(bob, [2], play=None).start()]
    await host.host("resume", table=STUD)
    await host.event("turn_started", since=0, timeout=30, where=lambda e: e["seat"] == bob.seat)
    for bot in bots:
        await bot.stop()
    snap = await host.snapshot(STUD)
    meter = snap["jackpot_meter"]
    wager = snap["settings"]["jackpot_wager"]
    stacks = {s["seat"]: s["stack"] + sum(b["ante"] + wager * b["jackpot"] + (b.get("bet") or 0)
                                          for b in snap["hand"]["spots"] if b["seat"] == s["seat"])
              for s in snap["seats"]}
    await server.crash()
    again = await server.restart()
    watcher = await again.client(name="watcher")
    snap = await watcher.join(STUD)
    assert snap["hand"] is None
    assert snap["jackpot_meter"] == meter, "a hand voided by a crash adds nothing to the meter"
    assert {s["seat"]: s["stack"] for s in snap["seats"]} == stacks, "every bet of the cut hand came back"
    assert snap["last_hand"]["status"] == "void"
    reports = await replay_table(server.database_url, STUD)
    # Before the cut hand there may be one nobody bet on (the bots can miss its opening): never a settled one.
    assert reports[-1].status == "void", "the cut hand replays to its void, refunds included"
    assert {r.status for r in reports[:-1]} <= {"not_dealt"}
    assert all(r.ok for r in reports), [r.problems for r in reports if not r.ok]


async def test_the_export_has_a_row_per_spot(server: Server) -> None:
    import argparse
    import csv
    import io

    from server.commands.books import _export

    host, (ann,) = await stud_table(server, "ann")
    bot = StudBot(ann, [2, 4]).start()
    await host.host("resume", table=STUD)
    (settled,) = await revealed_hands(host, 1, host.mark())
    await bot.stop()
    database = await open_database(server.database_url)
    try:
        out = io.StringIO()
        assert await _export(database, argparse.Namespace(table=STUD, format="csv"), out) == 0
    finally:
        await database.close()
    rows = [r for r in csv.DictReader(io.StringIO(out.getvalue())) if r["hand_id"] == str(settled["hand_id"])]
    assert sorted(r["spot"] for r in rows) == ["2", "4"]
    assert {r["game"] for r in rows} == {"caribbean"}
    assert {r["name"] for r in rows} == {"ann"}
    by_spot = {int(r["spot"]): r for r in rows}
    for result in settled["settlement"]["spots"]:
        assert int(by_spot[result["spot"]]["net"]) == result["net"]
