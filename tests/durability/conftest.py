"""Fixtures of the durability tests, and a summary of what they covered at the end of the run.

The in-process server fixtures of ``tests/server`` (``server``, with ``config_overrides``
and ``table_overrides`` to parametrize) are reused as they are. Each durability test
reports what it covered through ``coverage``, in its test report; tests/conftest.py prints
the lines after the test session (so CI logs show them even with ``-q``) and, when
``HCF_DURABILITY_REPORT`` names a file, appends them to it as JSON lines (the main process
of a parallel run loads no conftest below tests/, so the summary lives there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.server.conftest import config_overrides, database_url, server, server_clock, table_overrides

__all__ = ["config_overrides", "coverage", "database_url", "server", "server_clock", "table_overrides"]

Coverage = Callable[[str, dict[str, Any]], None]


@pytest.fixture
def coverage(request: pytest.FixtureRequest) -> Coverage:
    """``coverage(line, figures)``: one line for the end-of-run summary, with its figures."""
    def note(line: str, figures: dict[str, Any]) -> None:
        # In the test's report too: a pytest-xdist worker sends it to the main process, which prints the summary.
        request.node.user_properties.append(("durability", (line, {"test": request.node.name, **figures})))
        print(line)
    return note
