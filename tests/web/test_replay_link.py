"""Replays by link (issue 28, item 4): /history/TABLE/N#step=K opened by an anonymous browser.

Bots play a few hands while a spectator watches the table and keeps every frame it receives.
Then a browser with no account and no token opens a hand's link at a step: the page shows that
step, the keyboard moves through the hand and the URL follows, the deal is checked, and no card
appears that the spectator was not sent live (never a folded hand).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from server.rules.cards import cards_list
from server.rules.fairness import deal_deck, player_seed_bytes
from server.rules.hcf.deal import deal_hands

from .conftest import ROOT, WebServer
from .helpers import PHONE, Person, frame_cards

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
LAPTOP_800 = {"width": 1280, "height": 800}
TABLE = "replays"


@pytest.fixture(scope="module")
def played(web_server: WebServer, browser: Browser) -> Iterator[tuple[Person, list[dict[str, Any]]]]:
    """A table where bots played while a spectator watched; the spectator and the finished hands."""
    made = web_server.host("create_table", table=TABLE, settings={"pause_seconds": 0.2})
    assert made["ok"], made
    spectator = Person.open(browser, "watcher", f"{web_server.url}/watch/{TABLE}", record=True)
    spectator.page.wait_for_selector(".felt")
    bots = subprocess.run(
        [sys.executable, "-m", "client_cli.cli", "bot", "--server", web_server.url, "--table", TABLE, "--count", "3",
         "--hands", "4", "--fast", "--strategy", "random", "--seed", "28", "--timeout", "120", "--prefix", "fr"],
        cwd=ROOT, capture_output=True, text=True, timeout=180, check=False)
    assert bots.returncode == 0, bots.stdout + bots.stderr
    web_server.host("pause", table=TABLE)
    spectator.page.wait_for_timeout(500)  # the last frames of the last hand
    hands = web_server.call("GET", f"/api/tables/{TABLE}/hands?limit=20")["hands"]
    assert hands, "the bots finished hands"
    yield spectator, hands
    spectator.context.close()


def dealt_cards(hand: dict[str, Any]) -> dict[int, list[str]]:
    """Every seat's cards as the revealed seeds deal them (what the page must not show of a folded seat)."""
    seeds = [player_seed_bytes(str(seed)) for _, seed in hand["player_seeds"]]
    _, _, deck = deal_deck(bytes.fromhex(hand["server_seed"]), seeds)
    return {seat: cards_list(cards) for seat, cards in deal_hands(deck, [int(s) for s in hand["deal_order"]])}


def folded_seats(hand: dict[str, Any]) -> list[int]:
    return [int(row["seat"]) for row in (hand.get("settlement") or {}).get("seats") or [] if row.get("folded")]


def anonymous(browser: Browser, viewport: Any = LAPTOP_800) -> Page:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors  # type: ignore[attr-defined]  # read at the end of the test
    return page


def on_page_cards(page: Page) -> set[str]:
    return set(page.eval_on_selector_all("[data-card]", "els => els.map((e) => e.dataset.card)"))


def test_a_replay_link_shows_its_step_and_nothing_a_spectator_could_not_see(
        web_server: WebServer, browser: Browser, played: tuple[Person, list[dict[str, Any]]]) -> None:
    spectator, hands = played
    live = {card for card, _ in frame_cards(spectator.frames)}
    settled = [h for h in hands if h["status"] == "settled" and h.get("deal_order")]
    assert settled, hands
    hand = max(settled, key=lambda h: len(folded_seats(h)))  # a hand with a fold, if the bots folded
    page = anonymous(browser)
    page.goto(f"{web_server.url}/history/{TABLE}/{hand['number']}#step=3")
    page.wait_for_selector(".steps li.now")
    count = int(re.search(r"of (\d+)", page.inner_text(".counter")).group(1))  # type: ignore[union-attr]
    assert page.inner_text(".counter") == f"step 3 of {count}"
    assert page.locator(".steps li").count() == 3
    assert page.locator(".steps li.now").count() == 1
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#step=4"
    assert page.inner_text(".counter") == f"step 4 of {count}"
    page.keyboard.press("Home")
    assert page.evaluate("location.hash") == "#step=1"
    assert page.locator(".steps li").count() == 1
    page.keyboard.press("End")
    assert page.evaluate("location.hash") == f"#step={count}"
    page.wait_for_function("() => /deal verified/.test(document.querySelector('.replay .verdict').textContent)")
    assert page.get_attribute(".step-link", "href") == f"/history/{TABLE}/{hand['number']}#step={count}"
    shown = on_page_cards(page)
    assert shown, "the showdown's cards are on the page"
    assert shown <= live, f"the replay shows cards the spectator never saw: {sorted(shown - live)}"
    dealt = dealt_cards(hand)
    for seat, cards in hand["shown"].items():  # the seeds deal what was shown: so a folded seat's cards are known
        assert sorted(dealt[int(seat)]) == sorted(cards)
    for seat in folded_seats(hand):
        assert not set(dealt[seat]) & shown, f"seat {seat} folded, but its cards are on the page"
    page.evaluate("location.hash = '#step=2'")
    page.wait_for_function("() => document.querySelector('.counter').textContent.startsWith('step 2 of')")
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def test_every_hand_in_the_list_links_to_its_first_step(
        web_server: WebServer, browser: Browser, played: tuple[Person, list[dict[str, Any]]]) -> None:
    _, hands = played
    page = anonymous(browser)
    page.goto(f"{web_server.url}/history/{TABLE}")
    page.wait_for_selector(".hand-link")
    links = page.eval_on_selector_all(".hand-link", "els => els.map((e) => e.getAttribute('href'))")
    assert links == [f"/history/{TABLE}/{h['number']}#step=1" for h in hands]
    page.click(f".hand-link >> text=Hand #{hands[-1]['number']}")
    page.wait_for_selector(".steps li.now")
    assert page.evaluate("location.pathname + location.hash") == f"/history/{TABLE}/{hands[-1]['number']}#step=1"
    page.context.close()


