"""The real server of the server tests, and Top Card in the games registry for as long as a test runs."""

from collections.abc import Iterator

import pytest

from server.rules.games import GAMES, register
from tests.server.conftest import config_overrides, database_url, server, server_clock, table_overrides

from .toy import TOP_CARD

__all__ = ["config_overrides", "database_url", "server", "server_clock", "table_overrides", "top_card"]


@pytest.fixture
def top_card() -> Iterator[None]:
    """Top Card registered (the other tests see only the three real games)."""
    register(TOP_CARD)
    yield
    GAMES.pop(TOP_CARD.name, None)
