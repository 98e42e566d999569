"""The real server of the server tests, and Dealer Duel in the games registry for as long as a test runs."""

from collections.abc import Iterator
from typing import Final

import pytest

from server.rules.games import GAMES, register
from tests.server.conftest import config_overrides, database_url, server, server_clock, table_overrides

from .duel import DEALER_DUEL

__all__ = ["PROTOCOL_NAMES_EVERY_MOVE", "config_overrides", "database_url", "dealer_duel", "server", "server_clock",
           "table_overrides"]


@pytest.fixture
def dealer_duel() -> Iterator[None]:
    """Dealer Duel registered (the other tests see only the real games)."""
    register(DEALER_DUEL)
    yield
    GAMES.pop(DEALER_DUEL.name, None)


# The seam leaks here (issue 24, item 2): the wire's ``move`` request (server/protocol.py, ``Move``) is the
# union of the three real games' action names and arguments, with unknown keys refused, so Dealer Duel's
# ``wager`` (with a ``stake``), ``hold`` and ``surrender`` are refused as ``request/malformed`` before the
# game's own ``move`` sees them. These tests pass once ``move`` carries the action and its args for the game
# to validate; strict, so that day they must lose this mark.
PROTOCOL_NAMES_EVERY_MOVE: Final = pytest.mark.xfail(
    strict=True, reason="server/protocol.py's Move lists every game's move names and arguments (issue 24, item 2)")
