"""The trainer's page and the certificate in Debian's chromium (issue 27, items 4 and 7; docs/drills.md).

Three real sessions of the engine (a rehearsal of ``bank-runs-out`` answered by a typist on a hand-moved clock)
are kept for tina through the server's own API; the host's page charts them, a trainee reads her own page and
is refused another's, and the certificate of her exam prints to PDF (Chromium's print to PDF) with the figures
of the report, read back with pdftotext (poppler-utils, deploy/apt-packages.txt). The screenshots in docs/img
are made here, at 1280x800 and 360x740.
"""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from client_cli.drill.grammar import format_answer
from client_cli.drill.scenarios import load
from client_cli.drill.session import Terminal, rehearse
from server.rules.drill.play import dry_run
from server.rules.drill.progress import compact
from server.rules.drill.standards import PassMarks, exam_verdict
from server.rules.drill.views import moments
from tests.support.clock import ManualClock

from .conftest import WebServer
from .helpers import Person

DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"
SIZES = {"laptop": {"width": 1280, "height": 800}, "phone": {"width": 360, "height": 740}}
SCENARIO = "bank-runs-out"


WRONG = {"fees": "fees none", "qualify": "q n", "bank_after": "bank 61"}
"""A wrong answer (in the typed form) to some of SCENARIO's step kinds."""


def _session(wrong: set[str], seconds: float) -> dict[str, Any]:
    """A real rehearsal of SCENARIO: the step kinds ``wrong`` answered wrong, the others right, each answer
    ``seconds`` after its question."""
    scenario = load(SCENARIO)
    steps = moments(scenario, dry_run(scenario))
    lines = [WRONG[m.asked.step.step] if m.asked.step.step in wrong
             else format_answer(m.asked.step.step, m.asked.step.answer) for m in steps]
    typed, clock = iter(lines), ManualClock()

    def read(_prompt: str) -> str:
        clock.advance(seconds)
        line = next(typed, None)
        if line is None:
            raise EOFError
        return line
    return rehearse(scenario, steps, "exam", Terminal(read, lambda _line: None, clock.monotonic))


@pytest.fixture(scope="module")
def tina(web_server: WebServer) -> dict[str, Any]:
    """tina's account and three kept sessions, the last an exam passed with its whole answer log."""
    registered = web_server.call("POST", "/api/register", {"name": "tina", "password": "password123"})
    assert registered["ok"], registered
    sessions = [_session({"fees", "qualify", "bank_after"}, 6.0), _session({"fees"}, 4.0), _session(set(), 2.0)]
    exam = sessions[2] | {"exam": exam_verdict(sessions[2]["right"], sessions[2]["within_standard"],
                                               sessions[2]["total"], PassMarks(right=95, within=90))}
    assert exam["exam"]["passed"] is True
    for n, (report, mode) in enumerate(((compact(sessions[0]), "training"), (compact(sessions[1]), "training"),
                                        (exam, "exam")), 1):
        kept = web_server.call("POST", "/api/drill-reports", {"source": "offline", "mode": mode, "partial": False,
                                                              "report": report}, registered["token"])
        assert kept == {"ok": True}, (n, kept)
    return {"token": registered["token"], "exam": exam}


def _signed_in(browser: Browser, web_server: WebServer, saved: dict[str, Any], url: str,
               size: str = "laptop") -> Person:
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    context.add_init_script(f"localStorage.setItem('hcf-table', {json.dumps(json.dumps(saved))})")
    page = context.new_page()
    person = Person("trainer", context, page)
    page.on("pageerror", lambda exc: person.errors.append(str(exc)))
    page.on("console", lambda msg: person.errors.append(msg.text) if msg.type == "error" else None)
    page.goto(web_server.url + url)
    return person


def _shoot(page: Page, name: str) -> None:
    page.screenshot(path=str(DOCS_IMG / name), full_page=True)


