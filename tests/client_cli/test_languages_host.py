"""``hcf host``'s own lines speak the language asked (issue 28 item 5, docs/i18n.md)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from client_cli.host import describe_odds, describe_reply, invite_lines, parse_duration
from tests.client_cli.conftest import ROOT, client_env, hcf


@pytest.mark.usefixtures("german")
def test_the_hosts_answers_are_german() -> None:
    assert describe_reply("create-table", {"ok": True, "table": {"name": "high"}}) == "Tisch high angelegt"
    assert describe_reply("change-settings", {"changes": {}, "applied": "now"}) == \
        "nichts ändert sich: der Tisch hat diese Einstellungen schon"
    assert describe_reply("remove-player", {"seat": 3, "removed": "after_hand"}) == \
        "Platz 3 steht nach dieser Hand auf"
    assert describe_reply("grant-chips", {"granted": 500, "account": "alice", "balance": 1500}) == \
        "500 Chips an alice ausgegeben: Guthaben 1500"


@pytest.mark.usefixtures("german")
def test_the_odds_line_and_the_invites_are_german() -> None:
    line = describe_odds({"game": "caribbean", "house_edge": {"ante_bet": 0.05682, "jackpot": 0.3}})
    assert line.startswith("Gewinnchancen: Hausvorteil Ante+BET 5,682\u00a0% (spielt mit A-K oder besser)")
    assert invite_lines([]) == ["keine Einladungen"]
    assert invite_lines([{"id": 3, "table": "main", "role": "player", "expires_at": "2026-12-02T16:00:00Z",
                          "uses": None, "used": 2, "revoked": True}]) == ["3  main  player  2-mal benutzt  widerrufen"]
    with pytest.raises(ValueError, match="nimmt eine Dauer"):
        parse_duration("bald")


def test_the_english_answers_are_unchanged() -> None:
    assert describe_reply("create-table", {"table": {"name": "high"}}) == "created table high"
    assert invite_lines([]) == ["no invites"]


def test_a_hosts_mistake_is_said_in_spanish_before_connecting(tmp_path: Path) -> None:
    done = subprocess.run(hcf("host", "--lang", "es", "--host-token", "t", "invite", "--role", "player",
                              "--expires", "pronto"), cwd=ROOT, env=client_env(tmp_path), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("error: --expires acepta una duración como 30m, 12h, 2d o segundos (600), no")
    done = subprocess.run(hcf("host", "--lang", "de", "pause"), cwd=ROOT, env=client_env(tmp_path),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert done.stderr.strip() == "Fehler: das Gastgeber-Token wird gebraucht: --host-token oder HCF_HOST_TOKEN"
