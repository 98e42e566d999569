"""No module of the terminal client is over 500 lines (issue 24, item 7): the client is held to the server's rule."""

from __future__ import annotations

from pathlib import Path

from tests.test_module_size import MAX_LINES, long_modules

CLIENT = Path(__file__).resolve().parents[2] / "client_cli"


def test_no_client_module_is_over_500_lines() -> None:
    assert long_modules(CLIENT, MAX_LINES) == {}
