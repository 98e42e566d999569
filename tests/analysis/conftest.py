"""Shared fixtures: the exact counts, made once for the whole run (tests/conftest.py starts them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.analysis.analyze import caribbean_counts, caribbean_up_rows, hcf_totals, sixcard_counts
from server.analysis.cache import cache_dir
from server.analysis.hcf import Totals


@pytest.fixture(scope="session")
def odds_cache() -> Path:
    """The run's odds cache, shared by every worker process and the servers the tests start.

    Each count is made once for the run: by tests/conftest.py's background job, or by the
    first test that asks, the others waiting on the cache's lock.
    """
    return cache_dir()


@pytest.fixture(scope="session")
def totals(odds_cache: Path) -> Totals:
    """The exact HCF counts (computed once, then read from ``odds_cache``)."""
    return hcf_totals(odds_cache)


@pytest.fixture(scope="session")
def stud_counts(odds_cache: Path) -> dict[str, int]:
    """Caribbean Stud's exact main-bet counts (about 15 s once, then read from ``odds_cache``)."""
    return caribbean_counts(odds_cache)


@pytest.fixture(scope="session")
def up_rows(odds_cache: Path) -> dict[str, Any]:
    """Caribbean Stud's counts per player hand and up card (about 15 s of CPU once, then read from ``odds_cache``)."""
    return caribbean_up_rows(odds_cache)


@pytest.fixture(scope="session")
def six_counts(odds_cache: Path) -> dict[str, Any]:
    """6 Card Poker's main-bet counts (about 12 s of CPU once, then read from ``odds_cache``)."""
    return sixcard_counts(odds_cache)
