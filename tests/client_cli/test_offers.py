"""The client offers exactly the server's choices (protocol v2, issue 15 item 2).

Pure tests of :mod:`client_cli.offers`, then the play loop (``TableSession``) on a fake
connection: what it draws and what a typed line sends come from the model's ``choices``,
a line that is not among them is answered with what is possible now and never sent, and
no snapshot is ever asked for during play.
"""

from __future__ import annotations

import asyncio
import io
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from client_cli.offers import Offer, Offers, check, possible_text, read_offers
from client_cli.play import PlayOptions, TableSession
from client_cli.terminal import PlainFace
from tests.client_cli.fakes import FakeConnection

TABLE = "main"
HCF_SETTINGS = {"min_ante": 5, "max_ante": 500, "min_bonus": 1, "max_bonus": 100, "fee_mode": "players", "fee": 1,
                "min_buy_in": 100, "max_buy_in": 10000, "default_buy_in": 1000, "min_bank": 500}


def hcf_model(phase: str, moves: list[dict[str, Any]], **hand: Any) -> dict[str, Any]:
    """A High Card Flush table model: seat 2 is this player."""
    return {"table": TABLE, "seq": 7, "server_time": 1.0, "settings": HCF_SETTINGS, "you": {"seat": 2},
            "seats": [{"seat": 1, "name": "ann", "stack": 1000, "button": True},
                      {"seat": 2, "name": "bob", "stack": 1000}],
            "hand": {"hand_id": 3, "number": 3, "phase": phase, "dealer": 1, "bettors": [2],
                     "seats": {"2": {"in_hand": phase == "decisions", "passed": False, "ante": 10}}, **hand},
            "choices": {"seat": 2, "deadline": None, "moves": moves}}


BET = {"request": "move", "action": "bet", "ante": {"min": 5, "max": 499},
       "straight_flush_bonus": {"min": 0, "max": 100}, "flush_bonus": {"min": 0, "max": 100}}
PASS = {"request": "move", "action": "pass"}
LEAVE = {"request": "leave"}
RAISE = {"request": "move", "action": "raise", "amount": {"min": 10, "max": 20}}
FOLD = {"request": "move", "action": "fold"}


# ------------------------------------------------------------------ pure


def test_a_model_without_choices_offers_nothing_and_says_so() -> None:
    offers = read_offers({"seats": []})
    assert offers == Offers()
    assert possible_text(offers) == "Nothing to do now: wait for the table."
    said = check(offers, "move", {"action": "fold"})
    assert said == "fold is not possible now. Nothing to do now: wait for the table."


def test_fixed_values_lists_and_ranges_are_checked() -> None:
    offers = read_offers({"choices": {"seat": 1, "deadline": 5.5, "moves": [
        {"request": "move", "action": "bank", "accept": [True, False]},
        {"request": "sit_out", "sitting_out": True},
        {"request": "top_up", "amount": {"min": 1, "max": 900}}]}})
    assert offers.deadline == 5.5
    assert check(offers, "move", {"action": "bank", "accept": False}) is None
    assert check(offers, "sit_out", {"sitting_out": True}) is None
    refused = check(offers, "sit_out", {"sitting_out": False})
    assert refused is not None
    assert refused.startswith("back is not possible now: you are not sitting out.")
    assert check(offers, "top_up", {"amount": 900}) is None
    refused = check(offers, "top_up", {"amount": 901})
    assert refused is not None
    assert "the amount is 1 to 900 chips" in refused
    assert refused.endswith("Now you may: accept or decline the bank (y / n), sitout, topup 1 to 900")


def test_a_list_of_bets_fits_its_count_each_entry_and_the_stack() -> None:
    # As Caribbean Stud offers it (server/rules/caribbean/choices.py), for a stack of 100.
    bet = {"request": "move", "action": "bet",
           "bets": {"count": {"min": 1, "max": 3}, "each": {"spot": [1, 2, 3], "ante": {"min": 5, "max": 33},
                                                           "jackpot": [False, True]}, "distinct": "spot"},
           "seed": {"max_length": 128}, "limits": {"cover": {"max": 100, "ante": 3, "jackpot": 1}}}
    offers = read_offers({"choices": {"moves": [bet, PASS]}})

    def bets(*entries: tuple[int, int, bool]) -> dict[str, Any]:
        return {"action": "bet", "bets": [{"spot": s, "ante": a, "jackpot": j} for s, a, j in entries], "seed": "x"}

    assert check(offers, "move", bets((1, 10, True), (3, 20, False))) is None
    assert "the spot is one of 1, 2 or 3" in (check(offers, "move", bets((4, 10, False))) or "")
    assert "spot 1 is named twice" in (check(offers, "move", bets((1, 10, False), (1, 5, False))) or "")
    assert "the ante is 5 to 33 chips (spot 2)" in (check(offers, "move", bets((2, 34, False))) or "")
    said = check(offers, "move", bets((1, 20, True), (2, 15, False)))
    assert said is not None
    assert "your stack covers 100 chips of these, they need 106" in said
    assert said.endswith("Now you may: bet (Ante 5 to 33), pass")


@given(low=st.integers(0, 1000), width=st.integers(0, 1000), sent=st.integers(-10, 2500))
def test_a_range_takes_exactly_its_amounts(low: int, width: int, sent: int) -> None:
    offers = Offers(items=(Offer("move", "raise", {"amount": {"min": low, "max": low + width}}),))
    fits = check(offers, "move", {"action": "raise", "amount": sent}) is None
    assert fits == (low <= sent <= low + width)


# ------------------------------------------------------------------ the play loop


