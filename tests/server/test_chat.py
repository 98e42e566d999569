"""Table chat on a real server (issue 28 item 2; docs/protocol.md, chat): text only, limited, muted, kept apart.

Real Socket.IO clients on loopback, a real SQLite file. Chat goes through the table's room, never
through the table's hand pipeline, and carries only what a person typed.
"""

from __future__ import annotations

import argparse
import io
import json
from typing import Any

import pytest

from client_cli.connection import ServerRefused, http_json
from server import chat
from server.commands.books import _export
from server.persistence.database import open_database
from tests.support.clock import ManualClock

from .conftest import Server
from .helpers import TABLE, Client, Policy, card_strings, silent

MARKUP = '<b>hi</b> <script>alert("x")</script> <img src=x onerror=alert(1)> &amp;'
WIRE_KEYS = {"table", "id", "at", "room", "kind", "name", "text"}


def said(client: Client, since: int = 0) -> list[dict[str, Any]]:
    """The chat lines a client received, as sent (the connection's own ``kind`` put back)."""
    return [{**{k: v for k, v in e.items() if k not in ("kind", "chat_kind")}, "kind": e["chat_kind"]}
            for e in client.log[since:] if e.get("kind") == "chat"]


async def heard(client: Client, text: str, since: int = 0) -> dict[str, Any]:
    _, entry = await client.wait_for(lambda e: e.get("kind") == "chat" and e.get("text") == text, since=since,
                                     what=f"chat line {text!r}")
    return entry


async def say(client: Client, text: str) -> dict[str, Any]:
    reply: dict[str, Any] = await client.conn.raw_call("chat", {"table": TABLE, "text": text})
    return reply


async def watcher(server: Server, name: str) -> Client:
    return await server.player(name, sit=False)


async def test_markup_arrives_as_the_text_typed_to_players_and_spectators(server: Server) -> None:
    _host, (ann, bob) = await server.table(None, None)
    carl = await watcher(server, "carl")
    marks = bob.mark(), carl.mark()
    reply = await say(ann, MARKUP)
    assert reply["ok"] is True
    for client, mark in zip((bob, carl), marks, strict=True):
        line = await heard(client, MARKUP, mark)
        assert (line["name"], line["room"], line["chat_kind"]) == ("alice", "table", "line")
    (line,) = said(bob, marks[0])
    assert set(line) == WIRE_KEYS, "a chat line carries what was typed and who typed it, nothing else"


async def test_over_long_text_and_a_flood_are_refused_with_the_real_limits(server: Server) -> None:
    _host, (ann, bob) = await server.table(None, None)
    mark = bob.mark()
    long = "x" * (chat.MAX_CHARS + 1)
    assert (await say(ann, long))["error"] == {
        "code": "chat/too_long", "message": f"a chat line is at most 200 characters; yours has {chat.MAX_CHARS + 1}"}
    assert (await say(ann, " \n\t "))["error"]["code"] == "chat/empty"
    assert (await say(ann, "y" * chat.MAX_CHARS))["ok"] is True, "exactly the limit is a line"
    await heard(bob, "y" * chat.MAX_CHARS, mark)
    assert [line["text"] for line in said(bob, mark)] == ["y" * chat.MAX_CHARS], "a refused line was sent"


@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_flood_is_refused_until_its_window_has_passed_on_the_server_clock(server: Server) -> None:
    clock = server.clock
    assert isinstance(clock, ManualClock)
    _host, (ann, bob) = await server.table(None, None)
    for n in range(chat.FLOOD_LINES):
        assert (await say(ann, f"line {n}"))["ok"] is True
    flood = await say(ann, "one too many")
    assert flood["ok"] is False
    assert flood["error"]["code"] == "rate/limited"
    assert flood["error"]["message"] == "you may send at most 5 chat lines in 10 seconds: wait 10 s"
    assert 0 < flood["error"]["retry_after"] <= chat.FLOOD_SECONDS
    assert (await ann.conn.raw_call("chat", {"table": TABLE, "reaction": "wow"}))["ok"] is False, \
        "a reaction counts as a line"
    assert (await say(bob, "bob is not flooding"))["ok"] is True, "the limit is per person"
    clock.advance(chat.FLOOD_SECONDS)
    assert (await say(ann, "after the window"))["ok"] is True
    await heard(bob, "after the window")
    assert "one too many" not in [line["text"] for line in said(bob)]


async def test_a_muted_person_cannot_speak_until_unmuted(server: Server) -> None:
    host, (ann, bob) = await server.table(None, None)
    mark = bob.mark()
    answer = await host.host("mute", account="ALICE")
    assert answer["message"] == "The host muted ALICE: they cannot chat at this table."
    notice = await heard(bob, answer["message"], mark)
    assert notice["chat_kind"] == "mute"
    muted = await say(ann, "let me speak")
    assert muted["error"] == {"code": "chat/muted",
                              "message": "the host has muted you at this table: you cannot chat here"}
    assert (await ann.conn.raw_call("chat", {"table": TABLE, "reaction": "ouch"}))["error"]["code"] == "chat/muted"
    assert (await say(bob, "bob may"))["ok"] is True
    await host.host("unmute", account="alice")
    assert (await say(ann, "back again"))["ok"] is True
    await heard(bob, "back again", mark)
    assert "let me speak" not in [line["text"] for line in said(bob)]


