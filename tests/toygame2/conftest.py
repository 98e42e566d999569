"""The real server of the server tests, and Dealer Duel in the games registry for as long as a test runs."""

from collections.abc import Iterator

import pytest

from server.rules.games import GAMES, register
from tests.server.conftest import config_overrides, database_url, server, server_clock, table_overrides

from .duel import DEALER_DUEL

__all__ = ["config_overrides", "database_url", "dealer_duel", "server", "server_clock",
           "table_overrides"]


@pytest.fixture
def dealer_duel() -> Iterator[None]:
    """Dealer Duel registered (the other tests see only the real games)."""
    register(DEALER_DUEL)
    yield
    GAMES.pop(DEALER_DUEL.name, None)

