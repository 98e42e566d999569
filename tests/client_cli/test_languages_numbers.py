"""A jackpot meter's chips written as the person's language writes numbers (issue 28 item 5)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from client_cli.host import describe_odds
from client_cli.numbers import meter_text, percent_text


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


@pytest.mark.parametrize(("lang", "edge", "bank"), [("en", "13.162%", "+1.90"), ("de", "13,162\u00a0%", "+1,90"),
                                                     ("es", "13,162\u00a0%", "+1,90")], indirect=["lang"])
def test_the_odds_line_writes_its_figures_the_languages_way(lang: str, edge: str, bank: str) -> None:
    line = describe_odds({"game": "hcf", "profile": "california", "house_edge": {"ante_raise": 0.131616},
                          "dp_expected_per_hand": {"1": 1.9, "6": -11.45}})
    assert edge in line, line
    assert bank in line, line
    assert ("-11,45" if lang != "en" else "-11.45") in line, line


@pytest.mark.usefixtures("german")
@given(st.floats(min_value=0, max_value=1, allow_nan=False))
def test_a_german_percentage_reads_back_as_its_share(fraction: float) -> None:
    number, sign = percent_text(fraction).split("\u00a0")
    assert sign == "%"
    assert abs(float(number.replace(".", "").replace(",", ".")) - fraction * 100) <= 0.0005 + 1e-9
