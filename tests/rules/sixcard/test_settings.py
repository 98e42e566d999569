"""docs/rules/sixcard.md section 2: a table's settings, their defaults and validation."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules.errors import SettingsError
from server.rules.game import TableSettings
from server.rules.sixcard.settings import SETTING_NAMES, SixcardSettings


def test_section2_defaults_are_the_spec_table() -> None:
    s = SixcardSettings.from_mapping({})
    assert s == SixcardSettings()
    assert s.boxes == 4
    assert (s.min_ante, s.max_ante, s.ante_ratio) == (5, None, 5)
    assert (s.min_bonus, s.max_bonus) == (1, None)
    assert s.max_payout == 10000
    assert dict(s.bet_pays) == {"royal": 100, "straight_flush": 50, "quads": 20, "full_house": 7, "flush": 5,
                                "straight": 4, "trips": 3, "two_pair": 2, "pair": 1}
    assert dict(s.bonus_pays) == {"royal": 1000, "straight_flush": 500, "quads": 200, "full_house": 70,
                                  "flush": 50, "straight": 40, "trips": 25}
    assert (s.bet_seconds, s.action_seconds, s.exchange_seconds) == (30, 30, 20)
    assert (s.min_buy_in, s.max_buy_in, s.default_buy_in, s.pause_seconds) == (100, 10000, 1000, 3)


def test_section2_pay_lookup_gives_zero_for_unpaid_classes() -> None:
    s = SixcardSettings()
    assert s.bet_pay("pair") == 1
    assert s.bet_pay("high_card") == 0
    assert s.bonus_pay("trips") == 25
    assert s.bonus_pay("two_pair") == 0


def test_section2_the_table_reads_boxes_as_seats_and_the_house_banks() -> None:
    s: TableSettings = SixcardSettings.from_mapping({"boxes": 3, "bet_seconds": 12})
    assert s.seats == 3
    assert s.house_banked
    assert s.offer_seconds == 12


def test_section2_as_dict_names_the_game_and_round_trips() -> None:
    s = SixcardSettings.from_mapping({"max_ante": 500, "bonus_pays": {"royal": 2000}})
    data = s.as_dict()
    assert data["game"] == "sixcard"
    assert set(data) == {"game", *SETTING_NAMES}
    assert data["bonus_pays"]["royal"] == 2000
    assert SixcardSettings.from_mapping(data) == s


def test_section2_overrides_keep_the_rest_of_the_base() -> None:
    base = SixcardSettings.from_mapping({"min_ante": 10, "bet_pays": "royal: 250"})
    changed = SixcardSettings.from_mapping({"bet_pays": {"pair": 2}}, base=base)
    assert changed.min_ante == 10
    assert (changed.bet_pay("royal"), changed.bet_pay("pair"), changed.bet_pay("trips")) == (250, 2, 3)


def test_section2_empty_maximum_means_none() -> None:
    s = SixcardSettings.from_mapping({"max_ante": "", "max_bonus": None})
    assert (s.max_ante, s.max_bonus) == (None, None)


@pytest.mark.parametrize(
    ("values", "names"),
    [
        ({"boxes": 0}, "boxes"),
        ({"boxes": 5}, "boxes"),
        ({"min_ante": 0}, "min_ante"),
        ({"min_ante": 50, "max_ante": 10}, "min_ante"),
        ({"min_bonus": 5, "max_bonus": 2}, "min_bonus"),
        ({"ante_ratio": 0}, "ante_ratio"),
        ({"max_payout": True}, "max_payout"),
        ({"bet_pays": {"high_card": 1}}, "bet_pays"),
        ({"bonus_pays": {"pair": 1}}, "bonus_pays"),
        ({"bonus_pays": {"trips": 0}}, "bonus_pays[trips]"),
        ({"bet_pays": "royal = 100"}, "bet_pays"),
        ({"exchange_seconds": 0}, "exchange_seconds"),
        ({"min_buy_in": 500, "default_buy_in": 100}, "default_buy_in"),
        ({"spots": 4}, "spots"),
        ({"game": "caribbean"}, "game"),
    ],
)
def test_section2_bad_settings_are_refused_naming_the_setting(values: dict[str, Any], names: str) -> None:
    with pytest.raises(SettingsError) as caught:
        SixcardSettings.from_mapping(values)
    assert caught.value.message.startswith(f"{names}:")
    assert caught.value.code == "settings/invalid"
