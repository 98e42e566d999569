"""Dealer Duel in Debian's chromium: a page that does not know the game plays it from the server's choices.

The real in-process server (with Dealer Duel in its registry) serves the page; two
friends open player invites, sit, wager, and one holds and one surrenders; a spectator
watches, and every Socket.IO frame it receives is read for cards the hand has not shown.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from playwright.async_api import Browser, Page, async_playwright

from tests.server.conftest import Server
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.web.helpers import LAPTOP, PHONE, frame_cards

# The pause keeps the settled hand on the felt while the pages are read (the next hand clears it).
SETTINGS = {"game": "duel", "min_stake": 5, "max_stake": 50, "pause_seconds": 20, "bet_seconds": 60,
            "call_seconds": 60}


async def invite(server: Server, role: str) -> str:
    async with aiohttp.ClientSession() as http, http.post(
            f"{server.url}/api/invites", json={"table": "duel", "role": role},
            headers={"Authorization": f"Bearer {server.host_token}"}) as answer:
        url: str = (await answer.json())["url"]
    return url


async def seated_page(browser: Browser, server: Server, name: str, errors: list[str]) -> Page:
    page = await (await browser.new_context(viewport=LAPTOP)).new_page()
    page.set_default_timeout(15_000)
    page.on("pageerror", lambda exc: errors.append(f"{name}: {exc}"))
    await page.goto(await invite(server, "player"))
    await page.fill("#join-name", name)
    await page.click("form.join button")
    await page.wait_for_selector('.choice[data-action="sit"]')
    await page.fill('.choice[data-action="sit"] input[name="buy_in"]', "300")
    await page.click('.choice[data-action="sit"] button.act')
    await page.wait_for_selector('.choice[data-action="stand"]')
    return page


def choice(action: str) -> str:
    return f'.controls .choice[data-action="{action}"]'


@pytest.mark.usefixtures("dealer_duel")
async def test_dealer_duel_is_played_in_chromium_and_the_spectator_receives_no_hidden_card(
        server: Server, tmp_path: Path) -> None:
    host = await server.host()
    await host.host("create_table", table="duel", settings=SETTINGS)
    await host.host("pause", table="duel")
    await host.join("duel")
    errors: list[str] = []
    frames: list[str] = []
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        watcher = await (await browser.new_context(viewport=PHONE)).new_page()
        watcher.set_default_timeout(15_000)
        watcher.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: frames.append(payload if isinstance(payload, str) else "")))
        await watcher.goto(await invite(server, "spectator"))
        alice = await seated_page(browser, server, "alice", errors)
        alice_frames: list[str] = []
        alice.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: alice_frames.append(payload if isinstance(payload, str) else "")))
        await alice.reload()  # her socket from now on is recorded
        await alice.wait_for_selector(choice("stand"))
        bob = await seated_page(browser, server, "bob", errors)
        await host.host("resume", table="duel")
        for page, stake in ((alice, 20), (bob, 10)):
            await page.wait_for_selector(choice("wager"))
            await page.fill(f'{choice("wager")} input[name="stake"]', str(stake))
            await page.click(f'{choice("wager")} button.act')
        await alice.wait_for_selector(choice("surrender"))
        await alice.screenshot(path=str(tmp_path / "alice-calling.png"))
        await alice.click(f'{choice("surrender")} button.act')
        await bob.wait_for_selector(choice("hold"))
        await bob.click(f'{choice("hold")} button.act')
        await watcher.wait_for_function("() => /Hand #1: settled/.test(document.querySelector('main').textContent)")
        seen = await shown(watcher)
        await watcher.screenshot(path=str(tmp_path / "watcher-settled.png"))
        await alice.screenshot(path=str(tmp_path / "alice-settled.png"))
        await browser.close()
    assert not errors, errors
    _, settled = await host.event("duel_settled")
    alices = set(own_cards(alice_frames))
    assert len(alices) == 1, alice_frames  # her own card reached her page
    assert [seat for seat, _ in settled["shown"]] == [2]  # the surrendered card is not shown
    assert alices.isdisjoint(card for card, _ in frame_cards(frames))  # nor sent to the spectator, ever
    hidden = {card for _, card in settled["shown"]} | {settled["dealer_hole"]}
    before_showdown = _frames_before(frames, "duel_settled")
    assert hidden.isdisjoint(card for card, _ in frame_cards(before_showdown)), before_showdown
    # A page that does not know the game shows it from the server's generic facts, plainly.
    assert seen["title"] == "duel \u00b7 Dealer Duel \u00b7 watching", seen
    assert "No hand was dealt" not in seen["text"], seen["text"]
    assert "This page does not know Dealer Duel" in seen["text"]
    (bobs,) = (card for seat, card in settled["shown"] if seat == 2)
    assert {settled["dealer_hole"], bobs} <= set(seen["cards"]), seen  # the showdown's cards, face up
    assert alices.isdisjoint(seen["cards"])  # the surrendered card: never
    net = dict(settled["nets"])[2]
    said = f"bob wins {net}" if net > 0 else f"bob loses {-net}" if net < 0 else "bob pushes"
    assert said in seen["results"], seen["results"]
    assert "alice loses 10" in seen["results"], seen["results"]  # half her stake of 20, surrendered


async def shown(page: Page) -> dict[str, Any]:
    """The page's title, its text, the faces of every card it shows, and its result lines."""
    return {"title": await page.inner_text("h1"), "text": await page.inner_text("main"),
            "cards": await page.eval_on_selector_all(".card[data-card]", "els => els.map(e => e.dataset.card)"),
            "results": await page.eval_on_selector_all(".result-list li", "els => els.map(e => e.textContent)")}


def own_cards(frames: list[str]) -> Iterator[str]:
    """The card of every ``your_card`` payload in the frames (what only its seat receives)."""
    def walk(value: Any) -> Iterator[str]:
        if isinstance(value, dict):
            if value.get("type") == "your_card":
                yield value["card"]
            for item in value.values():
                yield from walk(item)
        elif isinstance(value, list):
            for item in value:
                yield from walk(item)
    for frame in frames:
        body = frame.lstrip("0123456789")
        if body.startswith("["):
            yield from walk(json.loads(body))


def _frames_before(frames: list[str], event_type: str) -> list[str]:
    out = []
    for frame in frames:
        if event_type in frame:
            break
        out.append(frame)
    return out
