"""python-socketio's internals are reached from one module (issue 24, item 6): a new version is checked there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EDGE = "server/transport/edge.py"
# The library's attributes that are not its documented server API.
INTERNALS = re.compile(r"(?<!\bos)\.(?:manager|eio|environ|packet_class)\b")  # (os.environ is not the library's)


def test_only_the_edge_module_reaches_into_the_socket_library() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in sorted((ROOT / "server").rglob("*.py")) if str(path.relative_to(ROOT)) != EDGE
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if INTERNALS.search(line.split("#", 1)[0])]
    assert not found, f"reach the socket library through {EDGE}: {found}"


def test_the_scan_sees_the_edge_modules_own_reaches() -> None:
    assert INTERNALS.search((ROOT / EDGE).read_text(encoding="utf-8")), "the pattern misses the library's names"
