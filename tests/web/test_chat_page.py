"""The table page's chat in Debian's chromium (issue 28 item 2; docs/web.md, "Chat"): markup is shown as the text
typed, never interpreted; the dealer's announcements are in the same scroll, styled apart; a flood is refused in a
sentence; the host hides the spectators' chat from the players. Screenshots at 1280x800 and 360x740 (docs/img).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from .conftest import WebServer
from .helpers import PHONE, Person

LAPTOP_800: Any = {"width": 1280, "height": 800}
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
TABLE = "chatroom"
MARKUP = '<b>bold</b> <img src=x onerror="window.pwned=1"> <script>window.pwned=2</script> &amp; done'


@pytest.fixture(scope="module")
def people() -> Iterator[list[Person]]:
    opened: list[Person] = []
    yield opened
    for person in opened:
        person.context.close()


def guest(server: WebServer, browser: Browser, people: list[Person], name: str, *, host: bool = False) -> Person:
    """A guest from a player invite on the table page (its session token in the browser's storage, as the join
    page leaves it); ``host``: the host token too."""
    token = server.invite(TABLE, "player").split("#", 1)[1]
    got = server.call("POST", "/api/invites/redeem", {"token": token, "name": name})
    assert got["ok"], got
    context = browser.new_context(viewport=LAPTOP_800)
    page = context.new_page()
    person = Person(name, context, page)
    page.on("pageerror", lambda exc: person.errors.append(str(exc)))
    page.goto(server.url + "/")
    saved = {"token": got["token"], "name": got["name"], **({"host_token": server.host_token} if host else {})}
    page.evaluate("(s) => localStorage.setItem('hcf-table', JSON.stringify(s))", saved)
    page.goto(f"{server.url}/table/{TABLE}")
    people.append(person)
    return person


def say(person: Person, text: str) -> None:
    person.page.fill("#chat-text", text)
    person.page.press("#chat-text", "Enter")


def test_markup_shows_as_text_and_the_dealer_speaks_apart_in_the_same_scroll(
        web_server: WebServer, browser: Browser, people: list[Person]) -> None:
    server = web_server
    assert server.host("create_table", table=TABLE, settings={"offer_seconds": 60, "pause_seconds": 0.3})["ok"]
    assert server.host("pause", table=TABLE)["ok"]
    ann = guest(server, browser, people, "ann", host=True)
    ben = guest(server, browser, people, "ben")
    cleo, dana = (guest(server, browser, people, name) for name in ("cleo", "dana"))  # they watch: never sit
    for person in (ann, ben):
        person.wait_choice("sit")
        person.submit("sit")
        person.page.wait_for_selector(".seat.mine")
    say(ann, MARKUP)
    for person in (ben, cleo):
        line = person.page.locator(".chat-log .chat-line", has_text="bold").first
        line.wait_for()
        assert line.locator(".text").text_content() == MARKUP
        assert person.page.locator(".chat-log b, .chat-log img, .chat-log script").count() == 0
        assert person.page.evaluate("window.pwned") is None, "the markup ran"
    # The table's own events (ben sitting down) are the dealer's, in the same scroll, styled apart.
    dealer = ben.page.locator(".chat-log .chat-dealer").first
    dealer.wait_for()
    assert "Dealer" in (dealer.text_content() or "")
    said_style = ben.page.locator(".chat-log .chat-line").first.evaluate("e => getComputedStyle(e).fontStyle")
    dealer_style = dealer.evaluate("e => [getComputedStyle(e).fontStyle, getComputedStyle(e).borderLeftStyle]")
    assert dealer_style == ["italic", "solid"]
    assert said_style != "italic"
    ben.page.locator(".reactions button", has_text="Good luck!").click()
    ann.page.locator(".chat-log .chat-line", has_text="Good luck!").wait_for()

    # A flood is refused in a sentence with the real limits; the line typed stays to send again.
    for n in range(6):
        say(cleo, f"watching {n}")
    status = cleo.wait_text(".chat-status", "at most 5 chat lines in 10 seconds")
    assert status.startswith("Not sent: you may send at most 5 chat lines in 10 seconds: wait ")
    assert cleo.page.input_value("#chat-text") == "watching 5"
    ben.page.locator(".chat-log .chat-line.room-spectators", has_text="watching 4").wait_for()
    assert "(watching)" in (ben.page.locator(".chat-log .room-spectators").first.text_content() or "")

    # The host (ann's page holds the host token) keeps the spectators' chat from the players.
    ann.page.uncheck("#chat-shown")
    ben.page.locator(".chat-log .chat-host", has_text="keeps the spectators' chat from the players").wait_for()
    say(dana, "only spectators read this")  # cleo's flood window has not passed: another spectator speaks
    cleo.page.locator(".chat-log .chat-line", has_text="only spectators read this").wait_for()
    say(ann, "the table goes on")
    ben.page.locator(".chat-log .chat-line", has_text="the table goes on").wait_for()
    assert ben.page.locator(".chat-log", has_text="only spectators read this").count() == 0
    # The host mutes ben from his line (a person's line has a Mute button on the host's page only), then unmutes.
    assert ben.page.locator(".chat-log .mute").count() == 0
    ann.page.locator(".chat-log .chat-line", has_text="Good luck!").locator("button.mute").click()
    ben.page.locator(".chat-log .chat-host", has_text="The host muted ben").wait_for()
    ben.page.locator(".reactions button", has_text="Thanks!").click()
    assert ben.wait_text(".chat-status", "muted").endswith(
        "Not sent: the host has muted you at this table: you cannot chat here.")
    ann.page.locator(".chat-log .chat-host", has_text="The host muted ben").locator("button.mute").click()
    ben.page.locator(".chat-log .chat-host", has_text="The host unmuted ben").wait_for()
    say(ben, "thanks, host")
    ann.page.locator(".chat-log .chat-line", has_text="thanks, host").wait_for()
    before = ben.page.locator(".chat-log .chat-dealer").count()
    assert server.host("resume", table=TABLE)["ok"]  # the dealer announces the hand in the same scroll
    ben.page.wait_for_function("n => document.querySelectorAll('.chat-log .chat-dealer').length > n", arg=before)
    say(ann, "<i>all in</i> :)")  # the last line of the screenshots: markup as typed, under the dealer's
    ben.page.locator(".chat-log .chat-line", has_text="all in").wait_for()
    screenshots(ben)
    for person in people:
        assert person.errors == [], person.errors


def screenshots(person: Person) -> None:
    """The table page with its chat, on a laptop (1280x800) and a 360 px phone (docs/img), nothing sideways."""
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    page = person.page
    page.locator(".chat").scroll_into_view_if_needed()
    page.screenshot(path=str(DOCS_IMG / "chat-laptop.png"))
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    page.locator(".chat").scroll_into_view_if_needed()
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(DOCS_IMG / "chat-phone.png"))
    page.set_viewport_size(LAPTOP_800)
    assert width <= PHONE["width"], f"the phone layout scrolls sideways ({width} px)"
