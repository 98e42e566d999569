"""The trainee's drill page answers a payout (issue 27): at a drill table with chips in play, the page offers
the place, the bet, the amount and a count of each chip in play; the server judges the make-up.

A Caribbean Stud drill table asks the payouts only; ann plays her two spots over Socket.IO (the terminal
client's connection, in a thread of its own), tina answers in Debian's chromium.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser

from client_cli.connection import Connection

from .conftest import WebServer
from .helpers import Person

TABLE = "payouts"
SETTINGS: dict[str, Any] = {
    "game": "caribbean", "pause_seconds": 0.3, "jackpot": False, "max_hands_while_waiting": 2, "bet_seconds": 120,
    "action_seconds": 120, "chips": [1, 5, 25, 100, 500],
    "drill": {"trainee": "tina", "mode": "training", "steps": ["payout"], "step_seconds": 300}}
HANDS = {"1": "2h 5h 8h Jh Kh", "2": "5c 6d 7s 8d 9c", "dp": "As Kd 7c 4h 2s"}
"""Spot 1 a flush, spot 2 a straight, the dealer's ace-king qualifies: settlement goes from the highest spot down,
each spot's Ante then its Bet."""


def _guest(server: WebServer, name: str) -> dict[str, Any]:
    token = server.invite("main", "player").split("#", 1)[1]
    got = server.call("POST", "/api/invites/redeem", {"token": token, "name": name})
    assert got["ok"], got
    return got


async def _ann(server: WebServer, token: str, ready: threading.Event, done: threading.Event,
               problems: list[str], table: str = TABLE) -> None:
    """Sit at ``table``, bet both spots, deal, and play each spot when its turn comes."""
    conn = Connection(server.url, token=token)
    await conn.connect()
    try:
        await conn.join(table)
        await conn.call("sit", {"table": table, "seat": 1, "buy_in": 1000})
        ready.set()
        waited = 0.0
        while not done.is_set():
            try:  # a short wait, so that the test's end (``done``) is seen at once, not after the last event
                item = await asyncio.wait_for(conn.events.get(), 0.25)
            except TimeoutError:
                waited += 0.25
                assert waited < 120, "no event for two minutes"
                continue
            waited = 0.0
            event = item.get("event") or {}
            if event.get("type") == "betting_opened":
                bets = [{"spot": 1, "ante": 10}, {"spot": 2, "ante": 10}]
                await conn.call("move", {"table": table, "action": "bet", "bets": bets, "seed": "ann"})
                await conn.call("move", {"table": table, "action": "deal"})
            elif event.get("type") == "turn_started":
                await conn.call("move", {"table": table, "action": "play", "spot": event["spot"]})
            elif event.get("type") == "hand_revealed":
                return
    except Exception as exc:  # the test reads it
        problems.append(repr(exc))
        ready.set()
    finally:
        await conn.close()


@pytest.fixture
def tina(web_server: WebServer, browser: Browser) -> Iterator[Person]:
    got = _guest(web_server, "tina")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    person = Person("tina", context, page)
    page.on("pageerror", lambda exc: person.errors.append(str(exc)))
    page.goto(web_server.url + "/")
    page.evaluate("([t, n]) => localStorage.setItem('hcf-table', JSON.stringify({token: t, name: n}))",
                  [got["token"], got["name"]])
    yield person
    context.close()


def _pay(tina: Person, n: int, spot: int, bet: str, amount: int, chips: dict[int, int]) -> str:
    """Answer payout step ``n`` in the form, as a person would, and return the page's judgement of it."""
    tina.page.wait_for_selector(f'.drill h2:has-text("Step {n}:")')
    form = 'form.drill-answer[data-step="payout"]'
    tina.page.fill(f"{form} #drill-place", str(spot))
    tina.page.select_option(f"{form} #drill-bet", bet)
    tina.page.fill(f"{form} #drill-amount", str(amount))
    for chip, count in chips.items():
        tina.page.fill(f"{form} #drill-chip-{chip}", str(count))
    tina.page.click(f"{form} button")
    return tina.page.locator(".drill-feedback li .verdict").nth(n - 1).inner_text()


def test_the_trainee_pays_each_bet_in_the_chips_in_play_on_the_drill_page(web_server: WebServer,
                                                                        tina: Person) -> None:
    assert web_server.host("create_table", table=TABLE, settings=SETTINGS)["ok"]
    assert web_server.host("pause", table=TABLE)["ok"]
    ann = _guest(web_server, "ann")
    ready, done, problems = threading.Event(), threading.Event(), []
    player = threading.Thread(target=lambda: asyncio.run(_ann(web_server, ann["token"], ready, done, problems)))
    player.start()
    try:
        assert ready.wait(30), "ann sat"
        assert not problems, problems
        assert web_server.host("arrange_deck", table=TABLE, hands=HANDS)["arranged_cards"] == 15
        tina.page.goto(f"{web_server.url}/drill/{TABLE}")
        assert web_server.host("resume", table=TABLE)["ok"]
        tina.page.wait_for_selector('form.drill-answer[data-step="payout"]', timeout=60_000)
        labels = tina.page.locator("form.drill-answer label").all_inner_texts()
        assert [x.strip() for x in labels if x.startswith("chips of")] == [
            "chips of 1", "chips of 5", "chips of 25", "chips of 100", "chips of 500"], labels
        # spot 2's Ante wins 10: ten 1s is the right amount, not the fewest chips
        assert _pay(tina, 1, 2, "ante", 10, {1: 10}) == (
            "Step 1: wrong: the answer is spot: 2, bet: ante, amount: 10, in chips: 2 of 5 (RULES-caribbean 3.5, 4). "
            "Which bet is paid next, how much, and in which chips?")
        # spot 2's Bet of 20 on a straight pays 4 to 1: 80, three 25s and a 5
        assert _pay(tina, 2, 2, "bet", 80, {25: 3, 5: 1}).startswith("Step 2: right (RULES-caribbean 3.5, 4).")
        assert _pay(tina, 3, 1, "ante", 10, {5: 2}).startswith("Step 3: right")
        assert _pay(tina, 4, 1, "bet", 100, {100: 1}).startswith("Step 4: right")
        report = web_server.host("drill_report", table=TABLE)["report"]
        assert [s["mistake"] for s in report["steps"]] == ["chips", None, None, None]
        assert report["steps"][0]["given"] == {"spot": 2, "bet": "ante", "amount": 10, "chips": {"1": 10}}
        assert not tina.errors, tina.errors
    finally:
        done.set()
        player.join(30)
    assert not problems, problems
