"""docs/rules/*.md: the rule books ship with the product, keep their numbering, and hold every cited section.

The code, the tests, the docs and the drill steps cite the rules by section ("docs/rules/hcf.md
section 3.7", and in older text "RULES.md section 3 step 7", "RULES-sixcard.md 5.1",
"RULES 3.1"). Every such citation found in the repository must name a section the rule book
has. Nothing may point outside the repository (the rules once lived beside it), and the
worked examples in the rule books are settled again here with the code the table runs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

from server.rules.cards import format_cards, parse_cards
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.caribbean.settlement import SpotWager
from server.rules.caribbean.settlement import settle as settle_caribbean
from server.rules.hcf.evaluate import compare
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.settlement import Wager
from server.rules.hcf.settlement import settle as settle_hcf
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.settlement import BoxWager, Draw
from server.rules.sixcard.settlement import settle as settle_sixcard

ROOT: Final = Path(__file__).resolve().parents[2]
RULES_DIR: Final = ROOT / "docs" / "rules"
GAMES: Final = ("hcf", "caribbean", "sixcard")
THIS_FILE: Final = Path(__file__).resolve()

SKIPPED_DIRS: Final = frozenset({".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
                                 ".hypothesis", ".import_linter_cache", "build", "dist"})
"""Not part of the repository: git's own store, the virtualenv, and what tools leave behind (.gitignore)."""
SKIPPED_SUFFIXES: Final = (".db", ".db-wal", ".db-shm", ".pyc")
"""Local databases and bytecode, ignored by git as well."""
TEXT_SUFFIXES: Final = frozenset({".py", ".md", ".txt", ".toml", ".json", ".cfg", ".ini", ".sh", ".yml", ".yaml",
                                  ".html", ".js", ".css", ".conf", ".j2", ""})

# The numbering of the first rule texts, which the new books must keep: top-level sections, and
# the numbered steps inside them (section 3 of hcf.md has steps 3.1 to 3.9, and so on).
EXPECTED_SECTIONS: Final = {
    "hcf": ({1, 2, 3, 4, 5, 6, 7, 8, 9}, {f"3.{n}" for n in range(1, 10)} | {f"9.{n}" for n in range(1, 7)}),
    "caribbean": ({1, 2, 3, 4, 5, 6, 7}, {f"3.{n}" for n in range(1, 7)}),
    "sixcard": ({1, 2, 3, 4, 5, 6, 7, 8, 9}, {f"4.{n}" for n in range(1, 6)} | {f"5.{n}" for n in range(1, 5)}),
}
DECISIONS: Final = {"hcf": 4, "caribbean": 8, "sixcard": 11}
"""How many **Decision:** rulings each first rule text made; none may be lost."""
STEPS_SECTION: Final = {"hcf": "3", "caribbean": "3", "sixcard": "4"}
"""Where a bare "step N" points: the section that tells a hand step by step."""

# Pieces of a citation. A rule book is named by its path, or by the old file names.
_BOOK = (r"(?:docs/rules/(?P<path>hcf|caribbean|sixcard)\.md"
         r"|RULES-(?P<old>caribbean|sixcard)(?:\.md)?"
         r"|RULES(?:\.md)?(?![-*\w]))")
