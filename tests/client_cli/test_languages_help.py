"""``hcf --help`` and each command's help speak the language asked (issue 28 item 5, docs/i18n.md)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client_cli.cli import asked_language
from tests.client_cli.conftest import ROOT, client_env, hcf

_NO_LANGUAGE = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "C"}


def _help(tmp_path: Path, *args: str, **env: str) -> str:
    done = subprocess.run(hcf(*args), cwd=ROOT, env=client_env(tmp_path, **{**_NO_LANGUAGE, **env}),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


@pytest.mark.parametrize(("lang", "line"), [
    ("de", "Plätze mit Bots besetzen"),
    ("es", "ocupar asientos con bots"),
    ("en", "fill seats with bots"),
])
def test_the_commands_help_is_in_the_language_asked(tmp_path: Path, lang: str, line: str) -> None:
    assert line in " ".join(_help(tmp_path, "--help", "--lang", lang).split())


@pytest.mark.parametrize(("args", "line"), [
    (("bot", "--help", "--lang", "de"), "wie viele Bots (Vorgabe 1)"),
    (("host", "invite", "--lang=es", "--help"), "cuántas veces se puede canjear"),
    (("drill", "--help", "--lang", "de"), "Ein Auszubildender übt ein Verfahren"),
    (("play", "--help", "--lang", "en"), "the seat to take (default: the first free one)"),
])
def test_each_subcommands_help_is_in_the_language_asked(tmp_path: Path, args: tuple[str, ...], line: str) -> None:
    assert line in " ".join(_help(tmp_path, *args).split())


def test_the_environments_language_says_the_help(tmp_path: Path) -> None:
    text = " ".join(_help(tmp_path, "watch", "--help", LANG="es_ES.UTF-8").split())
    assert "La vista del espectador" in text
    assert "ejemplos:" in text


def test_the_english_help_is_unchanged(tmp_path: Path) -> None:
    text = " ".join(_help(tmp_path, "--help").split())
    assert "The hcf-table terminal client: play High Card Flush" in text
    assert "examples:" in text


def test_the_language_named_on_the_line_is_found_before_parsing() -> None:
    assert asked_language(["play", "--lang", "de", "--name", "x"]) == "de"
    assert asked_language(["--lang=es", "--help"]) == "es"
    assert asked_language(["play", "--lang"]) is None
    assert asked_language(["play", "--lang", "fr"]) is None
    assert asked_language(["play", "--", "--lang", "de"]) is None


@given(st.lists(st.text(max_size=8), max_size=6))
def test_any_line_gives_a_language_we_speak_or_none(words: list[str]) -> None:
    assert asked_language(words) in (None, "en", "es", "de")
