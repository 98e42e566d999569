"""Log lines written in runs (server/logs.py): none lost, none out of order, warnings at once."""

from __future__ import annotations

import io
import json

from hypothesis import given
from hypothesis import strategies as st

from server.logs import FLUSH_CHARS, BufferedLines, json_line

NEVER = 3600.0  # the flushing thread's interval: it does not run within a test


def test_lines_wait_until_a_warning_writes_them_all_in_order() -> None:
    out = io.StringIO()
    lines = BufferedLines(out, seconds=NEVER)
    lines.write("one\n")
    lines.write("two\n")
    lines.flush()  # structlog calls it after each line: it writes nothing
    assert out.getvalue() == ""
    lines.write("a warning\n")
    lines.urgent()
    assert out.getvalue() == "one\ntwo\na warning\n"
    lines.close()


def test_a_long_run_is_written_without_waiting() -> None:
    out = io.StringIO()
    lines = BufferedLines(out, seconds=NEVER)
    line = "x" * 1023 + "\n"
    for _ in range(FLUSH_CHARS // len(line)):
        lines.write(line)
    assert out.getvalue() == line * (FLUSH_CHARS // len(line))
    lines.close()


@given(st.lists(st.text(min_size=1, max_size=40), max_size=30), st.sets(st.integers(0, 29)))
def test_every_line_is_written_once_in_order(texts: list[str], urgent_after: set[int]) -> None:
    out = io.StringIO()
    lines = BufferedLines(out, seconds=NEVER)
    for i, text in enumerate(texts):
        lines.write(text)
        if i in urgent_after:
            lines.urgent()
    lines.close()
    assert out.getvalue() == "".join(texts)


def test_a_json_line_holds_what_a_table_logs() -> None:
    """Seat numbers as keys, big integers, odd values: a line, never an error (it once failed a command)."""
    line = json_line({"event": "hand_settled", "ev_paid": {3: 15, 4: -5}, "big": 10**30, "odd": {1.5, 2}})
    assert json.loads(line) == {"event": "hand_settled", "ev_paid": {"3": 15, "4": -5}, "big": 10**30,
                                "odd": repr({1.5, 2})}


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                    lambda inner: st.lists(inner) | st.dictionaries(st.integers() | st.text(), inner), max_leaves=20))
def test_any_event_renders(value: object) -> None:
    assert isinstance(json_line({"event": "x", "value": value}), str)
