"""The house rules for the bank in the browser (issue 26): the lobby and the table show the posted rules, the
rotation's status and the fee schedule in sentences, and a game the rules end says so, at 1280 and 360 px.

A real server (tests/web/conftest.py) and Debian's chromium; the guests let the bank's offer run out (a refusal),
so the bank goes round the table with no taker and, under ``nobody_banks: end``, the game ends.
"""

from __future__ import annotations

from playwright.sync_api import Browser

from .conftest import WebServer
from .helpers import PHONE, Person
from .test_table_page import LAPTOP_800, guest, in_view, layout_problems, people, sit

__all__ = ["people"]  # the module's guests, closed after it (a fixture of test_table_page.py)

RULES = {"bank_keep": 2, "nobody_banks": "end", "offer_seconds": 2, "pause_seconds": 0.3,
         "fee_schedule": [{"ante_to": 100, "player": 1, "dp": 2}, {"ante_to": 500, "player": 2, "dp": 4}]}
SAID = ("a player may bank up to 2 hands in a row, then the bank moves on",
        "when the bank goes round the table and nobody takes it, the game ends",
        "Ante 1 to 100: each player pays 1, the DP pays 2", "Ante 101 to 500: each player pays 2, the DP pays 4")


def test_the_lobby_and_the_table_show_the_house_rules_and_the_game_that_ends(
        web_server: WebServer, browser: Browser, people: list[Person]) -> None:
    assert web_server.host("create_table", table="rules", settings=RULES)["ok"]
    context = browser.new_context(viewport=LAPTOP_800)
    try:
        page = context.new_page()
        page.goto(web_server.url + "/")
        page.wait_for_selector('tr[data-notes="rules"]')
        lobby = page.inner_text('tr[data-notes="rules"]')
        plain = page.inner_text('tr[data-table="main"]')
        assert page.locator('tr[data-notes="main"]').count() == 0  # a table without house rules shows none
    finally:
        context.close()
    for sentence in SAID:
        assert sentence in lobby, lobby
    assert "House rules for the bank" not in plain
    ann = guest(web_server, browser, people, "rules", "ann")
    bo = guest(web_server, browser, people, "rules", "bo", viewport=PHONE)
    sit(ann)
    sit(bo)
    for person in (ann, bo):  # nobody answers the offer: it runs out, a refusal, and the game ends
        centre = person.wait_text(".centre", "the game ended", timeout=60_000)
        assert "closed for now: the game ended, until the host reopens it" in centre, centre
        for sentence in SAID:
            assert sentence in centre, (person.name, centre)
        assert "The bank's rotation: nobody has banked a hand under these rules yet" in centre, centre
        assert "_" not in centre, centre  # no code, only sentences
        assert all(in_view(person.page, ".centre .house-notes")), person.name
        assert not layout_problems(person.page), (person.name, layout_problems(person.page))
        log = person.wait_text("main", "the game ends: the bank went round the table and nobody took it")
        assert "game_ended" not in log
    assert not [e for p in (ann, bo) for e in p.errors], [p.errors for p in (ann, bo)]
