"""The away switch in the page (issue 28 item 6): a button (and its shortcut) that everyone sees as a tag on the seat.

One real server and Debian's chromium for the module, as the other page tests.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from .conftest import WebServer
from .helpers import PHONE, Person
from .test_table_page import LAPTOP_800, guest, layout_problems, sit

SHOTS = os.environ.get("HCF_SHOTS")  # a folder to keep the screenshots in, to look at them


@pytest.fixture(scope="module")
def people() -> Iterator[list[Person]]:
    opened: list[Person] = []
    yield opened
    for person in opened:
        person.context.close()


def test_the_away_button_tags_the_seat_for_everyone_and_the_table_plays_on_without_waiting(
        web_server: WebServer, browser: Browser, people: list[Person]) -> None:
    server = web_server
    assert server.host("create_table", table="nap", settings={"offer_seconds": 60, "bet_seconds": 60})["ok"]
    assert server.host("pause", table="nap")["ok"]
    ana, bob = (guest(server, browser, people, "nap", name) for name in ("ana", "bob"))
    for person in (ana, bob):
        sit(person)
    ana_seat = ana.page.get_attribute(".seat.mine", "data-seat")
    ana.wait_choice("away")
    assert "Away" in ana.text(ana.choice("away"))
    ana.press("away")
    tag = f'.seat[data-seat="{ana_seat}"] .tag.away-switch'
    for person in (ana, bob):
        person.page.wait_for_selector(tag)
    assert ana.page.inner_text(tag) == "away"
    bob.wait_text("main", "ana is away")
    assert "I'm back" in ana.wait_text(ana.choice("away"), "I'm back")
    assert server.host("resume", table="nap")["ok"]
    # ana sits at seat 1, where the bank is offered first: declined at once, so bob is offered it without a clock
    bob.wait_choice("bank:true", timeout=10_000)
    bob.submit("bank:true")
    bob.wait_text("main", "ana passes", timeout=10_000)  # the bets she would pass when her clock ran out: at once
    for viewport, name in ((LAPTOP_800, "laptop"), (PHONE, "phone")):
        bob.page.set_viewport_size(viewport)  # type: ignore[arg-type]
        # in one step of the page: the seat is drawn anew with each update, so a located element may go meanwhile
        bob.page.eval_on_selector(tag, "el => el.scrollIntoView({block: 'nearest'})")
        assert layout_problems(bob.page) == [], name
        if SHOTS:
            bob.page.screenshot(path=f"{SHOTS}/away-{name}.png")
    ana.submit("away")  # "I'm back"
    bob.page.wait_for_selector(tag, state="detached")
    bob.wait_text("main", "ana is back")
    assert not ana.errors
    assert not bob.errors