async def test_a_mute_outlives_a_restart(server: Server) -> None:
    host, (ann,) = await server.table(None)
    await host.host("mute", account="alice")
    server = await server.restart()
    again = await server.client(name="alice", token=ann.token, account_id=ann.account_id)
    await again.join(TABLE)
    assert (await say(again, "still muted?"))["error"]["code"] == "chat/muted"


async def test_the_host_keeps_the_spectators_chat_from_the_players(server: Server) -> None:
    host, (ann,) = await server.table(None)
    carl, dave = await watcher(server, "carl"), await watcher(server, "dave")
    await host.host("spectator_chat", shown=False)
    marks = ann.mark(), dave.mark()
    assert (await say(carl, "psst, spectators only"))["ok"] is True
    line = await heard(dave, "psst, spectators only", marks[1])
    assert line["room"] == "spectators"
    assert (await say(ann, "the table speaks"))["ok"] is True
    await heard(ann, "the table speaks", marks[0])
    await heard(dave, "the table speaks", marks[1])
    assert "psst, spectators only" not in [x["text"] for x in said(ann)], "a player read the spectators' chat"
    joined = await ann.conn.raw_call("join", {"table": TABLE})
    assert "psst, spectators only" not in [x["text"] for x in joined["chat"]["lines"]]
    assert joined["chat"]["spectators_shown"] is False
    await host.host("spectator_chat", shown=True)
    mark = ann.mark()
    assert (await say(carl, "now everyone reads me"))["ok"] is True
    await heard(ann, "now everyone reads me", mark)


async def test_a_spectator_without_an_account_reads_but_cannot_speak(server: Server) -> None:
    _host, (ann,) = await server.table(None)
    anonymous = await server.client()
    await anonymous.join(TABLE)
    mark = anonymous.mark()
    refused = await say(anonymous, "hello")
    assert refused["error"] == {"code": "auth/required",
                                "message": "log in to chat (spectators without an account only read)"}
    await say(ann, "hello, watcher")
    await heard(anonymous, "hello, watcher", mark)
    stranger = await server.player("erin", sit=False)
    await stranger.conn.raw_call("leave_table", {"table": TABLE})
    assert (await say(stranger, "from outside"))["error"]["code"] == "table/not_joined"


async def test_chat_never_carries_a_card_during_a_hand(server: Server) -> None:
    host, (ann, bob) = await server.table(Policy(decide=silent), Policy(decide=silent))
    mark = bob.mark()
    await host.host("resume")
    await ann.wait_for(lambda e: e.get("kind") == "private", what="ann's cards")
    await say(ann, "nice cards, everyone")
    await ann.conn.raw_call("chat", {"table": TABLE, "reaction": "good_luck"})
    await heard(bob, "Good luck!", mark)
    for line in said(bob, mark) + said(host, mark):
        assert set(line) == WIRE_KEYS
        assert line["text"] in ("nice cards, everyone", "Good luck!")
        assert list(card_strings(line["text"])) == []


async def test_the_chat_is_kept_with_the_tables_log_and_exported(server: Server) -> None:
    host, (ann,) = await server.table(None)
    carl = await watcher(server, "carl")
    await say(ann, MARKUP)
    await say(carl, "from the rail")
    await host.host("mute", account="carl")
    database = await open_database(server.database_url)
    try:
        out = io.StringIO()
        assert await _export(database, argparse.Namespace(table=TABLE, format="jsonl", chat=True), out) == 0
        csv_out = io.StringIO()
        assert await _export(database, argparse.Namespace(table=TABLE, format="csv", chat=True), csv_out) == 0
    finally:
        await database.close()
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [(r["name"], r["room"], r["kind"], r["text"]) for r in rows] == [
        ("alice", "table", "line", MARKUP), ("carl", "spectators", "line", "from the rail"),
        ("carl", "table", "mute", "The host muted carl: they cannot chat at this table.")]
    assert csv_out.getvalue().splitlines()[0] == "id,at,table,room,kind,name,text"
    assert csv_out.getvalue().count("\n") == 4


async def test_the_chat_settings_are_refused_over_http_in_a_sentence_and_change_nothing(server: Server) -> None:
    _host, (ann,) = await server.table(None)
    with pytest.raises(ServerRefused) as refused:
        await http_json("POST", f"{server.url}/api/host", {"action": "mute", "table": TABLE, "account": "alice"},
                        token=server.host_token)
    assert (refused.value.code, refused.value.message) == (
        "request/malformed", "mute is a chat setting: the host sends it on a Socket.IO connection (the table "
        "page's chat), not over HTTP")
    assert (await say(ann, "not muted"))["ok"] is True
