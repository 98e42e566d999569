"""Friends play in real browsers (issue 17's acceptance): invite links, three High Card Flush hands and more.

One server and one chromium for the module; the tests run in order and build on each
other's table, as a real evening would: the host opens the console from a floor link,
makes invites, three friends join and play, a spectator watches (every frame it receives
is checked for hidden cards), one friend's network drops mid-hand and comes back.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Request

from server.rules.cards import cards_list
from server.rules.fairness import deal_deck, player_seed_bytes
from server.rules.hcf.deal import deal_hands

from .conftest import WebServer
from .helpers import LAPTOP, PHONE, Person, first_with, frame_cards

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
DP_NOT_QUALIFYING = "2c 4d 6s 8c Td Qs 3c"
STRAIGHT_FLUSH_7 = "Ah Kh Qh Jh Th 9h 8h"
ORDINARY = "5d 7s 9d Jc 2h 3s 4s"
# hand 1: every seat holds a six-card flush, so any raise may go to 3 Antes
SIX_FLUSHES = {"1": "2h 5h 7h 9h Jh Kh 3c", "2": "2s 4s 6s 8s Ts Qs 5c", "3": "3d 5d 7d 9d Jd Kd 6c"}


class Evening:
    """Everyone's pages, shared by the tests of this module."""

    def __init__(self, server: WebServer, browser: Browser) -> None:
        self.server = server
        self.browser = browser
        self.people: list[Person] = []  # the host first, then the players, then the spectator
        self.players: dict[str, Person] = {}

    @property
    def host(self) -> Person:
        return self.people[0]

    @property
    def spectator(self) -> Person:
        return self.people[-1]


@pytest.fixture(scope="module")
def evening(web_server: WebServer, browser: Browser) -> Iterator[Evening]:
    evening = Evening(web_server, browser)
    yield evening
    for person in evening.people:
        person.context.close()


def host_answer(host: Person, click: str) -> str:
    """Click in the console and wait for the answer's sentence (the status line says each one anew)."""
    before = host.page.get_attribute(".status", "data-n") or "0"
    host.page.click(click)
    host.page.wait_for_function("(n) => document.querySelector('.status').dataset.n !== n", arg=before)
    return host.text(".status")


def host_click(host: Person, action: str) -> str:
    return host_answer(host, f'button[data-action="{action}"]')


def test_a_floor_link_opens_the_host_console_which_makes_the_invites(evening: Evening) -> None:
    server = evening.server
    host = Person.open(evening.browser, "floor", server.invite("main", "floor"))
    evening.people.append(host)
    assert "/join" in host.page.url
    assert "#" not in host.page.url, "the token left the URL at once"
    host.page.fill("#join-name", "floor")
    host.page.click("form.join button")
    host.page.wait_for_selector("#invite-table")
    assert host.page.url.endswith("/host")
    assert host.page.locator("#new-name").count() == 0, "a floor link is offered no Create"
    assert host.page.locator("#grant-account").count() == 0, "a floor link is offered no chips to give"
    assert host.page.locator(".table-state").count() == 1, "a floor link sees its own table only"
    assert "is paused" in host_click(host, "pause")
    # The panel is drawn anew after the answer's sentence: wait for it (a loaded machine draws late).
    host.page.locator('.table-state[data-table="main"]', has_text="Paused").wait_for(timeout=15_000)
    assert "Paused" in host.text('.table-state[data-table="main"]'), "the console says the table is paused"
    host.page.fill("#set-main-json", '{"min_bank": 100}')
    host.page.select_option("#set-main-fee", "all")
    assert "The settings of main are changed" in host_answer(host, 'form[aria-label="change settings of main"] button')
    (main,) = [t for t in server.call("GET", "/api/tables")["tables"] if t["name"] == "main"]
    assert (main["settings"]["fee_mode"], main["settings"]["min_bank"]) == ("all", 100)
    urls: list[str] = []
    for _ in range(3):
        host.page.select_option("#invite-role", "player")
        host.page.click('form[aria-label="invites"] button[type="submit"]')
        host.page.wait_for_function("(seen) => { const t = document.querySelector('#invite-url').value;"
                                    " return t && !seen.includes(t); }", arg=urls)
        urls.append(host.page.input_value("#invite-url"))
    assert all(re.match(r"^http://127\.0\.0\.1:\d+/join#\S+$", url) for url in urls)
    for name, url, buy_in in zip(("alice", "bob", "carol"), urls, (1000, 1000, 100), strict=True):
        person = Person.open(evening.browser, name, url)
        person.page.fill("#join-name", name)
        person.page.click("form.join button")
        person.wait_choice("sit")
        assert person.page.url.endswith("/table/main")
        assert "#" not in person.page.url
        assert "token" not in person.page.url
        person.fill("sit", "buy_in", buy_in)
        person.submit("sit")
        person.wait_choice("stand")
        evening.players[name] = person
        evening.people.append(person)
    evening.people.append(Person.open(evening.browser, "watcher", server.invite("main", "spectator"), record=True))
    # a spectator link asks nothing: straight to the table
    evening.spectator.wait_text("h1", "watching")
    assert evening.spectator.page.url.endswith("/watch/main")
    for person in evening.players.values():
        person.wait_text(".felt", "carol")