@pytest.mark.usefixtures("played")
def test_a_link_to_a_hand_that_does_not_exist_says_so(web_server: WebServer, browser: Browser) -> None:
    page = anonymous(browser)
    page.goto(f"{web_server.url}/history/{TABLE}/999#step=2")
    page.wait_for_selector(".replay .bad")
    text = page.inner_text(".replay .bad")
    assert "999" in text
    assert "/" not in text
    page.context.close()


@pytest.mark.parametrize(("name", "viewport"), [("laptop", LAPTOP_800), ("phone", PHONE)])
def test_the_replay_screenshots(web_server: WebServer, browser: Browser, name: str, viewport: Any,
                                played: tuple[Person, list[dict[str, Any]]]) -> None:
    _, hands = played
    hand = next(h for h in hands if h["status"] == "settled")
    page = anonymous(browser, viewport)
    page.goto(f"{web_server.url}/history/{TABLE}/{hand['number']}#step=99")
    page.wait_for_function("() => /deal verified/.test(document.querySelector('.replay .verdict')?.textContent)")
    count = page.locator(".steps li").count()
    assert page.evaluate("location.hash") == f"#step={count}", "a step past the end shows the last"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"], f"the page scrolls sideways ({width} px)"
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS_IMG / f"replay-{name}.png"), full_page=name == "phone")
    page.context.close()


@pytest.mark.usefixtures("played")
def test_the_host_console_settles_up_the_night_in_sentences(web_server: WebServer, browser: Browser) -> None:
    page = anonymous(browser)
    page.goto(f"{web_server.url}/")
    page.evaluate("t => localStorage.setItem('hcf-table', JSON.stringify({host_token: t}))", web_server.host_token)
    page.goto(f"{web_server.url}/host")
    page.fill("#settle-table", TABLE)
    page.click("form[aria-label='settle up'] button[type=submit]")
    page.wait_for_selector(".settle-lines li.heading")
    lines = page.eval_on_selector_all(".settle-lines li", "els => els.map((e) => e.textContent)")
    answer = web_server.call("GET", f"/api/tables/{TABLE}/settle-up", token=web_server.host_token)
    assert lines == answer["lines"]
    assert lines[0] == f"Settle-up at {TABLE} since the table opened."
    assert any(re.fullmatch(r"fr\d pays (fr\d|the house) \d+\.", line) for line in lines)
    page.locator("form[aria-label='settle up']").screenshot(path=str(DOCS_IMG / "settle-up-laptop.png"))
    page.context.close()


REPLAY_STEPS = """async () => {
    const r = await import("/static/history.js");
    const words = (hand, game) => r.steps(hand, game).map(([text]) => text);
    const hcf = {number: 1, dealer: 1, names: {"1": "ann", "2": "ben", "3": "cleo"}, deal_order: [2, 3, 1],
                 bets: {"2": {ante: 5, raise: 0}, "3": {ante: 5, flush_bonus: 2, raise: 10}},
                 settlement: {seats: [{seat: 3, folded: false}, {seat: 2, folded: true}]}};
    const stud = {number: 2, names: {"1": "ann", "2": "ben"}, deal_order: [1, 2],
                  bets: [{spot: 1, seat: 1, ante: 5, bet: 0, folded: "fold"}, {spot: 2, seat: 2, ante: 5, bet: 10}]};
    return [words(hcf, "hcf"), words(stud, "caribbean")];
}"""


def test_each_decision_is_a_step_after_the_deal_never_with_the_bets(
        web_server: WebServer, browser: Browser) -> None:
    # The replay said "cleo bets ante 5, raise 10" before "the cards are dealt", and a fold was no step at all.
    page = anonymous(browser)
    page.goto(web_server.url + "/")
    hcf, stud = page.evaluate(REPLAY_STEPS)
    page.context.close()
    assert hcf[:6] == ["Hand #1 starts, seat 1 ann banks", "seat 2 ben bets Ante 5",
                       "seat 3 cleo bets Ante 5, Flush bonus 2", "the cards are dealt", "seat 2 ben folds",
                       "seat 3 cleo raises 10"], hcf
    assert stud[3:6] == ["the cards are dealt", "seat 1 ann folds spot 1", "seat 2 ben plays spot 2: Back Bet 10"], stud
