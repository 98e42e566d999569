"""The catalogs are complete: every message id the code says has its Spanish and German (docs/i18n.md).

Python ids come from the syntax tree (``phrase``, ``say``, ``tr``), with each shipped drill scenario's
``title`` and ``about``; the page's from its ``t("...")`` calls. Each catalog holds exactly the ids the code
says (none missing, none unused), each translated, with the same ``{fields}`` as its English.
"""

from __future__ import annotations

import re
import string

import pytest

from tests.support.message_ids import (
    TRANSLATED,
    catalog_ids,
    page_catalog,
    page_ids,
    python_ids,
    read_catalog,
    scenario_ids,
)

_FIELDS = string.Formatter()
_JS_FIELD = re.compile(r"\{(\w+)\}")


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in _FIELDS.parse(text) if name}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_python_message_has_its_translation(lang: str) -> None:
    ids = catalog_ids()
    catalog = {m.id: m.string for m in read_catalog(lang) if m.id}
    missing = sorted(f"{msgid!r} ({where})" for msgid, where in ids.items() if not catalog.get(msgid))
    assert not missing, f"{lang}: no translation of " + "; ".join(missing)
    unused = sorted(set(catalog) - set(ids))
    assert not unused, f"{lang}: no code says {unused}"
    for msgid, text in catalog.items():
        assert isinstance(text, str)
        assert _fields(text) == _fields(msgid), f"{lang}: {text!r} has other fields than {msgid!r}"


@pytest.mark.parametrize("lang", ["en", *TRANSLATED])
def test_every_page_message_has_its_translation(lang: str) -> None:
    ids = page_ids()
    assert len(ids) > 20  # the scan finds the page's sentences (a broken pattern would find none)
    catalog = page_catalog(lang)
    missing = sorted(f"{msgid!r} ({where})" for msgid, where in ids.items() if not catalog.get(msgid))
    assert not missing, f"{lang}.json: no translation of " + "; ".join(missing)
    unused = sorted(set(catalog) - set(ids))
    assert not unused, f"{lang}.json: no code says {unused}"
    for msgid, text in catalog.items():
        assert set(_JS_FIELD.findall(text)) == set(_JS_FIELD.findall(msgid)), f"{lang}: {text!r} vs {msgid!r}"


def test_the_python_scan_finds_the_wrapped_sentences() -> None:
    ids = python_ids()
    assert "the buy-in is {low} to {high} chips, got {asked}" in ids
    assert len(ids) > 20


def test_the_scenario_scan_finds_each_shipped_scenarios_title_and_about() -> None:
    ids = scenario_ids()
    assert ids["A player walks away before their turn"] == "server/drill/scenarios/walk-away.json:title"
    assert len(ids) >= 2 * 20  # a title and an about for each of the twenty-odd shipped scenarios
