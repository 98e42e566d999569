"""No sentence of the page escapes its catalogs (issue 28 item 5; found by hand: a Spanish page's 6 Card Poker bets
read "Bets by box", the felt's seat tags said "sitting out" and "bank offered", and the deal check's problems were
English).

The page's words go through ``t("...")`` (server/web/static/i18n.js), which the completeness test reads. This scan
finds the string and template literals of the page's modules that hold three or more words and are not a ``t(...)``
message: each is a sentence a person could read in English whatever the page's language.
"""

from __future__ import annotations

import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "server" / "web" / "static"
MESSAGE = re.compile(r'\bt\(\s*("(?:[^"\\]|\\.)*"|`[^`]*`)')
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"|`([^`]*)`')
WORDS = re.compile(r"[A-Za-z]{3,} [a-z]{3,} [a-z]{2,}")
ALLOWED = {
    ("certificate.js", "hcf-server drill verify ${cert.trainee} ${cert.session} --db URL"),  # a command, as typed
    ("table.js", "spot-circle placed jackpot"),  # CSS classes
}


def bare_sentences(text: str) -> list[str]:
    """The literals of one module's code (comments left out) that read as a sentence outside ``t(...)``.

    >>> bare_sentences('h("p", {}, t("the table is waiting for players"));')
    []
    >>> bare_sentences('h("legend", {}, `Pick the cards to exchange`); // "a comment is never shown"')
    ['Pick the cards to exchange']
    """
    found = []
    for line in text.splitlines():
        code = line.split("//", 1)[0] if not line.lstrip().startswith(("*", "/*")) else ""
        code = MESSAGE.sub("t(X", code)
        for match in LITERAL.finditer(code):
            literal = match.group(1) or match.group(2) or ""
            if WORDS.search(literal):
                found.append(literal)
    return found


def test_every_sentence_of_the_page_goes_through_its_catalogs() -> None:
    bare = [(path.name, literal) for path in sorted(STATIC.glob("*.js"))
            for literal in bare_sentences(path.read_text(encoding="utf-8"))]
    assert [b for b in bare if b not in ALLOWED] == []
