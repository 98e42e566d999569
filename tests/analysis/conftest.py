"""Shared fixtures: the High Card Flush counts are made once per test session (about 10 s)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from server.analysis.analyze import caribbean_counts, caribbean_up_rows, hcf_totals, sixcard_counts
from server.analysis.hcf import Totals


@pytest.fixture(scope="session")
def odds_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache directory shared by the session's tests, holding the HCF counts once made."""
    return tmp_path_factory.mktemp("odds-cache")


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
    """6 Card Poker's main-bet counts (about 20 s of CPU once, then read from ``odds_cache``)."""
    return sixcard_counts(odds_cache)
