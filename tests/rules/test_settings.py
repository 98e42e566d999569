"""docs/rules/hcf.md sections 2 and 7: a table's posted settings, their defaults and validation."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules.errors import SettingsError
from server.rules.hcf.settings import SETTING_NAMES, HcfSettings, profile_defaults_full


def test_section2_california_defaults() -> None:
    s = HcfSettings.from_mapping({})
    assert s == HcfSettings()
    assert s.profile == "california"
    assert not s.house_banked
    assert s.seats == 7
    assert (s.min_ante, s.max_ante, s.min_bonus, s.max_bonus) == (5, 500, 1, 100)
    assert s.min_bank == 500
    assert (s.fee_mode, s.fee) == ("players", 1)
    assert dict(s.flush_pays) == {7: 200, 6: 50, 5: 10, 4: 2}
    assert dict(s.straight_flush_pays) == {7: 1000, 6: 500, 5: 100, 4: 60, 3: 8}
    assert s.max_bonus_win is None
    assert (s.bet_seconds, s.action_seconds, s.offer_seconds) == (30, 30, 15)
    assert (s.min_buy_in, s.max_buy_in, s.default_buy_in) == (100, 10000, 1000)
    assert s.pause_seconds == 3


def test_section7_standard_defaults() -> None:
    s = HcfSettings.from_mapping({"profile": "standard"})
    assert s.profile == "standard"
    assert s.house_banked
    assert s.fee_mode == "none"
    assert s.seats == 6
    assert dict(s.flush_pays) == {7: 300, 6: 100, 5: 10, 4: 1}
    assert dict(s.straight_flush_pays) == {7: 8000, 6: 1000, 5: 100, 4: 60, 3: 7}
    assert (s.min_ante, s.max_ante) == (5, 500)


def test_section2_pay_lookup_gives_zero_below_the_table() -> None:
    s = HcfSettings()
    assert [s.flush_pay(n) for n in range(2, 8)] == [0, 0, 2, 10, 50, 200]
    assert [s.straight_flush_pay(n) for n in range(0, 8)] == [0, 0, 0, 8, 60, 100, 500, 1000]


def test_section2_every_setting_is_listed() -> None:
    assert set(SETTING_NAMES) == set(HcfSettings().as_dict())
    assert "_lookup" not in SETTING_NAMES
    assert set(profile_defaults_full("standard")) == set(SETTING_NAMES)


def test_section2_overrides_keep_the_rest_of_the_base() -> None:
    base = HcfSettings.from_mapping({"min_ante": 10, "fee_mode": "all", "max_bonus_win": 5000})
    changed = HcfSettings.from_mapping({"fee": 2}, base=base)
    assert (changed.min_ante, changed.fee_mode, changed.fee, changed.max_bonus_win) == (10, "all", 2, 5000)
    assert base.fee == 1  # the base itself is untouched


def test_section2_override_on_a_standard_base_stays_standard() -> None:
    base = HcfSettings.from_mapping({"profile": "standard"})
    changed = HcfSettings.from_mapping({"max_ante": 100}, base=base)
    assert changed.profile == "standard"
    assert changed.fee_mode == "none"
    assert changed.max_ante == 100


def test_section2_switching_profile_starts_from_its_defaults() -> None:
    base = HcfSettings.from_mapping({"min_ante": 10})
    switched = HcfSettings.from_mapping({"profile": "standard"}, base=base)
    assert switched == HcfSettings.from_mapping({"profile": "standard"})


def test_section2_as_dict_round_trips() -> None:
    s = HcfSettings.from_mapping({"fee_mode": "designated", "max_bonus_win": 300, "seats": 4})
    data = s.as_dict()
    assert data["flush_pays"] == {"7": 200, "6": 50, "5": 10, "4": 2}
    assert HcfSettings.from_mapping(data) == s


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("flush_pays", "7: 300, 6: 100, 5: 10, 4: 1", {7: 300, 6: 100, 5: 10, 4: 1}),
        ("flush_pays", "4:1,5:10,6:100,7:300,", {7: 300, 6: 100, 5: 10, 4: 1}),
        ("straight_flush_pays", "7: 8000, 6: 1000, 5: 100, 4: 60, 3: 7",
         {7: 8000, 6: 1000, 5: 100, 4: 60, 3: 7}),
    ],
)
def test_section2_pay_table_string_form(name: str, text: str, expected: dict[int, int]) -> None:
    s = HcfSettings.from_mapping({name: text})
    assert dict(getattr(s, name)) == expected
    assert getattr(s, name) == tuple(sorted(expected.items(), reverse=True))


def test_section2_pay_table_mapping_forms() -> None:
    a = HcfSettings.from_mapping({"flush_pays": {7: 300, 6: 100, 5: 10, 4: 1}})
    b = HcfSettings.from_mapping({"flush_pays": {"7": 300, "6": 100, "5": 10, "4": 1}})
    c = HcfSettings.from_mapping({"flush_pays": [(4, 1), (5, 10), (6, 100), (7, 300)]})
    assert a == b == c
    assert a.flush_pay(4) == 1


def test_section2_max_bonus_win_empty_means_no_cap() -> None:
    assert HcfSettings.from_mapping({"max_bonus_win": ""}).max_bonus_win is None
    assert HcfSettings.from_mapping({"max_bonus_win": None}).max_bonus_win is None
    assert HcfSettings.from_mapping({"max_bonus_win": 250}).max_bonus_win == 250


@pytest.mark.parametrize(
    ("values", "named"),
    [
        ({"colour": "red"}, "colour"),
        ({"profile": "texas"}, "profile"),
        ({"seats": 1}, "seats"),
        ({"seats": 8}, "seats"),
        ({"seats": "7"}, "seats"),
        ({"profile": "standard", "seats": 7}, "seats"),
        ({"profile": "standard", "seats": 0}, "seats"),
        ({"min_ante": 0}, "min_ante"),
        ({"min_ante": 5.5}, "min_ante"),
        ({"min_ante": True}, "min_ante"),
        ({"max_ante": 0}, "max_ante"),
        ({"min_ante": 50, "max_ante": 10}, "min_ante"),
        ({"min_bonus": 0}, "min_bonus"),
        ({"max_bonus": -1}, "max_bonus"),
        ({"min_bonus": 20, "max_bonus": 10}, "min_bonus"),
        ({"min_bank": -1}, "min_bank"),
        ({"fee": -1}, "fee"),
        ({"fee": 1.5}, "fee"),
        ({"fee_mode": "some"}, "fee_mode"),
        ({"fee_mode": None}, "fee_mode"),
        ({"flush_pays": "7: 300, 6: 100"}, "flush_pays"),
        ({"flush_pays": "7=300"}, "flush_pays"),
        ({"flush_pays": "7: x, 6: 1, 5: 1, 4: 1"}, "flush_pays"),
        ({"flush_pays": {7: 300, 6: 100, 5: 10, 4: 1, 3: 1}}, "flush_pays"),
        ({"flush_pays": {7: 300, 6: 100, 5: 10, 4: 0}}, "flush_pays"),
        ({"flush_pays": {7: 300, 6: 100, 5: 10, 4: "1"}}, "flush_pays"),
        ({"flush_pays": 5}, "flush_pays"),
        ({"flush_pays": [1, 2]}, "flush_pays"),
        ({"straight_flush_pays": {7: 1, 6: 1, 5: 1, 4: 1}}, "straight_flush_pays"),
        ({"straight_flush_pays": "7:1,6:1,5:1,4:1,3:-2"}, "straight_flush_pays"),
        ({"max_bonus_win": 0}, "max_bonus_win"),
        ({"max_bonus_win": "lots"}, "max_bonus_win"),
        ({"bet_seconds": 0}, "bet_seconds"),
        ({"bet_seconds": "30"}, "bet_seconds"),
        ({"action_seconds": 0.5}, "action_seconds"),
        ({"action_seconds": float("nan")}, "action_seconds"),
        ({"offer_seconds": 3601}, "offer_seconds"),
        ({"offer_seconds": False}, "offer_seconds"),
        ({"pause_seconds": -1}, "pause_seconds"),
        ({"min_buy_in": 0}, "min_buy_in"),
        ({"max_buy_in": 0}, "max_buy_in"),
        ({"min_buy_in": 500, "max_buy_in": 100}, "min_buy_in"),
        ({"default_buy_in": 50}, "default_buy_in"),
        ({"default_buy_in": 20000}, "default_buy_in"),
    ],
)
def test_section2_invalid_setting_rejected_naming_it(values: dict[str, Any], named: str) -> None:
    with pytest.raises(SettingsError) as caught:
        HcfSettings.from_mapping(values)
    assert caught.value.message.startswith(named)
    assert caught.value.code == "settings/invalid"


def test_section2_invalid_override_leaves_base_valid() -> None:
    base = HcfSettings()
    with pytest.raises(SettingsError, match="max_ante"):
        HcfSettings.from_mapping({"max_ante": 1}, base=base)
    assert base == HcfSettings()


@pytest.mark.parametrize("fee_mode", ["all", "players", "designated", "none"])
def test_section2_every_fee_mode_accepted(fee_mode: str) -> None:
    assert HcfSettings.from_mapping({"fee_mode": fee_mode}).fee_mode == fee_mode


def test_section2_seat_counts_2_to_7() -> None:
    assert [HcfSettings.from_mapping({"seats": n}).seats for n in range(2, 8)] == list(range(2, 8))


def test_section7_standard_seats_leave_a_hand_for_the_house() -> None:
    # Six players and the house dealer use 49 cards, like seven seats of section 2.
    standard = [HcfSettings.from_mapping({"profile": "standard", "seats": n}).seats for n in range(2, 7)]
    assert standard == list(range(2, 7))
    for seats in (1, 7):
        with pytest.raises(SettingsError, match=r"^seats"):
            HcfSettings.from_mapping({"profile": "standard", "seats": seats})


def test_section2_zero_fee_and_zero_min_bank_allowed() -> None:
    s = HcfSettings.from_mapping({"fee": 0, "min_bank": 0, "pause_seconds": 0})
    assert (s.fee, s.min_bank, s.pause_seconds) == (0, 0, 0)