def _offers(evening: Evening, accept: str | None, decline_first: bool) -> str:
    """Answer bank offers until one is accepted: ``accept`` names who takes it (None: the first non-carol)."""
    declined = 0
    while True:
        offered = first_with(evening.players.values(), "bank:true")
        taker = offered.name == accept if accept else offered.name != "carol" and (declined or not decline_first)
        offered.press("bank:true" if taker else "bank:false")
        if taker:
            return offered.name
        declined += 1
        offered.page.wait_for_selector(offered.choice("bank:true"), state="detached")


def _hand_over(evening: Evening, number: int) -> None:
    for person in evening.people[1:]:
        person.wait_text(".results h2", f"^Hand #{number}:")


def test_hand_one_a_declined_offer_and_a_raise_at_the_flushs_limit(evening: Evening) -> None:
    server = evening.server
    assert server.host("arrange_deck", table="main", hands=SIX_FLUSHES)["ok"]
    host_click(evening.host, "resume")
    dp = _offers(evening, None, decline_first=True)
    bettor = next(p for n, p in evening.players.items() if n not in (dp, "carol"))
    carol = evening.players["carol"]
    carol.wait_choice("pass")
    carol.press("pass")
    bettor.wait_choice("bet")
    bettor.fill("bet", "ante", 10)
    bettor.submit("bet")
    bettor.wait_choice("raise")
    limits = bettor.text(bettor.choice("raise"))
    assert "(10\u201330)" in limits, limits
    # Found by hand: an amount out of range was refused in the browser's words ("Value must be 10.").
    amount = bettor.page.locator(f'{bettor.choice("raise")} input[name="amount"]')
    amount.fill("999")
    assert amount.evaluate("(el) => el.validationMessage") == "Enter a whole number from 10 to 30."
    bettor.page.click(f'{bettor.choice("raise")} button.small')  # Max: 3 Antes, the six-card flush's limit
    assert amount.evaluate("(el) => el.validationMessage") == ""
    bettor.press("raise")
    _hand_over(evening, 1)
    # The page's log of what happened keeps the raise across hands. The felt shows it until the next deal (on a
    # loaded machine that may come before this line reads it); the results say it too when the DP qualifies: as its
    # own line, or in the Ante and raise won together (10 + 30 at even money). A raise pushed by a DP who does not
    # qualify is in the log alone once the next hand is offered.
    results = bettor.text(".results")
    assert f"{bettor.name} raises 30" in bettor.text("ol.log") or "Raise 30" in bettor.text(".felt") or \
        "raise +30" in results or "raise -30" in results or "Ante and raise win 40" in results, results
    for person in evening.people[1:]:
        assert "arranged deck: not a random deal" in person.text(".verdict")


