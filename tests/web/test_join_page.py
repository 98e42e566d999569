"""The join page names what a link invites to (the table, its game, the role) before it asks anything.

A real server and Debian's chromium (conftest.py); each link is opened at 1280x800 and at
360x740, and the page is read as a person reads it. Opening a link uses nothing up.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from .conftest import WebServer

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
LAYOUT_PROBLEMS = (Path(__file__).resolve().parent / "layout_problems.js").read_text(encoding="utf-8")
SIZES: dict[str, ViewportSize] = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 740}}


@pytest.fixture(params=sorted(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    """``laptop`` (1280x800) or ``phone`` (360x740)."""
    name: str = request.param
    return name


@pytest.fixture
def page(size: str, browser: Browser) -> Iterator[Page]:
    """A fresh browser (nothing stored) at one of the two sizes; it must raise no error."""
    context = browser.new_context(viewport=SIZES[size])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # a refusal's HTTP status is logged by the browser itself ("Failed to load resource"): the page said it
    page.on("console", lambda msg: errors.append(msg.text)
            if msg.type == "error" and not msg.text.startswith("Failed to load resource") else None)
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def used(server: WebServer) -> int:
    """How many times the newest link of table main has been redeemed (the host's list)."""
    invites = server.call("GET", "/api/invites?table=main", token=server.host_token)["invites"]
    newest = invites[0]  # each test makes its link just before it looks
    assert newest["role"] in ("player", "spectator", "floor"), newest
    count: int = newest["used"]
    return count


def opened(page: Page, url: str) -> str:
    """Open the link and wait for the page to say what it is; the heading."""
    page.goto(url)
    page.wait_for_selector("h1.invitation, h1:text('does not work')")
    assert "#" not in page.url, "the token left the address at once"
    assert page.evaluate(LAYOUT_PROBLEMS) == [], "nothing runs out of the page or out of its box"
    return page.inner_text("h1")


def shot(page: Page, name: str, size: str) -> None:
    """The page as it is, for docs/img (and for a person to look at)."""
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS_IMG / f"join-{name}-{size}.png"), full_page=True)


def test_a_player_link_names_the_table_the_game_and_playing_and_asks_a_name(page: Page, size: str,
                                                                           web_server: WebServer) -> None:
    url = web_server.invite("main", "player")
    assert opened(page, url) == "You are invited to play High Card Flush at table main."
    terms = page.inner_text(".terms")
    assert terms.startswith("The link works until ")
    assert "hours and" in terms or "12 hours" in terms
    assert page.is_visible("#join-name")
    assert page.inner_text("form.join button") == "Join"
    shot(page, "player", size)
    assert used(web_server) == 0, "opening the link used nothing up"
    page.fill("#join-name", f"ann{size}")
    page.click("form.join button")
    page.wait_for_url("**/table/main")
    assert used(web_server) == 1


def test_a_spectator_link_asks_nothing_and_goes_straight_to_the_table(page: Page, size: str,
                                                                    web_server: WebServer) -> None:
    url = web_server.invite("main", "spectator")  # issue 23, item 13: it asked a name and stayed on /join
    page.goto(url)
    page.wait_for_url("**/watch/main")
    page.wait_for_selector("h1:text-matches('watching', 'i')")
    assert page.locator("#join-name").count() == 0
    page.wait_for_selector("text=The table is")
    said = page.inner_text("main")
    assert said.count("waiting for players") <= 1, "the table's status is said once"  # was "... (waiting for players)"
    shot(page, "spectator", size)
    assert used(web_server) == 1


def test_a_floor_link_names_running_the_table_and_its_uses_left(page: Page, web_server: WebServer) -> None:
    url = web_server.call("POST", "/api/invites", {"table": "main", "role": "floor", "uses": 2},
                          web_server.host_token)["url"]
    assert opened(page, url) == "You are invited to run table main (High Card Flush) as floor staff."
    assert page.inner_text(".terms").endswith("from now). It can still be used 2 times.")
    assert page.is_visible("#join-name")


def test_a_revoked_link_says_why_before_asking_anything(page: Page, size: str, web_server: WebServer) -> None:
    url = web_server.invite("main", "player")
    invite_id = web_server.call("GET", "/api/invites?table=main", token=web_server.host_token)["invites"][0]["id"]
    web_server.call("DELETE", f"/api/invites/{invite_id}", token=web_server.host_token)
    assert opened(page, url) == "This invite link does not work"
    assert page.inner_text("[role=alert]") == "The host has revoked that invite link: ask for a new one."
    assert page.locator("form").count() == 0
    shot(page, "revoked", size)
