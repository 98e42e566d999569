"""The drill page shows the dealer's view in the trainee's language (issue 28 item 5): the table line, each
seat's bets and state come with their specs (``say``) and the page says them from its catalog, as the terminal
does; the question too. Debian's chromium in German, at a laptop's and a phone's size (screenshots in $HCF_SHOTS)."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

from playwright.sync_api import Browser

from .conftest import WebServer
from .test_drill_payout import HANDS, SETTINGS, _ann, _guest

TABLE = "stufe"
SHOTS = os.environ.get("HCF_SHOTS")  # a folder to keep the screenshots in, to look at them
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 740}}


def test_the_drill_page_says_the_dealers_view_in_german(web_server: WebServer, browser: Browser) -> None:
    tina = _guest(web_server, "tina")
    settings = SETTINGS | {"drill": SETTINGS["drill"] | {"trainee": tina["name"]}}
    assert web_server.host("create_table", table=TABLE, settings=settings)["ok"]
    assert web_server.host("pause", table=TABLE)["ok"]
    ann = _guest(web_server, "ann")
    ready, done, problems = threading.Event(), threading.Event(), []
    player = threading.Thread(target=lambda: asyncio.run(_ann(web_server, ann["token"], ready, done, problems,
                                                              TABLE)))
    player.start()
    context = browser.new_context(viewport=SIZES["laptop"], locale="de-DE")  # type: ignore[arg-type]
    try:
        assert ready.wait(30), "ann sat"
        assert not problems, problems
        assert web_server.host("arrange_deck", table=TABLE, hands=HANDS)["arranged_cards"] == 15
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(web_server.url + "/")
        page.evaluate("([t, n]) => localStorage.setItem('hcf-table', JSON.stringify({token: t, name: n, "
                      "lang: 'de'}))", [tina["token"], tina["name"]])
        page.goto(f"{web_server.url}/drill/{TABLE}")
        assert web_server.host("resume", table=TABLE)["ok"]
        page.wait_for_selector('form.drill-answer[data-step="payout"]', timeout=60_000)
        shown = page.locator("section.drill").inner_text()
        assert "Caribbean Stud: das Haus gibt und hält die Bank; Chips im Spiel 1, 5, 25, 100, 500 · das Haus" \
            in shown
        assert "Feld 1: Ante 10, BET 20" in shown
        assert "Welcher Einsatz wird als Nächstes bezahlt, wie viel und in welchen Chips?" in shown
        for english in ("the house", "chips in play", "spot 1: ante"):
            assert english not in shown, (english, shown)
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)  # type: ignore[arg-type]
            assert page.locator("section.drill h2").is_visible()  # the step's question fits at this size too
            if SHOTS:
                page.screenshot(path=str(Path(SHOTS) / f"drill-view-de-{size}.png"), full_page=True)
        assert not errors, errors
    finally:
        done.set()
        player.join(30)
        context.close()
    assert not problems, problems
