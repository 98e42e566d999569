"""The felt's geometry and chips (server/web/static/felt.js), run in the browser that runs the page: for any
number of seats, the seats go round clockwise in seat order, clear of the dealer's place, and on the felt;
a phone's grid goes round clockwise too; an amount's chips add up to it."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playwright.sync_api import Browser, Page

from .conftest import WebServer

PLACES = """async (count) => {
    const f = await import("/static/felt.js");
    return Array.from({length: count}, (_, i) => f.seatPlace(i + 1, count));
}"""
CELLS = """async (count) => {
    const f = await import("/static/felt.js");
    return Array.from({length: count}, (_, i) => f.phoneCell(i + 1, count));
}"""
CHIPS = """async ([amount, chips]) => {
    const f = await import("/static/felt.js");
    const denoms = f.denominations({chips});
    return [denoms, f.chipsFor(amount, denoms)];
}"""


@pytest.fixture(scope="module")
def page(web_server: WebServer, browser: Browser) -> Iterator[Page]:
    context = browser.new_context()
    opened = context.new_page()
    opened.goto(web_server.url + "/")
    yield opened
    context.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(count=st.integers(1, 9))
def test_the_seats_go_round_clockwise_in_seat_order_clear_of_the_dealer(page: Page, count: int) -> None:
    places = page.evaluate(PLACES, count)
    # y grows down on a screen: a growing angle turns clockwise; the dealer's place is at the top (0 here)
    turns = [(math.degrees(math.atan2(p["y"] - 50, p["x"] - 50)) + 90) % 360 for p in places]
    assert turns == sorted(turns), turns
    assert len(set(turns)) == count
    assert turns[0] > 0
    assert turns[-1] < 360
    for p in places:
        assert 0 <= p["x"] <= 100
        assert 0 <= p["y"] <= 100
        assert -100 <= p["tx"] <= 0  # shifted by at most its own size: its outer edge on the rim
        assert -100 <= p["ty"] <= 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(count=st.integers(1, 9))
def test_a_phones_grid_goes_round_clockwise_one_seat_a_cell(page: Page, count: int) -> None:
    """A phone's felt: down the right-hand column, across the bottom, up the left-hand one; one seat a cell."""
    cells = page.evaluate(CELLS, count)
    assert len({(c["row"], c["column"]) for c in cells}) == count
    right = [c["row"] for c in cells if c["column"] == "2"]
    bottom = [c for c in cells if c["bottom"]]
    left = [c["row"] for c in cells if c["column"] == "1"]
    assert right == list(range(1, len(right) + 1))  # seat 1 at the top right, then down in seat order
    assert left == sorted(left, reverse=True)  # the last seat at the top left: up in seat order
    assert len(right) == len(left) == count // 2
    assert len(bottom) == count % 2
    for c in bottom:  # the middle seat of an odd count, below both columns, at the felt's foot
        assert c["row"] == len(right) + 1
        assert cells.index(c) == len(right)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(amount=st.integers(0, 10**7), chips=st.none() | st.lists(st.integers(1, 10_000), min_size=1, max_size=10))
def test_an_amounts_chips_add_up_to_it(page: Page, amount: int, chips: list[int] | None) -> None:
    denoms, made = page.evaluate(CHIPS, [amount, chips])
    assert denoms == sorted(set(chips or [1, 5, 25, 100, 500, 1000]))
    assert sum(d * n for d, n in made["stacks"]) + made["left"] == amount
    assert 0 <= made["left"] < denoms[0]  # what no chip makes is less than the smallest chip
