"""The table page as people found it in real use (issue 23): what it shows and where, at 1280 and 360 px.

One server and one chromium for the module. Each test makes its own table from the host
token, and its own guests (an invite redeemed over HTTP, the session token put in the
browser's storage, as the join page does).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .conftest import WebServer
from .helpers import PHONE, Person, first_with

LAPTOP_800 = {"width": 1280, "height": 800}
WIDTHS = {"laptop": LAPTOP_800, "phone": PHONE}
NAMES = {  # the widest letters of each script, at the name rule's longest (24) and shortest (1)
    "latin": ("W", "W" * 24),
    "greek": ("\u03a9", "\u03a9" * 24),
    "cjk": ("\u9f8d", "\u9f8d" * 24),
}
HOUSE_CLOCKS = {"bet_seconds": 60, "action_seconds": 60, "pause_seconds": 0.3}

HERE = Path(__file__).resolve().parent
LAYOUT_PROBLEMS = (HERE / "layout_problems.js").read_text(encoding="utf-8")
IN_VIEW = (HERE / "in_view.js").read_text(encoding="utf-8")
RENDER_ALL = (HERE / "render_all.js").read_text(encoding="utf-8")




@pytest.fixture(scope="module")
def people() -> Iterator[list[Person]]:
    opened: list[Person] = []
    yield opened
    for person in opened:
        person.context.close()


def guest(server: WebServer, browser: Browser, people: list[Person], table: str, name: str,
          viewport: Any = LAPTOP_800) -> Person:
    """A guest from a player invite, on the table page (the token in the browser's storage, never in the URL)."""
    token = server.invite(table, "player").split("#", 1)[1]
    got = server.call("POST", "/api/invites/redeem", {"token": token, "name": name})
    assert got["ok"], got
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    person = Person(name, context, page)
    page.on("pageerror", lambda exc: person.errors.append(str(exc)))
    page.goto(server.url + "/")
    page.evaluate("([t, n]) => localStorage.setItem('hcf-table', JSON.stringify({token: t, name: n}))",
                  [got["token"], got["name"]])
    page.goto(f"{server.url}/table/{table}")
    people.append(person)
    return person


def sit(person: Person) -> None:
    person.wait_choice("sit")
    person.submit("sit")
    person.page.wait_for_selector(".seat.mine")


def layout_problems(page: Page) -> list[str]:
    problems: list[str] = page.evaluate(LAYOUT_PROBLEMS)
    return problems


def in_view(page: Page, selector: str) -> list[bool]:
    seen: list[bool] = page.evaluate(IN_VIEW, selector)
    return seen


def test_unconfirmed_bets_show_in_the_betting_circles_and_a_double_tap_on_deal_does_not_leave(
        web_server: WebServer, browser: Browser, people: list[Person]) -> None:
    server = web_server
    assert server.host("create_table", table="circles", settings={"game": "caribbean", **HOUSE_CLOCKS})["ok"]
    assert server.host("pause", table="circles")["ok"]
    ann, ben = (guest(server, browser, people, "circles", name) for name in ("ann", "ben"))
    for person in (ann, ben):
        sit(person)
    assert server.host("resume", table="circles")["ok"]
    ann.wait_choice("bet")
    bet = ann.choice("bet")
    ann.page.fill(f'{bet} input[name="ante"] >> nth=0', "15")
    ann.page.check(f'{bet} input[name="jackpot"] >> nth=0')
    ann.submit("bet")
    ann.wait_choice("deal")
    for person in (ann, ben):  # everyone sees the bets on the felt, in ann's seat
        circle = person.wait_text(".seat .circle", "spot 1: Ante 15, jackpot")
        assert "not confirmed" in circle
    assert "not confirmed yet: Deal confirms them" in ann.text(".my-bets")
    for viewport in WIDTHS.values():
        ann.page.set_viewport_size(viewport)  # type: ignore[arg-type]
        ann.page.locator(".seat.mine .circle").scroll_into_view_if_needed()
        assert all(in_view(ann.page, ".seat.mine .circle")), viewport
    ann.page.set_viewport_size(LAPTOP_800)  # type: ignore[arg-type]
    ann.page.locator(f'{ann.choice("deal")} button.act').scroll_into_view_if_needed()
    deal = ann.page.locator(f'{ann.choice("deal")} button.act').bounding_box()
    assert deal
    ann.page.mouse.dblclick(deal["x"] + deal["width"] / 2, deal["y"] + deal["height"] / 2)
    ann.wait_text(".my-bets", "are confirmed")
    under = ann.page.evaluate("([x, y]) => { const b = document.elementFromPoint(x, y)?.closest('button');"
                              " return b ? [b.className, b.disabled] : null; }",
                              [deal["x"] + deal["width"] / 2, deal["y"] + deal["height"] / 2])
    assert under is None or "act-leave" not in under[0] or under[1], under
    assert ann.page.locator(".seat.mine .tag >> text=leaving").count() == 0, "a double tap on Deal left the table"
    assert "not confirmed" not in ann.text(".seat.mine .circle")
    leave = ann.page.locator(f'{ann.choice("leave")} button.act')
    assert leave.count() == 1
    top = ann.page.locator(".choices-hand").bounding_box()
    seat_row = ann.page.locator(".choices-seat").bounding_box()
    assert top is not None
    assert seat_row is not None
    assert seat_row["y"] >= top["y"] + top["height"], "the seat's choices come after the hand's"


def test_offline_the_page_says_so_across_the_table_and_disables_every_control(
        web_server: WebServer, browser: Browser, people: list[Person]) -> None:
    server = web_server
    assert server.host("create_table", table="cut", settings={"game": "caribbean", **HOUSE_CLOCKS})["ok"]
    cid = guest(server, browser, people, "cut", "cid")
    sit(cid)
    cid.wait_choice("bet")
    assert cid.page.is_hidden(".offline")
    cid.context.set_offline(True)
    cid.page.wait_for_selector(".offline", state="visible", timeout=20_000)
    assert "You are offline" in cid.text(".offline")
    cid.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # scrolled down to the buttons: still said
    assert all(in_view(cid.page, ".offline"))
    controls = cid.page.eval_on_selector_all(".controls button, .controls input, .controls select",
                                             "els => els.map((e) => e.disabled)")
    assert controls
    assert all(controls), controls
    cid.context.set_offline(False)
    cid.page.wait_for_selector(".offline", state="hidden", timeout=20_000)
    cid.wait_choice("bet")
    cid.page.wait_for_selector(f'{cid.choice("bet")} button.act:not([disabled])')


def kinds() -> dict[str, Any]:
    """Every event kind, refusal and result kind the server has, from its own code."""
    from server import protocol
    from server.rules import events
    from server.rules.caribbean import messages as caribbean
    from server.rules.hcf import messages as hcf
    from server.rules.sixcard import messages as sixcard

    root = Path(__file__).resolve().parents[2] / "server"
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.py")))
    table_events = set(re.findall(r'"type": "([a-z_]+)"', text)) - {"int_type", "less_than_equal", "greater_than_equal"}
    event_types = set(events.EVENT_TYPES) | set(hcf.EVENT_TYPES) | set(caribbean.EVENT_TYPES) | \
        set(sixcard.EVENT_TYPES) | table_events
    void = set(re.findall(r'(?:HandVoided|Misdeal|void_event|misdeal)\("([a-z_]+)"', text)) | \
        set(re.findall(r'(?:_void_hand, |\bvoid\()"([a-z_]+)"', text)) | {"misdeal", "shuffler_fault"}
    dead = set(re.findall(r'(?:SeatDead|SpotDead)\([^)]*"([a-z_]+)"\)', text)) | {"floor", "card_count"}
    not_dealt = set(re.findall(r'HandNotDealt\([^)]*"([a-z_]+)"', text)) | {"no_bank", "no_ante", "no_bets"}
    from server.rules.poker import CLASSES

    return {"events": sorted(event_types), "errors": protocol.ERROR_CODES, "void": sorted(void),
            "dead": sorted(dead), "not_dealt": sorted(not_dealt), "classes": [*CLASSES, "royal"]}




SNAKE = r"\b[a-z]+_[a-z_]+\b"
SLASH_CODE = r"\b[a-z]+/[a-z_]+\b"


def test_every_event_refusal_and_result_kind_reads_as_a_sentence(
        web_server: WebServer, browser: Browser) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(web_server.url + "/")
        found = kinds()
        assert {"hand_voided", "player_sat", "spot_folded", "drill_answered"} <= set(found["events"])
        assert {"dealer_dead", "shutdown"} <= set(found["void"]), "the scan misses reasons: fix it"
        lines: list[list[str]] = page.evaluate(RENDER_ALL, found)
    finally:
        context.close()
    said = dict(lines)
    # quiet on purpose: a clock's start, a drill step (asked in its own box), the deck's preparation, and the
    # events that carry a player's own cards or the finished hand (shown on the felt and in the results)
    quiet = {"turn_started", "drill_step", "deck_prepared", "your_cards", "hand_revealed"}
    assert set(said.pop("silent").split()) - {"none"} <= quiet, "every other event kind is told in the log"
    lines = [line for line in lines if line[0] != "silent"]
    assert len(lines) > 200
    bad = [(what, text) for what, text in lines
           if not text.strip() or re.search(SNAKE, text) or re.search(SLASH_CODE, text) or re.search(r"[{}]", text)]
    assert not bad, bad
    assert said["not dealt no_ante"] == "No hand was dealt nobody placed an Ante"
    assert said["void dealer_dead"].startswith("Hand #14: void"), "the table's own hand number, never the id"
    assert "flush of 7, ace high; straight flush of 7, ace high" in said["hcf result"]
    assert "(the DP does not qualify)" in said["hcf result"]
    assert "raise of 10 returned" in said["hcf result"], "a raise pushed by a DP who does not qualify is named"
    assert said["pair"] == "pair of jacks"
    assert "seat 2 bob: folded (the clock ran out), net -6" in said["clock fold"], said["clock fold"]
    assert said["drill answer"] == "qualifies: no, fees: seat 1 pays 1, seat: nobody, first card: 3"


@pytest.mark.parametrize("script", sorted(NAMES))
def test_any_allowed_name_fits_its_seat_and_the_results_are_in_view_after_a_hand(
        web_server: WebServer, browser: Browser, people: list[Person], script: str) -> None:
    server = web_server
    table = f"names-{script}"
    assert server.host("create_table", table=table, settings={"min_bank": 100, "pause_seconds": 30,
                                                               "offer_seconds": 60, "bet_seconds": 60,
                                                               "action_seconds": 60})["ok"]
    assert server.host("pause", table=table)["ok"]
    short, long = (guest(server, browser, people, table, name) for name in NAMES[script])
    for person in (short, long):
        sit(person)
    for person in (short, long):
        person.wait_text(".felt", NAMES[script][1])
    for person in (short, long):
        for viewport in WIDTHS.values():
            person.page.set_viewport_size(viewport)  # type: ignore[arg-type]
            person.page.wait_for_timeout(50)
            assert not layout_problems(person.page), (person.name, viewport, layout_problems(person.page))
    assert server.host("resume", table=table)["ok"]
    for person in (short, long):
        person.page.set_viewport_size(LAPTOP_800)  # type: ignore[arg-type]
    banker = first_with((short, long), "bank:true", timeout=60)
    banker.press("bank:true")
    bettor = long if banker is short else short
    bettor.wait_choice("bet")
    bettor.submit("bet")
    bettor.wait_choice("fold")
    bettor.press("fold")
    for person in (short, long):
        person.wait_text(".results h2", "^Hand #1: settled")
        for viewport in WIDTHS.values():
            person.page.set_viewport_size(viewport)  # type: ignore[arg-type]
            person.page.evaluate("window.scrollTo(0, 0)")
            person.page.wait_for_timeout(50)
            assert not layout_problems(person.page), (person.name, viewport, layout_problems(person.page))
            nets = in_view(person.page, ".seat .net")
            assert len(nets) == 2
            assert all(nets), (person.name, viewport, "each seat's net is in view")
            assert all(in_view(person.page, ".centre .last-hand")), (person.name, viewport)
    assert not [e for p in (short, long) for e in p.errors], [p.errors for p in (short, long)]


def test_the_lobby_says_the_stakes_and_seats_of_every_game_in_words(
        web_server: WebServer, browser: Browser) -> None:
    assert web_server.host("create_table", table="boxes", settings={"game": "sixcard"})["ok"]
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(web_server.url + "/")
        page.wait_for_selector('tr[data-table="boxes"]')
        row = page.inner_text('tr[data-table="boxes"]')
        main = page.inner_text('tr[data-table="main"]')
    finally:
        context.close()
    assert "Ante 5 or more" in row, row
    assert "None" not in row
    assert "0 seated, 4 boxes" in row, row
    assert "?" not in row
    assert "Ante 5 to 500" in main, main
    assert "of 7 seats" in main, main
    print(json.dumps([row, main]))


def test_the_host_console_gives_chips_lists_copies_and_revokes_links_in_sentences(
        web_server: WebServer, browser: Browser, people: list[Person]) -> None:
    server = web_server
    assert server.host("create_table", table="hosted", settings={"game": "caribbean", **HOUSE_CLOCKS})["ok"]
    dee = guest(server, browser, people, "hosted", "dee")
    sit(dee)
    context = browser.new_context(viewport=LAPTOP_800)  # type: ignore[arg-type]
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    try:
        page.goto(server.url + "/host")
        page.fill("#host-token", server.host_token)
        page.click("form button[type=submit]")
        state = page.wait_for_selector('.table-state[data-table="hosted"]')
        assert state is not None
        assert "seat 1: dee, " in state.inner_text(), "the console says who sits where"
        page.click('.table-state[data-table="hosted"] details summary')
        assert "minimum Ante: 5" in page.inner_text('.table-state[data-table="hosted"] details')

        def answer(click: str) -> str:
            before = page.get_attribute(".status", "data-n") or "0"
            page.click(click)
            page.wait_for_function("(n) => document.querySelector('.status').dataset.n !== n", arg=before)
            return page.inner_text(".status")

        page.fill("#grant-account", "dee")
        page.fill("#grant-amount", "250")
        assert answer('form[aria-label="grant chips"] button').startswith("dee got 250 chips")
        page.select_option("#invite-table", "hosted")
        assert "The link is made" in answer('form[aria-label="invites"] button[type="submit"]')
        url = page.input_value("#invite-url")
        assert "The link is copied" in answer("#invite-copy")
        assert page.evaluate("navigator.clipboard.readText()") == url
        row = page.wait_for_selector(".invites li:has(button[data-invite])")
        assert row is not None
        assert "player link to hosted" in row.inner_text()
        said = answer(".invites li button[data-invite]")
        assert said == "The player link to hosted is revoked: it opens nothing any more.", said
        refused = server.call("POST", "/api/invites/redeem", {"token": url.split("#", 1)[1], "name": "late"})
        assert refused["ok"] is False
        shown = page.inner_text(".status") + page.inner_text(".invites")
        assert not re.findall(r'\bok\b|[{}]|\b[a-z]+_[a-z_]+\b', shown), "no JSON answer or code is shown"
    finally:
        context.close()


def test_sitting_down_while_the_bank_is_offered_says_you_play_from_the_next_hand(
        web_server: WebServer, browser: Browser, people: list[Person]) -> None:
    server = web_server  # issue 23, item 8: the page showed no hand move and no reason
    assert server.host("create_table", table="late", settings={"offer_seconds": 60, "pause_seconds": 0.3})["ok"]
    dee, eve = (guest(server, browser, people, "late", name) for name in ("lateann", "latebob"))
    for person in (dee, eve):
        sit(person)
    first_with([dee, eve], "bank:true")  # a hand has begun: the bank is being offered
    fay = guest(server, browser, people, "late", "latecid")
    sit(fay)
    note = fay.wait_text(".choices .next-hand", "you play from the next hand")
    assert "this hand began before you sat down" in note
    assert not fay.has("bet")


def test_a_new_player_in_a_chair_is_not_shown_the_last_players_result(
        web_server: WebServer, browser: Browser, people: list[Person]) -> None:
    server = web_server  # seen in real use: zoë sat where a bot had folded and her seat said "net -6 ... folded"
    settings = {"game": "caribbean", **HOUSE_CLOCKS, "pause_seconds": 60}  # the settled hand stays on the felt
    assert server.host("create_table", table="chair", settings=settings)["ok"]
    gil = guest(server, browser, people, "chair", "chairgil")
    joe = Person.open(browser, "joe", server.invite("chair", "spectator"))  # watches from the start
    people.append(joe)
    joe.page.wait_for_url("**/watch/chair")
    sit(gil)
    gil.wait_choice("bet")
    gil.page.fill(f'{gil.choice("bet")} input[name="ante"] >> nth=0', "15")
    gil.submit("bet")
    gil.wait_choice("deal")
    gil.submit("deal")
    gil.wait_choice("fold")
    gil.submit("fold")
    gil.wait_text(".seat.mine .net", "net -15")
    gil.wait_choice("stand")  # between hands: gil stands up at once
    gil.press("stand")
    gil.page.wait_for_selector(".seat.mine", state="detached")
    hal = guest(server, browser, people, "chair", "chairhal")
    sit(hal)  # the lowest free seat: the one gil left
    assert hal.page.locator(".seat.mine").get_attribute("data-seat") == "1"
    for person in (hal, joe):
        person.wait_text('.seat[data-seat="1"] .who', "chairhal")
        person.page.wait_for_timeout(500)  # the page has drawn the snapshot and any update after it
        seat = person.text('.seat[data-seat="1"]')
        assert "net" not in seat, (person.name, seat)
        assert "Ante 15" not in seat, (person.name, seat)
        assert "fold" not in seat.lower(), (person.name, seat)


JACKPOT_LINES = """async () => {
    const r = await import("/static/results.js");
    const spot = (jackpot, award) => ({spot: 1, seat: 2, ante: -10, bet: 0, folded: true, net: -10 + jackpot,
                                       jackpot, jackpot_award: award});
    const hand = (row) => ({status: "settled", names: {"2": "bob"}, hands: [{spot: 1, seat: 2}],
                            settlement: {spots: [row], dealer: {qualifies: true, class: "pair"}}});
    return [r.resultLines(hand(spot(-1, 0)), "caribbean", 2)[1][0],
            r.resultLines(hand(spot(99, 100)), "caribbean", 2)[1][0]];
}"""


def test_a_jackpot_wager_lost_reads_as_lost_and_an_award_as_won(web_server: WebServer, browser: Browser) -> None:
    # A spot's ``jackpot`` is already the player's net on the wager (docs/games/caribbean.md): a lost wager of 1
    # is -1, an award of 100 on a wager of 1 is +99.
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(web_server.url + "/")
        lost, won = page.evaluate(JACKPOT_LINES)
    finally:
        context.close()
    assert "jackpot wager loses 1" in lost, lost
    assert "jackpot wager wins 99" in won, won


REVEAL_LINES = """async () => {
    const r = await import("/static/results.js");
    const model = {game: "hcf", seats: [{seat: 1, name: "ann"}]};
    return [r.describe({type: "dealer_revealed", seat: 1, cards: ["Tc", "Qc", "5d", "2h"], qualifies: true}, model),
            r.describe({type: "dealer_revealed", cards: ["Ah", "Ks"], qualifies: false}, {game: "caribbean"})];
}"""


def test_the_dealers_announced_cards_read_as_the_felt_draws_them(web_server: WebServer, browser: Browser) -> None:
    # The chat's dealer line said "the DP shows Tc Qc 5d 2h": codes, where the felt beside it draws 10♣ Q♣.
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(web_server.url + "/")
        dp, dealer = page.evaluate(REVEAL_LINES)
    finally:
        context.close()
    assert "the DP shows 10\u2663 Q\u2663 5\u2666 2\u2665" in dp, dp
    assert "the dealer shows A\u2665 K\u2660 and does not qualify" in dealer, dealer



SEAT_LINES = """async () => {
    const r = await import("/static/host_tables.js");
    const seat = (extra) => ({seat: 2, name: "ben", stack: 990, sitting_out: false, present: true, away: false,
                              ...extra});
    return [r.seatLine(seat({})), r.seatLine(seat({present: false})), r.seatLine(seat({away: true})),
            r.seatLine(seat({away: true, present: false, sitting_out: true}))];
}"""


def test_the_console_tells_a_dropped_connection_from_the_away_switch(web_server: WebServer, browser: Browser) -> None:
    # The console said "away" for a player whose browser had closed, the word of the away switch.
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(web_server.url + "/")
        here, gone, away, both = page.evaluate(SEAT_LINES)
    finally:
        context.close()
    assert here == "seat 2: ben, 990 chips"
    assert gone == "seat 2: ben, 990 chips, not connected"
    assert away == "seat 2: ben, 990 chips, away (the table plays for them)"
    assert both == "seat 2: ben, 990 chips, sitting out, away (the table plays for them), not connected"


CLOSED_TABLE = """async () => {
    const r = await import("/static/host_tables.js");
    const lines = ["Settle-up at main in session 1.", "Nobody owes anybody anything."];
    return r.done({action: "close_table", table: "main"}, {closed: "now", settle_up: {lines}});
}"""


def test_closing_a_table_in_the_console_shows_its_final_settle_up(web_server: WebServer, browser: Browser) -> None:
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(web_server.url + "/")
        said = page.evaluate(CLOSED_TABLE)
    finally:
        context.close()
    assert said.splitlines() == ["Table main closes: the players' chips go back to their accounts.",
                                 "Settle-up at main in session 1.", "Nobody owes anybody anything."]


def test_a_spectator_offline_is_not_told_of_a_clock(web_server: WebServer, browser: Browser) -> None:
    # Watching, the page said "Your clock keeps running" when the connection dropped: a spectator has no clock.
    assert web_server.host("create_table", table="quiet")["ok"]
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.goto(f"{web_server.url}/watch/quiet")
        page.wait_for_selector(".felt")
        said = page.locator(".offline").text_content() or ""
    finally:
        context.close()
    assert said == "You are offline: this page reconnects by itself and shows the table again.", said
