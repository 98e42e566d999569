"""``hcf play --lang es`` and ``--lang de`` in a terminal (issue 28 item 5; docs/i18n.md): the prompts, the
seat's line, the help and the goodbye in the person's language; LANG chooses it when --lang is not given."""

from __future__ import annotations

from pathlib import Path

import pexpect
import pytest

from client_cli.api import request_json
from tests.client_cli.conftest import ROOT, Server, client_env, hcf

TABLE = "lang-pty"
# The live view's first line at the paused table: the table, then its state (each in its own colour).
HEADER = {"es": ("Mesa lang-pty", " · en pausa por el anfitrión"),
          "de": ("Tisch lang-pty", " · vom Gastgeber angehalten"),
          "en": ("Table lang-pty", " · paused by the host")}
SAYS = {  # the password prompt, the confirmation, the seat's line, the help's first line, the goodbye
    "es": ("Contraseña de {name}", "Escríbala otra vez para registrar",
           "se sienta en el asiento {seat} con 1000 fichas",
           "Órdenes (escríbalas y pulse Intro", "se levantó de lang-pty: sus 1000 fichas volvieron a su cuenta"),
    "de": ("Passwort für {name}", "Geben Sie es noch einmal ein", "Sie sitzen auf Platz {seat} mit 1000 Chips",
           "Befehle (eintippen und Enter drücken", "Sie sind von lang-pty aufgestanden: Ihre 1000 Chips gingen zurück"),
    "en": ("Password for {name}", "Type it again to register", "you sit at seat {seat} with 1000 chips",
           "Commands (type them and press Enter", "you stood up from lang-pty: your 1000 chips went back"),
}


@pytest.fixture(scope="module", autouse=True)
def _paused_table(server: Server) -> None:
    for action in ("create_table", "pause"):  # paused: no hand, nothing races the lines
        request_json("POST", f"{server.url}/api/host", {"action": action, "table": TABLE}, token=server.host_token)


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("lang", "how", "seat"), [
    ("es", "--lang", 1), ("de", "--lang", 2), ("de", "LANG", 3), ("en", "--lang", 4)])
def test_the_terminal_speaks_the_chosen_language(server: Server, tmp_path: Path, lang: str, how: str,
                                                 seat: int) -> None:
    name = f"{lang}{seat}"
    argv = hcf("play", "--server", server.url, "--table", TABLE, "--name", name, "--seat", str(seat),
               "--buy-in", "1000", *(["--lang", lang] if how == "--lang" else []))
    env = client_env(tmp_path / name, TERM="xterm-256color", LANG="de_DE.UTF-8" if how == "LANG" else "C.UTF-8")
    env.pop("LC_ALL", None)
    env.pop("LANGUAGE", None)
    password, again, sat, help_line, bye = SAYS[lang]
    screen = (tmp_path / "screen.log").open("w", encoding="utf-8")
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=env, dimensions=(40, 120), encoding="utf-8",
                          timeout=30)
    child.logfile_read = screen  # what the person saw, for a failure
    try:
        child.expect_exact(password.format(name=name))
        child.sendline("a-good-password")
        child.expect_exact(again)
        child.sendline("a-good-password")
        for part in HEADER[lang]:
            child.expect_exact(part)
        child.expect_exact(sat.format(seat=seat))
        child.send("help\r")
        child.expect_exact(help_line)
        child.sendintr()
        child.expect_exact(bye, timeout=30)
        child.expect(pexpect.EOF, timeout=20)
    finally:
        if child.isalive():
            child.terminate(force=True)
        screen.close()


SHARED_TABLE = "lang-shared"
HOUSE_RULES = {"bank_keep": 2, "nobody_banks": "end", "fee_schedule": [{"ante_to": 500, "player": 1, "dp": 2}]}


@pytest.mark.timeout(120)
def test_the_terminal_says_the_servers_shared_sentences_in_german(server: Server, tmp_path: Path) -> None:
    """The house notes in the live view and the host's arranged-deck message in the table's log: sentences every
    viewer shares, said from their message id in this terminal's language (docs/i18n.md)."""
    for action, more in (("create_table", {"settings": HOUSE_RULES}), ("pause", {})):
        reply = request_json("POST", f"{server.url}/api/host", {"action": action, "table": SHARED_TABLE, **more},
                             token=server.host_token)
        assert reply["ok"], reply
    argv = hcf("play", "--server", server.url, "--table", SHARED_TABLE, "--name", "deshared", "--seat", "1",
               "--buy-in", "1000", "--lang", "de")
    env = client_env(tmp_path / "deshared", TERM="xterm-256color", LANG="C.UTF-8")
    env.pop("LC_ALL", None)
    env.pop("LANGUAGE", None)
    screen = (tmp_path / "screen.log").open("w", encoding="utf-8")
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=env, dimensions=(40, 160), encoding="utf-8",
                          timeout=30)
    child.logfile_read = screen
    try:
        child.expect_exact("Passwort für deshared")
        child.sendline("a-good-password")
        child.expect_exact("Geben Sie es noch einmal ein")
        child.sendline("a-good-password")
        child.expect_exact("Hausregeln für die Bank")  # the house notes, shared by every viewer of the table
        child.expect_exact("Sie sitzen auf Platz 1 mit 1000 Chips")
        arranged = request_json("POST", f"{server.url}/api/host", {"action": "arrange_deck", "table": SHARED_TABLE,
                                                                   "cards": "As Ks Qs Js Ts 9s 8s"},
                                token=server.host_token)
        assert arranged["ok"], arranged
        child.expect_exact("der Gastgeber hat das nächste Deck vorbereitet")
        child.sendintr()
        child.expect(pexpect.EOF, timeout=30)
    finally:
        if child.isalive():
            child.terminate(force=True)
        screen.close()
    seen = (tmp_path / "screen.log").read_text(encoding="utf-8")
    assert "the host arranged the next deck" not in seen
    assert "House rules for the bank" not in seen
