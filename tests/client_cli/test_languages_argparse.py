"""argparse's own words in ``hcf --help`` and a typo's error, in the person's language (issue 28 item 5): German
or Spanish around the English command names, English again once the command line is read."""

from __future__ import annotations

import argparse
import gettext
import os
import subprocess
from pathlib import Path

import pytest

from client_cli.argwords import argparse_words
from tests.client_cli.conftest import ROOT, client_env, hcf


def _hcf(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(hcf(*args), capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
                          env=client_env(tmp_path, **env))


def test_a_mistyped_command_is_refused_in_german(tmp_path: Path) -> None:
    run = _hcf(tmp_path, "plya", "--lang", "de")
    assert run.returncode == 2
    assert run.stderr.startswith("Aufruf: hcf [-h] COMMAND ...\n")
    assert "hcf: Fehler: Argument COMMAND: ungültige Auswahl: 'plya' (wählen Sie aus 'play', 'watch'" in run.stderr
    assert "usage:" not in run.stderr
    assert "invalid choice" not in run.stderr


def test_the_help_is_spanish_around_the_options(tmp_path: Path) -> None:
    run = _hcf(tmp_path, "play", "--help", "--lang", "es")
    assert run.returncode == 0
    assert run.stdout.startswith("uso: hcf play [-h] [--server URL]")
    assert "\nopciones:\n  -h, --help         muestra esta ayuda y termina\n" in run.stdout
    for english in ("usage:", "options:", "show this help message and exit"):
        assert english not in run.stdout


@pytest.mark.parametrize(("args", "env", "said"), [
    (("play", "--bogus"), {"LANG": "de_DE.UTF-8"}, "hcf: Fehler: unbekannte Argumente: --bogus"),
    ((), {"LANGUAGE": "es"}, "hcf: error: se requieren los siguientes argumentos: COMMAND"),
    (("play", "--lang", "fr"), {}, "hcf play: error: argument --lang: invalid choice: 'fr' (choose from 'en', "
                                   "'es', 'de')"),
])
def test_a_typos_error_is_said_in_the_language_asked(tmp_path: Path, args: tuple[str, ...], env: dict[str, str],
                                                     said: str) -> None:
    run = _hcf(tmp_path, *args, **env)
    assert run.returncode == 2
    assert said in run.stderr


def test_argparse_speaks_english_again_after_the_block() -> None:
    language, bound = os.environ.get("LANGUAGE"), gettext.bindtextdomain(gettext.textdomain())
    with argparse_words("de"):
        german = argparse.ArgumentParser(prog="x").format_help()
    assert german.startswith("Aufruf: x [-h]")
    assert "Optionen:" in german
    assert (os.environ.get("LANGUAGE"), gettext.bindtextdomain(gettext.textdomain())) == (language, bound)
    assert argparse.ArgumentParser(prog="x").format_help().startswith("usage: x [-h]")
