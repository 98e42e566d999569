"""Rendering: snapshots and events -> lines that fit 80 columns, colours only on a terminal."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

from client_cli.event_words import describe_event
from client_cli.render import (
    cards_text,
    countdown,
    group_by_suit,
    header_line,
    result_lines,
    seat_lines,
    your_cards_lines,
)
from client_cli.screen import Screen, screen_group, screen_lines
from server.rules.cards import parse_cards
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.settlement import Wager, settle
from tests.client_cli.samples import HAND_ID, NAMES, play_a_hand, snapshot


def _render(renderable: object, *, colour: bool, width: int = 80) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=colour, color_system="truecolor" if colour else None,
                      no_color=not colour)
    console.print(renderable)
    return out.getvalue()


# ------------------------------------------------------------------ cards


def test_cards_are_grouped_by_suit_biggest_group_first_high_to_low() -> None:
    assert group_by_suit(["2c", "Ah", "Kc", "9h", "3h", "Qd", "10s"]) == [
        ("h", ["A", "9", "3"]), ("c", ["K", "2"]), ("d", ["Q"]), ("s", ["T"])]


def test_cards_show_suit_symbols_and_colours_on_a_terminal() -> None:
    text = cards_text(["Ah", "Kc", "Qd", "Js"])
    assert text.plain == "A♥  K♣  Q♦  J♠"
    spans = {text.plain[s.start:s.end]: str(s.style) for s in text.spans}
    assert "red" in spans["A♥"]
    assert "green" in spans["K♣"]
    assert "blue" in spans["Q♦"]
    assert "\x1b[" in _render(text, colour=True)


def test_plain_cards_are_letters_without_colour_codes() -> None:
    text = cards_text(["Ah", "4h", "3h", "2h", "Kc", "Qd", "Js"], symbols=False)
    assert text.plain == "Ah 4h 3h 2h  Kc  Qd  Js"
    assert "\x1b[" not in _render(text, colour=False)


def test_your_cards_mark_the_flush_the_straight_flush_and_the_raise_limit() -> None:
    payload = {"cards": ["9h", "8h", "7h", "2h", "Ac", "Kd", "3s"], "flush": ["9h", "8h", "7h", "2h"],
               "straight_flush": ["9h", "8h", "7h"], "raise_limit": 1, "qualifies": True}
    cards, facts = your_cards_lines(payload, 10, symbols=False, dealer=False)
    assert cards.plain == "Your cards: 9h 8h 7h 2h  Ac  Kd  3s"
    assert facts.plain == "  FLUSH 4 (9-8-7-2) · STRAIGHT FLUSH 3 (9-8-7) · raise up to 1x = 10"
    underlined = [cards.plain[s.start:s.end] for s in cards.spans if "underline" in str(s.style)]
    assert underlined == ["9h", "8h", "7h"]


def test_the_designated_player_sees_whether_their_hand_qualifies() -> None:
    payload = {"cards": ["9h", "5h", "2h", "Kc", "Qd", "Js", "3s"], "flush": ["9h", "5h", "2h"],
               "straight_flush": [], "raise_limit": 1, "qualifies": True}
    assert your_cards_lines(payload, 0, symbols=False, dealer=True)[1].plain.endswith("you bank; qualifies")


# ------------------------------------------------------------------ the table


def test_seats_show_the_dp_the_turn_you_stacks_and_bets() -> None:
    played = play_a_hand()
    snap = snapshot(played.state, 2, clock={"kind": "decision", "seat": 3, "deadline": 1010.0})
    snap["hand"]["phase"] = "decisions"  # as while seat 3 decides
    snap["seats"][2]["present"] = False
    lines = [line.plain for line in seat_lines(snap)]
    assert lines[0].startswith("  1 DP ann")
    assert "banks" in lines[0]
    assert lines[1].startswith("  2    bob*")
    assert "ante 10 flush 5 · raised" in lines[1]
    assert lines[2].startswith("> 3    cy")
    assert "dropped" in lines[2]
    assert "folded" in lines[2]


def test_sitting_out_and_leaving_are_shown() -> None:
    snap = snapshot(None, None)
    snap["seats"][0]["sitting_out"] = True
    snap["seats"][1]["leaving"] = True
    lines = [line.plain for line in seat_lines(snap)]
    assert "sitting out" in lines[0]
    assert "leaving" in lines[1]


def test_the_header_says_the_phase_whose_turn_and_the_clock() -> None:
    played = play_a_hand()
    snap = snapshot(played.state, 2, clock={"kind": "decision", "seat": 3, "deadline": 1024.2})
    snap["hand"]["phase"] = "decisions"
    assert header_line(snap, 1000.0).plain == f"Table main · hand #{HAND_ID} · decisions · cy to act · 0:25"
    assert header_line(snap, 1000.0, connected=False).plain.endswith("CONNECTION LOST, reconnecting")


def test_the_countdown_never_goes_below_zero() -> None:
    assert countdown(100.0, 130.0) == "0:00"
    assert countdown(190.0, 100.0) == "1:30"
    assert countdown(None, 100.0) == ""


# ------------------------------------------------------------------ results


def test_the_showdown_gives_each_bet_the_fee_and_the_net_per_seat_and_whether_the_dp_qualified() -> None:
    played = play_a_hand()
    lines = [line.plain for line in result_lines(played.reveal, NAMES, my_seat=2)]
    settlement = played.reveal["settlement"]
    bob = next(s for s in settlement["seats"] if s["seat"] == 2)
    assert lines[0].startswith(f"Hand #{HAND_ID} · DP ann: ")
    assert ("qualified" in lines[0]) == settlement["dealer"]["qualifies"]
    assert any(line.startswith("   2 bob") and f"raise {bob['raise']:+d}" in line
               and f"flush {bob['flush_bonus']:+d}" in line and "fee -1" in line and f"net {bob['net']:+d}" in line
               for line in lines)
    assert any(line.startswith("   3 cy") and "folded, ante -10 fee -1 = net -11" in line for line in lines)
    assert lines[-1] == f"  DP ann: net {settlement['dealer']['net']:+d}"
    # The raised hand is shown with its flush described; the folded one never is.
    bob_at = next(i for i, line in enumerate(lines) if line.startswith("   2 bob"))
    shown = cards_text(played.reveal["shown"]["2"], symbols=False).plain
    assert lines[bob_at + 1].strip().startswith(shown)
    assert "-card flush" in lines[bob_at + 1]
    assert not any(cards_text(played.own_cards(3)["cards"], symbols=False).plain in line for line in lines)


def test_a_dp_that_does_not_qualify_is_said_so() -> None:
    played = play_a_hand()
    reveal = {**played.reveal, "dealer_qualifies": False}
    assert "did NOT qualify" in result_lines(reveal, NAMES)[0].plain


def test_dead_and_void_hands() -> None:
    played = play_a_hand()
    settlement = dict(played.reveal["settlement"])
    settlement["seats"] = [{**settlement["seats"][0], "dead": True}]
    lines = result_lines({**played.reveal, "settlement": settlement}, NAMES)
    assert "dead hand: bets and fee returned" in lines[1].plain
    void = result_lines({"hand_id": 3, "status": "void", "reason": "misdeal"}, NAMES)
    assert void[0].plain == "Hand #3 was voided: the host declared a misdeal; every bet and fee went back"


# ------------------------------------------------------------------ events


def test_events_are_told_in_one_line() -> None:
    names = {1: "ann", 2: "bob"}
    said = {
        "player_sat": "bob sits at seat 2 with 1000",
        "bank_offered": "the bank is offered to bob",
        "bank_declined": "bob declines the bank (the clock ran out)",
        "bank_accepted": "bob takes the bank and is the DP",
        "bets_placed": "bob bets ante 10 sf 2",
        "bets_passed": "bob sits this hand out",
        "player_folded": "bob folds (leaving)",
        "player_raised": "bob raises 20",
        "presence": "bob dropped (the clock keeps running)",
        "hand_not_dealt": "no hand: nobody took the bank",
        "hand_started": "-- hand #9 -- ARRANGED DECK: not a random deal",
    }
    events = {
        "player_sat": {"seat": 2, "name": "bob", "stack": 1000},
        "bank_offered": {"seat": 2}, "bank_declined": {"seat": 2, "reason": "clock"},
        "bank_accepted": {"seat": 2},
        "bets_placed": {"seat": 2, "ante": 10, "straight_flush_bonus": 2, "flush_bonus": 0},
        "bets_passed": {"seat": 2, "reason": "passed"}, "player_folded": {"seat": 2, "reason": "left"},
        "player_raised": {"seat": 2, "amount": 20}, "presence": {"seat": 2, "present": False},
        "hand_not_dealt": {"reason": "no_bank"}, "hand_started": {"hand_id": 9, "arranged": True},
    }
    for kind, fields in events.items():
        assert describe_event({"type": kind, **fields}, names) == said[kind], kind
    assert describe_event({"type": "fees_collected", "fees": []}, names) is None


def test_the_dp_reveal_names_the_flush() -> None:
    line = describe_event({"type": "dealer_revealed", "seat": 1, "cards": ["9h", "5h", "2h", "Kc", "Qd", "Js", "3s"],
                           "qualifies": True}, {1: "ann"})
    assert line == "DP ann shows 9h 5h 2h Kc Qd Js 3s: 3-card flush 9-5-2, qualifies"


# ------------------------------------------------------------------ the whole screen


def _busy_screen() -> Screen:
    played = play_a_hand()
    snap = snapshot(played.state, 2, clock={"kind": "decision", "seat": 2, "deadline": 1010.0})
    snap["hand"]["phase"] = "decisions"
    snap["seats"].extend({"seat": s, "name": f"a-very-long-player-name-{s}", "stack": 10_000_000,
                          "sitting_out": True, "present": False, "willing_to_bank": True, "leaving": True,
                          "button": False} for s in (4, 5, 6, 7))
    return Screen(snapshot=snap, server_now=1000.0, log=[f"line {i} " + "x" * 100 for i in range(50)],
                  results=result_lines(played.reveal, NAMES, 2),
                  verdict=["hand #41: deal verified (2 hands checked against the revealed seed)"], verdict_ok=True,
                  choices="Your turn: fold (f) or raise 10 chips (r 10, r max)", message="a message " * 20,
                  prompt="r ma")


def test_the_screen_fits_80_columns_and_the_terminal_height() -> None:
    lines = screen_lines(_busy_screen(), width=80, height=24)
    assert len(lines) <= 24
    assert all(len(line.plain) <= 80 for line in lines)
    assert lines[-1].plain == "> r ma"
    assert any("deal verified" in line.plain for line in lines)
    rendered = _render(screen_group(_busy_screen(), 80, 24), colour=False).splitlines()
    assert len(rendered) <= 24
    assert all(len(line) <= 80 for line in rendered)


def test_the_log_gives_way_first_on_a_small_terminal() -> None:
    lines = [line.plain for line in screen_lines(_busy_screen(), width=80, height=30)]
    assert "line 49" in " ".join(lines)
    assert "line 10 " not in " ".join(lines)


def test_plain_output_has_no_colour_codes_and_a_terminal_gets_them() -> None:
    group = screen_group(_busy_screen(), 80, 24)
    assert "\x1b[" not in _render(group, colour=False)
    assert "\x1b[" in _render(group, colour=True)
    assert all(isinstance(line, Text) for line in screen_lines(_busy_screen()))


def test_a_hand_is_named_by_its_tables_number_not_the_server_id() -> None:
    snap = {"table": "high", "status": "playing", "seats": [],
            "hand": {"hand_id": 41, "number": 3, "phase": "decisions"}}
    assert "hand #3 ·" in header_line(snap, 0.0).plain
    assert describe_event({"type": "hand_started", "hand_id": 41, "number": 3}, {}) == "-- hand #3 --"
    void = result_lines({"hand_id": 41, "number": 3, "status": "void", "reason": "misdeal"}, {})
    assert void[0].plain.startswith("Hand #3 was voided")
    assert result_lines({"hand_id": 42, "number": None, "status": "not_dealt", "reason": "no_bank"}, {})[0].plain \
        == "No hand dealt: nobody took the bank", "an attempt nobody banked has no number"
    early = result_lines({"hand_id": 43, "number": None, "status": "void", "reason": "misdeal"}, {})
    assert early[0].plain.startswith("The hand was voided"), "voided before the deal: no number, and no id"


# ------------------------------------------------------------------ why a seat is dead


def _worked_example() -> dict[str, object]:
    """docs/rules/hcf.md's worked example: the DP's 30 chips run out at seat 3, whose bets would win 30."""
    hands = {2: "Js 7s 3h 8h 6c 4c 2d", 3: "Ah Kh Qh 2h 7c 8d 3d", 4: "Ts 9s 8s 6s 5s 4s As",
             5: "Jc Tc 8c 9d 7d 6h 4h"}
    bets = {2: (10, 5, 0), 3: (10, 5, 10), 4: (10, 0, 30), 5: (10, 0, 10)}
    wagers = [Wager(seat, parse_cards(hands[seat]), ante, flush_bonus=fl, raise_amount=raised)
              for seat, (ante, fl, raised) in bets.items()]
    dealer = "Kd Qd Jd 9c 5c 2c 3s"
    settled = settle(HcfSettings(), parse_cards(dealer), wagers, button=1, dealer_stack=30, dead_seats={5: "floor"})
    shown = {str(seat): hands[seat].split() for seat in (3, 4)}  # the floor's kill is not shown; seat 3 is
    return {"hand_id": 9, "dealer": 1, "dealer_cards": dealer.split(), "dealer_qualifies": True,
            "settlement": settled.as_json(), "shown": shown}


def test_a_dead_seat_says_why_with_the_dps_bank_and_the_sum_owed_and_shows_its_cards() -> None:
    names = {1: "ann", 2: "bob", 3: "carol", 4: "dave", 5: "eve"}
    lines = [line.plain for line in result_lines(_worked_example(), names)]
    carol = next(i for i, line in enumerate(lines) if line.startswith("   3 carol"))
    # seat 5 dead by the floor does not grow the bank: 30 + 15 (seat 2's fold) - 40 (seat 4) = 5 left for 30 owed
    assert lines[carol].endswith("dead (the DP's 5 chips could not cover the 30 owed): bets and fee returned")
    carols_cards = cards_text(["Ah", "Kh", "Qh", "2h", "7c", "8d", "3d"], symbols=False).plain
    assert lines[carol + 1].strip().startswith(carols_cards)
    assert "4-card flush" in lines[carol + 1]
    eve = next(line for line in lines if line.startswith("   5 eve"))
    assert eve.endswith("dead (declared by the floor): bets and fee returned")
    assert not any("Jc Tc 8c" in line for line in lines), "a hand the floor killed is not shown"


def test_an_old_record_of_a_dead_seat_reads_as_it_always_did() -> None:
    reveal = _worked_example()
    settlement = dict(reveal["settlement"])  # type: ignore[call-overload]
    settlement["seats"] = [{k: v for k, v in s.items() if k not in ("dead_reason", "bank", "owed")}
                           for s in settlement["seats"]]
    lines = [line.plain for line in result_lines({**reveal, "settlement": settlement}, NAMES)]
    assert sum("dead hand: bets and fee returned" in line for line in lines) == 2
