"""Makes the exact odds counts in the run's cache (``python -m tests.support.odds_counts``).

tests/conftest.py starts this in the background when the whole suite runs in several
processes, so the counts are made once, beside the first tests. The cache's lock
(``server.analysis.cache.made_once``) makes a test that needs a count first wait for it.
"""

from __future__ import annotations

from server.analysis import cache
from server.analysis.analyze import caribbean_counts, caribbean_up_rows, hcf_totals, sixcard_counts


def main() -> None:
    """The counts the most tests read first come first."""
    directory = cache.cache_dir()
    for count in (sixcard_counts, caribbean_up_rows, caribbean_counts, hcf_totals):
        count(directory)


if __name__ == "__main__":
    main()
