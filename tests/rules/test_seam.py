"""What the Game seam does for a game: the shared commands' JSON, the clock's defaults, plain settings, after a hand."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import pytest

from server.rules.codec import MessageCodec
from server.rules.commands import ClockExpired, CloseBets, DeclareDead, Leave, Misdeal, SharedCommand, Stay
from server.rules.errors import SettingsError
from server.rules.events import Event, HandVoided, LeaveWithdrawn
from server.rules.game import ClockSpec, Player
from server.rules.hcf.game import HCF
from server.rules.hcf.settings import HcfSettings
from server.rules.house.settings import PlainSettings
from server.rules.validate import not_above


def test_a_codec_knows_the_shared_commands_and_events_without_being_told() -> None:
    codec: MessageCodec[SharedCommand, Event] = MessageCodec([], {})
    for command in (CloseBets(), ClockExpired(1), Leave(2), Stay(2), DeclareDead(3), Misdeal("shutdown")):
        assert codec.command_from_json(codec.command_as_json(command)) == command
    for event in (HandVoided("interrupted"), LeaveWithdrawn(4)):
        assert codec.event_from_json(codec.event_as_json(event)) == event
    with pytest.raises(KeyError):
        codec.command_from_json({"command": "raise", "seat": 1, "amount": 5})


def test_a_clock_counts_its_own_seat_late_unless_it_names_the_late_seats() -> None:
    assert ClockSpec("decision", 3, 10).late_seats == (3,)
    assert ClockSpec("bets", None, 10).late_seats == ()
    assert ClockSpec("bets", None, 10, expire=CloseBets(), late=(1, 4)).late_seats == (1, 4)
    assert ClockSpec("decision", 3, 10).key == ClockSpec("decision", 3, 99, late=()).key  # lateness never restarts it


@dataclass(frozen=True, slots=True)
class Drill(PlainSettings):
    game: ClassVar[str] = "drill"
    min_ante: int = 5
    max_ante: int = 50

    def check(self) -> None:
        not_above("min_ante", self.min_ante, "max_ante", self.max_ante)


def test_plain_settings_are_read_over_a_base_and_written_with_the_game_first() -> None:
    base = Drill.from_mapping({"game": "drill", "max_ante": 40})
    assert Drill.from_mapping({"bet_seconds": 3}, base) == Drill(max_ante=40, bet_seconds=3.0)
    assert list(base.as_dict())[:2] == ["game", "seats"]
    assert (base.house_banked, base.offer_seconds) == (True, base.bet_seconds)


@pytest.mark.parametrize(("values", "words"), [
    ({"game": "hcf"}, "this table plays drill"),
    ({"colour": "red"}, "colour"),
    ({"seats": 8}, "seats"),
    ({"min_buy_in": 500, "default_buy_in": 200}, "default_buy_in"),
    ({"min_ante": 60}, "min_ante"),
    ({"pause_seconds": "soon"}, "pause_seconds"),
])
def test_plain_settings_refuse_what_does_not_fit_in_a_sentence(values: dict[str, object], words: str) -> None:
    with pytest.raises(SettingsError, match=words):
        Drill.from_mapping(values)


def test_a_bank_nobody_took_waits_on_the_seats_and_a_settled_hand_moves_the_button() -> None:
    state = HCF.new_hand(HcfSettings(offer_seconds=7), [Player(1, 1000), Player(2, 1000)], bytes(32), offer_from=1,
                         arranged_deck=None, carry={"x": 1})
    unbanked = HCF.after_hand(replace(state, phase="not_dealt", reason="no_bank"), {"x": 1})
    assert (unbanked.waiting, unbanked.pause, unbanked.carry) == ("no_bank", 7, {"x": 1})
    assert "nobody took the bank" in unbanked.message
    settled = HCF.after_hand(replace(state, phase="settled", dealer=2), {})
    assert (settled.waiting, settled.offer_from) == (None, 3)
