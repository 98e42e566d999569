"""The felt at 6 Card Poker (issue 28, item 1): seven seats round the oval in seat order, clockwise, nothing out of its
seat or the viewport, the results on the seats after a hand, at 1280x800 and 360x740; docs/img/felt-sixcard-*.png.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from playwright.sync_api import Browser

from .conftest import WebServer
from .felt_check import bot_home, bots, seven_seats_round_the_felt

__all__ = ["bot_home", "bots"]  # the fixtures this module's test uses


def test_seven_seats_go_round_the_felt_clockwise_and_the_results_stay_on_the_seats(
        web_server: WebServer, browser: Browser, bots: list[subprocess.Popen[str]], bot_home: Path) -> None:
    seven_seats_round_the_felt(web_server, browser, bots, bot_home, "sixcard")
