"""Kept importable from here for the server's own modules.

The code is pure and lives in :mod:`server.rules.drill.play`.
"""

from server.rules.drill.play import (
    MAX_COMMANDS,
    TABLE,
    PlayedHand,
    check_deal,
    command_of,
    dry_run,
    key_of,
)

__all__ = [
    "MAX_COMMANDS",
    "TABLE",
    "PlayedHand",
    "check_deal",
    "command_of",
    "dry_run",
    "key_of",
]
