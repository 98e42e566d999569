"""The host's replay links and sessions in the browser (issue 28, items 3 and 4): the host console sets who may
open a table's replays and opens and closes its session (closing shows the final settle-up); a refused replay
link shows a sentence, never JSON or a trace, to an anonymous browser."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from .conftest import WebServer

TABLE = "privy"


@pytest.fixture(scope="module")
def host_page(web_server: WebServer, browser: Browser) -> Iterator[Page]:
    """The host console, logged in with the host token, its settle-up panel on the module's table."""
    assert web_server.host("create_table", table=TABLE, settings={"pause_seconds": 0.2})["ok"]
    page = browser.new_context().new_page()
    page.goto(f"{web_server.url}/")
    page.evaluate("t => localStorage.setItem('hcf-table', JSON.stringify({host_token: t}))", web_server.host_token)
    page.goto(f"{web_server.url}/host")
    page.fill("#settle-table", TABLE)
    yield page
    page.context.close()


def anonymous_text(browser: Browser, url: str, selector: str) -> str:
    page = browser.new_context().new_page()
    try:
        page.goto(url)
        page.wait_for_selector(selector)
        page.wait_for_timeout(300)  # the hands' list answers too: it must not say the refusal again
        return page.inner_text("main")
    finally:
        page.context.close()


def test_a_replay_link_the_host_keeps_to_the_players_is_refused_in_a_sentence(
        web_server: WebServer, browser: Browser, host_page: Page) -> None:
    host_page.select_option("#replays-who", "players")
    host_page.click("form[aria-label='replay links'] button[type=submit]")
    host_page.wait_for_selector(".replays-said:has-text('only the people')")
    assert host_page.inner_text(".replays-said") == \
        f"At {TABLE}, only the people who played at this table (and the host) may open its replays."
    text = anonymous_text(browser, f"{web_server.url}/history/{TABLE}/1#step=1", ".replay .bad")
    sentence = ("The host lets only the people who played at privy open its replays: log in with the account "
                "you played with.")
    assert sentence in text
    assert text.count("The host lets only") == 1, text
    assert not any(mark in text for mark in ("{", "}", "auth/", "hand/", "Traceback")), text
    host_page.select_option("#replays-who", "anyone")
    host_page.click("form[aria-label='replay links'] button[type=submit]")
    host_page.wait_for_selector(".replays-said:has-text('anyone with a link')")
    text = anonymous_text(browser, f"{web_server.url}/history/{TABLE}", ".hands li")
    assert "No hand is finished at this table yet." in text


def test_the_host_opens_and_closes_the_session_and_sees_its_final_settle_up(host_page: Page) -> None:
    host_page.click("button.open-session")
    host_page.wait_for_selector(".settle-lines li:has-text('is open')")
    assert host_page.inner_text(".settle-lines") == f"Session 1 at {TABLE} is open: settle-up counts from now."
    host_page.click("button.close-session")
    host_page.wait_for_selector(".settle-lines li:has-text('is closed')")
    lines = host_page.eval_on_selector_all(".settle-lines li", "els => els.map((e) => e.textContent)")
    assert lines[0] == f"Session 1 at {TABLE} is closed."
    assert lines[1].startswith(f"Settle-up at {TABLE} in session 1, from ")
    assert lines[-1] == "Nobody owes anybody anything."
    host_page.fill("#settle-session", "1")
    host_page.click("form[aria-label='settle up'] button[type=submit]")
    host_page.wait_for_selector(".settle-lines li.heading")
    assert host_page.eval_on_selector_all(".settle-lines li", "els => els.map((e) => e.textContent)") == lines[1:]
    host_page.fill("#settle-session", "7")
    host_page.click("form[aria-label='settle up'] button[type=submit]")
    host_page.wait_for_selector(".settle-lines li.bad")
    assert host_page.inner_text(".settle-lines") == f"there is no session 7 at {TABLE}: it has only session 1"
