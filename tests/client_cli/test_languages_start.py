"""The questions and refusals before a person sits (client_cli/start.py) in the terminal's language."""

from __future__ import annotations

import pytest

from client_cli.start import StartRefused, check_seat, read_buy_in


@pytest.mark.usefixtures("german")
def test_a_buy_in_typed_wrong_is_answered_in_german() -> None:
    assert read_buy_in("viel", 100, 900, 500) == "nennen Sie eine Zahl von Chips, 100 bis 900"
    assert read_buy_in("50", 100, 900, 500) == "das Buy-in beträgt hier 100 bis 900 Chips"
    assert read_buy_in("", 100, 900, 500) == 500


@pytest.mark.usefixtures("german")
def test_a_taken_seat_is_refused_in_german_naming_the_free_ones() -> None:
    with pytest.raises(StartRefused, match=r"^Platz 2 an main ist besetzt; jetzt frei: 3 4$"):
        check_seat({"seats": 4}, [1, 2], 2, "main")


def test_english_stays_as_it_was() -> None:
    assert read_buy_in("50", 100, 900, 500) == "the buy-in is 100 to 900 chips here"
