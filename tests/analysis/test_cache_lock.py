"""Two processes that want the same count at once make it once (``cache.made_once``)."""

from __future__ import annotations

import multiprocessing
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

from server.analysis import cache as disk

_FORK = multiprocessing.get_context("fork")


def _first(directory: Path, started: Event, release: Event, made: Any) -> None:
    def make() -> dict[str, int]:
        with made.get_lock():
            made.value += 1
        started.set()
        release.wait(60)  # holds the lock until the second process has looked and found nothing
        return {"n": 1}
    disk.made_once(directory, "count", disk.load, make, disk.store)


def _second(directory: Path, looked: Event, made: Any, found: Any) -> None:
    def read(where: Path, key: str) -> dict[str, Any] | None:
        data = disk.load(where, key)
        looked.set()
        return data

    def make() -> dict[str, int]:
        with made.get_lock():
            made.value += 1
        return {"n": 2}
    found.value = disk.made_once(directory, "count", read, make, disk.store)["n"]


def test_the_second_process_waits_for_the_first_ones_count_and_reads_it(tmp_path: Path) -> None:
    started, looked, release = _FORK.Event(), _FORK.Event(), _FORK.Event()
    made, found = _FORK.Value("i", 0), _FORK.Value("i", 0)
    first = _FORK.Process(target=_first, args=(tmp_path, started, release, made))
    first.start()
    assert started.wait(60)
    second = _FORK.Process(target=_second, args=(tmp_path, looked, made, found))
    second.start()
    assert looked.wait(60)  # the second found no file: without the lock it would make the count too
    release.set()
    first.join(60)
    second.join(60)
    assert (first.exitcode, second.exitcode) == (0, 0)
    assert (made.value, found.value) == (1, 1)


def test_a_cache_that_cannot_be_written_still_gives_the_count(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    made = disk.made_once(blocked / "odds", "count", disk.load, lambda: {"n": 3}, disk.store)
    assert made == {"n": 3}
    assert not (blocked / "odds").exists()