_NUM = r"\d+(?:\.\d+)?"
_LISTED = r"(?!\w)(?!\s+(?!and\b|to\b|steps?\b)[A-Za-z])"
"""After a comma, a number is a section only if no other word follows it ("section 4, 10 minutes")."""
_NUMS = rf"{_NUM}(?:\s*,\s*{_NUM}{_LISTED}|(?:\s+and\s+|\s*-\s*|\s+to\s+){_NUM}(?!\w))*"
_CLAUSE = rf"(?:sections?\s+)?{_NUMS}(?:,?\s+steps?\s+{_NUMS})?|steps?\s+{_NUMS}"
_LATER = rf"(?:sections?\s+{_NUMS}(?:,?\s+steps?\s+{_NUMS})?|steps?\s+{_NUMS})"
_ASIDE = r"(?:\s*\([^()]*\))?"
_CLAUSES = rf"(?P<clauses>(?:{_CLAUSE}){_ASIDE}(?:(?:,\s+|,?\s+and\s+){_LATER}{_ASIDE})*)"
"""A first clause, then more that start with "section" or "step"; an aside in brackets may follow each."""
_LINK = r"`?(?:\]\([^)\s]*\))?"
CITATION: Final = re.compile(rf"{_BOOK}{_LINK},?\s+{_CLAUSES}")
RELATIVE: Final = re.compile(rf"(?<![\w/])(?P<path>hcf|caribbean|sixcard)\.md{_LINK},?\s+{_CLAUSES}")
"""Inside docs/rules, the books cite each other by file name alone."""
SECTION_SIGN: Final = re.compile(r"§\s?(\d+(?:\.\d+)?)")
SIGN_LEGEND: Final = re.compile(rf"{_BOOK}`?\s*\(sections cited as §\)")


def book_of(match: re.Match[str]) -> str:
    """The game whose rule book a citation names."""
    return match.group("path") or match.group("old") or "hcf"


def expand(numbers: str) -> list[str]:
    """``"3-5, 7"`` -> ``["3", "4", "5", "7"]``; ``"3.8 and 6"`` -> ``["3.8", "6"]``."""
    out: list[str] = []
    for part in re.split(r"\s*,\s*|\s+and\s+", numbers.strip()):
        bounds = re.split(r"\s*-\s*|\s+to\s+", part)
        if len(bounds) == 2 and all(b.isdigit() for b in bounds):
            out += [str(n) for n in range(int(bounds[0]), int(bounds[1]) + 1)]
        else:
            out += bounds
    return out


def sections_cited(game: str, clauses: str) -> list[str]:
    """Every section a citation's clauses name: ``"section 3 steps 3, 7"`` -> ``["3.3", "3.7"]``."""
    out: list[str] = []
    for clause in re.finditer(_CLAUSE, re.sub(r"\([^()]*\)", " ", clauses)):
        text = re.sub(r"^sections?\s+", "", clause.group(0))
        head, _, steps = re.split(r",?\s*(steps?)\s+", text, maxsplit=1) if "step" in text else (text, "", "")
        if not steps:
            out += expand(head)
        elif not head:
            out += [f"{STEPS_SECTION[game]}.{n}" for n in expand(steps)]
        else:
            out += [f"{expand(head)[-1]}.{n}" for n in expand(steps)]
    return out


def citations_in(text: str, *, inside_rules: bool = False) -> Iterator[tuple[str, str]]:
    """``(game, section)`` for every rule citation in ``text``."""
    flat = re.sub(r"\s+", " ", text)
    patterns = (CITATION, RELATIVE) if inside_rules else (CITATION,)
    for pattern in patterns:
        for match in pattern.finditer(flat):
            game = book_of(match) if pattern is CITATION else match.group("path")
            for section in sections_cited(game, match.group("clauses")):
                yield game, section
    legend = SIGN_LEGEND.search(flat)
    if legend is not None:
        for sign in SECTION_SIGN.finditer(flat):
            yield book_of(legend), sign.group(1)


def structure(game: str) -> tuple[set[int], set[str]]:
    """The sections (``## N.``) and numbered steps (``**N.M``) a rule book has."""
    text = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", text, flags=re.MULTILINE)}
    steps = set(re.findall(r"\*\*(\d+\.\d+)\b", text))
    return sections, steps


def has_section(game: str, section: str) -> bool:
    """Whether the rule book of ``game`` has ``section`` (``"3"`` or ``"3.7"``)."""
    sections, steps = structure(game)
    return section in steps if "." in section else int(section) in sections


