"""The shape of names people choose: accounts, passwords and tables.

An account name is letters and digits of any alphabet, and ``_``, ``-`` or ``.``,
at most :data:`ACCOUNT_NAME_MAX` characters once NFKC-normalised (so full-width
letters are the plain ones). Its letters are of one script (Japanese's kanji, hiragana and
katakana count as one), so no name mixes Cyrillic or Greek look-alikes into Latin.
No two accounts may have names that look alike: each is kept under its *key*, the
case-folded name with digits of every script read as 0-9 and the Cyrillic and Greek
letters that look like Latin ones read as those, and keys are unique.

>>> account_name("Jose\u0301")
('José', 'josé')
>>> account_name("Ann_42"), account_name("\uff21\uff2e\uff2e")  # full-width ANN
(('Ann_42', 'ann_42'), ('ANN', 'ann'))
>>> name_key("\u0410\u0440\u0435") == name_key("ape")  # Cyrillic A, er, ie: the key of the Latin name
True
>>> check_table_name("high-roller.1")
'high-roller.1'
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from server.persistence.errors import StoreError
from server.rules.names import name_key

__all__ = ["account_name", "check_account_name", "check_password", "check_table_name", "name_key", "taken"]

ACCOUNT_NAME_MAX: Final = 24
TABLE_NAME_MAX: Final = 32
PASSWORD_MIN: Final = 8
SEPARATORS: Final = "_-."

# No ':' in table names: they are part of ledger place keys such as ``stack:{table}:{id}``.
_TABLE_NAME = re.compile(rf"[A-Za-z0-9_.\-]{{1,{TABLE_NAME_MAX}}}")

_ONE_SCRIPT: Final = {"CJK": "JAPANESE", "HIRAGANA": "JAPANESE", "KATAKANA": "JAPANESE",
                      "KATAKANA-HIRAGANA": "JAPANESE", "IDEOGRAPHIC": "JAPANESE", "HALFWIDTH": "JAPANESE"}
_RULE: Final = f"a name has 1 to {ACCOUNT_NAME_MAX} letters or digits (of any alphabet), '_', '-' or '.'"


def account_name(name: object) -> tuple[str, str]:
    """The name as it is kept (NFKC) and its look-alike key; ``auth/bad_name`` with a sentence saying what
    is wrong."""
    if not isinstance(name, str):
        raise StoreError("auth/bad_name", _RULE)
    shown = unicodedata.normalize("NFKC", name)
    if not shown:
        raise StoreError("auth/bad_name", f"{_RULE}: that one is empty")
    if len(shown) > ACCOUNT_NAME_MAX:
        raise StoreError("auth/bad_name", f"a name has at most {ACCOUNT_NAME_MAX} characters: "
                         f"that one has {len(shown)}")
    for at, char in enumerate(shown):
        if not _allowed(char, shown[at - 1] if at else ""):
            raise StoreError("auth/bad_name", f"{_RULE}: {_described(char)} is not one of them")
    scripts = sorted(_scripts(shown))
    if len(scripts) > 1:
        raise StoreError("auth/bad_name", "a name's letters are of one alphabet: that one mixes "
                         f"{' and '.join(s.title() for s in scripts)}")
    return shown, name_key(shown)


def check_account_name(name: str) -> str:
    """Validate an account name and return its key (see :func:`account_name`)."""
    return account_name(name)[1]


def taken(name: str, existing: str) -> str:
    """The sentence refusing ``name`` because of the account named ``existing``."""
    shown = unicodedata.normalize("NFKC", name)
    if shown.casefold() == existing.casefold():
        return f"the name {shown!r} is taken"
    scripts = _scripts(shown) - _scripts(existing)
    written = f", in {' and '.join(s.title() for s in sorted(scripts))} letters," if scripts else ""
    return f"the name {shown!r}{written} looks like {existing!r}, which is taken"


def _allowed(char: str, before: str) -> bool:
    kind = unicodedata.category(char)
    if kind.startswith("L") or kind == "Nd" or char in SEPARATORS:
        return True
    # a combining mark belongs to the letter before it (many alphabets need them); alone it is invisible
    return kind in ("Mn", "Mc") and bool(before) and unicodedata.category(before)[0] in "LM"


def _scripts(name: str) -> set[str]:
    """The scripts of a name's letters (modifier letters belong to none)."""
    return {_script(char) for char in name if unicodedata.category(char).startswith("L")} - {""}


def _script(letter: str) -> str:
    """The script of a letter, from its Unicode name (the standard library has no script property);
    empty for a modifier letter, which any script may use."""
    first = unicodedata.name(letter, "UNKNOWN").split(" ")[0]
    return "" if first == "MODIFIER" else _ONE_SCRIPT.get(first, first)  # a modifier letter goes with any


def _described(char: str) -> str:
    """A character as a person can read it in a sentence: invisible ones by their kind."""
    kind = unicodedata.category(char)
    if char == " ":
        return "a space"
    if kind.startswith("Z") or kind.startswith("C"):
        return "an invisible or control character"
    if kind.startswith("M"):
        return "an accent with no letter before it"
    return repr(char)


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
