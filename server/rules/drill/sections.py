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

from collections.abc import Mapping
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
    parts = [number + (f", {TITLES[(file, number)].replace('`', '')}" if TITLES.get((file, number)) else "")
             for file, number in named]
    # The titles stay as docs/rules writes them (in English): they name the headings a trainee looks for there.
    if len(parts) == 1:
        return told("the {game} rules, section {section}", game=GAMES[named[0][0]], section=parts[0])
    listed = parts[0]
    for part in parts[1:]:
        listed = told("{items}, and {last}", items=listed, last=part)
    return told("the {game} rules, sections {sections}", game=GAMES[named[0][0]], sections=listed)
