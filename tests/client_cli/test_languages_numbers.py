"""A jackpot meter's chips written as the person's language writes numbers (issue 28 item 5)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client_cli.numbers import meter_text


@pytest.mark.parametrize(("lang", "said"), [("en", "10,000.50"), ("de", "10.000,50"), ("es", "10.000,50")],
                         indirect=["lang"])
def test_the_meter_is_written_the_languages_way(lang: str, said: str) -> None:
    assert (lang, meter_text(1_000_050)) == (lang, said)


@pytest.mark.usefixtures("german")
@given(st.integers(min_value=0, max_value=10**15))
def test_a_german_meter_reads_back_as_its_chips(hundredths: int) -> None:
    text = meter_text(hundredths)
    whole, _, cents = text.partition(",")
    assert len(cents) == 2
    assert all(len(group) == 3 for group in whole.split(".")[1:])
    assert Decimal(whole.replace(".", "") + "." + cents) == Decimal(hundredths) / 100
