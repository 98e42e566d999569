"""The table page in English, Spanish and German (issue 28 item 5, docs/i18n.md).

Each language is the browser's own (Playwright's ``locale``), then switched in the page's header:
the page's words, the buttons the server's choices make, and a refusal the server says in the
page's language (its code unchanged). The sentences the server shares with every viewer (the house
notes, a waiting message, the drill's feedback) are said from their message id in the page's language.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from server.rules.drill.steps import KeyStep
from server.table.drill_events import Answered
from server.table.drill_state import answer_json

from .conftest import WebServer
from .helpers import PHONE, Person

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


# The sentences every viewer shares, in Spanish and German: the house notes' title and a fee line, the host's
# arranged-deck message in the table's log, and the drill's feedback to a Raise answered wrong.
HOUSE_RULES = {"bank_keep": 2, "nobody_banks": "end",
               "fee_schedule": [{"ante_to": 100, "player": 1, "dp": 2}, {"ante_to": 500, "player": 2, "dp": 4}]}
SHARED = {
    "es-ES": ("Reglas de la casa para la banca", "Ante de 1 a 100: cada jugador paga 1, el jugador designado paga 2",
              "el anfitrión preparó la próxima baraja: esa mano no es un reparto al azar",
              "incorrecto: la Subida gana 20 (usted dijo que gana 10); en el asiento 4 lo demás era correcto. "
              "La respuesta correcta: el asiento 4: el Ante gana 10, la Subida gana 20, "),
    "de-DE": ("Hausregeln für die Bank",
              "Pflichteinsatz (Ante) 1 bis 100: jeder Spieler zahlt 1, der designierte Spieler zahlt 2",
              "der Gastgeber hat das nächste Deck vorbereitet: diese Hand ist kein zufälliges Austeilen",
              "falsch: die Erhöhung gewinnt 20 (Sie sagten: gewinnt 10); der Rest von Platz 4 war richtig. Die "
              "richtige Antwort: Platz 4: der Pflichteinsatz (Ante) gewinnt 10, die Erhöhung gewinnt 20, "),
}
WRONG_RAISE = Answered(n=1, hand=1, step=KeyStep("settle_seat", {"seat": 4, "ante": 10, "raise": 20,
                                                                  "straight_flush_bonus": 0, "flush_bonus": -5},
                                                 "RULES 3.7"),
                       given={"seat": 4, "ante": 10, "raise": 10, "straight_flush_bonus": 0, "flush_bonus": -5},
                       seconds=3.0)


@pytest.mark.parametrize("locale", list(SHARED))
def test_the_sentences_every_viewer_shares_are_said_in_the_pages_language(
        web_server: WebServer, browser: Browser, locale: str) -> None:
    title, fee, arranged, feedback = SHARED[locale]
    table = f"shared-{locale[:2]}"
    created = web_server.host("create_table", table=table, settings=HOUSE_RULES)
    assert created["ok"], created
    page, errors = _guest(web_server, browser, table, f"lone{locale[:2]}", locale)
    person = Person(f"lone{locale[:2]}", page.context, page)
    notes = person.wait_text(".house-notes", title)
    assert fee in notes, notes
    assert "House rules" not in notes, notes
    assert "each player pays" not in notes, notes
    person.wait_choice("sit")
    person.submit("sit")
    assert web_server.host("arrange_deck", table=table, cards="As Ks Qs Js Ts 9s 8s 7s 6s 5s 4s 3s 2s Ah")["ok"]
    log = person.wait_text("main", arranged)  # the table's log says the server's message in this language
    assert "the host arranged" not in log, log
    reply = answer_json(WRONG_RAISE)  # the drill's reply to a wrong answer, as the server makes it
    said = page.evaluate("async (reply) => (await import('/static/i18n.js')).said(reply, 'feedback')", reply)
    assert said.startswith(feedback), said
    cited = {"es-ES": "las reglas de High Card Flush, sección 3.7, Liquidación",  # the section's title translated
             "de-DE": "die Regeln von High Card Flush, Abschnitt 3.7, Abrechnung"}
    assert said.endswith(f"(RULES 3.7: {cited[locale]})."), said
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"shared-{locale}.png"))
    assert not errors
    page.context.close()


# The legend of each house game's bet form, and the deal check's complaint of a seed that is not hex.
HOUSE_FORMS = {
    ("es-ES", "sixcard"): ("Apuestas por casilla", "casilla 1",
                           "la semilla revelada del servidor no está en hexadecimal"),
    ("de-DE", "caribbean"): ("Einsätze nach Feld", "Feld 1", "der offengelegte Server-Seed ist nicht hexadezimal"),
}


@pytest.mark.parametrize(("locale", "game"), list(HOUSE_FORMS))
def test_a_house_games_bet_form_and_the_deal_check_speak_the_pages_language(
        web_server: WebServer, browser: Browser, locale: str, game: str) -> None:
    """Found by hand: a Spanish page's 6 Card Poker bets read "Bets by box" and "box 1", and a failed deal check
    said its problems in English."""
    legend, first, not_hex = HOUSE_FORMS[(locale, game)]
    table = f"form-{game}"
    assert web_server.host("create_table", table=table, settings={"game": game, "bet_seconds": 120})["ok"]
    page, errors = _guest(web_server, browser, table, f"form{locale[:2]}", locale, PHONE)
    page.click(".choice-sit button")
    page.wait_for_selector("fieldset.bets legend")
    assert page.locator("fieldset.bets legend").inner_text() == legend
    assert page.locator("fieldset.bets .bet-row label").first.inner_text().strip() == first
    controls = page.locator(".controls").inner_text()
    assert "Bets by" not in controls
    assert not re.search(r"\b(box|spot) \d", controls), controls
    # Also found then: the log's newest line was numbered 1, and the felt said "Dealer" twice while bets were open.
    assert page.evaluate("document.querySelector('ol.log').reversed"), "the log's first line is 1, its newest the last"
    assert page.locator(".centre .dealer").count() == 0, "no empty dealer's row under the dealer's place"
    check = page.evaluate("async () => (await import('/static/verify.js')).verifyReveal("
                          "{number: 1, deal_order: [1], server_seed: 'zz', commitment: 'ab'}, {cards: new Map()})")
    assert check["problems"] == [not_hex]
    assert not errors
    page.context.close()
