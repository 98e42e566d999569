"""One raise's path through the server, traced on a real server: the hops docs/server.md draws, no more.

A hop is a call from one module of ours (``server.*``) into another that hands the raise on:
the amount itself, or something holding it (the request, the command, the event, the update,
its encoded text) among the called function's arguments. The tracer (``sys.setprofile``)
watches every call while bob's raise goes from the gateway to the socket of every viewer.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from .conftest import Server
from .helpers import arranged

SLOW = {"offer_seconds": 60, "bet_seconds": 60, "action_seconds": 60}
ANTE, AMOUNT = 19, 53  # bob's six-card flush may raise up to three Antes (57)
DOC = Path(__file__).parents[2] / "docs" / "server.md"
# The most the raise may take, as cut for issues 24 and 25: a hop added back fails here even with the drawing updated.
PATH_HOPS_AT_MOST, BRANCH_HOPS_AT_MOST = 9, 14


def _is_amount(value: Any) -> bool:
    """The amount in any form: a number equal to it, or its digits as text."""
    return bool(value == AMOUNT) or value == str(AMOUNT)


def _forms(value: Any, depth: int = 0) -> Iterator[str]:
    """The form of each value the raise's amount has in ``value``: "JSON text" for a request or an update
    encoded, else the name of the type of what is held under the name ``amount`` (a field, a key, a pair)."""
    if isinstance(value, str | bytes):
        text = value if isinstance(value, str) else value.decode("utf-8", "replace")
        if re.search(rf'"amount": ?{AMOUNT}\b', text) is not None:
            yield "JSON text"
        return
    if depth >= 6:
        return
    if isinstance(value, dict):
        if "amount" in value and _is_amount(value["amount"]):
            yield type(value["amount"]).__name__
        for item in value.values():
            yield from _forms(item, depth + 1)
    elif isinstance(value, list | tuple):
        if len(value) == 2 and value[0] == "amount" and _is_amount(value[1]):
            yield type(value[1]).__name__
        for item in value:
            yield from _forms(item, depth + 1)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        if _is_amount(getattr(value, "amount", None)):
            yield type(value.amount).__name__
        for f in dataclasses.fields(value):
            if f.name != "amount":
                yield from _forms(getattr(value, f.name, None), depth + 1)
    elif isinstance(getattr(value, "data", None), str):  # an engine.io packet: its encoded text
        yield from _forms(value.data, depth + 1)
    elif isinstance(getattr(type(value), "model_fields", None), dict):
        for name in type(value).model_fields:
            yield from _forms(getattr(value, name, None), depth + 1)


def _holds(value: Any) -> bool:
    """Whether ``value`` carries the raise: holds the amount under the name ``amount`` (a field, a key, its
    JSON text), as a number. The table's state also holds it once the raise is taken (as the seat's raise),
    but the state is not the raise: reading it is not a hop of the raise's path."""
    return any(form != "str" for form in _forms(value))


def _arguments(frame: FrameType) -> Iterator[tuple[str, Any]]:
    code = frame.f_code
    count = code.co_argcount + code.co_kwonlyargcount
    for name in code.co_varnames[:count]:
        if name not in ("self", "cls"):
            yield name, frame.f_locals.get(name)


class Tracer:
    """Every call from one of our modules into another that hands on the amount, as ``module:function``."""

    def __init__(self) -> None:
        self.hops: list[str] = []
        self.forms: set[str] = set()

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        callee = frame.f_globals.get("__name__", "")
        caller = frame.f_back.f_globals.get("__name__", "") if frame.f_back is not None else ""
        if not callee.startswith("server.") or not caller.startswith("server.") or callee == caller:
            return
        arguments = list(_arguments(frame))
        for name, value in arguments:  # in any call between our modules, a hop or not
            self.forms.update(_forms(value))
            if name == "amount" and _is_amount(value):
                self.forms.add(type(value).__name__)
        if "__create_fn__" in frame.f_code.co_qualname:  # a record's generated constructor: a record, not a hop
            return
        if any(_holds(value) or (name == "amount" and value == AMOUNT) for name, value in arguments):
            self.hops.append(f"{callee}:{frame.f_code.co_qualname}")


