"""Storage: accounts, the chip ledger, tables and seats, hands and their event log.

Open a :class:`Database` with :func:`open_database`; do several things atomically
in ``async with db.transaction() as tx``. See docs/persistence.md.
"""

from server.persistence.database import Database, database_url, open_database
from server.persistence.errors import InsufficientFunds, StoreError
from server.persistence.places import (
    HOUSE_BANK,
    HOUSE_FEES,
    ISSUANCE,
    TRANSFER_KINDS,
    account_place,
    fee_held_place,
    felt_place,
    jackpot_place,
    stack_place,
)
from server.persistence.records import (
    Account,
    Clock,
    Event,
    Hand,
    LedgerReport,
    Seat,
    SettingsChange,
    TableInfo,
    Transfer,
)
from server.persistence.tx import Tx

__all__ = [
    "HOUSE_BANK",
    "HOUSE_FEES",
    "ISSUANCE",
    "TRANSFER_KINDS",
    "Account",
    "Clock",
    "Database",
    "Event",
    "Hand",
    "InsufficientFunds",
    "LedgerReport",
    "Seat",
    "SettingsChange",
    "StoreError",
    "TableInfo",
    "Transfer",
    "Tx",
    "account_place",
    "database_url",
    "fee_held_place",
    "felt_place",
    "jackpot_place",
    "open_database",
    "stack_place",
]