def repository_files() -> Iterator[Path]:
    """Every file of the repository, without git's store, virtualenvs, tool caches or links.

    A link is skipped because what it points at is not part of the repository (a developer's link to another
    checkout's virtualenv once broke this test on a copy where the link dangled). Folders named .venv* are virtualenvs.
    """
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIPPED_DIRS and not d.startswith(".venv")
                   and not d.endswith(".egg-info") and not (Path(folder) / d).is_symlink()]
        for name in files:
            path = Path(folder) / name
            if not name.endswith(SKIPPED_SUFFIXES) and not path.is_symlink() and path.is_file():
                yield path


def text_files() -> Iterator[tuple[Path, str]]:
    """``(path, text)`` of the repository's text files, this test excepted (its examples cite on purpose)."""
    for path in repository_files():
        if path.suffix in TEXT_SUFFIXES and path.resolve() != THIS_FILE:
            try:
                yield path, path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue


def all_citations() -> list[tuple[str, str, str]]:
    """``(file, game, section)`` for every rule citation in the repository."""
    out: list[tuple[str, str, str]] = []
    for path, text in text_files():
        where = str(path.relative_to(ROOT))
        out += [(where, game, section) for game, section in citations_in(text, inside_rules=path.parent == RULES_DIR)]
    return out


# ---------------------------------------------------------------- the books themselves


@pytest.mark.parametrize("game", GAMES)
def test_each_book_keeps_the_first_texts_numbering(game: str) -> None:
    sections, steps = structure(game)
    want_sections, want_steps = EXPECTED_SECTIONS[game]
    assert sections == want_sections
    assert steps == want_steps


@pytest.mark.parametrize("game", GAMES)
def test_each_book_keeps_every_decision(game: str) -> None:
    text = (RULES_DIR / f"{game}.md").read_text(encoding="utf-8")
    assert text.count("**Decision:**") >= DECISIONS[game]


@pytest.mark.parametrize("path", [*(f"docs/rules/{g}.md" for g in GAMES), "README.md"])
def test_the_trademark_note_is_there(path: str) -> None:
    text = re.sub(r"\s+", " ", (ROOT / path).read_text(encoding="utf-8"))
    assert "belong to their owners" in text
    assert "only to" in text


