"""What a player reads is sentences, never the protocol's codes; the prompts say what a fold costs; the guide's
words work (issue 14: B.10, B.16, B.17, B.15's ``stay``)."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from client_cli import reasons
from client_cli.cli import main
from client_cli.event_words import describe_event
from client_cli.games import CLIENTS, HCF
from client_cli.games.commands import table_command
from client_cli.parse import (
    AnswerBank,
    Choices,
    InputError,
    Stay,
    WillingToBank,
    choices_text,
    legal_choices,
    parse_line,
)
from client_cli.render import result_lines
from server.i18n import render_text
from tests.client_cli.hcf_offers import decision_choices

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")  # shuffler_fault, card_count, sat_out_too_long...


def _server_text() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "server").rglob("*.py")))


def test_every_reason_the_server_voids_a_hand_for_has_words() -> None:
    text = _server_text()
    found = set(re.findall(r'(?:HandVoided|Misdeal|void_event|misdeal)\("([a-z_]+)"', text))
    found |= set(re.findall(r'(?:_void_hand, |\bvoid\()"([a-z_]+)"', text))
    found |= {"misdeal", "shuffler_fault"}  # the host's two (server/table/runner.py, _host_misdeal)
    assert {"card_count", "dealer_dead", "interrupted", "shutdown"} <= found, "the scan misses reasons: fix it"
    assert found <= set(reasons.VOID), f"void reasons without words: {found - set(reasons.VOID)}"


def test_every_reason_a_seat_or_spot_is_dead_for_has_words() -> None:
    found = set(re.findall(r'(?:SeatDead|SpotDead)\([^)]*"([a-z_]+)"\)', _server_text()))
    assert {"floor", "card_count"} <= found
    assert found <= set(reasons.DEAD)


@pytest.mark.parametrize("code", sorted(reasons.VOID))
def test_a_void_hand_is_said_in_a_sentence_in_every_game(code: str) -> None:
    summary = {"hand_id": 7, "status": "void", "reason": code}
    lines = [result_lines(summary, {})[0].plain,
             *(client.result_lines(summary, {})[0].plain for client in CLIENTS.values()),
             describe_event({"type": "hand_voided", "reason": code}, {}) or ""]
    for line in lines:
        assert reasons.VOID[code] in line, line
        assert not CODE.findall(line), f"a code shows: {line}"


def test_dead_hands_and_sitting_out_are_said_in_sentences() -> None:
    names = {2: "bob"}
    said = {
        describe_event({"type": "seat_dead", "seat": 2, "reason": "card_count"}, names):
            "bob's hand is dead: it was dealt the wrong number of cards; its bets and fee go back",
        describe_event({"type": "seat_dead", "seat": 2, "reason": "floor"}, names):
            "bob's hand is dead: the host declared it dead; its bets and fee go back",
        describe_event({"type": "player_sat_out", "seat": 2, "name": "bob", "reason": "clock"}, names):
            "bob sits out (the clock ran out two hands in a row)",
        describe_event({"type": "player_stood", "seat": 2, "name": "bob", "cashed_out": 998, "reason": "removed"},
                       names): "bob stands up (the host removed them), cashing out 998",
        CLIENTS["caribbean"].describe_event({"type": "spot_dead", "seat": 2, "spot": 3, "reason": "floor"}, names):
            "spot 3 (bob) is dead: the host declared it dead; its bets go back",
        CLIENTS["sixcard"].describe_event({"type": "seat_dead", "seat": 2, "boxes": [1, 2], "reason": "floor"},
                                          names): "bob's boxes 1 2 are dead: the host declared it dead; "
                                                  "their bets go back",
    }
    for got, want in said.items():
        assert got == want


def test_a_player_stood_up_by_the_host_is_told_it_was_the_host() -> None:
    assert reasons.stood_text("removed", 998, "main") == \
        "the host removed you from main: your 998 chips went back to your account"
    assert reasons.stood_text("closed", 5, "main") == \
        "the host closed table main: your 5 chips went back to your account"
    assert "sat out at main for 10 minutes" in reasons.stood_text("sat_out_too_long", 5, "main")
    assert reasons.stood_text(None, 5, "main", asked=True) == \
        "you stood up from main: your 5 chips went back to your account; bye"


def _decision(profile: str, sf: int, flush: int) -> Choices:
    snapshot = {"settings": {"profile": profile}, "you": {"seat": 2}, "seats": [{"seat": 2, "stack": 500}],
                "hand": {"phase": "decisions", "profile": profile, "turn": 2, "your_cards": {"raise_limit": 1},
                         "seats": {"2": {"ante": 10, "straight_flush_bonus": sf, "flush_bonus": flush}}},
                "choices": decision_choices(10, 10)}  # the server's: the turn is seat 2's (a raise of 1x the Ante)
    return legal_choices(snapshot)


def test_the_decision_says_a_fold_loses_the_bonus_bets_in_the_california_profile() -> None:
    text = choices_text(_decision("california", 5, 0))
    assert text == ("Your turn: fold (f) or raise 10 chips (r 10, r max)\n"
                    "  fold loses your Straight Flush bonus of 5 too")
    both = choices_text(_decision("california", 5, 3)) or ""
    assert both.splitlines()[1] == "  fold loses your Straight Flush bonus of 5 and Flush bonus of 3 too"
    assert all(len(line) <= 80 for line in both.splitlines())
    assert "\n" not in (choices_text(_decision("california", 0, 0)) or "")
    # The standard profile judges the bonuses whether the player folds or not (rules/hcf.md section 7).
    assert "\n" not in (choices_text(_decision("standard", 5, 3)) or "")


def test_bank_yes_and_bank_no_answer_the_offer_like_y_and_n() -> None:
    offered = Choices(kind="bank", seated=True)
    idle = Choices(seated=True)
    assert parse_line("bank yes", offered) == AnswerBank(True) == parse_line("y", offered)
    assert parse_line("bank no", offered) == AnswerBank(False) == parse_line("n", offered)
    assert parse_line("bank on", offered) == WillingToBank(True)
    assert parse_line("bank yes", idle) == InputError(
        "the bank is not being offered to you now ('bank on' / 'bank off' sets whether it may be)")
    assert parse_line("bank", offered) == InputError(
        "take the bank with 'y' (or 'bank yes'), pass it on with 'n' (or 'bank no')")


def test_the_guide_gives_the_words_the_client_reads() -> None:
    guide = (ROOT / "docs" / "games" / "hcf.md").read_text(encoding="utf-8")
    offered = Choices(kind="bank", seated=True)
    typed = re.findall(r"`(bank [a-z]+|y|n)`", guide)
    assert {"y", "n", "bank yes", "bank no", "bank on", "bank off"} <= set(typed)
    for words in typed:
        assert not isinstance(parse_line(words, offered), InputError), words


def test_stay_is_a_command_at_every_table() -> None:
    assert parse_line("stay", Choices()) == Stay()
    assert table_command(["stay"]) == Stay()
    assert "stay" in CLIENTS["sixcard"].help


@pytest.mark.parametrize("lang", ["en", "es", "de"])
@pytest.mark.parametrize("game", ["hcf", "caribbean", "sixcard"])
def test_each_games_help_is_sentences_without_a_settings_code(game: str, lang: str) -> None:
    help_text = render_text((HCF if game == "hcf" else CLIENTS[game]).help, lang)
    assert not CODE.findall(help_text), CODE.findall(help_text)  # max_hands_while_waiting was shown


@pytest.mark.parametrize("command", ["tables", "history", "watch"])
def test_a_server_that_does_not_answer_is_said_in_words_not_the_http_librarys(
        command: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert main([command, "--server", f"http://127.0.0.1:{port}"]) == 1
    said = capsys.readouterr().err.strip()
    assert said == "error: cannot reach the server: nothing answers at that address (is the server running?)", said
