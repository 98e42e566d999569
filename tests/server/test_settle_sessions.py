"""Sessions for settle-up (issue 28, item 3): the host opens and closes a session (a night) at a table; settle-up
counts that session's chips, closing it answers its final settle-up, and the figures are the ledger's."""

from __future__ import annotations

import itertools
from types import SimpleNamespace
from typing import Any

import aiohttp
from hypothesis import given
from hypothesis import strategies as st

from server.rules.settle import Figures
from server.storage.settle import tally

from .conftest import Server
from .helpers import Policy, run_hands
from .test_settle_up import STARTING_CHIPS, ledger_sums, settle_up


async def session(server: Server, action: Any, token: str | None = None) -> tuple[int, dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token or server.host_token}"}
    async with aiohttp.ClientSession() as http, \
            http.post(f"{server.url}/api/tables/main/session", json={"action": action}, headers=headers) as response:
        return response.status, await response.json()


def nets(answer: dict[str, Any]) -> dict[str, int]:
    return {p["name"]: p["net"] for p in answer["people"]}


async def test_each_session_settles_its_own_play_and_the_sessions_add_up_to_the_day(server: Server) -> None:
    host, (alice, bob) = await server.table(Policy(), Policy(bank=False))
    status, opened = await session(server, "open")
    assert status == 200, opened
    assert (opened["opened"], opened["session"]["number"]) == (True, 1)
    assert opened["message"] == "Session 1 at main is open: settle-up counts from now."
    again = (await session(server, "open"))[1]
    assert (again["opened"], again["session"]["number"]) == (False, 1)  # one open at a time: nothing changed
    await run_hands(host, 2)
    status, closed = await session(server, "close")
    assert status == 200, closed
    first = closed["settle_up"]
    assert closed["closed"] is True
    assert closed["message"] == "Session 1 at main is closed."
    assert first["lines"][0].startswith("Settle-up at main in session 1, from ")
    assert {**first, "ok": True} == (await settle_up(server, "?session=1"))[1]
    assert (await session(server, "open"))[1]["session"]["number"] == 2
    assert (await alice.call("top_up", {"table": "main", "amount": 500}))["ok"]
    await run_hands(host, 2)
    status, second = await settle_up(server)  # the open session, by default
    assert status == 200, second
    assert second["lines"][0].startswith("Settle-up at main in session 2, open since ")
    assert {p["name"]: p["brought"] for p in second["people"]} == \
        {p["name"]: p["on_table"] for p in first["people"]}  # what one session ends with, the next starts with
    assert {p["name"]: p["bought"] for p in second["people"]}["alice"] == 500
    # Nothing moved before the first session but the buy-ins: over both sessions, each person is up or down what
    # the ledger says they hold now, at the table and away from it, less what their account started with.
    assert alice.account_id is not None
    assert bob.account_id is not None
    ledger = await ledger_sums(server, {alice.account_id: "alice", bob.account_id: "bob"})
    assert {name: nets(first)[name] + nets(second)[name] for name in ledger} == \
        {name: sums["account"] + sums["on_table"] - STARTING_CHIPS for name, sums in ledger.items()}
    assert sum(nets(second).values()) + second["house"] == 0


async def test_a_session_asked_wrongly_is_refused_in_words_and_changes_nothing(server: Server) -> None:
    await server.table(Policy())
    status, closed = await session(server, "close")  # nothing open: nothing to close, the table's night still settles
    assert (status, closed["closed"]) == (200, False)
    assert closed["message"] == "No session is open at main: nothing to close."
    assert closed["settle_up"]["lines"][0] == "Settle-up at main since the table opened."
    status, answer = await session(server, "shut")
    assert (status, answer["error"]["code"]) == (400, "request/malformed")
    assert answer["error"]["message"] == 'send {"action": "open"} or {"action": "close"}'
    status, answer = await settle_up(server, "?session=3")
    assert (status, answer["error"]["message"]) == (400, "there is no session 3 at main: it has no session yet")
    status, answer = await settle_up(server, "?session=1&day=2026-12-05")
    assert answer["error"]["message"] == "settle up either one day or one session, not both"
    account = await server.account("mallory")
    status, answer = await session(server, "open", token=account["token"])
    assert (status, answer["error"]["code"]) == (403, "auth/not_host")
    async with aiohttp.ClientSession() as http, http.get(
            f"{server.url}/api/tables/main/sessions", headers={"Authorization": f"Bearer {server.host_token}"}) as r:
        assert (await r.json())["sessions"] == []


def _row(at: int, src: str, dst: str, amount: int, kind: str) -> SimpleNamespace:
    return SimpleNamespace(created_at=at, src=src, dst=dst, amount=amount, kind=kind)


PLACES = ["account:1", "stack:main:1", "felt:main:1", "account:2", "stack:main:2", "felt:main:2", "house:bank",
          "fee_held:main:1", "stack:other:1"]
KINDS = ["buy_in", "top_up", "cash_out", "bet", "win", "loss", "fee"]


@st.composite
def ledgers(draw: st.DrawFn) -> list[SimpleNamespace]:
    """A table's transfers, oldest first, at growing instants."""
    moves = draw(st.lists(st.tuples(st.sampled_from(PLACES), st.sampled_from(PLACES), st.integers(1, 500),
                                    st.sampled_from(KINDS), st.integers(0, 3)), max_size=40))
    rows, at = [], 0
    for src, dst, amount, kind, step in moves:
        at += step
        if src != dst:
            rows.append(_row(at, src, dst, amount, kind))
    return rows


def _nets(rows: list[SimpleNamespace], start: int, until: int) -> dict[int, int]:
    return {account: Figures(name=str(account), bought=t.bought, cashed=t.cashed, on_table=t.on_table,
                             brought=t.brought).net
            for account, t in tally(rows, "main", start, until).items()}


@given(ledgers(), st.lists(st.integers(0, 130), max_size=6))
def test_the_nets_over_sessions_that_follow_each_other_sum_to_the_nets_over_all_time(
        rows: list[SimpleNamespace], cuts: list[int]) -> None:
    edges = [0, *sorted(set(cuts)), 2**62]
    whole = _nets(rows, 0, 2**62)
    summed: dict[int, int] = {}
    for start, until in itertools.pairwise(edges):
        for account, net in _nets(rows, start, until).items():
            summed[account] = summed.get(account, 0) + net
    assert {a: n for a, n in summed.items() if n} == {a: n for a, n in whole.items() if n}


async def test_a_table_closed_during_a_hand_closes_its_session_when_it_closes(server: Server) -> None:
    host, _ = await server.table(Policy(), Policy(bank=False))
    assert (await session(server, "open"))[1]["opened"]
    mark = host.mark()
    await host.host("resume")
    await host.event("betting_opened", since=mark)
    assert (await host.host("close_table"))["closed"] == "after_hand"
    await host.event("table_closed", since=mark, timeout=30)
    async with aiohttp.ClientSession() as http, http.get(
            f"{server.url}/api/tables/main/sessions", headers={"Authorization": f"Bearer {server.host_token}"}) as r:
        (closed,) = (await r.json())["sessions"]
    assert closed["closed"] is not None, "the table closed, its session stayed open"
    status, final = await settle_up(server)
    assert status == 200, final
    assert final["lines"][0].startswith("Settle-up at main in session 1, from ")
    assert all(p["on_table"] == 0 for p in final["people"]), final["people"]  # every cash-out is in the session
    assert sum(nets(final).values()) + final["house"] == 0
