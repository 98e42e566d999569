"""Fixtures of the durability tests, and a summary of what they covered at the end of the run.

The in-process server fixtures of ``tests/server`` (``server``, with ``config_overrides``
and ``table_overrides`` to parametrize) are reused as they are. Each durability test
reports what it covered through ``coverage``; the lines are printed after the test
session (so CI logs show them even with ``-q``) and, when ``HCF_DURABILITY_REPORT``
names a file, appended to it as JSON lines.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

import pytest

from tests.server.conftest import config_overrides, database_url, server, server_clock, table_overrides

__all__ = ["config_overrides", "coverage", "database_url", "server", "server_clock", "table_overrides"]

_LINES: list[tuple[str, dict[str, Any]]] = []

Coverage = Callable[[str, dict[str, Any]], None]


@pytest.fixture
def coverage(request: pytest.FixtureRequest) -> Coverage:
    """``coverage(line, figures)``: one line for the end-of-run summary, with its figures."""
    def note(line: str, figures: dict[str, Any]) -> None:
        # In the test's report too: a pytest-xdist worker sends it to the main process, which prints the summary.
        request.node.user_properties.append(("durability", (line, {"test": request.node.name, **figures})))
        print(line)
    return note


def pytest_terminal_summary(terminalreporter: Any) -> None:
    _LINES[:] = [value for reports in terminalreporter.stats.values() for report in reports
                 if getattr(report, "when", None) == "call"
                 for name, value in getattr(report, "user_properties", ()) if name == "durability"]
    if not _LINES:
        return
    terminalreporter.write_sep("-", "durability: what was covered")
    for line, _ in _LINES:
        terminalreporter.write_line(line)
    target = os.environ.get("HCF_DURABILITY_REPORT")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            for line, figures in _LINES:
                out.write(json.dumps({"line": line, **figures}) + "\n")
