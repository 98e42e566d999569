"""The dealer's drill steps under the house rules for the bank (issue 26, item 7; docs/rules/hcf.md section 9):
the offer follows bank_keep and the third-party banker, the game that ends is said, the fees follow a posted
schedule, and every wrong answer cites section 9's subsection."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.drill.play import dry_run, key_of
from server.drill.scenario import load, parse, shipped
from server.drill.views import moments
from server.rules.drill.explain import feedback
from server.rules.drill.report import Asked
from server.rules.drill.scenario import ScenarioError
from server.rules.drill.sections import TITLES, cite, sections
from server.rules.hcf.messages import BankAccepted, HandSettled

ROOT = Path(__file__).resolve().parents[2]
NEW = ("keep-or-pass", "bank-keep-limit", "third-party-banker", "game-ends", "fees-schedule")
CARDS = ("Ac Tc 8c 6c 4d 3d 2s", "7c 6d 3c 2c Th 8d 4h", "Ad Kd 9d 7d 5d 2d 3h")
DP_CARDS = "9h 5h 2h Kc Qd Js 3s"


def _steps(name: str, kind: str) -> list[Asked]:
    return [a for a in key_of(dry_run(load(name))) if a.step.step == kind]


def _offers(name: str, hand: int) -> list[Any]:
    return [a.step.answer["seat"] for a in _steps(name, "offer_bank") if a.hand == hand]


def test_the_library_has_a_scenario_for_each_house_rule_of_the_bank() -> None:
    assert set(NEW) <= set(shipped())
    assert load("keep-or-pass").settings.bank_keep == 2
    assert load("game-ends").settings.nobody_banks == "end"
    assert load("fees-schedule").settings.fee_schedule is not None


def test_the_dp_is_asked_first_to_keep_the_bank_and_a_pass_sends_the_offer_on() -> None:
    assert _offers("keep-or-pass", 2) == [1, 2]  # seat 1 asked first, passes; seat 2 takes it
    assert _offers("keep-or-pass", 3) == [2]  # seat 2 asked first, keeps it
    keep = next(a.step for a in _steps("keep-or-pass", "offer_bank") if a.hand == 2)
    assert keep.rule == "RULES 3.1, 9.1"
    assert "asked first whether to keep the bank" in keep.why


def test_the_dp_past_bank_keep_is_not_offered_the_bank_the_offer_goes_on() -> None:
    assert [_offers("bank-keep-limit", n) for n in (1, 2, 3)] == [[1], [1], [2]]
    barred = next(a.step for a in _steps("bank-keep-limit", "offer_bank") if a.hand == 3)
    assert barred.rule == "RULES 3.1, 9.1"
    assert "seat 1 has banked 2 hands in a row" in barred.why


def test_the_third_party_banker_is_offered_the_bank_only_after_every_player_refused() -> None:
    # tess sits at seat 2, between the players: the key never offers her the bank in the players' turn
    assert _offers("third-party-banker", 1) == [1, 3, 4, 2]
    assert _offers("third-party-banker", 2) == [3]
    last = [a.step for a in _steps("third-party-banker", "offer_bank") if a.hand == 1][-1]
    assert last.rule == "RULES 3.1, 9.3"
    assert "third-party banker (seat 2) is offered it last" in last.why


def test_the_game_that_ends_is_the_offer_steps_ruling() -> None:
    assert _offers("game-ends", 2) == [2, 3, 4, 1, None]
    ends = [a.step for a in _steps("game-ends", "offer_bank") if a.hand == 2][-1]
    assert ends.rule == "RULES 3.1, 9.2"
    assert "the game ends" in ends.why


def test_no_hand_can_follow_the_game_that_ended() -> None:
    data = json.loads((ROOT / "server/drill/scenarios/game-ends.json").read_text(encoding="utf-8"))
    data["hands"].append({"deck": {"dp": DP_CARDS}})
    with pytest.raises(ScenarioError, match="hand 3: the game ended at the hand before"):
        dry_run(parse(data))


def test_the_fees_key_charges_the_posted_schedules_tiers() -> None:
    # tiers: up to 20 pays 1 (DP 2), up to 100 pays 2 (DP 4), up to 500 pays 3 (DP 6); fee_mode all
    fees = _steps("fees-schedule", "fees")
    assert [a.step.answer for a in fees] == [{"fees": {"1": 6, "2": 1, "3": 2, "4": 3}},  # Antes 10, 50, 150
                                             {"fees": {"1": 1, "2": 2, "3": 1, "4": 1}}]  # Antes 10, 20, 15
    assert {a.step.rule for a in fees} == {"RULES 3.3, 9.5"}
    assert "seat 3's Ante of 50 is in the tier up to 100, which charges a player 2" in fees[0].step.why
    assert "the DP (seat 1) pays the tier of the largest Ante, 150: 6" in fees[0].step.why


def test_a_table_without_house_rules_keeps_its_plain_offer_and_fee_steps() -> None:
    for name in ("decline-passes-on", "nobody-banks", "fees-all"):
        for asked in key_of(dry_run(load(name))):
            if asked.step.step in ("offer_bank", "fees"):
                assert asked.step.rule in ("RULES 3.1", "RULES 3.3")


def _section_title(number: str) -> str:
    text = (ROOT / "docs" / "rules" / "hcf.md").read_text(encoding="utf-8")
    found = re.search(rf"^\*\*{re.escape(number)}\b(.*?)(\*\*|$)", text, re.MULTILINE)
    assert found is not None, f"docs/rules/hcf.md has no section {number}"
    return found.group(1).strip(" .*")


@pytest.mark.parametrize("name", NEW)
def test_every_wrong_answer_is_explained_citing_section_9s_subsection(name: str) -> None:
    cited = set()
    for asked in key_of(dry_run(load(name))):
        step = asked.step
        for file, number in sections(step.rule):
            assert (file, number) in TITLES, step.rule
            if number.startswith("9."):
                assert _section_title(number).startswith(TITLES[(file, number)])
                cited.add(number)
        if step.rule.startswith("RULES 3.1, 9.") or step.rule.startswith("RULES 3.3, 9."):
            said = feedback(step, {"seat": 99} if step.step == "offer_bank" else {"fees": {}})
            assert "The right answer" in said
            assert cite(step.rule) in said
            assert step.why in said
    assert cited, f"{name} cites no subsection of section 9"


def _hand(dp: int | None, bank: dict[int, bool]) -> dict[str, Any]:
    """A hand whose every seat but the DP puts up an Ante of 10 and raises 10."""
    hand: dict[str, Any] = {"deck": {"dp": DP_CARDS}, "bank": {str(s): v for s, v in bank.items()}}
    if dp is not None:
        players = [s for s in (1, 2, 3, 4) if s != dp]
        hand["deck"] |= {str(s): CARDS[i] for i, s in enumerate(players)}
        hand["bets"] = {str(s): {"ante": 10} for s in players}
        hand["decide"] = {str(s): 10 for s in players}
    return hand


def _scenario(keep: int, hands: list[dict[str, Any]]) -> dict[str, Any]:
    return {"name": "keep-property", "game": "hcf", "table": {"fee_mode": "players", "fee": 1, "bank_keep": keep},
            "button": None, "seats": [{"seat": s, "name": n, "stack": 2000}
                                      for s, n in zip((1, 2, 3, 4), ("ann", "bob", "cy", "di"), strict=True)],
            "hands": hands}


def _dealer(played: Any) -> int | None:
    accepted = [e.seat for e in played.events if isinstance(e, BankAccepted)]
    return accepted[-1] if accepted else None


@settings(max_examples=25, deadline=None)
@given(keep=st.integers(2, 4),
       answers=st.lists(st.fixed_dictionaries({s: st.booleans() for s in (1, 2, 3, 4)}), min_size=1, max_size=5))
def test_the_offer_key_keeps_bank_keep_whatever_the_players_answer(keep: int, answers: list[dict[int, bool]]) -> None:
    """Over random refusals: nobody banks more than bank_keep settled hands in a row; the DP who may keep the bank
    is asked first, the DP past bank_keep is never offered it; every offer cites section 9 (the hand's events are
    the rules core's, the key's offers are read off them)."""
    hands: list[dict[str, Any]] = []
    for bank in answers:  # each hand scripted once its DP is known (bets for every other seat)
        probe = dry_run(parse(_scenario(keep, [*hands, _hand(None, bank)])))
        hands.append(_hand(_dealer(probe[-1]), bank))
    played = dry_run(parse(_scenario(keep, hands)))
    last, run = None, 0
    for hand in played:
        offers = [a.step for a in key_of([hand]) if a.step.step == "offer_bank"]
        seats = [s.answer["seat"] for s in offers]
        assert all(s.rule.startswith("RULES 3.1, 9.") and s.why for s in offers)
        if last is not None and run >= keep:
            assert last not in seats
        elif last is not None:
            assert seats[0] == last
        dealer = _dealer(hand)
        if dealer is not None and any(isinstance(e, HandSettled) for e in hand.events):
            run = run + 1 if dealer == last else 1
            last = dealer
            assert run <= keep


def test_the_dealer_sees_the_house_rules_and_the_posted_fees_on_the_table_line() -> None:
    keep = moments(load("bank-keep-limit"), dry_run(load("bank-keep-limit")))[0].view.table
    assert keep.endswith("min bank 500; a player may bank up to 2 hands in a row, then the bank moves on")
    fees = moments(load("fees-schedule"), dry_run(load("fees-schedule")))[0].view.table
    assert "posted fees: Ante 1 to 20: each player pays 1, the DP pays 2; Ante 21 to 100:" in fees
    assert "fee 1" not in fees  # the schedule replaces the flat fee
    plain = moments(load("fees-all"), dry_run(load("fees-all")))[0].view.table
    assert plain == "High Card Flush, California: fee mode all, fee 2; min bank 500"
