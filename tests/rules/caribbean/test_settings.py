"""docs/rules/caribbean.md section 2 (and the pay tables of sections 3 and 4): a table's settings."""

from __future__ import annotations

from typing import Any

import pytest

from server.rules.caribbean.settings import SETTING_NAMES, CaribbeanSettings
from server.rules.errors import SettingsError


def test_section2_defaults_are_the_specs_table() -> None:
    s = CaribbeanSettings.from_mapping({})
    assert s == CaribbeanSettings()
    assert (s.spots, s.max_hands, s.min_ante, s.max_ante) == (7, 3, 5, 500)
    assert dict(s.bet_pays) == {"royal": 100, "straight_flush": 50, "quads": 20, "full_house": 7, "flush": 5,
                                "straight": 4, "trips": 3, "two_pair": 2, "pair": 1}
    assert s.max_payout is None
    assert (s.jackpot, s.jackpot_wager, s.jackpot_seed, s.jackpot_rate) == (True, 1, 10_000, 50)
    assert dict(s.jackpot_pays) == {"flush": 50, "full_house": 100, "quads": 500, "straight_flush": 10,
                                    "royal": 100}
    assert (s.bet_seconds, s.action_seconds) == (30, 30)
    assert (s.min_buy_in, s.max_buy_in) == (100, 10_000)


def test_section2_the_table_reads_seats_bank_and_retry_pause() -> None:
    s = CaribbeanSettings.from_mapping({"spots": 5, "bet_seconds": 20})
    assert s.seats == 5
    assert s.house_banked is True
    assert s.offer_seconds == 20


def test_section3_step5_pair_or_less_also_pays_a_winning_high_card() -> None:
    s = CaribbeanSettings()
    assert s.bet_pay("high_card") == s.bet_pay("pair") == 1
    assert [s.bet_pay(c) for c in ("two_pair", "trips", "straight", "flush", "full_house", "quads",
                                   "straight_flush", "royal")] == [2, 3, 4, 5, 7, 20, 50, 100]


def test_section4_jackpot_awards_are_chips_or_shares_of_the_meter() -> None:
    s = CaribbeanSettings()
    assert s.jackpot_pay("flush") == ("chips", 50)
    assert s.jackpot_pay("full_house") == ("chips", 100)
    assert s.jackpot_pay("quads") == ("chips", 500)
    assert s.jackpot_pay("straight_flush") == ("percent", 10)
    assert s.jackpot_pay("royal") == ("percent", 100)
    for below in ("straight", "trips", "two_pair", "pair", "high_card"):
        assert s.jackpot_pay(below) is None


def test_section4_a_zero_award_pays_nothing() -> None:
    s = CaribbeanSettings.from_mapping({"jackpot_pays": {"flush": 0, "full_house": 75, "quads": 500,
                                                         "straight_flush": 10, "royal": 100}})
    assert s.jackpot_pay("flush") is None
    assert s.jackpot_pay("full_house") == ("chips", 75)


def test_section4_contribution_is_the_rate_of_the_wager_in_hundredths() -> None:
    assert CaribbeanSettings().contribution == 50
    assert CaribbeanSettings.from_mapping({"jackpot_wager": 5, "jackpot_rate": 70}).contribution == 350


def test_section2_every_setting_is_listed_and_round_trips() -> None:
    s = CaribbeanSettings.from_mapping({"spots": 9, "max_hands": 9, "max_payout": 5000, "jackpot": False})
    data = s.as_dict()
    assert data["game"] == "caribbean"
    assert set(data) == {"game", *SETTING_NAMES}
    assert "_lookup" not in SETTING_NAMES
    assert data["bet_pays"]["royal"] == 100
    assert CaribbeanSettings.from_mapping(data) == s


def test_section2_overrides_keep_the_rest_of_the_base() -> None:
    base = CaribbeanSettings.from_mapping({"min_ante": 10, "jackpot_seed": 5000})
    changed = CaribbeanSettings.from_mapping({"max_ante": 100}, base=base)
    assert (changed.min_ante, changed.max_ante, changed.jackpot_seed) == (10, 100, 5000)
    assert base.max_ante == 500


