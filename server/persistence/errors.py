"""What the store refuses, each with a stable ``area/reason`` code.

The codes travel to clients unchanged (like the rules' codes), so they are a
contract: add new ones, never rename.
"""

from __future__ import annotations


class StoreError(Exception):
    """A refused storage request. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class InsufficientFunds(StoreError):  # noqa: N818 - the name the brief and callers use
    """A place without overdraft holds fewer chips than a transfer takes from it."""

    def __init__(self, place: str, available: int, amount: int) -> None:
        super().__init__(
            "ledger/insufficient_funds",
            f"{place} holds {available} chips and cannot give {amount}",
        )
        self.place = place
        self.available = available
        self.amount = amount