def test_hand_two_a_network_cut_mid_hand_resumes_and_the_deal_is_verified(evening: Evening) -> None:
    dp = _offers(evening, None, decline_first=False)
    bettor = next(p for n, p in evening.players.items() if n not in (dp, "carol"))
    carol = evening.players["carol"]
    carol.page.reload()  # a reload mid-hand comes back to the same choices
    carol.wait_choice("pass")
    carol.press("pass")
    bettor.wait_choice("bet")
    bettor.submit("bet")
    bettor.wait_choice("fold")
    bettor.context.set_offline(True)
    bettor.wait_text(".status", "reconnecting|connection lost", timeout=20_000)
    bettor.context.set_offline(False)
    bettor.wait_text(".status", "^connected$|^ok$", timeout=20_000)
    bettor.wait_choice("fold")
    evening.server.host("pause", table="main")  # after this hand: hand 3's deck is arranged first
    bettor.press("fold")
    _hand_over(evening, 2)
    for person in evening.people[1:]:
        verdict = person.wait_text(".verdict", "hand #2: deal verified")
        assert "WARNING" not in verdict
    assert "folded" in bettor.text(".results")


def test_hand_three_the_dps_funds_cap_kills_a_seat_and_says_why(evening: Evening) -> None:
    server = evening.server
    assert server.host("arrange_deck", table="main",
                       hands={"dp": DP_NOT_QUALIFYING, "2": STRAIGHT_FLUSH_7, "1": ORDINARY})["ok"]
    host_click(evening.host, "resume")
    assert _offers(evening, "carol", decline_first=False) == "carol"
    alice, bob = evening.players["alice"], evening.players["bob"]
    for person, bets in ((alice, {"ante": 5}), (bob, {"ante": 5, "straight_flush_bonus": 10, "flush_bonus": 10})):
        person.wait_choice("bet")
        for name, value in bets.items():
            person.fill("bet", name, value)
        person.submit("bet")
    first = first_with((alice, bob), "raise")
    screenshots(first)
    first.press("raise")
    first.page.wait_for_selector(first.choice("raise"), state="detached")
    first_with((alice, bob), "raise").press("raise")
    _hand_over(evening, 3)
    for person in evening.people[1:]:
        assert "dead" in person.text(".results"), person.text("main")
        line = person.wait_text(".results li.dead",
                                r"seat 2 bob: dead: the DP's \d+ chips could not cover the \d+ owed")
        assert "bets and fee returned" in line


def screenshots(person: Person) -> None:
    """The table as this player sees it at their decision, on a laptop and on a 360 px phone (docs/img)."""
    DOCS_IMG.mkdir(parents=True, exist_ok=True)
    page = person.page
    page.screenshot(path=str(DOCS_IMG / "table-laptop.png"))
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    width = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(DOCS_IMG / "table-phone.png"), full_page=True)
    page.set_viewport_size(LAPTOP)
    assert width <= PHONE["width"], f"the phone layout scrolls sideways ({width} px)"


def test_the_floor_declares_a_seat_dead_then_a_misdeal(evening: Evening) -> None:
    host = evening.host
    dp = _offers(evening, None, decline_first=False)
    bettors = [p for n, p in evening.players.items() if n != dp]
    for person in bettors:
        person.wait_choice("bet")
        person.fill("bet", "ante", 5)
        person.submit("bet")
    first = first_with(bettors, "fold")
    seat = int(first.page.get_attribute(".seat.mine", "data-seat") or 0)
    host.page.select_option("#floor-table", "main")
    host.page.fill("#floor-seat", str(seat))
    host_click(host, "declare_dead")
    for person in evening.people[1:]:
        person.wait_text(f'.seat[data-seat="{seat}"] .dead', "dead \\(the host declared it dead\\)")
    other = next(p for p in bettors if p is not first)
    other.wait_choice("fold")
    host_click(host, "pause")
    host_click(host, "misdeal")
    for person in evening.people[1:]:
        person.wait_text(".results h2", "^Hand #4: void$")
        person.wait_text(".results", "every bet and fee went back: the host declared a misdeal")


HOUSE_CLOCKS = {"bet_seconds": 30, "action_seconds": 40, "pause_seconds": 0.3}


def _create_table(host: Person, name: str, game: str, settings: Mapping[str, object]) -> None:
    host.page.goto(host.page.url)  # a fresh console lists every table
    host.page.wait_for_selector("#new-name")
    host.page.fill("#new-name", name)
    host.page.select_option("#new-game", game)
    host.page.fill("#new-settings", json.dumps(settings))
    said = host_answer(host, 'form[aria-label="create a table"] button')
    assert said == f"Table {name} is open.", said
    host.page.wait_for_selector(f'#floor-table option[value="{name}"]', state="attached")


