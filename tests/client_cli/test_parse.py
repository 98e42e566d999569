"""Input parsing: only legal choices, with their limits; invalid input is explained, never sent."""

from __future__ import annotations

from typing import Any

import pytest

from client_cli.offers import check, read_offers
from client_cli.parse import (
    AnswerBank,
    Choices,
    Fold,
    Help,
    InputError,
    Leave,
    PassBets,
    PlaceBets,
    Raise,
    SitOut,
    TopUp,
    WillingToBank,
    choices_text,
    legal_choices,
    parse_line,
    player_fee,
)
from server.rules.choices import move
from tests.client_cli.hcf_offers import betting, decision_choices, server_choices

SETTINGS = {"min_ante": 5, "max_ante": 500, "min_bonus": 1, "max_bonus": 100, "fee_mode": "players", "fee": 1}


def snap(hand: dict[str, Any] | None, *, seat: int | None = 2, stack: int = 1000) -> dict[str, Any]:
    """A snapshot with the server's choices for ``hand`` (what is asked is theirs to say, never the view's)."""
    return {"settings": SETTINGS, "you": {"seat": seat},
            "seats": [{"seat": 2, "stack": stack}, {"seat": 1, "stack": 5000}], "hand": hand,
            "choices": offered(hand or {}, seat, stack)}


def offered(hand: dict[str, Any], seat: int | None, stack: int) -> dict[str, Any]:
    """The server's choices for ``seat`` in these sample hands: the bank's answer to the seat offered it, the
    rules' own bets to seat 2 while it is a bettor yet to answer, a raise to the flush's limit (as far as the
    stack goes) or a fold to the seat in turn; nothing otherwise."""
    mine = (hand.get("seats") or {}).get(str(seat)) or {}
    phase = hand.get("phase")
    if phase == "offer" and seat is not None and hand.get("offered") == seat:
        return {"seat": seat, "deadline": None, "moves": [move("bank", accept=[True, False])]}
    if phase == "betting" and seat == 2 and seat in hand.get("bettors", []) and not mine.get("in_hand") \
            and not mine.get("passed"):
        return server_choices(betting(stack))
    if phase == "decisions" and seat is not None and hand.get("turn") == seat:
        ante = int(mine["ante"])
        return decision_choices(ante, min(int(hand["your_cards"]["raise_limit"]) * ante, stack))
    return {"seat": seat, "deadline": None, "moves": []}


BANK = Choices(kind="bank", seated=True, between_hands=False, stack=1000)
BETS = legal_choices(snap({"phase": "betting", "bettors": [2], "seats": {"2": {"in_hand": False}}}))
TURN = Choices(kind="decision", seated=True, between_hands=False, stack=500, ante=10, raise_limit=2, max_raise=20,
               offers=read_offers({"choices": decision_choices(10, 20)}))
IDLE = Choices(seated=True, between_hands=True, stack=1000)


# ------------------------------------------------------------------ what is legal when


def test_the_bank_offer_is_a_choice_only_for_the_seat_offered() -> None:
    assert legal_choices(snap({"phase": "offer", "offered": 2})).kind == "bank"
    assert legal_choices(snap({"phase": "offer", "offered": 1})).kind is None


def test_bets_are_a_choice_for_a_bettor_who_has_not_answered() -> None:
    assert BETS.kind == "bets"
    assert (BETS.min_ante, BETS.max_ante, BETS.min_bonus, BETS.max_bonus, BETS.fee) == (5, 499, 1, 100, 1)
    answered = {"phase": "betting", "bettors": [2], "seats": {"2": {"in_hand": True}}}
    assert legal_choices(snap(answered)).kind is None
    passed = {"phase": "betting", "bettors": [2], "seats": {"2": {"passed": True}}}
    assert legal_choices(snap(passed)).kind is None


def test_the_designated_player_is_not_a_bettor() -> None:
    assert legal_choices(snap({"phase": "betting", "bettors": [1], "dealer": 2, "seats": {}})).kind is None


def test_the_ante_limit_keeps_room_for_the_smallest_raise_and_the_fee() -> None:
    choices = legal_choices(snap({"phase": "betting", "bettors": [2], "seats": {}}, stack=101))
    assert choices.max_ante == 50  # 50 + 50 + 1 = 101


