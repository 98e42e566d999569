"""The store depends on the pure rules core and nothing else of ours (but the phrases it says, server/i18n.py,
which is below the rules: standard library only)."""

from __future__ import annotations

import ast
from pathlib import Path

import server.persistence

PACKAGE = Path(server.persistence.__file__).parent


def _our_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {n for n in names if n.split(".")[0] in {"server", "client_cli"}}


def test_persistence_imports_only_itself_and_the_rules() -> None:
    for path in PACKAGE.glob("*.py"):
        for name in _our_imports(path):
            assert name.startswith(("server.persistence", "server.rules")) or name == "server.i18n", \
                f"{path.name} imports {name}"