def _go_sit(person: Person, table: str) -> None:
    person.page.goto(f"{person.page.url.split('/table/')[0]}/table/{table}")
    person.wait_choice("sit")
    person.submit("sit")
    person.page.wait_for_selector(".seat.mine")


def _use_host_token(host: Person, token: str) -> None:
    """The owner's console from here on: a floor link runs its own table only, so new tables take the host token
    (pasted into the console, as docs/web.md says)."""
    host.page.click("text=Forget the host token")
    host.page.fill("#host-token", token)
    host.page.click("form button[type=submit]")
    host.page.wait_for_selector("#new-name")


def test_a_floor_link_is_shown_its_own_table_only(evening: Evening) -> None:
    host = evening.host  # still on the floor link's token (for table main)
    assert evening.server.host("create_table", table="elsewhere", settings={})["ok"]
    host.page.goto(host.page.url)
    host.page.wait_for_selector(".table-state")
    assert host.page.locator("#new-name").count() == 0
    assert host.page.eval_on_selector_all("#floor-table option, #invite-table option",
                                          "os => [...new Set(os.map((o) => o.value))]") == ["main"]
    assert "you run this table only" in host.text(".scope")
    assert evening.server.host("close_table", table="elsewhere")["ok"]
    _use_host_token(host, evening.server.host_token)
    assert host.page.locator(".table-state").count() >= 1
    assert "you run every table" in host.text(".scope")


def test_two_hands_of_caribbean_stud(evening: Evening) -> None:
    host = evening.host
    settings = {**HOUSE_CLOCKS, "max_hands_while_waiting": 1}
    _create_table(host, "stud", "caribbean", settings)
    players = [evening.players["alice"], evening.players["bob"]]
    host.page.select_option("#floor-table", "stud")
    host_click(host, "pause")
    for person in players:
        _go_sit(person, "stud")
    host_click(host, "resume")
    for number in (1, 2):
        for person in players:
            person.wait_choice("bet")
            person.submit("bet")
            person.wait_choice("deal")
            person.press("deal")
        for _ in players:
            mover = first_with(players, "play")
            mover.press("play" if number == 1 else "fold")
            mover.page.wait_for_selector(mover.choice("play"), state="detached")
        for person in players:
            person.wait_text(".results h2", f"^Hand #{number}: settled")
            person.wait_text(".verdict", f"hand #{number}: deal verified")
    host_click(host, "pause")


def test_two_hands_of_six_card_poker_with_a_draw_and_the_dealer_exchange(evening: Evening) -> None:
    host = evening.host
    _create_table(host, "six", "sixcard", {**HOUSE_CLOCKS, "exchange_seconds": 30})
    alice = evening.players["alice"]
    host.page.select_option("#floor-table", "six")
    host_click(host, "pause")
    _go_sit(alice, "six")
    assert evening.server.host("arrange_deck", table="six",
                               hands={"1": "Ah Kh 7c 4d 2s", "dealer": "3c 6d 9h Js Qc"})["ok"]
    host_click(host, "resume")
    alice.wait_choice("bet")
    alice.submit("bet")
    alice.wait_choice("deal")
    alice.press("deal")
    alice.wait_choice("exchange")
    exchange = alice.choice("exchange")
    labels = alice.text(exchange)
    assert "Cards to exchange" in labels
    alice.page.check(f'{exchange} input[value="4"]')
    alice.page.check(f'{exchange} input[value="5"]')
    alice.submit("exchange")
    alice.wait_choice("raise")
    alice.press("raise")
    alice.wait_choice("request_exchange")
    alice.press("request_exchange")
    alice.wait_choice("cancel_exchange")
    alice.press("continue")
    alice.wait_text(".results h2", "^Hand #1: settled")
    assert "arranged deck" in alice.text(".verdict")
    alice.wait_choice("bet")
    alice.submit("bet")
    alice.wait_choice("deal")
    alice.press("deal")
    alice.wait_choice("raise")
    alice.press("raise")
    while True:  # the dealer may qualify (no exchange) or not
        alice.page.wait_for_function(
            "() => /^Hand #2/.test(document.querySelector('.results h2')?.textContent || '')"
            " || document.querySelector('.choice[data-action=continue]')")
        if not alice.has("continue"):
            break
        alice.press("continue")
        alice.page.wait_for_selector(alice.choice("continue"), state="detached")
    alice.wait_text(".verdict", "hand #2: deal verified")
    host_click(host, "pause")