def test_section2_pay_tables_accept_text_mapping_or_pairs() -> None:
    text = CaribbeanSettings.from_mapping({"bet_pays": "royal: 250, straight_flush: 50, quads: 20, "
                                                       "full_house: 7, flush: 5, straight: 4, trips: 3, "
                                                       "two_pair: 2, pair: 1"})
    as_map = CaribbeanSettings.from_mapping({"bet_pays": {**dict(CaribbeanSettings().bet_pays), "royal": 250}})
    assert text == as_map
    assert text.bet_pay("royal") == 250
    pairs = CaribbeanSettings.from_mapping({"jackpot_pays": [["royal", 100], ["straight_flush", 20],
                                                             ["quads", 500], ["full_house", 100],
                                                             ["flush", 50]]})
    assert pairs.jackpot_pay("straight_flush") == ("percent", 20)


def test_section2_empty_max_payout_means_no_cap() -> None:
    assert CaribbeanSettings.from_mapping({"max_payout": ""}).max_payout is None
    assert CaribbeanSettings.from_mapping({"max_payout": 1000}).max_payout == 1000


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"spots": 0}, "spots: must be a whole number of at least 1"),
        ({"spots": 10}, "spots: must be 1 to 9"),
        ({"max_hands": 4, "spots": 3}, "max_hands: must not exceed spots"),
        ({"min_ante": 0}, "min_ante: must be a whole number of at least 1"),
        ({"min_ante": 50, "max_ante": 10}, "min_ante: must not exceed max_ante"),
        ({"max_payout": 0}, "max_payout: must be a whole number of at least 1"),
        ({"jackpot": "yes"}, "jackpot: must be true or false"),
        ({"jackpot_wager": 0}, "jackpot_wager: must be a whole number of at least 1"),
        ({"jackpot_seed": -1}, "jackpot_seed: must be a whole number of at least 0"),
        ({"jackpot_rate": 101}, "jackpot_rate: must be at most 100"),
        ({"jackpot_rate": 1.5}, "jackpot_rate: must be a whole number"),
        ({"bet_seconds": 0}, "bet_seconds: must be a number of seconds of at least 1"),
        ({"pause_seconds": 4000}, "pause_seconds: must be at most 3600"),
        ({"min_buy_in": 500, "max_buy_in": 100}, "min_buy_in: must not exceed max_buy_in"),
        ({"default_buy_in": 50}, "default_buy_in: must lie between"),
        ({"bet_pays": {"royal": 100}}, "bet_pays: must give a payout for each of royal"),
        ({"bet_pays": "royal = 100"}, "bet_pays: write it as"),
        ({"bet_pays": 7}, "bet_pays: must map hand classes to payouts"),
        ({"bet_pays": {**dict(CaribbeanSettings().bet_pays), "pair": 0}}, "bet_pays[pair]: must be a whole"),
        ({"jackpot_pays": {**dict(CaribbeanSettings().jackpot_pays), "royal": 150}},
         "jackpot_pays[royal]: must be at most 100"),
        ({"jackpot_pays": {**dict(CaribbeanSettings().jackpot_pays), "straight": 5}},
         "jackpot_pays: must give a payout for each of"),
        ({"seats": 7}, "seats: unknown setting"),
        ({"game": "hcf"}, "game: these are Caribbean Stud settings"),
    ],
)
def test_section2_bad_settings_are_refused_naming_the_key(values: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError, match="^" + message.replace("[", r"\[").replace("]", r"\]")) as caught:
        CaribbeanSettings.from_mapping(values)
    assert caught.value.code == "settings/invalid"


def test_section2_a_game_key_of_caribbean_is_accepted() -> None:
    assert CaribbeanSettings.from_mapping({"game": "caribbean"}) == CaribbeanSettings()
