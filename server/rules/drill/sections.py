"""Where a step's rule is written: the game's rules in docs/rules and the section, with its title, as feedback
quotes it.

A key's ``rule`` is short (``RULES 3.7``, ``RULES-caribbean 3.5, 4``); a trainee told
they were wrong is told where to read it, in words (no file path: a person reads it):
``the High Card Flush rules, section 3.7, Settlement``. tests/drill/test_teach.py checks
every section named here is in its file of docs/rules, with that title.

>>> cite("RULES 3.7")
'the High Card Flush rules, section 3.7, Settlement'
>>> cite("RULES-caribbean 3.5, 4")
'the Caribbean Stud rules, sections 3.5, Settlement, and 4, Progressive jackpot'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from server.i18n import told

FILES: Final[Mapping[str, str]] = {"RULES": "hcf.md", "RULES-caribbean": "caribbean.md",
                                   "RULES-sixcard": "sixcard.md"}
"""Each rule prefix and the file of docs/rules it names."""

GAMES: Final[Mapping[str, str]] = {"hcf.md": "High Card Flush", "caribbean.md": "Caribbean Stud",
                                   "sixcard.md": "6 Card Poker"}
"""Each file of docs/rules and the game whose rules it holds."""

TITLES: Final[Mapping[tuple[str, str], str]] = {
    ("hcf.md", "1"): "Cards and hands", ("hcf.md", "3.1"): "Offer the bank", ("hcf.md", "3.3"): "Fee",
    ("hcf.md", "3.4"): "Deal", ("hcf.md", "3.5"): "Decisions", ("hcf.md", "3.6"): "The DP's hand is shown",
    ("hcf.md", "3.7"): "Settlement", ("hcf.md", "5"): "Dead hands",
    ("hcf.md", "7"): "The `standard` profile (the house banks, as in a casino)",
    ("hcf.md", "9.1"): "Keeping the bank", ("hcf.md", "9.2"): "Nobody banks",
    ("hcf.md", "9.3"): "The third-party banker", ("hcf.md", "9.5"): "The fee schedule",
    ("caribbean.md", "1"): "Cards and hands", ("caribbean.md", "3.5"): "Settlement",
    ("caribbean.md", "4"): "Progressive jackpot",
    ("sixcard.md", "4.5"): "The dealer's hand is shown", ("sixcard.md", "5.3"): "",
    ("sixcard.md", "5.4"): "", ("sixcard.md", "6"): "Settlement",
}
"""Each section a drill cites, and its title as docs/rules writes it (empty: the section has none)."""

TITLE_WORDS: Final[Mapping[str, Callable[[str], str]]] = {
    "Cards and hands": lambda n: told("{number}, Cards and hands", number=n),
    "Offer the bank": lambda n: told("{number}, Offer the bank", number=n),
    "Fee": lambda n: told("{number}, Fee", number=n),
    "Deal": lambda n: told("{number}, Deal", number=n),
    "Decisions": lambda n: told("{number}, Decisions", number=n),
    "The DP's hand is shown": lambda n: told("{number}, The DP's hand is shown", number=n),
    "Settlement": lambda n: told("{number}, Settlement", number=n),
    "Dead hands": lambda n: told("{number}, Dead hands", number=n),
    "The `standard` profile (the house banks, as in a casino)":
        lambda n: told("{number}, The standard profile (the house banks, as in a casino)", number=n),
    "Keeping the bank": lambda n: told("{number}, Keeping the bank", number=n),
    "Nobody banks": lambda n: told("{number}, Nobody banks", number=n),
    "The third-party banker": lambda n: told("{number}, The third-party banker", number=n),
    "The fee schedule": lambda n: told("{number}, The fee schedule", number=n),
    "Progressive jackpot": lambda n: told("{number}, Progressive jackpot", number=n),
    "The dealer's hand is shown": lambda n: told("{number}, The dealer's hand is shown", number=n),
}
"""Each section's number and title as a reader is shown them, in their language (one id a title, so a title never
shares its id with the page's word: "Deal" is a button there); the number still finds the section in docs/rules,
written in English, so the title is a guide and the number the anchor."""


def sections(rule: str) -> list[tuple[str, str]]:
    """The (file, section) pairs a rule names: ``RULES-caribbean 3.5, 4`` is two."""
    prefix, _, numbers = rule.partition(" ")
    return [(FILES[prefix], n.strip()) for n in numbers.split(",") if n.strip()]


def cite(rule: str) -> str:
    """A rule as a person finds it: the file, each section and its title (an unknown rule as it is)."""
    try:
        named = sections(rule)
    except KeyError:
        return rule
    if not named:
        return rule
    parts = [TITLE_WORDS[TITLES[(file, number)]](number) if TITLES.get((file, number)) else number
             for file, number in named]
    if len(parts) == 1:
        return told("the {game} rules, section {section}", game=GAMES[named[0][0]], section=parts[0])
    listed = parts[0]
    for part in parts[1:]:
        listed = told("{items}, and {last}", items=listed, last=part)
    return told("the {game} rules, sections {sections}", game=GAMES[named[0][0]], sections=listed)
