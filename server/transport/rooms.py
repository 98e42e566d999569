"""The Socket.IO rooms a connection is in: its tables and its account."""

from __future__ import annotations

from server.rules.vocabulary import AccountId


def table_room(table: str) -> str:
    """Everyone watching or playing at a table."""
    return f"table:{table}"


def account_room(account: AccountId) -> str:
    """Every connection of one account (for its private cards)."""
    return f"account:{account}"