@pytest.mark.parametrize("table_overrides", [SLOW])
async def test_one_raise_crosses_the_hops_the_doc_draws(server: Server) -> None:
    host, (alice, bob, carol) = await server.table(None, None, None)
    deck = arranged({1: "2c 4d 6s 8c Td Qs 3c", 2: "Ah Kh Qh Jh 9h 8h 5c", 3: "5d 7s 9d Jc 2h 3s 4s"},
                    order=[2, 3, 1])
    await host.host("arrange_deck", cards=deck)
    mark = host.mark()
    await host.host("resume")
    await host.event("bank_offered", since=mark, where=lambda e: e["seat"] == 1)
    await alice.call("move", {"table": "main", "action": "bank", "accept": True})
    await host.event("betting_opened", since=mark)
    await bob.call("move", {"table": "main", "action": "bet", "ante": ANTE})
    await carol.call("move", {"table": "main", "action": "bet", "ante": 10})
    await host.event("turn_started", since=mark, where=lambda e: e["seat"] == 2)
    viewers = [(viewer, viewer.mark()) for viewer in (host, alice, carol)]
    tracer = Tracer()
    sys.setprofile(tracer)
    try:
        await bob.call("move", {"table": "main", "action": "raise", "amount": AMOUNT})
        for viewer, since in viewers:
            await viewer.event("player_raised", since=since)
    finally:
        sys.setprofile(None)
    seen = list(dict.fromkeys(tracer.hops))  # each hop once, in the order first taken (one per viewer)
    assert seen == drawn_hops(), "docs/server.md draws another path than the raise takes: update one of them"
    # The amount's own form changes only where the wire meets the server: decoded once from the request's text,
    # it is the same ``int`` in every record that carries it, until it is encoded again (docs/server.md).
    assert tracer.forms <= {"int", "JSON text"}, tracer.forms
    assert "int" in tracer.forms, tracer.forms


def drawn_hops() -> list[str]:
    """The server's hops as docs/server.md numbers them, in its section on one raise's path."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### One raise, from a click to every viewer")
    section = text[start:text.index("\n#", start + 1)]
    return re.findall(r"^\d+\. `(server\.[\w.]+:[\w.]+)`", section, flags=re.MULTILINE)


def test_the_docs_totals_are_its_list_counted() -> None:
    """The section's "(N hops: P on the path, B on branches)" is what its numbered list holds."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### One raise, from a click to every viewer")
    section = text[start:text.index("\n#", start + 1)]
    total, on_path, branches = map(int, re.findall(
        r"\*\*In the server\*\* \((\d+) hops: (\d+) on the path, (\d+) on branches\)", section)[0])
    listed = re.findall(r"^\d+\. `server\.[\w.]+:[\w.]+`(.*)$", section, flags=re.MULTILINE)
    assert total == len(listed) == len(drawn_hops())
    assert branches == sum(1 for note in listed if "(branch" in note)
    assert on_path == total - branches
    assert on_path <= PATH_HOPS_AT_MOST, "a hop came back on the path: cut it again"
    assert branches <= BRANCH_HOPS_AT_MOST, "a hop came back on a branch: cut it again"
    assert drawn_hops()[0] == "server.protocol:parse_request"
    assert drawn_hops()[-1] == "server.transport.edge:TableSends.table_update", "one hop from the table to the library"


def test_the_acting_browser_sends_the_raise_through_the_socket_itself() -> None:
    """The browser's part is counted by reading the code (no tracer runs in the page): the form's submit in
    ``choices.js`` sends through the page's socket (``sio.js:Socket.request``), never through ``table.js:act``."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### One raise, from a click to every viewer")
    acting = re.findall(r"\*\*In the acting player's browser\*\* \((\d+) hops?\)", text[start:])
    assert acting == ["1"], "a hop came back in the acting player's browser: cut it again"
    choices = (DOC.parents[1] / "server" / "web" / "static" / "choices.js").read_text(encoding="utf-8")
    send = choices[choices.index("function sendChoice("):]
    send = send[:send.index("\n}\n")]
    assert "page.socket.request(" in send
    assert "act(" not in send
    assert "sendChoice(page, item, args)" in choices
