"""Ctrl-C on your own turn asks before it folds, and the live view keeps a refusal and the help until the next key
(issue 23, items 4 and 7). The play loop on a fake connection: what it sends and what it shows."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from client_cli.leaving import QUESTION
from client_cli.play import PlayOptions, TableSession
from client_cli.terminal import LiveFace, PlainFace
from tests.client_cli.fakes import FakeConnection
from tests.client_cli.test_offers import BET, FOLD, LEAVE, PASS, RAISE, TABLE, _settle, hcf_model

CARDS = {"cards": ["Ah", "Kh", "Qh", "2c", "3d", "4s", "5c"], "raise_limit": 2}


def _decision() -> dict[str, Any]:
    return hcf_model("decisions", [RAISE, FOLD, LEAVE], your_cards=CARDS, turn=2)


async def _session(model: dict[str, Any], face: Any = None) -> tuple[TableSession, FakeConnection]:
    conn = FakeConnection(TABLE, model, lambda event, _p: {"ok": True, "standing": "after_hand"}
                          if event == "leave" else {"ok": True})
    session = TableSession(conn, PlayOptions(url="http://x"), face or PlainFace(io.StringIO()))  # type: ignore[arg-type]
    session.sync()
    return session, conn


def _leaves(conn: FakeConnection) -> list[str]:
    return [event for event, _ in conn.sent if event in ("leave", "stand")]


async def test_ctrl_c_on_your_turn_asks_first_and_no_keeps_you_in_the_hand() -> None:
    session, conn = await _session(_decision())
    session.departure.interrupt()
    await _settle()
    assert _leaves(conn) == []  # bob's Ctrl-C folded a winning hand at once
    assert session.screen().message == QUESTION
    assert QUESTION.startswith("fold and leave? [y/N]")
    session._line("n")
    await _settle()
    assert _leaves(conn) == []
    assert session.message == "you keep playing: nothing was folded"
    assert not session.departure.leaving
    assert session.choices().kind == "decision"


async def test_y_or_a_second_ctrl_c_folds_and_leaves() -> None:
    for answer in ("y", None):
        session, conn = await _session(_decision())
        session.departure.interrupt()
        if answer is None:
            session.departure.interrupt()
        else:
            session._line(answer)
        await _settle()
        assert _leaves(conn) == ["leave"]
        assert session.departure.leaving


async def test_ctrl_c_off_your_turn_leaves_after_the_hand_without_asking() -> None:
    session, conn = await _session(hcf_model("betting", [BET, PASS, LEAVE]))
    session.departure.interrupt()
    await _settle()
    assert _leaves(conn) == ["leave"]
    assert "'stay' takes it back" in (session.screen().message or "")


async def test_once_the_leave_folded_the_hand_stay_is_not_offered() -> None:
    session, conn = await _session(_decision())
    session.departure.interrupt()
    session.departure.interrupt()
    await _settle()
    session._handle({"kind": "table", "table": TABLE,
                     "event": {"type": "player_folded", "seat": 2, "reason": "left", "hand_id": 3}})
    status = session.screen().message or ""
    assert "stay" not in status
    assert status.startswith("leaving: your hand is folded or passed; you stand up after it")
    assert _leaves(conn) == ["leave"]


def _live() -> LiveFace:
    return LiveFace(Console(file=io.StringIO(), width=80, height=30, force_terminal=True))


async def test_a_refusal_and_the_help_stay_on_screen_until_the_next_key() -> None:
    face = _live()
    session, conn = await _session(_decision(), face)
    session._line("bet 10")
    refusal = session.screen().message
    assert refusal is not None
    assert refusal.startswith("you cannot bet now")
    # A new hand starts before bob reads it: it stays (it vanished at the next redraw).
    session._handle({"kind": "table", "table": TABLE, "event": {"type": "hand_started", "hand_id": 4}})
    session.redraw()
    assert session.screen().message == refusal
    face.buffer = "f"  # the next key
    session._edited()
    assert session.screen().message is None
    session._line("help")
    session._handle({"kind": "table", "table": TABLE, "event": {"type": "hand_started", "hand_id": 5}})
    assert session.screen().extra, "the help vanished at the next hand"
    assert conn.sent == []
