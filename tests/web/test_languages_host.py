"""The host console and the history page in Spanish (issue 28 item 5; docs/i18n.md), at 1280x800 and 360x740:
their words come from the page's catalog, and nothing of them stays in English. Screenshots for a person to look
at go to /tmp/hcf-i18n-shots."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .conftest import ROOT, WebServer
from .helpers import PHONE

SHOTS = Path("/tmp/hcf-i18n-shots")
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": PHONE}
TABLE = "historia"


@pytest.fixture(scope="module")
def hands(web_server: WebServer) -> list[dict[str, Any]]:
    """A table where two bots played a hand: its finished hands."""
    assert web_server.host("create_table", table=TABLE, settings={"pause_seconds": 0.2})["ok"]
    bots = subprocess.run(
        [sys.executable, "-m", "client_cli.cli", "bot", "--server", web_server.url, "--table", TABLE, "--count", "2",
         "--hands", "1", "--fast", "--strategy", "random", "--seed", "5", "--timeout", "120", "--prefix", "es"],
        cwd=ROOT, capture_output=True, text=True, timeout=180, check=False)
    assert bots.returncode == 0, bots.stdout + bots.stderr
    web_server.host("pause", table=TABLE)
    found = web_server.call("GET", f"/api/tables/{TABLE}/hands?limit=5")["hands"]
    assert found, "the bots finished a hand"
    return found


def _spanish(browser: Browser, size: str) -> tuple[Page, list[str]]:
    context = browser.new_context(viewport=SIZES[size], locale="es-ES")  # type: ignore[arg-type]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


@pytest.mark.usefixtures("hands")
@pytest.mark.parametrize("size", list(SIZES))
def test_the_host_console_speaks_spanish(web_server: WebServer, browser: Browser, size: str) -> None:
    page, errors = _spanish(browser, size)
    page.goto(f"{web_server.url}/")
    page.evaluate("t => localStorage.setItem('hcf-table', JSON.stringify({host_token: t}))", web_server.host_token)
    page.goto(f"{web_server.url}/host")
    page.wait_for_selector(f"section.table-state[data-table='{TABLE}']")
    panel = page.inner_text(f"section.table-state[data-table='{TABLE}']")
    assert "Sentados" in panel, panel
    assert "Todavía no se sienta nadie aquí." in panel, panel  # the bots stood up when they were done
    assert "Seated" not in panel, panel
    console = page.inner_text("main") if page.locator("main").count() else page.inner_text("body")
    for words in ("El token del anfitrión: usted dirige todas las mesas.", "Crear una mesa", "Dar fichas",
                  "Declarar muerta la mano del asiento", "Preparar la próxima baraja", "Invitar", "Liquidar cuentas",
                  "Enlaces de repetición"):
        assert words in console, words
    for english in ("Create a table", "Give chips", "Floor", "Make a link", "Replay links", "Forget the host token"):
        assert english not in console, english
    # A number out of its box's limits is refused in the page's words and language, not the browser's.
    chips = page.locator("#grant-amount")
    chips.fill("0")
    assert chips.evaluate("(el) => el.validationMessage") == "Escriba un número entero de 1 o más."
    chips.fill("1000")
    assert chips.evaluate("(el) => el.validationMessage") == ""
    page.click(f"section.table-state[data-table='{TABLE}'] button[data-table-action]")  # resume, then its answer
    page.wait_for_selector("p.status[data-action='resume']")
    assert page.inner_text("p.status") == (f"La mesa {TABLE} se reanuda: la próxima mano empieza cuando se sienten "
                                           "suficientes jugadores.")
    web_server.host("pause", table=TABLE)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"host-es-{size}.png"))
    assert not errors, errors
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_history_page_speaks_spanish(web_server: WebServer, browser: Browser, size: str,
                                         hands: list[dict[str, Any]]) -> None:
    hand = hands[-1]
    page, errors = _spanish(browser, size)
    page.goto(f"{web_server.url}/history/{TABLE}/{hand['number']}#step=99")
    page.wait_for_selector(".replay .steps li")
    page.wait_for_function("() => !document.querySelector('.verdict').textContent.includes('…')")
    assert page.inner_text("h1") == f"Historial de {TABLE}"
    steps = page.inner_text(".replay .steps")
    assert steps.startswith(f"Empieza la mano n.º {hand['number']}"), steps
    assert "apuesta" in steps, steps
    for english in ("starts", " bets ", " shows"):
        assert english not in steps, (english, steps)
    assert page.inner_text(".counter").startswith("paso ")
    assert page.inner_text(".step-link") == "Enlace a este paso"
    assert page.get_attribute(".replay button", "aria-label") == "Primero (atajo Inicio)"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"history-es-{size}.png"), full_page=True)
    assert not errors, errors
    page.context.close()
