"""The shape of names people choose: accounts, passwords and tables.

>>> check_account_name("Ann_42")
'ann_42'
>>> check_table_name("high-roller.1")
'high-roller.1'
"""

from __future__ import annotations

import re
from typing import Final

from server.persistence.errors import StoreError

ACCOUNT_NAME_MAX: Final = 24
TABLE_NAME_MAX: Final = 32
PASSWORD_MIN: Final = 8

_ACCOUNT_NAME = re.compile(rf"[A-Za-z0-9_.\-]{{1,{ACCOUNT_NAME_MAX}}}")
# No ':' in table names: they are part of ledger place keys such as ``stack:{table}:{id}``.
_TABLE_NAME = re.compile(rf"[A-Za-z0-9_.\-]{{1,{TABLE_NAME_MAX}}}")


def check_account_name(name: str) -> str:
    """Validate an account name and return its case-insensitive key (lowercase)."""
    if not isinstance(name, str) or not _ACCOUNT_NAME.fullmatch(name):
        raise StoreError(
            "auth/bad_name",
            f"a name has 1 to {ACCOUNT_NAME_MAX} letters, digits, '_', '-' or '.'",
        )
    return name.lower()


def check_password(password: str) -> None:
    """Refuse passwords shorter than :data:`PASSWORD_MIN` characters."""
    if not isinstance(password, str) or len(password) < PASSWORD_MIN:
        raise StoreError("auth/weak_password", f"a password has at least {PASSWORD_MIN} characters")


def check_table_name(name: str) -> str:
    """Validate a table name (it becomes part of ledger place keys) and return it."""
    if not isinstance(name, str) or not _TABLE_NAME.fullmatch(name):
        raise StoreError(
            "table/bad_name",
            f"a table name has 1 to {TABLE_NAME_MAX} letters, digits, '_', '-' or '.'",
        )
    return name