def test_the_index_points_at_the_three_books() -> None:
    index = (RULES_DIR / "README.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for game in GAMES:
        assert f"({game}.md)" in index
        assert f"docs/rules/{game}.md" in readme


# ---------------------------------------------------------------- citations


@pytest.mark.parametrize(("text", "cited"), [
    ("docs/rules/hcf.md section 3.7", [("hcf", "3.7")]),
    ("(RULES.md section 3 step 7, sections 5 and 7)", [("hcf", "3.7"), ("hcf", "5"), ("hcf", "7")]),
    ("RULES.md section 3 steps 3, 7", [("hcf", "3.3"), ("hcf", "3.7")]),
    ("RULES-sixcard.md sections 3-5, 7", [("sixcard", s) for s in ("3", "4", "5", "7")]),
    ("RULES-sixcard.md sections 3 to 7:", [("sixcard", s) for s in ("3", "4", "5", "6", "7")]),
    ("RULES-caribbean.md section 3, steps 2 and 6", [("caribbean", "3.2"), ("caribbean", "3.6")]),
    ("RULES.md step 8", [("hcf", "3.8")]),
    ("| RULES-caribbean 3.5, 4 |", [("caribbean", "3.5"), ("caribbean", "4")]),
    ("| RULES 3.1 |", [("hcf", "3.1")]),
    ("RULES-sixcard.md 5.1).", [("sixcard", "5.1")]),
    ("`docs/rules/caribbean.md` section 2", [("caribbean", "2")]),
    ("[docs/rules/sixcard.md](rules/sixcard.md) section 4.4", [("sixcard", "4.4")]),
    ("RULES.md sections 3.8 and 6", [("hcf", "3.8"), ("hcf", "6")]),
    ("RULES*.md section 2, the rules", []),
    ("RULES.md\n   section 5, ``void_interrupted_hands``", [("hcf", "5")]),
    ("RULES.md section 3 step 7 (settlement), section 5 (dead hands), section 7 (standard profile).",
     [("hcf", "3.7"), ("hcf", "5"), ("hcf", "7")]),
    ("RULES.md section 5 (a hand interrupted by a crash is dead as a whole) and section 8 (every chip",
     [("hcf", "5"), ("hcf", "8")]),
    ("Blind Bet (2x Ante; RULES-sixcard.md section 3).", [("sixcard", "3")]),
    ("RULES.md section 4, 10 minutes later", [("hcf", "4")]),
    ("RULES-sixcard.md sections 3, 4 and 5", [("sixcard", "3"), ("sixcard", "4"), ("sixcard", "5")]),
])
def test_citations_are_read_as_a_person_reads_them(text: str, cited: list[tuple[str, str]]) -> None:
    assert list(citations_in(text)) == cited


def test_a_citation_of_a_missing_section_is_caught() -> None:
    cited = list(citations_in("see docs/rules/hcf.md section 3.10 and RULES-sixcard.md 10"))
    assert cited == [("hcf", "3.10"), ("sixcard", "10")]
    assert not any(has_section(game, section) for game, section in cited)


def test_the_section_sign_follows_its_legend() -> None:
    text = "The rules are `docs/rules/sixcard.md` (sections cited as §). Bets (§3, §4.1)."
    assert list(citations_in(text)) == [("sixcard", "3"), ("sixcard", "4.1")]


def test_every_cited_section_exists() -> None:
    cited = all_citations()
    assert len(cited) > 60, "the scan found too few citations to be reading the repository"
    missing = sorted({(where, f"docs/rules/{game}.md section {section}") for where, game, section in cited
                      if not has_section(game, section)})
    assert not missing, "citations of sections the rule books do not have: " + "; ".join(
        f"{where}: {what}" for where, what in missing)


# ---------------------------------------------------------------- nothing points outside


def test_nothing_points_outside_the_repository() -> None:
    # Spelled in pieces so that this file does not match itself.
    needles = ("../" + "shared/", "shared/" + "RULES")
    found = []
    for path in repository_files():
        data = path.read_bytes()
        found += [f"{path.relative_to(ROOT)}: {needle}" for needle in needles if needle.encode() in data]
    assert not found, "references to the rule texts outside the repository: " + "; ".join(found)


# ---------------------------------------------------------------- the worked examples


def test_hcf_worked_examples_are_what_the_code_says() -> None:
    pairs = [("Ah 4h 3h 2h Kc Qd Js", "Kd Qd Jd Td 2c 3c 4s", 1), ("8s 6s 4s 2s Ac Kd Qh", "As Ks Qs Jd Td 9c 8h", 1),
             ("Kh 9h 2h Ac Qd Js 3s", "Kc 8c 7c As Qh Jd 4d", 1), ("Ah 4h 3h 2h Kc Qd Js", "As 4s 3s 2s Kc Qd Jd", 0)]
    text = (RULES_DIR / "hcf.md").read_text(encoding="utf-8")
    for one, two, winner in pairs:
        assert f"`{one}` | `{two}`" in text
        assert compare(parse_cards(one), parse_cards(two)) == winner
    seats = [Wager(2, parse_cards("Js 7s 3h 8h 6c 4c 2d"), 10, 0, 5, 0),
             Wager(3, parse_cards("Ah Kh Qh 2h 7c 8d 3d"), 10, 0, 5, 10),
             Wager(4, parse_cards("Ts 9s 8s 6s 5s 4s As"), 10, 0, 0, 30),
             Wager(5, parse_cards("Jc Tc 8c 9d 7d 6h 4h"), 10, 0, 0, 10)]
    for wager in seats:
        assert f"`{format_cards(wager.cards)}`" in text
    s = settle_hcf(HcfSettings(), parse_cards("Kd Qd Jd 9c 5c 2c 3s"), seats, button=1, dealer_stack=30)
    assert s.order == (5, 4, 3, 2)
    assert [(r.seat, r.dead, r.net) for r in s.seats] == [(5, False, -21), (4, False, 39), (3, True, 0),
                                                         (2, False, -16)]
    assert (s.dealer_net, s.house) == (-5, 3)


def test_hcf_standard_example_is_what_the_code_says() -> None:
    dealer = parse_cards("2c 3d 4h 5s 7c 8d 9h")
    one = Wager(1, parse_cards("Ah Kh Qh Jh Th 2s 3s"), 10, 10, 5, 20)
    two = Wager(2, parse_cards("As Ks Ts 2d Jc 5c 6c"), 10, 0, 5, 0)
    s = settle_hcf(HcfSettings.from_mapping({"profile": "standard"}), dealer, [one, two])
    r1, r2 = s.result(1), s.result(2)
    assert (r1.ante, r1.raise_amount, r1.straight_flush_bonus, r1.flush_bonus) == (10, 0, 1000, 50)
    assert (r2.ante, r2.flush_bonus) == (-10, -5)
    capped = settle_hcf(HcfSettings.from_mapping({"profile": "standard", "max_bonus_win": 500}), dealer, [one])
    assert capped.result(1).straight_flush_bonus == 500


def test_caribbean_worked_example_is_what_the_code_says() -> None:
    dealer = parse_cards("Ac Kd 7h 5s 2c")
    spots = [SpotWager(1, parse_cards("9h 9s 4c 4d Jh"), 10, True, True),
             SpotWager(2, parse_cards("9d 8d 7d 6d 5d"), 10, True, True),
             SpotWager(3, parse_cards("Qc Jc 8c 6c 3c"), 10, False, True),
             SpotWager(4, parse_cards("Ah Kh 9c 6s 3s"), 10, True, False)]
    s = settle_caribbean(CaribbeanSettings(), 1_000_000, dealer, spots)
    assert [(r.spot, r.ante, r.bet, r.jackpot, r.net) for r in s.spots] == [
        (4, 10, 20, 0, 30), (3, -10, 0, 49, 39), (2, 10, 1000, 999, 2009), (1, 10, 40, -1, 49)]
    assert s.meter_after == 900_150
    capped = settle_caribbean(CaribbeanSettings.from_mapping({"max_payout": 100}), 1_000_000, dealer,
                              [SpotWager(1, parse_cards("Qs Js 8s 6s 3s"), 10, True),
                               SpotWager(2, parse_cards("Td Jd Qh Kc 9c"), 50, True)])
    assert [(r.spot, r.ante, r.bet) for r in capped.spots] == [(2, 50, 50), (1, 10, 90)]


def test_sixcard_worked_example_is_what_the_code_says() -> None:
    boxes = [BoxWager(1, "ann", parse_cards("Qs Qh 8d 6c 3h"), 10, 2, raised=True, exchange_request=True),
             BoxWager(2, "bob", parse_cards("Jc Jd 5h 5d 2s"), 10, 5, raised=True),
             BoxWager(3, "ann", parse_cards("Kh Ts 8s 6d 3c"), 10, 0, Draw("buy", new=parse_cards("Kd")),
                      raised=True),
             BoxWager(4, "ann", parse_cards("Tc 7c 6s 5c 3d"), 5, 0, exchange_request=True)]
    s = settle_sixcard(SixcardSettings(), parse_cards("Ad 9c 7h 4s 2c"), parse_cards("9h")[0], boxes)
    assert (s.dealer_qualifies, s.exchanged, s.qualifies_after) == (False, True, True)
    assert [(r.box, r.blind, r.draw_fee, r.ante, r.bet, r.bonus, r.net) for r in s.boxes] == [
        (1, False, 0, 0, 20, -2, 18), (2, False, 0, 10, 0, -5, 5), (3, False, -10, 10, 0, 0, 0),
        (4, True, 0, -5, -10, 0, -15)]