def test_the_decision_offers_a_raise_up_to_the_flush_limit_and_the_stack() -> None:
    hand = {"phase": "decisions", "turn": 2, "seats": {"2": {"ante": 10}}, "your_cards": {"raise_limit": 3}}
    choices = legal_choices(snap(hand))
    assert (choices.kind, choices.ante, choices.raise_limit, choices.max_raise) == ("decision", 10, 3, 30)
    assert legal_choices(snap(hand, stack=25)).max_raise == 25
    assert legal_choices(snap({**hand, "turn": 1})).kind is None


def test_a_spectator_has_no_choices() -> None:
    choices = legal_choices(snap({"phase": "offer", "offered": 2}, seat=None))
    assert choices.kind is None
    assert not choices.seated


def test_the_fee_of_a_player_follows_the_fee_mode() -> None:
    assert [player_fee({"fee_mode": mode, "fee": 3}) for mode in ("all", "players", "designated", "none")] \
        == [3, 3, 0, 0]


def test_the_choices_line_says_exactly_what_may_be_typed() -> None:
    assert choices_text(BANK) == "The bank is offered to you: accept (y) or decline (n)"
    assert choices_text(BETS) == ("Bets are open: bet ANTE [SF FLUSH] with an Ante of 5 to 499, "
                                  "bonuses 1 to 100 or 0; or pass (p)")
    assert choices_text(TURN) == "Your turn: fold (f) or raise 10 to 20 chips (r N, r max, r min)"
    assert choices_text(IDLE) is None


# ------------------------------------------------------------------ the bank


@pytest.mark.parametrize(("line", "accept"), [("y", True), ("YES", True), ("accept", True),
                                              ("n", False), ("decline", False)])
def test_answering_the_bank(line: str, accept: bool) -> None:
    assert parse_line(line, BANK) == AnswerBank(accept)


def test_answering_a_bank_that_is_not_offered_is_explained() -> None:
    assert parse_line("y", IDLE) == InputError("the bank is not being offered to you now")


# ------------------------------------------------------------------ bets


@pytest.mark.parametrize(("line", "bets"), [
    ("bet 10", PlaceBets(ante=10)),
    ("10", PlaceBets(ante=10)),
    ("b 10 5 5", PlaceBets(ante=10, straight_flush_bonus=5, flush_bonus=5)),
    ("bet 10 flush 5", PlaceBets(ante=10, straight_flush_bonus=0, flush_bonus=5)),
    ("bet 10 sf=3 fl=4", PlaceBets(ante=10, straight_flush_bonus=3, flush_bonus=4)),
    ("ante 499", PlaceBets(ante=499)),
])
def test_bets_within_the_limits(line: str, bets: PlaceBets) -> None:
    assert parse_line(line, BETS) == bets


@pytest.mark.parametrize(("line", "says"), [
    ("bet 1", "the Ante is 5 to 499 chips here"),
    ("bet 500", "the Ante is 5 to 499 chips here"),
    ("bet 10 101", "the Straight Flush bonus is 1 to 100 chips, or 0"),
    ("bet 10 0 200", "the Flush bonus is 1 to 100 chips, or 0"),
    ("bet 495 10", "cannot cover the Ante, the bonuses, the smallest raise and the fee (1001 chips)"),
    ("bet ten", "say 'bet ANTE [SF FLUSH]'"),
    ("bet", "say 'bet ANTE [SF FLUSH]'"),
    ("bet 10 5 5 5", "say 'bet ANTE [SF FLUSH]'"),
])
def test_bets_outside_the_limits_are_explained(line: str, says: str) -> None:
    result = parse_line(line, BETS)
    assert isinstance(result, InputError)
    assert says in result.message


def test_passing_and_betting_only_while_bets_are_open() -> None:
    assert parse_line("p", BETS) == PassBets()
    assert parse_line("bet 10", TURN) == InputError("you cannot bet now")
    assert parse_line("pass", TURN) == InputError("there is nothing to pass now")


def test_a_stack_too_small_for_any_ante_can_only_pass() -> None:
    poor = legal_choices(snap({"phase": "betting", "bettors": [2], "seats": {}}, stack=9))
    assert "pass (p)" in str(choices_text(poor))
    assert isinstance(parse_line("bet 5", poor), InputError)
    assert parse_line("pass", poor) == PassBets()


# ------------------------------------------------------------------ the decision


@pytest.mark.parametrize(("line", "command"), [
    ("f", Fold()), ("fold", Fold()), ("r 15", Raise(15)), ("raise max", Raise(20)), ("r min", Raise(10)),
    ("r 2x", Raise(20)), ("R 1X", Raise(10)),
])
def test_fold_or_raise_within_the_limit(line: str, command: object) -> None:
    assert parse_line(line, TURN) == command


