"""The pause before the next hand is each game's answer (the table never names a game's reasons)."""

from __future__ import annotations

from dataclasses import replace

from server.rules.caribbean.game import CARIBBEAN
from server.rules.game import Player
from server.rules.hcf.game import HCF
from server.rules.hcf.settings import HcfSettings
from server.rules.sixcard.game import SIXCARD

PLAYERS = [Player(1, 1000), Player(2, 1000)]


def test_high_card_flush_waits_the_offer_clock_after_a_bank_nobody_took() -> None:
    settings = HcfSettings(offer_seconds=7, pause_seconds=2)
    state = HCF.new_hand(settings, PLAYERS, bytes(32), offer_from=1, arranged_deck=None, carry={})
    assert HCF.after_hand(replace(state, phase="not_dealt", reason="no_bank"), {}).pause == 7
    assert HCF.after_hand(replace(state, phase="not_dealt", reason="no_ante"), {}).pause == 2
    assert HCF.after_hand(replace(state, phase="settled"), {}).pause == 2


def test_house_games_pause_the_same_whether_or_not_anyone_bet() -> None:
    for game, values in ((CARIBBEAN, {"pause_seconds": 2, "bet_seconds": 9}),
                         (SIXCARD, {"pause_seconds": 2, "bet_seconds": 9})):
        settings = game.settings_from_mapping(values)
        state = game.new_hand(settings, PLAYERS, bytes(32), offer_from=1, arranged_deck=None, carry={})
        for phase, reason in (("not_dealt", "no_ante"), ("not_dealt", "no_bets"), ("settled", None)):
            assert game.after_hand(replace(state, phase=phase, reason=reason), {}).pause == 2, (game.name, phase)
