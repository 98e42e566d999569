"""Where the types may give out (issue 24): ``Any`` only at the socket library's edge, and every ignore says why.

The table and the transport name the project's own types (``server.rules.vocabulary``'s JSON and
Reply, the protocol's payloads); python-socketio ships no types (PITFALLS 16), so one module,
``server/transport/edge.py``, is where our code meets it untyped. A ``type: ignore`` anywhere in
the server or the terminal client carries a reason after it, on the same line.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

ROOT = Path(__file__).parents[1]
EDGE = ROOT / "server" / "transport" / "edge.py"
# Edited by another helper's change in flight (issue 24); it goes from this set when that change is merged.
NOT_YET: set[Path] = set()


def names_any(source: str) -> bool:
    """Whether a module's code names ``typing.Any`` (imported, or as ``typing.Any``).

    >>> names_any("from typing import Any"), names_any("import typing\\nx: typing.Any"), names_any("y = 1")
    (True, True, False)
    """
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module in ("typing", "typing_extensions") \
                and any(alias.name == "Any" for alias in node.names):
            return True
        if isinstance(node, ast.Attribute) and node.attr == "Any" and isinstance(node.value, ast.Name) \
                and node.value.id in ("typing", "t"):
            return True
    return False


def ignores_without_reason(source: str) -> list[int]:
    """The lines whose ``type: ignore`` comment gives no reason after it.

    >>> ignores_without_reason("x = 1  # type: ignore[misc]\\ny = 2  # type: ignore[misc]  # the library's own\\n")
    [1]
    """
    lines = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and "type: ignore" in token.string \
                and not re.search(r"type: ignore(\[[^\]]*\])?\s*#\s*\S", token.string):
            lines.append(token.start[0])
    return lines


def test_only_the_socket_edge_names_any_in_the_table_and_the_transport() -> None:
    modules = sorted((ROOT / "server" / "table").glob("*.py")) + sorted((ROOT / "server" / "transport").glob("*.py"))
    naming = [m.relative_to(ROOT).as_posix() for m in modules
              if m not in NOT_YET and m != EDGE and names_any(m.read_text(encoding="utf-8"))]
    assert naming == [], "only server/transport/edge.py meets python-socketio untyped: give these our JSON types"


def bare_int_seats(source: str) -> list[str]:
    """Where a seat is a bare ``int``: a parameter named ``seat`` or ``seats`` (or ending ``_seat``), a field
    named ``seat``, or what a function named ``..._seat`` returns, annotated without the vocabulary's ``Seat``.

    >>> bare_int_seats("def f(seat: int, n: int) -> None: ...\\ndef g(*seats: Seat) -> None: ...")
    ['line 1: seat: int']
    >>> bare_int_seats("class C:\\n    seat: int | None\\ndef bank_seat() -> int: ...")
    ['line 3: bank_seat returns int', 'line 2: seat: int | None']
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        named: list[tuple[str, ast.expr | None]] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            a = node.args
            named = [(arg.arg, arg.annotation) for arg in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg]
                     if arg is not None and (arg.arg in ("seat", "seats") or arg.arg.endswith("_seat"))]
            if node.name.endswith("seat") and node.returns is not None and _bare_int(node.returns):
                found.append(f"line {node.lineno}: {node.name} returns {ast.unparse(node.returns)}")
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "seat":
            named = [("seat", node.annotation)]
        found += [f"line {node.lineno}: {name}: {ast.unparse(ann) if ann else 'no annotation'}"
                  for name, ann in named if ann is None or _bare_int(ann)]
    return found


def _bare_int(annotation: ast.expr) -> bool:
    """Whether an annotation names ``int`` (``int``, ``int | None``, ``Iterable[int]``...) and not ``Seat``."""
    names = {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)}
    return "int" in names and "Seat" not in names


def test_every_seat_in_the_table_is_a_seat() -> None:
    """Issue 24: a seat number in server/table is ``Seat``, never a bare ``int``, so mypy refuses a count, an
    account or a spot where a seat is meant (a number enters as a seat once, where it enters the server)."""
    found = [f"{m.relative_to(ROOT).as_posix()} {where}" for m in sorted((ROOT / "server" / "table").glob("*.py"))
             for where in bare_int_seats(m.read_text(encoding="utf-8"))]
    assert found == [], "a seat in server/table is annotated Seat (server/rules/vocabulary.py), not int"


# Replies mypy must refuse (each line marked ``# refused``) and ones it must take, checked against the vocabulary.
REPLIES = """\
from server.rules.vocabulary import Answer, Reply

def plain() -> Reply:
    return {"snapshot": {}}  # refused: a plain dict, no "ok"
def unlisted() -> Reply:
    return {"ok": False, "error": {"code": "db/conflict", "message": "busy"}}  # refused: not a listed code
def wordless() -> Reply:
    return {"ok": False, "error": {"code": "seat/taken"}}  # refused: a refusal says its sentence
def unread() -> Answer:
    return {"bogus": 1}  # refused: no client reads it
def mistyped() -> Answer:
    return {"message": 3}  # refused: a sentence is text
def done() -> Reply:
    return {"ok": True, "message": "you sit from the next hand", "seat": 3}
def refused() -> Reply:
    return {"ok": False, "error": {"code": "seat/taken", "message": "that seat is taken"}}
"""


def test_a_plain_dict_is_not_a_reply(tmp_path: Path) -> None:
    """A reply is a ``Reply`` (the ok or the refused ``TypedDict``), not a dict: mypy refuses each wrong one."""
    from mypy import api

    sample = tmp_path / "replies.py"
    sample.write_text(REPLIES, encoding="utf-8")
    out, _err, _status = api.run(["--strict", "--no-incremental", "--follow-imports=silent", str(sample)])
    flagged = sorted({int(m.group(1)) for m in re.finditer(r"replies\.py:(\d+): error", out)})
    expected = [n for n, line in enumerate(REPLIES.splitlines(), 1) if "# refused" in line]
    assert flagged == expected, out


def test_every_type_ignore_says_why() -> None:
    found = [f"{m.relative_to(ROOT).as_posix()}:{line}"
             for package in ("server", "client_cli") for m in sorted((ROOT / package).rglob("*.py"))
             for line in ignores_without_reason(m.read_text(encoding="utf-8"))]
    assert found == [], "a type: ignore says why after it, on the same line"
