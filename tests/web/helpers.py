"""What the browser tests do with a page: open a link, press a shortcut, wait for a choice, read the screen."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, WebSocket

LAPTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 360, "height": 740}
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")


@dataclass
class Person:
    """One browser context (a friend's browser) and its page, with every page error kept."""

    name: str
    context: BrowserContext
    page: Page
    errors: list[str] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)

    @classmethod
    def open(cls, browser: Browser, name: str, url: str, *, phone: bool = False, record: bool = False) -> Person:
        context = browser.new_context(viewport=PHONE if phone else LAPTOP)
        page = context.new_page()
        person = cls(name, context, page)
        page.on("pageerror", lambda exc: person.errors.append(str(exc)))
        page.on("console", lambda msg: person.errors.append(msg.text) if msg.type == "error" else None)
        if record:
            page.on("websocket", person._record)
        page.goto(url)
        return person

    def _record(self, ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: self.frames.append(payload if isinstance(payload, str) else ""))

    def join(self, url: str) -> None:
        """Open an invite link and give a name."""
        self.page.goto(url)
        self.page.fill("#join-name", self.name)
        self.page.click("form.join button")

    def choice(self, tag: str) -> str:
        return f'.controls .choice[data-action="{tag}"]'

    def has(self, tag: str) -> bool:
        return self.page.locator(self.choice(tag)).count() > 0

    def wait_choice(self, tag: str, timeout: float = 30_000) -> None:
        self.page.wait_for_selector(self.choice(tag), timeout=timeout)

    def press(self, tag: str) -> None:
        """Press the choice's keyboard shortcut (the one its button shows)."""
        button = self.page.locator(f"{self.choice(tag)} button.act").first
        # a button that gives something up waits a moment after another press (docs/web.md): as a person would
        self.page.wait_for_selector(f"{self.choice(tag)} button.act:not([disabled])")
        key = button.get_attribute("data-key")
        assert key, f"{tag} has no shortcut"
        self.page.evaluate("document.activeElement && document.activeElement.blur()")
        self.page.keyboard.press(key if len(key) == 1 and key.islower() else f"Shift+{key.lower()}")

    def fill(self, tag: str, name: str, value: int) -> None:
        self.page.fill(f'{self.choice(tag)} input[name="{name}"]', str(value))

    def submit(self, tag: str) -> None:
        self.page.click(f"{self.choice(tag)} button.act")

    def text(self, selector: str = "main") -> str:
        return self.page.inner_text(selector)

    def wait_text(self, selector: str, pattern: str, timeout: float = 30_000) -> str:
        self.page.wait_for_function(
            "([sel, pat]) => [...document.querySelectorAll(sel)].some((e) => new RegExp(pat).test(e.textContent))",
            arg=[selector, pattern], timeout=timeout)
        return self.text(selector)


def first_with(people: Iterable[Person], tag: str, timeout: float = 30.0) -> Person:
    """The first of these people offered ``tag`` (polling their pages)."""
    people = list(people)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for person in people:
            if person.has(tag):
                return person
        people[0].page.wait_for_timeout(100)
    raise AssertionError(f"nobody was offered {tag}")


def frame_cards(frames: Iterable[str]) -> Iterator[tuple[str, str]]:
    """(card, where) for every card in the Socket.IO frames, outside what a finished hand reveals on purpose."""
    for frame in frames:
        body = frame.lstrip("0123456789")
        if not body.startswith("["):
            continue
        yield from _cards(json.loads(body), "")


def _cards(value: Any, where: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str) and CARD.match(value):
        yield value, where
    elif isinstance(value, dict):
        for key, item in value.items():
            if key in ("arranged_deck", "arranged_hands"):
                continue  # the host's deck, published with the finished hand's record
            yield from _cards(item, f"{where}.{key}")
    elif isinstance(value, list):
        for item in value:
            yield from _cards(item, where)
