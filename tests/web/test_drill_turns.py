"""Several trainees at one drill table in the browser (issue 27, item 6): the drill page says who deals in turn
and whose turn it is, and a trainee whose turn it is not sees that the step asked is the other one's, not a form.

A Caribbean Stud drill table of tina and ula asks the payouts; ann plays her two spots over Socket.IO (a thread
of its own); hand 1 is tina's, and ula watches it in Debian's chromium, on a laptop and on a phone.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest
from playwright.sync_api import Browser

from .conftest import WebServer
from .helpers import Person
from .test_drill_payout import HANDS, TABLE, _ann, _guest

SETTINGS: dict[str, Any] = {
    "game": "caribbean", "pause_seconds": 0.3, "jackpot": False, "max_hands_while_waiting": 2, "bet_seconds": 120,
    "action_seconds": 120, "chips": [1, 5, 25, 100, 500],
    "drill": {"trainees": ["tina", "ula"], "trainee_turn": 1, "steps": ["payout"], "step_seconds": 300}}


@pytest.mark.parametrize("phone", [False, True])
def test_the_drill_page_says_whose_turn_it_is_and_leaves_the_others_step_to_them(
        web_server: WebServer, browser: Browser, phone: bool) -> None:
    table = f"{TABLE}{int(phone)}"
    tina, ula = _guest(web_server, f"tina{int(phone)}"), _guest(web_server, f"ula{int(phone)}")
    drill = SETTINGS["drill"] | {"trainees": [tina["name"], ula["name"]]}
    assert web_server.host("create_table", table=table, settings=SETTINGS | {"drill": drill})["ok"]
    assert web_server.host("pause", table=table)["ok"]
    ann = _guest(web_server, f"ann{int(phone)}")
    ready, done = threading.Event(), threading.Event()
    problems: list[str] = []
    player = threading.Thread(target=lambda: asyncio.run(_ann(web_server, ann["token"], ready, done, problems,
                                                              table)))
    player.start()
    person = Person.open(browser, ula["name"], web_server.url + "/", phone=phone)
    try:
        assert ready.wait(30), "ann sat"
        assert not problems, problems
        assert web_server.host("arrange_deck", table=table, hands=HANDS)["arranged_cards"] == 15
        person.page.evaluate("([t, n]) => localStorage.setItem('hcf-table', JSON.stringify({token: t, name: n}))",
                             [ula["token"], ula["name"]])
        person.page.goto(f"{web_server.url}/drill/{table}")
        turn = person.page.locator(".drill-turn").first
        turn.wait_for()
        assert turn.inner_text() == f"Trainees {tina['name']} and {ula['name']} deal in turn, 1 hand each: " \
                                    f"{tina['name']} deals now."
        assert web_server.host("resume", table=table)["ok"]
        others = person.page.locator("section.drill p.drill-turn")
        others.wait_for(timeout=60_000)
        assert others.inner_text() == f"Hand 1 is {tina['name']}'s to deal: step 1 is theirs to answer. " \
                                      "You watch until your turn."
        assert person.page.locator("form.drill-answer").count() == 0, "no form: the step is the other trainee's"
        assert not person.errors, person.errors
        assert web_server.host("drill_end", table=table)["ok"], "the step unanswered: the hand plays on"
    finally:
        done.set()
        player.join(60)
        person.context.close()
    assert not problems, problems