async def _session(model: dict[str, Any], **options: Any) -> tuple[TableSession, FakeConnection, io.StringIO]:
    conn = FakeConnection(TABLE, model)
    out = io.StringIO()
    session = TableSession(conn, PlayOptions(url="http://x", **options), PlainFace(out))  # type: ignore[arg-type]
    session.sync()
    return session, conn, out


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_a_move_among_the_choices_goes_as_move_with_the_action() -> None:
    session, conn, _ = await _session(hcf_model("decisions", [RAISE, FOLD, LEAVE], your_cards={
        "cards": ["Ah", "Kh", "Qh", "2c", "3d", "4s", "5c"], "raise_limit": 2}, turn=2))
    assert session.choices().kind == "decision"
    session._line("r 20")
    await _settle()
    assert conn.sent == [("move", {"table": TABLE, "action": "raise", "amount": 20})]


async def test_a_bet_carries_the_players_seed_and_its_bonuses() -> None:
    session, conn, _ = await _session(hcf_model("betting", [BET, PASS, LEAVE]))
    session._line("bet 10 5 0")
    await _settle()
    [(event, payload)] = conn.sent
    assert event == "move"
    assert {k: payload[k] for k in ("action", "ante", "straight_flush_bonus", "flush_bonus")} == {
        "action": "bet", "ante": 10, "straight_flush_bonus": 5, "flush_bonus": 0}
    assert len(payload["seed"]) == 32


async def test_a_move_the_server_does_not_offer_is_never_sent_and_the_player_is_told_what_is_possible() -> None:
    # The hand view says it is this player's turn; the server's choices say only "leave" (say, the clock ran out).
    session, conn, out = await _session(hcf_model("decisions", [LEAVE], your_cards={
        "cards": ["Ah", "Kh", "Qh", "2c", "3d", "4s", "5c"], "raise_limit": 2}, turn=2))
    assert session.choices().kind is None
    session._line("fold")
    await _settle()
    assert conn.sent == []
    assert session.message is not None
    assert "Now you may: leave" in session.message
    assert "Now you may: leave" in out.getvalue()


async def test_an_amount_outside_the_offered_range_is_explained_not_sent() -> None:
    session, conn, _ = await _session(hcf_model("decisions", [
        {**RAISE, "amount": {"min": 10, "max": 15}}, FOLD, LEAVE], your_cards={
        "cards": ["Ah", "Kh", "Qh", "2c", "3d", "4s", "5c"], "raise_limit": 2}, turn=2))
    session._line("r 20")
    await _settle()
    assert conn.sent == []
    assert session.message is not None
    assert "the amount is 10 to 15 chips" in session.message


async def test_table_commands_follow_the_choices_too() -> None:
    model = hcf_model("settled", [{"request": "sit_out", "sitting_out": True},
                                  {"request": "top_up", "amount": {"min": 1, "max": 9000}}, {"request": "stand"}])
    session, conn, _ = await _session(model)
    session._line("back")
    await _settle()
    assert conn.sent == []
    assert session.message is not None
    assert session.message.startswith("back is not possible now")
    session._line("topup 500")
    await _settle()
    assert conn.sent == [("top_up", {"table": TABLE, "amount": 500})]


async def test_leaving_between_hands_sends_the_offered_stand() -> None:
    session, conn, _ = await _session(hcf_model("settled", [{"request": "stand"}]))
    conn.answer = lambda _event, _payload: {"ok": True, "standing": "now", "cashed_out": 1000}
    await session.departure.leave()
    assert [event for event, _ in conn.sent] == ["stand"]
    assert session.done.is_set()


async def test_the_prompt_names_the_servers_moves_even_when_the_client_cannot_word_them() -> None:
    session, _, _ = await _session(hcf_model("settled", [{"request": "move", "action": "shuffle_up"}, LEAVE]))
    assert session.choices_line() == "Now you may: shuffle up, leave"


async def test_an_update_redraws_from_the_model_without_asking_for_a_snapshot() -> None:
    model = hcf_model("betting", [BET, PASS, LEAVE])
    session, conn, _ = await _session(model)
    assert session.choices().kind == "bets"
    model["hand"] = {**model["hand"], "phase": "decisions", "turn": 1}
    model["choices"] = {"seat": 2, "deadline": None, "moves": [LEAVE]}
    session._handle({"kind": "update", "table": TABLE, "seq": 8, "choices": model["choices"], "view": {}})
    assert session.choices().kind is None
    assert conn.sent == []


def test_an_exchange_is_checked_by_its_count_and_positions() -> None:
    # As 6 Card Poker offers it (server/rules/sixcard/choices.py).
    offers = read_offers({"choices": {"moves": [
        {"request": "move", "action": "exchange", "box": 1,
         "discard": {"count": [1, 2, 5], "each": {"min": 1, "max": 5}, "distinct": True}}]}})
    assert check(offers, "move", {"action": "exchange", "box": 1, "discard": [1, 5]}) is None
    assert "the discard takes 1, 2 or 5 entries" in (check(offers, "move", {"action": "exchange", "box": 1,
                                                                            "discard": [1, 2, 3]}) or "")
    assert check(offers, "move", {"action": "exchange", "box": 2, "discard": [1]}) == \
        "exchange box 2 is not possible now. Now you may: exchange (x) box 1"  # a box not offered: what is
    assert "names each entry once" in (check(offers, "move", {"action": "exchange", "box": 1, "discard": [2, 2]}) or "")
    assert "each is 1 to 5" in (check(offers, "move", {"action": "exchange", "box": 1, "discard": [6]}) or "")
