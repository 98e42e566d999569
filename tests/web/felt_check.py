"""The felt's check (issue 28, item 1), one test module per game (each its own server: an address makes ten
accounts at most): seven seats round the oval in seat order, clockwise, nothing out of its seat or
the viewport, the results on the seats after a hand, at 1280x800 and 360x740, for each game; the screenshots in
docs/img are these tests' own.

Seven `hcf bot` players (a real subprocess, the terminal client's bots) fill a real server's table; a spectator's
browser (Debian's chromium) watches it, as a friend with a spectator link would.
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .conftest import WebServer
from .helpers import PHONE, Person
from .test_play import CONTRAST

LAPTOP_800 = {"width": 1280, "height": 800}
HERE = Path(__file__).resolve().parent
DOCS_IMG = HERE.parents[1] / "docs" / "img"
LAYOUT_PROBLEMS = (HERE / "layout_problems.js").read_text(encoding="utf-8")
# A long pause between hands: the finished hand stays on the felt while the test looks at it.
SETTINGS = {"pause_seconds": 40, "bet_seconds": 30, "action_seconds": 30}
# Each seat's middle and the ring's middle, in the page's pixels.
PLACES = """() => {
    const ring = document.querySelector('.felt .ring').getBoundingClientRect();
    const seats = [...document.querySelectorAll('.felt .seat')].map((el) => {
        const r = el.getBoundingClientRect();
        return [Number(el.dataset.seat), r.left + r.width / 2, r.top + r.height / 2];
    });
    return {centre: [ring.left + ring.width / 2, ring.top + ring.height / 2], seats};
}"""


def clockwise_angles(places: dict[str, Any]) -> list[tuple[int, float]]:
    """Each seat's angle round the ring's middle, clockwise on the screen from the dealer's place at the top."""
    cx, cy = places["centre"]
    out = []
    for seat, x, y in sorted(places["seats"]):
        angle = math.degrees(math.atan2(y - cy, x - cx))  # y grows down: a growing angle turns clockwise
        out.append((seat, (angle + 90) % 360))
    return out


@pytest.fixture(scope="module")
def bot_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One home for the module's bots: the same seven accounts play each game (an address makes ten at most)."""
    return tmp_path_factory.mktemp("bots")


@pytest.fixture
def bots() -> Iterator[list[subprocess.Popen[str]]]:
    """The bot processes a test starts, stopped as with Ctrl-C after it."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        process.send_signal(signal.SIGINT)  # as Ctrl-C: the bots stand up cleanly, free for the next game
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def start_bots(server: WebServer, table: str, home: Path, count: int) -> subprocess.Popen[str]:
    """COUNT basic bots at the table, each its own account and connection (`hcf bot`)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("HCF_")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_STATE_HOME=str(home / "state"),
               XDG_DATA_HOME=str(home / "data"))
    with (home / "bots.log").open("w") as log:  # the child keeps its own copy of the file
        return subprocess.Popen(
            [sys.executable, "-m", "client_cli.cli", "bot", "--server", server.url, "--table", table,
             "--count", str(count), "--hands", "3", "--fast", "--prefix", table[5:8], "--timeout", "170"],
            cwd=HERE.parents[1], env=env, stdout=log, stderr=subprocess.STDOUT, text=True)


def look(page: Page, game: str, size: str, seats: int) -> None:
    """The felt as it is now: seats clockwise in seat order, nothing out of place; and its screenshot."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(100)
    angles = clockwise_angles(page.evaluate(PLACES))
    assert [seat for seat, _ in angles] == list(range(1, seats + 1)), angles
    turns = [angle for _, angle in angles]
    assert turns == sorted(turns), (size, "the seats go round clockwise in seat order", angles)
    assert turns[0] > 5, (size, "the dealer's place at the top stays free", angles)
    assert turns[-1] < 355, (size, "the dealer's place at the top stays free", angles)
    problems: list[str] = page.evaluate(LAYOUT_PROBLEMS)
    assert not problems, (size, problems)
    low = [ratio for ratio in page.evaluate(CONTRAST) if ratio[1] < 4.5]
    assert not low, (size, "every text of the felt passes WCAG AA", low)
    page.screenshot(path=str(DOCS_IMG / f"felt-{game}-{size}.png"), full_page=size == "phone")


def seven_seats_round_the_felt(server: WebServer, browser: Browser, bots: list[subprocess.Popen[str]],
                               bot_home: Path, game: str) -> None:
    """Bots in every seat of a new table of the game (7; 4 at 6 Card Poker, a seat for each box).

    A spectator sees them round the felt, and the results on the seats.
    """
    table = f"felt-{game}"
    seats = 4 if game == "sixcard" else 7
    clocks = {**SETTINGS, **({"offer_seconds": 30} if game == "hcf" else {})}
    assert server.host("create_table", table=table, settings={"game": game, **clocks})["ok"]
    assert server.host("pause", table=table)["ok"]  # the first hand waits for all seven
    watcher = Person.open(browser, "watcher", server.invite(table, "spectator"))
    try:
        watcher.page.wait_for_url(f"**/watch/{table}")
        bots.append(start_bots(server, table, bot_home, seats))
        try:
            watcher.page.wait_for_function("(n) => document.querySelectorAll('.felt .seat').length === n",
                                           arg=seats, timeout=120_000)
        except Exception as exc:
            raise AssertionError((bot_home / "bots.log").read_text() + watcher.text("main")[:800]) from exc
        assert server.host("resume", table=table)["ok"]
        # a hand is over: its nets and hands named on the seats (kept until the next deal)
        watcher.page.wait_for_selector(".seat .seat-result .net", timeout=90_000)
        watcher.page.wait_for_selector(".seat .seat-result .hand-name", timeout=10_000)
        nets = watcher.page.locator(".seat .seat-result .net").count()
        assert nets >= 2, nets
        for size, viewport in (("laptop", LAPTOP_800), ("phone", PHONE)):
            watcher.page.set_viewport_size(viewport)  # type: ignore[arg-type]
            look(watcher.page, game, size, seats)
        assert watcher.page.locator(".seat .chips .chip").count() >= seats, "every stack is drawn as chips"
    finally:
        watcher.context.close()
    assert not watcher.errors, watcher.errors
