"""The store depends on the pure rules core (and its phrases, server/i18n.py) and nothing else of ours."""

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
            # server.i18n: the pure phrase module the rules core uses too (a refusal's sentence in any language)
            assert name.startswith(("server.persistence", "server.rules")) or name == "server.i18n", \
                f"{path.name} imports {name}"