@pytest.mark.usefixtures("tina")
def test_the_trainers_page_charts_three_sessions_per_step_kind(browser: Browser, web_server: WebServer) -> None:
    host = _signed_in(browser, web_server, {"host_token": web_server.host_token}, "/trainees")
    page = host.page
    page.wait_for_selector('tr[data-trainee="tina"]')
    assert re.search(r"tina\s+3\s+\d{4}-\d\d-\d\d \d\d:\d\d UTC\s+[\d.]+%\s+1", host.text('tr[data-trainee="tina"]'))
    page.click('tr[data-trainee="tina"] a')
    page.wait_for_selector(".trend-chart")
    fees = page.locator('.trend[data-step="fees"]')
    assert fees.locator("svg.trend-chart circle").count() == 3  # one dot per session
    assert fees.locator("svg.trend-chart rect").count() == 3  # the median times, timed in every session
    assert fees.locator(".trend-table tbody tr").count() == 3
    title = fees.locator("svg title").text_content() or ""
    assert title.startswith("the fees over 3 sessions: session 1, ")
    assert "median 6.0 s" in title
    assert "median 2.0 s" in title
    for word in ("Session", "Percent right", "Median seconds"):
        assert fees.locator("svg text", has_text=word).count() == 1
    main = host.text()
    for said in ("tina: 3 sessions", "1 certificate.", "Weak items", "the fees: 33.3% right over its last 3 sessions",
                 "Certificates"):
        assert said in main
    assert re.search(r"The exam bank-runs-out, passed on \d{4}-\d\d-\d\d \d\d:\d\d UTC \(session 3\): 100% right",
                     main)
    assert not host.errors, host.errors
    _shoot(page, "trainer-laptop.png")
    host.context.close()
    phone = _signed_in(browser, web_server, {"host_token": web_server.host_token}, "/trainees/tina", "phone")
    phone.page.wait_for_selector(".trend-chart")
    overflow = phone.page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert overflow is False, "the trainer's page is wider than a phone"
    _shoot(phone.page, "trainer-phone.png")
    phone.context.close()


def test_a_trainee_sees_their_own_page_and_is_refused_anothers(browser: Browser, web_server: WebServer,
                                                              tina: dict[str, Any]) -> None:
    own = _signed_in(browser, web_server, {"token": tina["token"], "name": "tina"}, "/trainees")
    own.page.wait_for_selector(".trend-chart")
    assert own.page.url.endswith("/trainees/tina")
    assert own.page.locator("nav a", has_text="Trainees").count() == 0
    own.page.goto(web_server.url + "/trainees/bob")
    own.page.wait_for_selector('[role="alert"]')
    assert own.text('[role="alert"]') == ("You are logged in as tina: a trainee reads their own drill history only, "
                                          "and the host every trainee's.")
    own.page.goto(web_server.url + "/certificate/tina/1")
    own.page.wait_for_selector('[role="alert"]')
    assert own.text('[role="alert"]') == ("Session 1 of tina is not an exam passed: only an exam passed has a "
                                          "certificate.")
    own.page.goto(web_server.url + "/certificate/tina/3rd")  # a typo in the address
    own.page.wait_for_selector('[role="alert"]')
    assert own.text('[role="alert"]') == ("There is no session '3rd': sessions are numbered from 1, as in the "
                                          "trainee's history.")
    # (the browser logs each refused request itself; nothing else went wrong on the page)
    assert [e for e in own.errors if not e.startswith("Failed to load resource")] == [], own.errors
    own.context.close()


def test_the_certificate_prints_to_pdf_with_the_figures_of_the_report(browser: Browser, web_server: WebServer,
                                                                     tina: dict[str, Any], tmp_path: Path) -> None:
    exam = tina["exam"]
    digest = hashlib.sha256(json.dumps(exam["steps"], sort_keys=True, separators=(",", ":"),
                                       ensure_ascii=False).encode()).hexdigest()
    person = _signed_in(browser, web_server, {"token": tina["token"], "name": "tina"}, "/trainees/tina")
    page = person.page
    page.click('.certificates a[data-session="3"]')
    page.wait_for_selector(".certificate .check")
    assert page.locator(".digest code").text_content() == digest
    assert "Checked against the database at" in person.text(".certificate .check")
    _shoot(page, "certificate-laptop.png")
    for paper in ("A4", "Letter"):
        pdf = tmp_path / f"certificate-{paper}.pdf"
        page.pdf(path=str(pdf), format=paper, print_background=False)
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True,
                              timeout=60).stdout
        pages = text.count("\f")
        assert pages == 1, f"the certificate takes {pages} pages of {paper}"
        flat = re.sub(r"\s+", " ", text)
        assert f"tina passed the exam {SCENARIO} on" in flat
        assert f"Score: {exam['total']} of {exam['total']} steps right (100%; 95% needed)" in flat
        assert f"{exam['within_standard']} within their standard times (100%; 90% needed)" in flat
        assert digest in re.sub(r"\s+", "", text)
        assert "the fees 1 of 1 2.0 s 2.0 s 10 s 1 of 1" in flat  # a step kind's row: right, times, standard
        for chrome in ("Print or save as PDF", "Check again", "Drill history of tina"):
            assert chrome not in flat, f"{chrome!r} is printed"
    person.context.close()
    phone = _signed_in(browser, web_server, {"token": tina["token"], "name": "tina"}, "/certificate/tina/3", "phone")
    phone.page.wait_for_selector(".certificate .check")
    overflow = phone.page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
    assert overflow is False, "the certificate is wider than a phone"
    _shoot(phone.page, "certificate-phone.png")
    assert not phone.errors, phone.errors
    assert not person.errors, person.errors
    phone.context.close()
