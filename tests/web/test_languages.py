"""The table page in English, Spanish and German (issue 28 item 5, docs/i18n.md).

Each language is the browser's own (Playwright's ``locale``), then switched in the page's header:
the page's words, the buttons the server's choices make, and a refusal the server says in the
page's language (its code unchanged).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .conftest import WebServer
from .helpers import PHONE

LAPTOP_800 = {"width": 1280, "height": 800}
SHOTS = Path("/tmp/hcf-i18n-shots")
# A dead hand's reason in the results: the DP could not cover what it owed.
DEAD_FOR_FUNDS = {
    "en": "dead: the DP's 40 chips could not cover the 90 owed; bets and fee returned",
    "es": "mano muerta: las 40 fichas del jugador designado no cubrían las 90 debidas; apuestas y cargo devueltos",
    "de": "tote Hand: die 40 Chips des designierten Spielers deckten die geschuldeten 90 nicht; Einsätze und Gebühr "
          "zurück",
}
# What each language says: the nav, the log's title, the Sit button, and the refusal of a buy-in of 1.
SAYS = {
    "en-US": ("Lobby", "History", "Table log", "Sit", "the buy-in is 100 to 10000 chips, got 1"),
    "es-ES": ("Sala", "Historial", "Registro de la mesa", "Sentarse",
              "la compra de fichas es de 100 a 10000 fichas, no 1"),
    "de-DE": ("Lobby", "Verlauf", "Tischprotokoll", "Hinsetzen", "das Buy-in beträgt 100 bis 10000 Chips, nicht 1"),
}


def _guest(server: WebServer, browser: Browser, table: str, name: str, locale: str,
           viewport: Any = LAPTOP_800) -> tuple[Page, list[str]]:
    token = server.invite(table, "player").split("#", 1)[1]
    got = server.call("POST", "/api/invites/redeem", {"token": token, "name": name})
    assert got["ok"], got
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")
    page.evaluate("([t, n]) => localStorage.setItem('hcf-table', JSON.stringify({token: t, name: n}))",
                  [got["token"], got["name"]])
    page.goto(f"{server.url}/table/{table}")
    return page, errors


def _says(page: Page, locale: str, table: str) -> None:
    lobby, history, log, sit, refusal = SAYS[locale]
    page.wait_for_selector(".choice-sit button")
    assert page.locator("html").get_attribute("lang") == locale[:2]
    assert page.locator("header nav a").nth(0).inner_text() == lobby
    assert page.locator("header nav a").nth(1).inner_text() == history
    assert page.locator("details.logbox summary").inner_text() == log
    assert page.locator(".choice-sit button").inner_text().startswith(sit)
    reply = page.evaluate("(table) => window.tablePage.request('sit', {table, buy_in: 1})", table)
    assert reply["ok"] is False
    assert reply["error"] == {"code": "buy_in/out_of_range", "message": refusal}
    dead = page.evaluate("async () => (await import('/static/results.js')).deadText("
                         "{dead_reason: 'funds', bank: 40, owed: 90})")
    assert dead == DEAD_FOR_FUNDS[locale[:2]]


@pytest.mark.parametrize("locale", list(SAYS))
def test_the_table_page_speaks_the_browsers_language(web_server: WebServer, browser: Browser, locale: str) -> None:
    table = f"lang-{locale[:2]}"
    assert web_server.host("create_table", table=table, settings={"min_buy_in": 100, "max_buy_in": 10000})["ok"]
    for width, viewport in (("laptop", LAPTOP_800), ("phone", PHONE)):
        page, errors = _guest(web_server, browser, table, f"{locale[:2]}{width}", locale, viewport)
        _says(page, locale, table)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / f"table-{locale}-{width}.png"))
        assert not errors
        page.context.close()


def test_the_switch_changes_the_language_and_remembers_it(web_server: WebServer, browser: Browser) -> None:
    assert web_server.host("create_table", table="lang-switch",
                           settings={"min_buy_in": 100, "max_buy_in": 10000})["ok"]
    page, errors = _guest(web_server, browser, "lang-switch", "switcher", "en-US")
    _says(page, "en-US", "lang-switch")
    with page.expect_navigation():
        page.select_option("#language", "de")
    _says(page, "de-DE", "lang-switch")
    with page.expect_navigation():
        page.select_option("#language", "es")
    _says(page, "es-ES", "lang-switch")
    page.goto(web_server.url + "/")  # remembered on the next page: the lobby
    page.wait_for_selector("table.lobby")
    assert page.locator("h2").first.inner_text() == "Mesas"
    assert page.locator("#language").input_value() == "es"
    assert not errors
    page.context.close()
