"""Progress of a long analysis or simulation, on stderr, only when stderr is a terminal.

Standard output stays clean for ``--json`` and pipes; a log or a pipe on stderr gets
nothing (a bar redrawn in a file is noise).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

Report = Callable[[float, str], None]
"""``report(fraction done of the current step, what the step is)``."""


@contextmanager
def progress_bar(stream: TextIO | None = None) -> Iterator[Report | None]:
    """A reporter drawing a bar on ``stream`` (stderr) when it is a terminal, else None."""
    stream = sys.stderr if stream is None else stream
    if not stream.isatty():
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(file=stream), transient=True) as bar:
        task = bar.add_task("starting", total=1.0)

        def report(done: float, what: str) -> None:
            bar.update(task, completed=done, description=what)

        yield report


def dealt(bar: Report | None, hands: int) -> Callable[[int], None] | None:
    """An ``on_progress(hands done)`` for a simulation of ``hands`` hands, drawing on ``bar``."""
    if bar is None:
        return None
    return lambda done: bar(done / hands, f"dealing {done:,} of {hands:,} hands")
