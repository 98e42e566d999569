"""The look-alike key of a person's name: two names with one key are one name (docs/server.md, "Account names").

Pure (the standard library only), so that storage (which keeps the key unique) and
the HTTP limits (which count wrong passwords per account, whatever spelling the
guesses use) agree on it.

>>> name_key("Ann"), name_key("\uff21\uff2e\uff2e"), name_key("Stra\u00dfe"), name_key("bob\u0663")
('ann', 'ann', 'strasse', 'bob3')
"""

from __future__ import annotations

import unicodedata
from typing import Final

# Cyrillic and Greek letters (case-folded) that look like a Latin letter in either case, and the dotless i,
# which case-folds from no capital of its own. Written as escapes: as letters they would look Latin here too.
_LOOK_ALIKES: Final = str.maketrans({
    "\u0430": "a", "\u0432": "b", "\u0435": "e", "\u0451": "\u00eb", "\u04bb": "h", "\u043d": "h",
    "\u0456": "i", "\u0457": "\u00ef", "\u0458": "j", "\u043a": "k", "\u043c": "m", "\u043e": "o",
    "\u0440": "p", "\u0441": "c", "\u0455": "s", "\u0442": "t", "\u0443": "y", "\u0445": "x", "\u0501": "d",
    "\u051b": "q", "\u051d": "w", "\u04cf": "l",
    "\u03b1": "a", "\u03b2": "b", "\u03b5": "e", "\u03b7": "h", "\u03b9": "i", "\u03ba": "k", "\u03bc": "m",
    "\u03bd": "n", "\u03bf": "o", "\u03c1": "p", "\u03c4": "t", "\u03c5": "y", "\u03c7": "x", "\u03b6": "z",
    "\u03f2": "c", "\u03f3": "j",
    "\u0131": "i",
})


def name_key(name: str) -> str:
    """The key two look-alike names share: NFKC, case-folded, digits as 0-9, Cyrillic and Greek look-alikes
    as Latin. For a name of ASCII letters and digits it is the lowercase name, as it always was."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    digits = "".join(str(unicodedata.decimal(c)) if unicodedata.category(c) == "Nd" else c for c in folded)
    return digits.translate(_LOOK_ALIKES)
