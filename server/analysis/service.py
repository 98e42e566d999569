"""Odds for the live server: from the cache at once, or worked out off the event loop.

One daemon thread works through the analyses asked for, one at a time, each in a child
process of its own at a lower priority: an exact count holds the interpreter for seconds
at a time and hundreds of MB, and in the server's own process it starved the tables'
event loop (a table of bots stalled while a Caribbean table's odds were counted). The
child is a daemon, so a stopping server never waits for a count. A caller on the loop
awaits the result without blocking it.
A Caribbean table's meter moves every hand, so the server analyzes the table at its
seed once and puts the jackpot's figures at the current meter on top (exact and quick).

Background work on table creation and settings changes (and for a table the lobby lists
whose odds are not known) is off until :func:`enable_background`
(``hcf-server serve`` turns it on), so tests and tools that build a server do not start counting.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import queue
import threading
import time
from concurrent.futures import Future
from fractions import Fraction
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Final

from server.analysis import caribbean
from server.analysis.analyze import Settings, analyze_settings, cached_report, summary
from server.analysis.cache import key_of
from server.rules.caribbean.settings import CaribbeanSettings

RECHECK_SECONDS: Final = 30.0
"""How long a cache miss is remembered before the lobby looks at the disk again."""


class OddsService:
    """Summaries by settings: memory, then the disk cache, then the worker thread."""

    def __init__(self, cache: Path | None = None) -> None:
        self.cache = cache
        self.background = False
        self._known: dict[str, dict[str, Any]] = {}
        self._missed: dict[str, float] = {}
        self._pending: dict[str, Future[dict[str, Any]]] = {}
        self._jobs: queue.Queue[tuple[str, Settings]] = queue.Queue()
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None

    def known(self, settings: Settings) -> dict[str, Any] | None:
        """The report if it is known (memory or disk); never computes."""
        key = _key(settings)
        report = self._known.get(key)
        if report is not None:
            return report
        if time.monotonic() - self._missed.get(key, -RECHECK_SECONDS) < RECHECK_SECONDS:
            return None
        report = cached_report(settings, cache=self.cache)
        if report is None:
            self._missed[key] = time.monotonic()
            return None
        self._known[key] = report
        return report

    def request(self, settings: Settings) -> Future[dict[str, Any]]:
        """A future of the report: done at once if known, else queued for the worker."""
        key = _key(settings)
        with self._lock:
            report = self.known(settings)
            if report is not None:
                done: Future[dict[str, Any]] = Future()
                done.set_result(report)
                return done
            pending = self._pending.get(key)
            if pending is None:
                pending = self._pending[key] = Future()
                self._jobs.put((key, settings))
                self._start()
            return pending

    def prefetch(self, settings: Settings) -> None:
        """Start the analysis in the background if background work is on (creation, settings change)."""
        if self.background:
            self.request(settings)

    async def report(self, settings: Settings) -> dict[str, Any]:
        """The report, awaited without blocking the event loop.

        Shielded: a waiter that is cancelled (a request cut off by a shutdown) must not cancel the
        future every other waiter of the same settings shares, nor the worker's answer to it.
        """
        return await asyncio.shield(asyncio.wrap_future(self.request(settings)))

    def _start(self) -> None:
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._work, name="odds", daemon=True)
            self._worker.start()

    def _work(self) -> None:
        while True:
            key, settings = self._jobs.get()
            future = self._pending[key]
            try:
                report = analyze_in_child(settings, self.cache)
            except Exception as error:  # reported to whoever awaits it; the worker carries on
                if not future.cancelled():
                    future.set_exception(error)
            else:
                self._known[key] = report
                self._missed.pop(key, None)
                if not future.cancelled():  # nobody waits for it any more: the report is kept all the same
                    future.set_result(report)
            finally:
                with self._lock:
                    self._pending.pop(key, None)


def analyze_in_child(settings: Settings, cache: Path | None) -> dict[str, Any]:
    """:func:`analyze_settings` in a child process at a lower priority; its report, or its error."""
    context = multiprocessing.get_context("spawn")  # never fork a process that runs threads and a loop
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_analyze_and_send, args=(settings, cache, sender), name="hcf-odds", daemon=True)
    child.start()
    sender.close()
    try:
        kind, value = receiver.recv()
    except EOFError:
        raise RuntimeError(f"the analysis stopped before its end (exit code {child.exitcode})") from None
    finally:
        receiver.close()
        child.join()
    if kind != "ok":
        raise RuntimeError(str(value))
    report: dict[str, Any] = value
    return report


def _analyze_and_send(settings: Settings, cache: Path | None, sender: Connection) -> None:
    with contextlib.suppress(OSError):
        os.nice(10)  # the tables come first
    try:
        sender.send(("ok", analyze_settings(settings, cache=cache)))
    except Exception as error:  # the parent raises it for whoever awaits the report
        sender.send(("error", f"{type(error).__name__}: {error}"))
    finally:
        sender.close()


def _key(settings: Settings) -> str:
    return key_of({"settings": {**settings.as_dict(), "kind": type(settings).__name__}})


def at_meter(report: dict[str, Any], settings: Settings, meter: int | None) -> dict[str, Any]:
    """A Caribbean report with the jackpot at the table's current meter (hundredths); others as they are."""
    if not isinstance(settings, CaribbeanSettings) or meter is None:
        return report
    jackpot = caribbean.jackpot(settings, Fraction(meter, 100))
    return {**report, "jackpot": jackpot}


ODDS: Final = OddsService()
"""The server's one service (its cache: :func:`~server.analysis.cache.cache_dir`)."""


def enable_background() -> None:
    """Let table creation and settings changes start their analysis at once."""
    ODDS.background = True


def lobby_odds(settings: Settings, meter: int | None = None) -> dict[str, Any] | None:
    """The lobby's edge per bet for a table, when known; with background work on, an unknown
    table's analysis is started (a table created or changed from any face shows up here)."""
    report = ODDS.known(settings)
    if report is None:
        ODDS.prefetch(settings)
        return None
    return summary(at_meter(report, settings, meter))


__all__ = ["ODDS", "OddsService", "at_meter", "enable_background", "lobby_odds", "summary"]
