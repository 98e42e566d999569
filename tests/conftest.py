"""Fixtures any test package may use: a real PostgreSQL server (tests/support/postgres.py).

The server starts on first use (about 1.5 s) and stops at the end of the session;
tests that never ask for it never start it. When PostgreSQL is not installed,
every test that asks fails, naming the Debian package to install; none is skipped.

The suite runs in several processes (pytest-xdist, ``-n`` in scripts/test.sh): see
:func:`group_of` for which tests stay together, and docs/benchmarks.md.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests.support.postgres import PostgresMissing, PostgresServer, database_name

# The odds cache (docs/odds.md) would otherwise be the user's own: a test run neither reads
# analyses a person made on this machine nor leaves its own behind. One directory for the
# run, so the counts made once are shared by every test and by the servers they start (by
# XDG_CACHE_HOME, which the tests that clear the HCF_ variables for a subprocess keep).
# The first process makes it; pytest-xdist's workers inherit its environment and so share
# it (the counts are written atomically and made under a lock: server/analysis/cache.py).
_ROOT = Path(__file__).resolve().parents[1]
os.environ.pop("HCF_CACHE_DIR", None)
_MADE_CACHE = "TEST_RUN_CACHE_HOME" not in os.environ
if _MADE_CACHE:
    os.environ["TEST_RUN_CACHE_HOME"] = tempfile.mkdtemp(prefix="hcf-test-cache-")
os.environ["XDG_CACHE_HOME"] = os.environ["TEST_RUN_CACHE_HOME"]

# The suite runs in parallel on a shared machine: one example that takes longer than Hypothesis's
# default 200 ms deadline says the machine is busy, not that the code is wrong. Every other setting
# (max_examples above all) stays Hypothesis's, or the test's own.
settings.register_profile("suite", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "suite"))

# Modules that each take a minute or so (measured: docs/benchmarks.md): they start first, so that
# none of them begins last while the other workers have run out of tests. A module with a test
# marked ``slow`` starts first too.
_LONG = ("tests/web/", "tests/toygame2/test_duel_browser.py", "tests/client_cli/test_offers_pty.py",
         "tests/client_cli/test_stay_pty.py", "tests/durability/", "tests/simulation/test_caribbean.py")


def group_of(nodeid: str) -> str:
    """The tests that run on one worker process, in their order: a module.

    A module's tests may share a module-scoped server, browser or story (tests/web), a port
    or a file, and run in their order: a module is the unit that is safe to run beside another.

    >>> group_of("tests/web/test_play.py::test_hand_one")
    'tests/web/test_play.py'
    >>> group_of("tests/analysis/test_command.py::test_x[a::b]")
    'tests/analysis/test_command.py'
    """
    return nodeid.split("::", 1)[0]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long modules first, each module's tests together and in their order (the same in every process)."""
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        groups.setdefault(group_of(item.nodeid), []).append(item)
    first = [g for g, members in groups.items()
             if g.startswith(_LONG) or any(m.get_closest_marker("slow") for m in members)]
    order = first + [g for g in groups if g not in first]
    items[:] = [item for group in order for item in groups[group]]


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the clients the tests start, however the suite itself was started.

    A shell without job control starts a background job with SIGINT ignored, and an ignored signal
    stays ignored across ``exec``: every client a test spawns would then ignore the Ctrl-C the test
    types, and the tests of what Ctrl-C does would wait for nothing. The suite's own processes take
    Ctrl-C as pytest does when started from a terminal.
    """
    del config
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_sessionstart(session: pytest.Session) -> None:
    """On the whole suite in several processes, the exact odds counts start at once, in the background.

    They take about a minute of one core (docs/odds.md) and tests in many modules read them
    (tests/analysis, the odds of the HTTP API, the operator commands). Made here, beside the
    first tests, they are made once for the run: a test that needs one before it is ready
    waits for it on the cache's lock (``server.analysis.cache.made_once``) instead of making
    it again. A run of a few modules makes only what its tests ask for, when they ask.
    """
    config = session.config
    if _MADE_CACHE:
        config.add_cleanup(lambda: shutil.rmtree(os.environ["TEST_RUN_CACHE_HOME"], ignore_errors=True))
    if hasattr(config, "workerinput") or not config.getoption("numprocesses", None) or os.environ.get(
            "HCF_README_TEST_INSIDE") or not _whole_suite(config):
        return
    counts = subprocess.Popen([sys.executable, "-m", "tests.support.odds_counts"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, cwd=_ROOT)
    config.add_cleanup(lambda: _stop(counts))


def _whole_suite(config: pytest.Config) -> bool:
    asked = {(_ROOT / arg.split("::", 1)[0]).resolve() for arg in config.args}
    return bool(asked & {_ROOT, _ROOT / "tests"})


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.kill()
    process.wait()


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """With ``--dist loadscope``, pytest-xdist gives each worker whole groups (:func:`group_of`).

    scripts/test.sh adds ``--no-loadscope-reorder``, so they are handed out in the order above.
    """
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByGroup(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return group_of(nodeid)

    return ByGroup(config, log)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """What the durability tests covered (their ``coverage`` fixture), after the session.

    Read from the test reports, which pytest-xdist's workers send to this main process.
    """
    lines = [value for reports in terminalreporter.stats.values() for report in reports
             if getattr(report, "when", None) == "call"
             for name, value in getattr(report, "user_properties", ()) if name == "durability"]
    if not lines:
        return
    terminalreporter.write_sep("-", "durability: what was covered")
    for line, _ in lines:
        terminalreporter.write_line(line)
    target = os.environ.get("HCF_DURABILITY_REPORT")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            for line, figures in lines:
                out.write(json.dumps({"line": line, **figures}) + "\n")


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server: ``.url(db)``, ``.create_database(template=...)``, ``.sql(...)``."""
    try:
        server = PostgresServer.start()
    except PostgresMissing as exc:
        pytest.fail(str(exc), pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_url(postgres_server: PostgresServer) -> str:
    """``postgresql://hcf@127.0.0.1:PORT/hcf``: an empty database made at first use, shared by the session."""
    return postgres_server.create_database("hcf")


@pytest.fixture
def fresh_postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """A new empty database for one test, dropped after it."""
    url = postgres_server.create_database()
    yield url
    postgres_server.drop_database(database_name(url))