def test_the_lobby_lists_every_table_and_the_history_replays_a_hand(evening: Evening) -> None:
    page = evening.spectator.page
    page.goto(evening.server.url + "/")
    page.wait_for_selector('tr[data-table="six"]')
    lobby = page.inner_text("table.lobby")
    for game in ("High Card Flush", "Caribbean Stud", "6 Card Poker"):
        assert game in lobby
    page.goto(evening.server.url + "/history/main")
    page.click(".hand-link >> text=Hand #2")
    page.wait_for_selector(".steps li")
    first = page.locator(".steps li").count()
    page.keyboard.press("ArrowRight")
    assert page.locator(".steps li").count() == first + 1
    page.keyboard.press("End")
    page.wait_for_function(
        "() => /hand #2: deal verified/.test(document.querySelector('.replay .verdict').textContent)")
    assert "net" in page.inner_text(".steps")


def test_the_table_page_loads_at_most_150_kb_of_its_own_code_gzipped(evening: Evening) -> None:
    context = evening.browser.new_context()
    page = context.new_page()
    sizes: dict[str, int] = {}
    encodings: dict[str, str] = {}

    def finished(request: Request) -> None:
        if request.url.startswith(evening.server.url) and request.resource_type in ("document", "script", "stylesheet"):
            size = request.sizes()["responseBodySize"]
            response = request.response()
            # Both or neither: a file whose answer is read as the context closes must not count half.
            sizes[request.url] = size
            encodings[request.url] = response.headers.get("content-encoding", "") if response else ""

    page.on("requestfinished", finished)
    page.goto(evening.server.url + "/watch/main")
    page.wait_for_selector(".seat")
    # Every file the page asked for is in before the context closes (a fresh clone's run once closed it while
    # felt.js's answer was being read: KeyError in the check below).
    page.wait_for_load_state("networkidle")
    context.close()
    scripts = [u for u in sizes if u.endswith(".js")]
    assert len(scripts) >= 5, sizes
    assert all(encodings[u] == "gzip" for u in scripts), encodings
    total = sum(sizes.values())
    assert total <= 150 * 1024, f"{total} bytes"
    print(f"table page first load: {total} bytes transferred over {len(sizes)} files")


def test_the_spectator_never_received_a_hidden_card(evening: Evening) -> None:
    spectator = evening.spectator
    assert spectator.frames, "the spectator's frames were recorded"
    public = set()
    for hand in evening.server.call("GET", "/api/tables/main/hands")["hands"]:
        public |= set(hand.get("dealer_cards") or [])
        for cards in (hand.get("shown") or {}).values():
            public |= set(cards)
    seen = {card for card, _ in frame_cards(spectator.frames)}
    assert seen, "the spectator saw the public cards"
    leaked = seen - public
    assert not leaked, f"the spectator received cards nobody showed: {sorted(leaked)}"
    assert not any('"your_cards"' in f for f in spectator.frames)


