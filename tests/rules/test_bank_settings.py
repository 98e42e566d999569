"""The house rules for the bank and the fee schedule as posted settings (docs/rules/hcf.md section 9): their
ranges and defaults, and refusals that say the real limits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.errors import SettingsError
from server.rules.hcf.settings import HcfSettings

TIERS = [{"ante_to": 20, "player": 1, "dp": 2}, {"ante_to": 100, "player": 2, "dp": 4},
         {"ante_to": 500, "player": 3, "dp": 6}]


def _refused(**values: object) -> str:
    with pytest.raises(SettingsError) as caught:
        HcfSettings.from_mapping(values)
    return str(caught.value)


def test_section9_defaults_are_the_table_as_it_always_was() -> None:
    s = HcfSettings.from_mapping({})
    assert (s.bank_keep, s.nobody_banks, s.third_party_banker, s.third_party_plays) == (1, "wait", None, False)
    assert (s.third_party_consecutive, s.rotation_window_minutes, s.rotation_window_dealers) == (True, None, 2)
    assert s.fee_schedule is None


def test_section9_settings_round_trip_through_as_dict() -> None:
    s = HcfSettings.from_mapping({"bank_keep": 2, "nobody_banks": "third_party", "third_party_banker": "Grace",
                                  "rotation_window_minutes": 40, "fee_schedule": TIERS})
    assert HcfSettings.from_mapping(s.as_dict()) == s
    assert s.as_dict()["fee_schedule"] == TIERS


@pytest.mark.parametrize(("values", "words"), [
    ({"bank_keep": 11}, "bank_keep: must be at most 10"),
    ({"bank_keep": 0}, "bank_keep: must be a whole number of at least 1"),
    ({"nobody_banks": "house"}, "nobody_banks: must be one of wait, end, third_party"),
    ({"nobody_banks": "third_party"}, "third_party needs the third_party_banker's account name"),
    ({"rotation_window_minutes": 4}, "rotation_window_minutes: must be a whole number of at least 5"),
    ({"rotation_window_minutes": 241}, "rotation_window_minutes: must be at most 240"),
    ({"rotation_window_dealers": 7}, "rotation_window_dealers: must be at most 6"),
    ({"seats": 3, "rotation_window_minutes": 40, "rotation_window_dealers": 3},
     "at a table of 3 seats at most 2 players can bank besides"),
    ({"third_party_plays": "yes"}, "third_party_plays: must be true or false"),
])
def test_section9_out_of_range_settings_are_refused_with_their_limits(values: dict[str, object], words: str) -> None:
    assert words in _refused(**values)


@pytest.mark.parametrize(("tiers", "words"), [
    ([{"ante_to": 500, "player": "5%", "dp": 2}], "never a share of the wagers"),
    ([{"ante_to": 500, "player": 0.05, "dp": 2}], "never a share of the wagers"),
    ([{"ante_to": 500, "player": 1.5, "dp": 2}], "flat whole number of chips"),
    ([{"ante_to": 100, "player": 1, "dp": 2}], "the last tier must cover the largest Ante the table allows (500)"),
    ([{"ante_to": 100, "player": 2, "dp": 2}, {"ante_to": 50, "player": 3, "dp": 3}], "a larger Ante"),
    ([{"ante_to": 100, "player": 2, "dp": 2}, {"ante_to": 500, "player": 1, "dp": 3}], "fees never fall"),
    ([{"ante_to": 500, "player": 1}], "exactly ante_to, player and dp"),
    ("20: 1", "write the tiers as a list"),
])
def test_section9_5_a_fee_schedule_holds_rising_whole_chip_tiers_that_cover_max_ante(tiers: object,
                                                                                    words: str) -> None:
    assert words in _refused(fee_schedule=tiers)


def test_section9_5_a_schedule_posted_as_text_is_read_as_its_list() -> None:
    import json

    assert HcfSettings.from_mapping({"fee_schedule": json.dumps(TIERS)}).as_dict()["fee_schedule"] == TIERS


@given(st.integers(1, 10), st.one_of(st.none(), st.integers(5, 240)), st.integers(1, 6))
def test_section9_every_value_in_range_is_taken(keep: int, minutes: int | None, dealers: int) -> None:
    s = HcfSettings.from_mapping({"bank_keep": keep, "rotation_window_minutes": minutes,
                                  "rotation_window_dealers": dealers})
    assert (s.bank_keep, s.rotation_window_minutes, s.rotation_window_dealers) == (keep, minutes, dealers)
