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


def test_every_type_ignore_says_why() -> None:
    found = [f"{m.relative_to(ROOT).as_posix()}:{line}"
             for package in ("server", "client_cli") for m in sorted((ROOT / package).rglob("*.py"))
             for line in ignores_without_reason(m.read_text(encoding="utf-8"))]
    assert found == [], "a type: ignore says why after it, on the same line"
