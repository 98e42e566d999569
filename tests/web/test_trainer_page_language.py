"""The trainer's page in Spanish and German (issue 28 item 5; docs/i18n.md): the list of trainees and one trainee's
history (the summary, the weak items, the certificates, the charts' words and their tables) in the browser's
language (Playwright's ``locale``), at 1280x800 and 360x740."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from .conftest import WebServer
from .test_trainer_page import SIZES, tina

__all__ = ["tina"]  # the trainer page's fixture: tina's three kept sessions, the last an exam passed

SHOTS = Path("/tmp/hcf-i18n-shots")
# The one-word column headers laid out on more than one line: cut inside the word.
CUT_HEADERS = """[...document.querySelectorAll('.trainer-table thead th')]
    .filter((th) => !/\\s/.test(th.textContent.trim()) && (() => {
        const range = document.createRange();
        range.selectNodeContents(th);
        return range.getClientRects().length > 1;
    })())
    .map((th) => th.textContent)"""
SAYS = {
    "es-ES": {"list": ("Alumnos", "Alumno", "Sesiones", "Última vez", "Aciertos en total", "Certificados"),
              "page": ("Historial de ejercicios de tina", "tina: 3 sesiones", "1 certificado.", "Puntos débiles",
                       "los cargos: 33,3\u00a0% de aciertos en sus 3 últimas sesiones",  # Spanish numbers
                       "El examen bank-runs-out, aprobado el"),
              "chart": ("los cargos en 3 sesiones: sesión 1, ", "Porcentaje de aciertos", "Segundos (mediana)")},
    "de-DE": {"list": ("Auszubildende", "Auszubildender", "Sitzungen", "Zuletzt gesehen", "Insgesamt richtig",
                       "Zertifikate"),
              "page": ("Übungsverlauf von tina", "tina: 3 Sitzungen", "1 Zertifikat.", "Schwachstellen",
                       "die Gebühren: 33,3\u00a0% richtig in den letzten 3 Sitzungen",
                       "Die Prüfung bank-runs-out, bestanden am"),
              "chart": ("über 3 Sitzungen: Sitzung 1, ", "Prozent richtig", "Sekunden (Median)")},
}
ENGLISH = ("Drill history of", "Weak items", "Percent right", "sessions,", "Certificates")


def _page(browser: Browser, web_server: WebServer, locale: str, size: str, url: str) -> Any:
    context = browser.new_context(viewport=SIZES[size], locale=locale)  # type: ignore[arg-type]
    saved = {"host_token": web_server.host_token}
    context.add_init_script(f"localStorage.setItem('hcf-table', {json.dumps(json.dumps(saved))})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(web_server.url + url)
    return context, page, errors


@pytest.mark.usefixtures("tina")
@pytest.mark.parametrize("locale", list(SAYS))
def test_the_trainers_page_speaks_the_browsers_language(browser: Browser, web_server: WebServer,
                                                        locale: str) -> None:
    says = SAYS[locale]
    context, page, errors = _page(browser, web_server, locale, "laptop", "/trainees")
    page.wait_for_selector('tr[data-trainee="tina"]')
    listed = page.locator("main, body").first.inner_text()
    for word in says["list"]:
        assert word in listed, (word, listed)
    context.close()
    SHOTS.mkdir(exist_ok=True)
    for size in ("laptop", "phone"):
        context, page, errors = _page(browser, web_server, locale, size, "/trainees/tina")
        page.wait_for_selector(".trend-chart")
        text = page.locator("body").inner_text()
        for part in says["page"]:
            assert part in text, (part, text)
        for english in ENGLISH:
            assert english not in text, (english, text)
        fees = page.locator('.trend[data-step="fees"]')
        title = fees.locator("svg title").text_content() or ""
        assert says["chart"][0] in title, title
        for word in says["chart"][1:]:
            assert fees.locator("svg text", has_text=word).count() == 1, word
        overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        wide = page.evaluate("[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right"
                             " > window.innerWidth + 1).slice(0, 5).map((e) => e.tagName + ' '"
                             " + (e.textContent || '').slice(0, 40))")  # what sticks out, for a failure
        assert overflow is False, f"the trainer's page in {locale} is wider than the {size}'s screen: {wide}"
        broken = page.evaluate(CUT_HEADERS)
        assert broken == [], f"headers cut inside a word in {locale} on the {size}: {broken}"
        page.screenshot(path=str(SHOTS / f"trainer-{locale}-{size}.png"), full_page=True)
        assert not errors, errors
        context.close()


CERTIFICATE = {
    "es-ES": ("Certificado de un examen de ejercicio aprobado", "aprobó el examen bank-runs-out el",
              "Resultado: ", "pasos correctos", "100\u00a0%", "Comprobado con la base de datos el",
              "Imprimir o guardar como PDF"),
    "de-DE": ("Zertifikat über eine bestandene Übungsprüfung", "hat die Prüfung bank-runs-out am",
              "Ergebnis: ", "Schritten richtig", "100\u00a0%", "mit der Datenbank geprüft",
              "Drucken oder als PDF speichern"),
}


@pytest.mark.usefixtures("tina")
@pytest.mark.parametrize("locale", list(CERTIFICATE))
def test_the_certificate_speaks_the_browsers_language(browser: Browser, web_server: WebServer, locale: str) -> None:
    for size in ("laptop", "phone"):
        context, page, errors = _page(browser, web_server, locale, size, "/certificate/tina/3")
        page.wait_for_selector(".certificate .check")
        text = page.locator("body").inner_text()
        for part in CERTIFICATE[locale]:
            assert part in text, (part, text)
        for english in ("Certificate of a drill exam passed", "passed the exam", "Score:", "Checked against"):
            assert english not in text, (english, text)
        overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
        assert overflow is False, f"the certificate in {locale} is wider than the {size}'s screen"
        page.screenshot(path=str(SHOTS / f"certificate-{locale}-{size}.png"), full_page=True)
        assert not errors, errors
        context.close()