@pytest.mark.parametrize(("line", "says"), [
    ("r 5", "a raise is at least the Ante (10)"),
    ("r 21", "your flush allows a raise of up to 2x the Ante (20)"),
    ("r 3x", "your flush allows a raise of up to 2x the Ante (20)"),
    ("r", "say 'r N', 'r max' or 'r min': a raise is 10 to 20 chips here"),
    ("r lots", "say 'r N'"),
])
def test_raises_outside_the_limit_are_explained(line: str, says: str) -> None:
    result = parse_line(line, TURN)
    assert isinstance(result, InputError)
    assert says in result.message


def test_the_stack_caps_the_raise() -> None:
    short = Choices(kind="decision", seated=True, between_hands=False, stack=15, ante=10, raise_limit=3,
                    max_raise=15, offers=read_offers({"choices": decision_choices(10, 15)}))
    assert parse_line("r max", short) == Raise(15)
    result = parse_line("r 20", short)
    assert isinstance(result, InputError)
    assert "only 15 chips" in result.message


def test_folding_out_of_turn_is_explained() -> None:
    assert parse_line("f", BETS) == InputError("it is not your turn to fold or raise")


# ------------------------------------------------------------------ at any time


def test_help_and_leave_are_always_understood() -> None:
    for choices in (BANK, BETS, TURN, IDLE, Choices()):
        assert parse_line("help", choices) == Help()
        assert parse_line("?", choices) == Help()
        assert parse_line("leave", choices) == Leave()
        assert parse_line("quit", choices) == Leave()


def test_table_switches() -> None:
    assert parse_line("sitout", IDLE) == SitOut(True)
    assert parse_line("back", IDLE) == SitOut(False)
    assert parse_line("bank off", IDLE) == WillingToBank(False)
    assert parse_line("bank on", IDLE) == WillingToBank(True)
    assert parse_line("bank", IDLE) == InputError(
        "say 'bank on' or 'bank off' (whether the bank may be offered to you)")
    # Not seated: the parse reads the line, the server's choices (no sit_out among them) say why it is not sent.
    assert check(read_offers({"choices": {"moves": [{"request": "sit", "seats": [1]}]}}), "sit_out",
                 {"sitting_out": True}) == "sitout is not possible now. Now you may: sit"


def test_topping_up_only_between_hands() -> None:
    assert parse_line("topup 500", IDLE) == TopUp(500)
    assert parse_line("topup 500", TURN) == TopUp(500)  # read; the server's choices judge it (not offered now)
    assert check(read_offers({"choices": decision_choices(10, 20)}), "top_up", {"amount": 500}) == \
        "topup is not possible now. Now you may: raise 10 to 20, fold"
    assert parse_line("topup lots", IDLE) == InputError("say 'topup N' with a number of chips")


def test_unknown_and_empty_lines_are_explained() -> None:
    assert parse_line("dance", IDLE) == InputError("unknown command 'dance': type 'help' for the commands")
    assert parse_line("   ", TURN) == InputError(str(choices_text(TURN)))
    assert parse_line("", IDLE) == InputError("type 'help' for the commands")


@pytest.mark.parametrize(("line", "meant"), [("bett 10", "bet"), ("fodl", "fold"), ("rasie 20", "raise"),
                                              ("levae", "leave"), ("sitotu", "sitout")])
def test_a_typo_is_answered_with_the_command_it_most_likely_was(line: str, meant: str) -> None:
    """Found by hand: 'bett 10' at the Ante's clock was only 'unknown command'; the player had to read the help."""
    word = line.split()[0]
    assert parse_line(line, BETS) == InputError(
        f"unknown command '{word}': did you mean '{meant}'? (type 'help' for the commands)")


@pytest.mark.usefixtures("german")
def test_a_typo_is_answered_in_the_players_language() -> None:
    assert parse_line("bett 10", BETS) == InputError(
        "unbekannter Befehl 'bett': meinten Sie 'bet'? (tippen Sie 'help' für die Befehle)")


def test_a_raise_of_one_amount_is_named_as_one() -> None:
    flat = Choices(kind="decision", seated=True, between_hands=False, stack=500, ante=10, raise_limit=1,
                   max_raise=10, offers=read_offers({"choices": decision_choices(10, 10)}))
    assert parse_line("r 500", flat) == InputError(
        "your flush allows a raise of up to 1x the Ante (10): a raise is 10 chips here")
    assert parse_line("r lots", flat) == InputError("say 'r N', 'r max' or 'r min': a raise is 10 chips here")
