"""What real use found in the terminal's small print (issue 23, item 16): registering asks for the password twice,
``hcf tables`` at house tables, the odds name the play they assume and whose edge it is, the reveal line is sorted."""

from __future__ import annotations

from pathlib import Path

import pytest

from client_cli.api import ServerRefused, request_json
from client_cli.games.house import Move
from client_cli.host import describe_odds
from client_cli.lobby import table_line
from client_cli.session import log_in
from client_cli.store import TokenStore
from client_cli.tracker import Tracker
from tests.client_cli.conftest import Server
from tests.client_cli.house_samples import caribbean, sixcard
from tests.client_cli.test_leaving import _decision, _live, _session


async def test_registering_asks_for_the_password_twice_and_a_mismatch_registers_nothing(
        server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    typed = iter(["first-password", "frist-password", "first-password", "first-password"])
    asked: list[str] = []
    said: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(typed)

    session = await log_in(server.url, "newcomer", TokenStore(), ask, said.append)
    assert session.registered
    assert "the two passwords differ: nothing was registered" in said
    assert sum("Type it again to register" in prompt for prompt in asked) == 2
    with pytest.raises(ServerRefused):  # the typo never became a password
        request_json("POST", f"{server.url}/api/login", {"name": "newcomer", "password": "frist-password"})


def test_a_house_table_counts_its_places_and_an_ante_without_a_ceiling_says_so() -> None:
    stud = table_line({"name": "stud", "game": "caribbean", "phase": "betting",
                       "settings": {"spots": 7, "min_ante": 5, "max_ante": 500}, "seats": [{"name": "ann"}]})
    six = table_line({"name": "six", "game": "sixcard", "phase": None,
                      "settings": {"boxes": 4, "min_ante": 5, "max_ante": None}, "seats": []})
    assert "1/7 seated" in stud
    assert "0/4 seated" in six
    assert "Ante 5 or more" in six
    assert "?" not in stud + six
    assert "None" not in stud + six


def test_the_odds_name_the_play_they_assume_and_a_california_edge_is_the_dps() -> None:
    stud = describe_odds({"game": "caribbean", "house_edge": {"ante_bet": 0.05682, "jackpot": 0.6}})
    assert "Ante+Bet 5.682% (playing A-K or better)" in stud
    california = describe_odds({"game": "hcf", "profile": "california",
                                "house_edge": {"ante_raise": 0.027114, "ante_raise_optimal": 0.02665}})
    assert california.startswith("odds: the DP's edge Ante+Raise 2.711% (basic strategy; 2.665% with the best play)")
    standard = describe_odds({"game": "hcf", "profile": "standard", "house_edge": {"ante_raise": 0.03}})
    assert standard.startswith("odds: house edge ")


@pytest.mark.parametrize("symbols", [True, False])
def test_the_dps_reveal_is_sorted_by_suit_with_the_result_lines_symbols(symbols: bool) -> None:
    tracker = Tracker(symbols=symbols)
    tracker.on_event({"type": "dealer_revealed", "seat": 1, "cards": ["2h", "Jh", "Ad", "8d", "8h", "3c", "Kd"],
                      "qualifies": True, "hand_id": 4})
    line = tracker.log[-1]
    assert ("A♦ K♦ 8♦  J♥ 8♥ 2♥  3♣" if symbols else "Ad Kd 8d  Jh 8h 2h  3c") in line, line


@pytest.mark.parametrize("game", ["caribbean", "sixcard"])
def test_the_dealers_up_card_at_the_deal_is_written_as_every_other_card(game: str) -> None:
    """The log said "the dealer shows 5d" while the view beside it said "Dealer: 5♦ up"."""
    tracker = Tracker(symbols=True)
    tracker.on_snapshot((caribbean() if game == "caribbean" else sixcard()).snapshot(1), 1000.0)
    tracker.on_event({"type": "cards_dealt", "counts": {"1": 5, "2": 5}, "dealer_up": "5d", "hand_id": 4})
    assert tracker.log[-1].endswith("the dealer shows 5♦"), tracker.log[-1]


async def test_an_exchange_says_the_cards_it_gives_up_as_the_view_writes_them() -> None:
    """The live log said "box 2: Jc Ks (positions 1 2) exchanged" beside a view that writes J♣ K♠."""
    session, _ = await _session(_decision(), _live())
    session._moved(Move("exchange", {"box": 2, "discard": [1, 2]},
                        note="box 2: Jc Ks (positions 1 2) exchanged for a fee of 10 chips"))
    assert session.tracker.log[-1] == "box 2: J♣ K♠ (positions 1 2) exchanged for a fee of 10 chips"
