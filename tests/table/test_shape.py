"""The table's shape (issue 24, item 1): parts composed, never inherited; no stubs; no ``Any``; a short shell.

Read from the source with ``ast``, so a part that slips back into a mixin, a stub or an ``Any`` fails here.
"""

from __future__ import annotations

import ast
import statistics
from pathlib import Path

TABLE = Path(__file__).resolve().parents[2] / "server" / "table"

# What a class of the table may derive from: typed dicts and generics; a port (a Protocol) may extend another port.
ALLOWED_BASES = {"Protocol", "TypedDict", "Generic"}


def _modules() -> dict[str, ast.Module]:
    return {path.name: ast.parse(path.read_text()) for path in sorted(TABLE.glob("*.py"))}


def _base_name(base: ast.expr) -> str:
    target = base.value if isinstance(base, ast.Subscript) else base
    return target.attr if isinstance(target, ast.Attribute) else target.id if isinstance(target, ast.Name) else "?"


def test_no_part_of_the_table_inherits_from_another() -> None:
    inherited = [f"{name}: {node.name}({_base_name(base)})" for name, module in _modules().items()
                 for node in ast.walk(module) if isinstance(node, ast.ClassDef)
                 and "Protocol" not in {_base_name(base) for base in node.bases}
                 for base in node.bases if _base_name(base) not in ALLOWED_BASES]
    assert inherited == []


def test_no_stub_is_left_in_the_table() -> None:
    stubs = [f"{name}:{node.lineno}" for name, module in _modules().items() for node in ast.walk(module)
             if isinstance(node, ast.Raise) and node.exc is not None
             and "NotImplementedError" in ast.unparse(node.exc)]
    assert stubs == []


def test_the_table_names_no_any() -> None:
    named = [f"{name}:{node.lineno}" for name, module in _modules().items() for node in ast.walk(module)
             if (isinstance(node, ast.Name) and node.id == "Any")
             or (isinstance(node, ast.alias) and node.name == "Any")]
    assert named == []


def test_the_runner_is_a_short_shell_and_the_functions_are_short() -> None:
    assert len((TABLE / "runner.py").read_text().splitlines()) < 150
    lengths = [_body_lines(node) for module in _modules().values() for node in ast.walk(module)
               if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]
    assert statistics.median(lengths) <= 6


def _body_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The lines of a function's body, its docstring left out."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if not body:
        return 0
    end = body[-1].end_lineno
    assert end is not None
    return end - body[0].lineno + 1