def test_the_screenshots_are_small_pngs() -> None:
    for name in ("table-laptop.png", "table-phone.png"):
        data = (DOCS_IMG / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", name
        assert len(data) < 250_000, (name, len(data))


def test_the_pages_deal_check_is_the_servers_shuffle_byte_for_byte(evening: Evening) -> None:
    server_seed = bytes(range(32))
    seeds = ["alice-seed", "b\u00f6b", ""]
    commitment, deck_seed, deck = deal_deck(server_seed, [player_seed_bytes(s) for s in seeds])
    page = evening.spectator.page
    got = page.evaluate("""async ([seedHex, seeds]) => {
        const v = await import("/static/verify.js");
        const seed = new Uint8Array(seedHex.match(/../g).map((x) => parseInt(x, 16)));
        const deckSeed = await v.deriveDeckSeed(seed, seeds);
        const hex = [...deckSeed].map((b) => b.toString(16).padStart(2, "0")).join("");
        return {commitment: await v.sha256Hex(seed), deckSeed: hex, deck: await v.shuffledDeck(deckSeed)};
    }""", [server_seed.hex(), seeds])
    assert got == {"commitment": commitment, "deckSeed": deck_seed.hex(), "deck": cards_list(deck)}
    hands = dict(deal_hands(deck, [2, 1]))
    reveal = {"hand_id": 9, "number": 4, "status": "settled", "arranged": False, "commitment": commitment,
              "server_seed": server_seed.hex(), "player_seeds": [[1, seeds[0]], [2, seeds[1]], [3, seeds[2]]],
              "deck_seed": deck_seed.hex(), "deal_order": [2, 1]}
    verdicts = page.evaluate("""async ([reveal, mine, theirs]) => {
        const v = await import("/static/verify.js");
        const seen = (cards) => ({commitment: reveal.commitment, mySeat: 2, mySeed: "b\u00f6b",
                                  cards: new Map([[2, cards]])});
        const other = {...reveal, server_seed: "00".repeat(32)};
        return [await v.verifyReveal(reveal, seen(mine)), await v.verifyReveal(reveal, seen(theirs)),
                await v.verifyReveal(other, seen(mine)), await v.verifyReveal({...reveal, arranged: true}, seen(mine))];
    }""", [reveal, cards_list(hands[2]), cards_list(hands[1])])
    assert [v["ok"] for v in verdicts] == [True, False, False, None]
    assert verdicts[0]["headline"] == "hand #4: deal verified (1 hand checked against the revealed seed)"
    assert "seat 2 was shown" in verdicts[1]["problems"][0]
    assert verdicts[2]["problems"] == ["the revealed server seed does not match the commitment"]


CONTRAST = """() => {
    const parse = (c) => {
        const m = c.match(/[\\d.]+/g).map(Number);
        return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1];
    };
    const over = (top, under) => top.slice(0, 3).map((v, i) => v * top[3] + under[i] * (1 - top[3])).concat([1]);
    const background = (el) => {
        const layers = [];
        for (let e = el; e; e = e.parentElement) layers.push(parse(getComputedStyle(e).backgroundColor));
        return layers.reverse().reduce((under, top) => over(top, under), [255, 255, 255, 1]);
    };
    const lum = (rgb) => {
        const [r, g, b] = rgb.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const out = [];
    for (const el of document.querySelectorAll("main *")) {
        if (!el.offsetParent || ![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
        const style = getComputedStyle(el);
        const fg = over(parse(style.color), background(el));
        const [a, b] = [lum(fg), lum(background(el))];
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        out.push([el.tagName + "." + el.className, Math.round(ratio * 100) / 100, el.textContent.trim().slice(0, 30)]);
    }
    return out;
}"""


def test_every_text_passes_wcag_aa_contrast_and_every_control_has_a_label(evening: Evening) -> None:
    for person in (evening.players["alice"], evening.host):
        ratios = person.page.evaluate(CONTRAST)
        assert len(ratios) > 10
        low = [r for r in ratios if r[1] < 4.5]
        assert not low, low
        unnamed = person.page.evaluate("""() => [...document.querySelectorAll("button, input, select, textarea")]
            .filter((el) => !(el.getAttribute("aria-label") || el.labels?.length || el.textContent.trim()))
            .map((el) => el.outerHTML.slice(0, 80))""")
        assert not unnamed, unnamed
    page = evening.players["alice"].page
    page.goto(evening.server.url + "/table/main")
    page.wait_for_selector(".card[data-card]")
    labels = page.eval_on_selector_all(".card", "cards => cards.map((c) => c.getAttribute('aria-label'))")
    assert labels
    named = re.compile(r"^(face-down card|(\d+|jack|queen|king|ace) of (clubs|diamonds|hearts|spades))$")
    assert all(named.match(x) for x in labels), labels


DRILL_SETTINGS = {"pause_seconds": 0.3, "min_bank": 100, "fee_mode": "players", "fee": 1, "offer_seconds": 30,
                  "bet_seconds": 30, "action_seconds": 40,
                  "drill": {"trainee": "tina", "mode": "training", "step_seconds": 60}}


def test_a_drill_scenario_is_played_through_the_trainees_view(evening: Evening) -> None:
    server = evening.server
    # The trainee's account comes first (a drill table names an account that exists: issue 23 item 21).
    tina = Person.open(evening.browser, "tina", server.invite("main", "player"))
    evening.people.insert(1, tina)
    tina.page.fill("#join-name", "tina")
    tina.page.click("form.join button")
    tina.page.wait_for_url("**/table/main")
    assert server.host("create_table", table="drill", settings=DRILL_SETTINGS)["ok"]
    tina.page.goto(server.url + "/drill/drill")
    tina.wait_text(".drill", "Waiting for the table")
    tina.page.wait_for_selector(".controls h2")
    assert not tina.has("sit"), "the trainee deals from the dealer's chair: no seat is offered"
    players = list(evening.players.values())
    assert server.host("pause", table="drill")["ok"]
    for person in players:
        _go_sit(person, "drill")
    assert server.host("resume", table="drill")["ok"]
    answered = 0
    miscounted: int | None = None
    deadline = time.monotonic() + 60
    while not re.match(r"^Hand #1:", players[0].page.inner_text(".results") or "x"):
        assert time.monotonic() < deadline, "\n=====\n".join(p.text("main")[:1500] for p in (tina, *players))
        acted = False
        if tina.page.locator("form.drill-answer").count():
            # the table waits for the dealer: the felt says so and its clock does not count down
            tina.page.wait_for_function(
                "() => document.querySelector('.felt .clock')?.textContent === ''"
                " && /waiting for the dealer/.test(document.querySelector('.felt').textContent)", timeout=5_000)
            tina.page.click("form.drill-answer button")
            answered += 1
            tina.page.wait_for_selector(".drill-feedback li >> nth=" + str(answered - 1))
            acted = True
        deciding = [p for p in players if p.has("raise")]
        if miscounted is None and deciding and not tina.page.locator("form.drill-answer").count():
            # after the deal, before the first decision: the trainer deals the deciding seat an extra card
            seat = int(deciding[0].page.get_attribute(".seat.mine", "data-seat") or 0)
            if server.host("inject", table="drill", kind="miscount", seat=seat)["ok"]:
                miscounted = seat
                tina.page.wait_for_function(
                    "(s) => document.querySelectorAll(`.seat[data-seat='${s}'] .card`).length === 8", arg=seat)
        for person in players:
            for tag in ("bank:true", "bet", "raise"):
                if person.has(tag) and (tag != "raise" or miscounted is not None):
                    person.press(tag) if tag != "bet" else person.submit(tag)
                    person.page.wait_for_selector(person.choice(tag), state="detached")
                    acted = True
        if not acted:
            tina.page.wait_for_timeout(100)
    assert miscounted is not None, "the trainer's miscount was injected and shown"
    feedback = tina.text(".drill-feedback")
    assert answered >= 3, feedback
    assert len(re.findall(r"Step \d+: (right|wrong)", feedback)) == answered, feedback
    assert "(RULES 3.1)" in feedback, "the bank offer was asked and judged with its rule"
    host = evening.host
    host.page.goto(server.url + "/host")
    host.page.select_option("#floor-table", "drill")
    report = host_click(host, "drill_report")
    assert re.match(r"^Drill report: \d+ of \d+ steps right so far", report), report
    host_click(host, "drill_end")
    tina.wait_text(".drill h2", r"^The drill is over: \d+ of \d+ right")
    # the server pinged every 2 s (and drops a silent link after 2 more): the page answered every ping
    assert tina.page.evaluate("window.tablePage.socket.connects") == 1


def test_no_page_had_an_error(evening: Evening) -> None:
    for person in evening.people:
        errors = [e for e in person.errors if "net::ERR_INTERNET_DISCONNECTED" not in e]
        # the join page first tries the link without a name (a spectator needs none): a player's link says 400
        probe = next((e for e in errors if "status of 400" in e), None)
        if probe is not None:
            errors.remove(probe)
        # everyone here shares one address (and its budget) with this test's own requests: a busy answer (429)
        # is asked again by the page (api.js), it is no error
        errors = [e for e in errors if "status of 429" not in e]
        assert not errors, (person.name, person.errors)


def test_no_table_page_shows_a_code_or_json(evening: Evening) -> None:
    """What the players, the trainee and the spectator read after the whole evening: sentences only."""
    for person in evening.people[1:]:
        text = person.text("main")
        codes = re.findall(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+/[a-z_]+\b|[{}]", text)
        assert not codes, (person.name, codes, text[:2000])
