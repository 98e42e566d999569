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
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from fractions import Fraction
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Final

import structlog

from server.analysis import caribbean
from server.analysis.analyze import Settings, analyze_settings, cached_report, summary
from server.analysis.cache import key_of
from server.rules.caribbean.settings import CaribbeanSettings

log = structlog.get_logger("hcf.odds")

RECHECK_SECONDS: Final = 30.0
"""How long a cache miss is remembered before the lobby looks at the disk again."""


MAX_QUEUED: Final = 32
"""Analyses waiting at most (the one running aside); one takes about 1.3 s and 62 MB in its child."""
MAX_QUEUED_PER_REQUESTER: Final = 4
"""Analyses one requester (a host token, a floor link's token) may have waiting at once."""


class OddsBusyError(RuntimeError):
    """The odds queue is full, or this requester has enough analyses waiting: ask again shortly."""


@dataclass(slots=True)
class _Job:
    key: str  # the settings' cache key
    settings: Settings
    future: Future[dict[str, Any]]
    by: str | None  # who asked (a token's scope), for the limit per requester


class OddsService:
    """Summaries by settings: memory, then the disk cache, then the worker thread.

    What waits for the worker is bounded (docs/reliability.md, "The odds queue"): a table's
    background analysis waits only for the table's latest settings (a newer change replaces it
    before it starts), one requester has at most :data:`MAX_QUEUED_PER_REQUESTER` waiting, and
    at most :data:`MAX_QUEUED` wait in all. Someone awaiting odds goes before background work.
    """

    def __init__(self, cache: Path | None = None, *, max_queued: int = MAX_QUEUED,
                 max_per_requester: int = MAX_QUEUED_PER_REQUESTER,
                 analyze: Callable[[Settings, Path | None], dict[str, Any]] | None = None) -> None:
        self.cache = cache
        self.analyze = analyze or analyze_in_child  # tests give a quick one
        self.background = False
        self.max_queued, self.max_per_requester = max_queued, max_per_requester
        self._known: dict[str, dict[str, Any]] = {}
        self._missed: dict[str, float] = {}
        self._pending: dict[str, Future[dict[str, Any]]] = {}  # by settings key: queued or running
        self._asked: OrderedDict[str, _Job] = OrderedDict()  # awaited by someone, by settings key, oldest first
        self._tables: OrderedDict[str, _Job] = OrderedDict()  # background, by table: its latest settings only
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
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

    def request(self, settings: Settings, *, by: str | None = None) -> Future[dict[str, Any]]:
        """A future of the report: done at once if known, else queued for the worker (ahead of background work).

        Raises :class:`OddsBusyError` when the queue, or ``by``'s share of it, is full.
        """
        key = _key(settings)
        with self._lock:
            report = self.known(settings)
            if report is not None:
                done: Future[dict[str, Any]] = Future()
                done.set_result(report)
                return done
            pending = self._pending.get(key)
            if pending is not None:
                self._promote(key)
                return pending
            self._check_room(by)
            job = self._asked[key] = _Job(key, settings, Future(), by)
            self._pending[key] = job.future
            self._wake()
            return job.future

    def prefetch(self, settings: Settings, *, table: str | None = None, by: str | None = None) -> None:
        """Start the analysis in the background if background work is on (creation, settings change).

        For a ``table``, only its latest settings wait: a change made before the last one's analysis
        started replaces it. A full queue drops the prefetch (the lobby asks again when it next looks).
        """
        if not self.background:
            return
        if table is None:
            with contextlib.suppress(OddsBusyError):
                self.request(settings, by=by)
            return
        key = _key(settings)
        with self._lock:
            if self.known(settings) is not None or key in self._pending:
                return
            stale = self._tables.pop(table, None)
            if stale is not None:
                self._pending.pop(stale.key, None)
                stale.future.cancel()  # superseded before it started: nobody awaits a background job
            try:
                self._check_room(by)
            except OddsBusyError:
                log.info("odds_prefetch_dropped", table=table, queued=self._queued())
                return
            job = self._tables[table] = _Job(key, settings, Future(), by)
            self._pending[key] = job.future
            self._wake()

    async def report(self, settings: Settings, *, by: str | None = None) -> dict[str, Any]:
        """The report, awaited without blocking the event loop.

        Shielded: a waiter that is cancelled (a request cut off by a shutdown) must not cancel the
        future every other waiter of the same settings shares, nor the worker's answer to it.
        """
        return await asyncio.shield(asyncio.wrap_future(self.request(settings, by=by)))

    def queued(self) -> int:
        """How many analyses wait (the one running aside)."""
        with self._lock:
            return self._queued()

    def waiting(self) -> list[tuple[str | None, str, str | None]]:
        """What waits, in order: (the table of a background job or None, the settings' key, who asked)."""
        with self._lock:
            return [(None, job.key, job.by) for job in self._asked.values()] + \
                [(table, job.key, job.by) for table, job in self._tables.items()]

    def _promote(self, key: str) -> None:
        """Someone awaits a table's background job: it is theirs now, and no later change of the table drops it."""
        table = next((name for name, job in self._tables.items() if job.key == key), None)
        if table is not None:
            self._asked[key] = self._tables.pop(table)

    def _queued(self) -> int:
        return len(self._asked) + len(self._tables)

    def _check_room(self, by: str | None) -> None:
        """Refuse a job the queue has no room for (the lock is held)."""
        if self._queued() >= self.max_queued:
            raise OddsBusyError(f"{self._queued()} analyses are waiting already: ask for the odds again in a minute")
        mine = sum(1 for job in (*self._asked.values(), *self._tables.values()) if by is not None and job.by == by)
        if by is not None and mine >= self.max_per_requester:
            raise OddsBusyError(f"you have {mine} analyses waiting already: ask for more once they are done")

    def _wake(self) -> None:
        """A job was queued (the lock is held): start the worker if it is not running, and wake it."""
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._work, name="odds", daemon=True)
            self._worker.start()
        self._ready.notify()

    def _next(self) -> _Job:
        """The next job: what someone awaits first, then the tables' background work, oldest first."""
        with self._ready:
            while not self._queued():
                self._ready.wait()
            if self._asked:
                return self._asked.popitem(last=False)[1]
            return self._tables.popitem(last=False)[1]

    def _work(self) -> None:
        while True:
            job = self._next()
            future = job.future
            try:
                report = self.analyze(job.settings, self.cache)
            except Exception as error:  # reported to whoever awaits it; the worker carries on
                if not future.cancelled():
                    future.set_exception(error)
            else:
                self._known[job.key] = report
                self._missed.pop(job.key, None)
                if not future.cancelled():  # nobody waits for it any more: the report is kept all the same
                    future.set_result(report)
            finally:
                with self._lock:
                    if self._pending.get(job.key) is future:
                        self._pending.pop(job.key, None)


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
        outcome: tuple[str, Any] = ("ok", analyze_settings(settings, cache=cache))
    except Exception as error:  # the parent raises it for whoever awaits the report
        outcome = ("error", f"{type(error).__name__}: {error}")
    try:
        sender.send(outcome)
    except OSError:
        # The server that asked is gone (killed, its pipe closed): nobody to tell, and a traceback here would
        # land in the restarted server's log. The report is in the cache for the next one that asks.
        pass
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


def lobby_odds(settings: Settings, meter: int | None = None, table: str | None = None) -> dict[str, Any] | None:
    """The lobby's edge per bet for a table, when known; with background work on, an unknown
    table's analysis is started (a table created or changed from any face shows up here)."""
    report = ODDS.known(settings)
    if report is None:
        ODDS.prefetch(settings, table=table)
        return None
    return summary(at_meter(report, settings, meter))


__all__ = ["ODDS", "OddsBusyError", "OddsService", "at_meter", "enable_background", "lobby_odds", "summary"]
