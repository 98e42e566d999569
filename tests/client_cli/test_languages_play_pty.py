"""A hand played in a terminal in the person's language (issue 28 item 5; docs/i18n.md): at a High Card Flush table
``hcf play --lang de`` shows "Your cards" and the raise limit in German, with a bot in the other seat; at a 6 Card
Poker table ``--lang es`` notes a sixth card bought in Spanish (both were English before, outside the catalogs)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TextIO

import pexpect
import pytest

from client_cli.api import request_json
from tests.client_cli.conftest import ROOT, Server, client_env, hcf
from tests.support.pty import tear_down

HCF_TABLE = "lang-hand"
BANK = "Ihnen wird die Bank angeboten"  # the bank offer: she declines it, so the bot banks and she may raise
BETS = "Einsätze offen: bet ANTE"
CARDS = "Ihre Karten: "
TURN = "Sie sind dran: weglegen (f)"
# Her facts line under her cards: a flush (always, with seven cards in four suits), then the raise limit.
LIMIT = r"FLUSH \d+ \([2-9TJQKA-]+\).* · erhöhen bis (\d+)x = (\d+)"


def _start_bot(server: Server, table: str, config: Path, log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            hcf("bot", "--server", server.url, "--table", table, "--count", "1", "--hands", "1000", "--fast",
                "--prefix", "langbot-"),
            cwd=ROOT, env=client_env(config), stdout=out, stderr=subprocess.STDOUT)


def _spawn(argv: list[str], config: Path, screen: Path) -> tuple[pexpect.spawn, TextIO]:
    env = client_env(config, TERM="xterm-256color", LANG="C.UTF-8")
    env.pop("LC_ALL", None)
    env.pop("LANGUAGE", None)
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=env, dimensions=(40, 160), encoding="utf-8",
                          timeout=30)
    log = screen.open("w", encoding="utf-8")
    child.logfile_read = log  # what the person saw, for a failure
    return child, log


def _register(child: pexpect.spawn, name: str) -> None:
    child.expect_exact(f"Passwort für {name}")
    child.sendline("a-good-password")
    child.expect_exact("Geben Sie es noch einmal ein")
    child.sendline("a-good-password")


@pytest.mark.timeout(150)
def test_a_high_card_flush_hand_shows_your_cards_and_the_raise_limit_in_german(server: Server,
                                                                               tmp_path: Path) -> None:
    reply = request_json("POST", f"{server.url}/api/host", {"action": "create_table", "table": HCF_TABLE},
                         token=server.host_token)
    assert reply["ok"], reply
    bot = _start_bot(server, HCF_TABLE, tmp_path / "bot-config", tmp_path / "bot.log")
    argv = hcf("play", "--server", server.url, "--table", HCF_TABLE, "--name", "greta", "--seat", "5",
               "--buy-in", "1000", "--lang", "de")
    child, screen = _spawn(argv, tmp_path / "greta", tmp_path / "screen.log")
    limit: tuple[int, int] | None = None
    try:
        _register(child, "greta")
        while limit is None:  # a hand she does not bank: she bets, sees her cards and her raise limit
            index = child.expect_exact([BANK, BETS, CARDS, TURN, "Your cards: "], timeout=60)
            if index == 4:
                pytest.fail("her cards were shown in English at a German table")
            if index == 0:
                child.send("n\r")
            elif index == 1:
                child.send("bet 10\r")
            elif index == 2:
                if child.expect([LIMIT, "Sie halten die Bank"], timeout=10) == 0:
                    limit = int(child.match.group(1)), int(child.match.group(2))
            else:
                child.send("f\r")
        child.sendintr()  # she leaves at her turn, as a person would: asked, she folds and goes
        child.expect_exact("Hand weglegen und gehen? [y/N]")
        child.send("y\r")
        child.expect(pexpect.EOF, timeout=60)
    finally:
        tear_down(child, bot, screen)
    times, chips = limit
    assert chips == times * 10  # her Ante of 10, times the limit her flush allows
    seen = (tmp_path / "screen.log").read_text(encoding="utf-8")
    assert "raise up to" not in seen


SIX_TABLE = "lang-six"
SIX_SETTINGS = {"game": "sixcard", "bet_seconds": 30, "action_seconds": 30, "exchange_seconds": 30,
                "pause_seconds": 0.2}


@pytest.mark.timeout(150)
def test_a_6_card_poker_buy_is_noted_in_spanish(server: Server, tmp_path: Path) -> None:
    """Her own note of a sixth card bought ("box 1: a sixth card bought for a fee of 10 chips") in Spanish."""
    reply = request_json("POST", f"{server.url}/api/host",
                         {"action": "create_table", "table": SIX_TABLE, "settings": SIX_SETTINGS},
                         token=server.host_token)
    assert reply["ok"], reply
    argv = hcf("play", "--server", server.url, "--table", SIX_TABLE, "--name", "sofia", "--buy-in", "1000",
               "--lang", "es")
    child, screen = _spawn(argv, tmp_path / "sofia", tmp_path / "screen.log")
    try:
        child.expect_exact("Contraseña de sofia")
        child.sendline("a-good-password")
        child.expect_exact("Escríbala otra vez para registrar")
        child.sendline("a-good-password")
        child.expect_exact("Apuestas abiertas: bet BOX:ANTE[+BONUS]")
        child.send("bet 1:10\r")
        child.expect_exact("Sus apuestas")
        child.send("d\r")
        child.expect_exact("Casilla 1 (")  # her turn on box 1: she buys a sixth card
        child.send("buy\r")
        if child.expect_exact(["casilla 1: sexta carta comprada por un cargo de 10 fichas",
                               "box 1: a sixth card bought"]) == 1:
            pytest.fail("her buy was noted in English at a Spanish table")
        child.send("f\r")
        child.sendintr()  # she leaves after this hand; asked first if the next hand's bets are already hers
        if child.expect_exact(["¿retirarse y salir? [y/N]", pexpect.EOF], timeout=60) == 0:
            child.send("y\r")
            child.expect(pexpect.EOF, timeout=60)
    finally:
        tear_down(child, None, screen)
