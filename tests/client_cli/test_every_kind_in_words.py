"""Every event, refusal, result and account movement the terminal shows is said in words (issue 23, item 10).

The kinds are read from the code, so a new one is covered the day it is added: each game's
``EVENT_TYPES``, the table events the table server writes (``"type": "..."`` in
``server/table``), ``protocol.ERROR_CODES``, each game's results (played through the rules
core, and every way a hand or a seat ends dead or void) and the ledger's transfer kinds.
Each is rendered through the terminal client; the text may hold no snake_case token, no
``word/word`` code and no JSON brace.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from client_cli import reasons
from client_cli.account import account_lines
from client_cli.event_words import describe_event
from client_cli.games import CLIENTS, HCF
from client_cli.history import hand_lines, hand_row
from client_cli.render import result_lines
from server import protocol
from server.persistence.places import TRANSFER_KINDS
from server.rules.caribbean.messages import EVENT_TYPES as CARIBBEAN_EVENTS
from server.rules.hcf.messages import EVENT_TYPES as HCF_EVENTS
from server.rules.sixcard.messages import EVENT_TYPES as SIXCARD_EVENTS
from tests.client_cli import samples
from tests.client_cli.house_samples import Table, arranged, caribbean
from tests.client_cli.test_sixcard import exchange_phase, send

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"\b[a-z]+_[a-z_]+\b")
SLASH = re.compile(r"\b[a-z]+/[a-z_]+\b")
NAMES = {1: "ann", 2: "bob", 3: "cy"}
REASONS = sorted({*reasons.ACTED, *reasons.VOID, *reasons.DEAD, *reasons.NOT_DEALT, *reasons.SAT_OUT,
                  "passed", "fold", "removed", "asked", "funds"})


def plain_words(text: str) -> list[str]:
    """What in ``text`` is not a person's words: snake_case codes, ``word/word`` codes, JSON braces, a ``(s)`` plural,
    a fee of nothing (``fee +0``)."""
    return [*CODE.findall(text), *SLASH.findall(text), *re.findall(r"[{}]", text), *re.findall(r"\w\(s\)", text),
            *re.findall(r"\bfee [+-]?0\b", text)]


def _table_event_kinds() -> set[str]:
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "server" / "table").rglob("*.py")))
    return set(re.findall(r'"type": "([a-z_]+)"', source))


EVENT_KINDS = sorted({*HCF_EVENTS, *CARIBBEAN_EVENTS, *SIXCARD_EVENTS, *_table_event_kinds()})


def _played_caribbean() -> Table:
    table = caribbean(deck=arranged({1: "Kh Kd 7c 4s 2h", 2: "2s 6s 9s Js Qs", 0: "Ac Kc 8d 5h 3d"}))
    table.move(1, "bet", {"bets": [{"spot": 1, "ante": 10, "jackpot": True}]})
    table.move(2, "bet", {"bets": [{"spot": 2, "ante": 20, "jackpot": True}]})
    table.move(1, "deal")
    table.move(2, "deal")
    table.move(1, "play", {"spot": 1})
    table.move(2, "fold", {"spot": 2})
    return table


def _played_sixcard() -> Table:
    """A whole 6 Card Poker hand with a draw, a buy, a blind box and the dealer exchange (test_sixcard's)."""
    table = exchange_phase()
    for line in ("ask 1", "continue"):
        send(table, 1, line)
    for line in ("continue",):
        send(table, 2, line)
    return table


def _samples() -> dict[str, list[dict[str, Any]]]:
    """Real events of each kind a played hand brings, the kind's other shapes, and a bare one for the rest."""
    found: dict[str, list[dict[str, Any]]] = {}
    events = [*samples.play_a_hand().events, *_played_caribbean().public, *_played_sixcard().public]
    for event in events:
        found.setdefault(str(event["type"]), []).append(event)
    found.setdefault("settings_changed", []).append(
        {"type": "settings_changed", "changed": {"bet_seconds": 6.0, "flush_pays": {"7": 200}, "fee_mode": "all"}})
    for kind in EVENT_KINDS:
        bare = {"type": kind, "seat": 2, "name": "bob", "hand_id": 7, "number": 3, "spot": 1, "box": 1,
                "cashed_out": 998, "message": "the table says so"}
        found.setdefault(kind, []).extend([bare, *({**bare, "reason": r} for r in REASONS)])
    return found


SAMPLES = _samples()


def _said(event: dict[str, Any]) -> list[str]:
    out = [describe_event(event, NAMES), HCF.describe_event(event, NAMES),
           *(client.describe_event(event, NAMES) for client in CLIENTS.values())]
    return [text for text in out if text]


@pytest.mark.parametrize("kind", EVENT_KINDS)
def test_every_event_kind_is_said_in_words(kind: str) -> None:
    for event in SAMPLES[kind]:
        for text in _said(event):
            assert not plain_words(text), f"{kind}: {text!r}"


@pytest.mark.parametrize("code", sorted(protocol.ERROR_CODES))
def test_every_refusal_is_said_in_words(code: str) -> None:
    # The terminal shows the server's sentence, never the code ("refused: ..." or "error: ...").
    assert not plain_words(protocol.ERROR_CODES[code]), code


def _results() -> list[tuple[str, dict[str, Any]]]:
    hcf = samples.play_a_hand().reveal
    house = [("caribbean", _played_caribbean().reveal()), ("sixcard", _played_sixcard().reveal())]
    out: list[tuple[str, dict[str, Any]]] = [("hcf", hcf), *house]
    for game, reveal in [("hcf", hcf), *house]:
        out += [(game, {**reveal, "status": "void", "reason": r}) for r in reasons.VOID]
        out += [(game, {**reveal, "status": "not_dealt", "reason": r}) for r in reasons.NOT_DEALT]
    return out


@pytest.mark.parametrize(("game", "reveal"), _results())
def test_every_result_is_said_in_words_and_names_the_tables_hand_number(game: str, reveal: dict[str, Any]) -> None:
    client = HCF if game == "hcf" else CLIENTS[game]
    lines = [line.plain for line in client.result_lines({**reveal, "number": 12}, NAMES)]
    if game == "hcf":
        lines += [line.plain for line in result_lines({**reveal, "number": 12}, NAMES, 2)]
    record = {**reveal, "number": 12, "names": {str(k): v for k, v in NAMES.items()}}
    lines += [hand_row(record), *(line.plain for line in hand_lines(record))]  # hcf history
    text = "\n".join(lines)
    assert not plain_words(text), text
    assert f"#{reveal['hand_id']}" not in text or reveal["hand_id"] == 12, "the server's id, not the table's number"


def test_every_account_movement_is_said_in_words() -> None:
    movements = [{"at": 0, "kind": kind, "table": "main", "amount": -1, "memo": ""} for kind in sorted(TRANSFER_KINDS)]
    text = "\n".join(account_lines({"name": "ann", "balance": 900, "stacks": {}, "movements": movements}))
    assert not plain_words(text), text
