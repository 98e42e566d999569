"""``hcf account`` in Spanish and German (issue 28 item 5; docs/i18n.md): the balance, the stacks at tables and
each chip movement in the person's language. Pure: the lines from an account's answer."""

from __future__ import annotations

import pytest

from client_cli.account import MOVEMENTS, account_lines

INFO = {"name": "ann", "balance": 900, "stacks": {"main": 100},
        "movements": [{"at": 0, "kind": "buy_in", "table": "main", "amount": -100, "memo": ""},
                      {"at": 0, "kind": "jackpot_award", "table": "stud", "amount": 5000, "memo": ""}]}



@pytest.mark.parametrize(("lang", "says"), [
    ("de", ["ann: 900 Chips auf dem Konto", "an Tischen: main 100", "letzte Bewegungen (die neueste zuerst):",
            "-100  eingekauft an main", "+5000  ein Jackpot-Gewinn an stud"]),
    ("es", ["ann: 900 fichas en la cuenta", "en mesas: main 100", "movimientos recientes (el más reciente primero):",
            "-100  compra de fichas en main", "+5000  un premio del Jackpot en stud"]),
], indirect=["lang"])
def test_the_account_is_said_in_the_language(lang: str, says: list[str]) -> None:
    lines = account_lines(INFO)
    assert lines[:3] == says[:3], lang
    assert lines[3].endswith(says[3])
    assert lines[4].endswith(says[4])


@pytest.mark.parametrize("lang", ["de", "es"], indirect=True)
def test_every_kind_of_movement_has_its_words(lang: str) -> None:
    """No movement stays English: each kind's words differ from the English ones (the completeness test checks
    that each has a translation; this that the account uses it)."""
    for kind, english in MOVEMENTS.items():
        said = account_lines({"name": "x", "balance": 0, "movements": [{"kind": kind, "amount": 1}]})[-1]
        assert not said.endswith(english), (lang, kind, said)
