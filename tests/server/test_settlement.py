"""Settlement at the real server: the DP's funds cap, fee modes, bonus pay tables.

docs/rules/hcf.md sections 3.3 and 3.7.
"""

from __future__ import annotations

import pytest

from server.rules.cards import parse_cards
from server.rules.hcf.evaluate import evaluate

from .conftest import Server
from .helpers import (
    Policy,
    arranged,
    events_of,
    expected_stacks,
    hand_events,
    one,
    raise_min,
    run_hands,
    seat_result,
    stacks_of,
)

DP_NOT_QUALIFYING = "2c 4d 6s 8c Td Qs 3c"  # best flush 8-3-2: a 3-card flush under 9 does not qualify
STRAIGHT_FLUSH_7 = "Ah Kh Qh Jh Th 9h 8h"
ORDINARY = "5d 7s 9d Jc 2h 3s 4s"


async def test_a_dp_who_cannot_cover_a_seat_makes_it_dead_and_its_bets_and_fee_go_back(server: Server) -> None:
    host, (alice, _bob, _carol) = await server.table(
        Policy(), Policy(bank=False, ante=5, straight_flush_bonus=10, flush_bonus=10),
        Policy(bank=False, ante=5, decide=raise_min))
    # alice banks with a small stack: the minimum bank is lowered to let her
    reply = await host.host("change_settings", settings={"min_bank": 100})
    assert reply["applied"] == "now"
    assert reply["settings"]["min_bank"] == 100
    await alice.call("stand", {"table": "main"})
    await alice.sit(seat=1, buy_in=100)
    deck = arranged({1: DP_NOT_QUALIFYING, 2: STRAIGHT_FLUSH_7, 3: ORDINARY}, order=[2, 3, 1])
    mark = host.mark()
    assert (await host.host("arrange_deck", cards=deck))["arranged_cards"] == 21
    # The answer comes first; the event follows it (docs/protocol.md section 3).
    _, arranged_event = await host.event("deck_arranged", since=mark)
    assert arranged_event["cards"] == 21
    assert len(events_of(host.table_events(mark), "deck_arranged")) == 1
    assert (await host.snapshot())["arranged_next"] is True
    before = stacks_of(await host.snapshot())
    assert before == {1: 100, 2: 1000, 3: 1000}

    (revealed,) = await run_hands(host, 1)
    events = hand_events(host, revealed["hand_id"])
    assert one(events, "hand_started")["arranged"] is True
    assert revealed["arranged"] is True
    assert revealed["dealer"] == 1
    assert revealed["dealer_cards"] == DP_NOT_QUALIFYING.split()
    assert revealed["dealer_qualifies"] is False
    # the straight flush would win 10 * 1000 + the Flush bonus: far more than alice's 100 chips
    # (it says why, with alice's 95 chips left after carol; tests/server/test_dead_reasons.py checks the owed sum)
    bob = seat_result(revealed, 2)
    assert {k: v for k, v in bob.items() if k != "owed"} == {
        "seat": 2, "dead": True, "folded": False, "ante": 0, "raise": 0, "straight_flush_bonus": 0, "flush_bonus": 0,
        "fee": 0, "net": 0, "dead_reason": "funds", "bank": 95}
    # carol settles first (counter-clockwise from the right of the button): Ante wins, Raise pushes
    assert revealed["settlement"]["order"] == [3, 2]
    assert seat_result(revealed, 3) == {"seat": 3, "dead": False, "folded": False, "ante": 5, "raise": 0,
                                        "straight_flush_bonus": 0, "flush_bonus": 0, "fee": -1, "net": 4}
    assert revealed["settlement"]["dealer"]["net"] == -5
    assert revealed["settlement"]["house"] == 1
    assert revealed["bets"]["2"] == {"ante": 5, "straight_flush_bonus": 10, "flush_bonus": 10, "raise": 15}
    after = stacks_of(await host.snapshot())
    assert after == {1: 95, 2: 1000, 3: 1004}, "the dead seat's bets and fee all came back"
    assert after == expected_stacks(before, [revealed])
    assert (await host.snapshot())["arranged_next"] is False
    assert revealed["arranged_deck"] == deck.split()


FLUSH_PAYS = "7: 300, 6: 100, 5: 20, 4: 3"
STRAIGHT_FLUSH_PAYS = "7: 2000, 6: 600, 5: 150, 4: 40, 3: 9"
DP_QUALIFYING = "Kc 9c 5c 2d 7h 3s Js"  # K-9-5 of clubs: a 3-card flush topped by a 9 or better
FIVE_FLUSH_FOUR_RUN = "9s 8s 7s 6s 2s Ad 3c"
FOUR_FLUSH_NO_RUN = "Ah Qh 8h 4h Kd 6d Tc"


@pytest.mark.parametrize("cap", [None, 50])
async def test_bonus_bets_pay_by_the_tables_posted_settings(server: Server, cap: int | None) -> None:
    host, _ = await server.table(Policy(), Policy(bank=False, straight_flush_bonus=5, flush_bonus=5),
                                 Policy(bank=False, straight_flush_bonus=5, flush_bonus=5))
    settings = {"flush_pays": FLUSH_PAYS, "straight_flush_pays": STRAIGHT_FLUSH_PAYS, "max_bonus_win": cap}
    applied = (await host.host("change_settings", settings=settings))["settings"]
    assert applied["flush_pays"] == {"7": 300, "6": 100, "5": 20, "4": 3}
    assert applied["straight_flush_pays"] == {"7": 2000, "6": 600, "5": 150, "4": 40, "3": 9}
    hands = {1: DP_QUALIFYING, 2: FIVE_FLUSH_FOUR_RUN, 3: FOUR_FLUSH_NO_RUN}
    await host.host("arrange_deck", cards=arranged(hands, order=[2, 3, 1]))
    before = stacks_of(await host.snapshot())
    (revealed,) = await run_hands(host, 1)
    assert revealed["dealer"] == 1
    assert revealed["dealer_qualifies"] is True
    two, three = evaluate(parse_cards(hands[2])), evaluate(parse_cards(hands[3]))
    assert (two.flush_size, two.straight_flush_length, two.raise_limit) == (5, 4, 2)
    assert (three.flush_size, three.straight_flush_length, three.raise_limit) == (4, 0, 1)

    def capped(win: int) -> int:
        return win if cap is None else min(win, cap)

    # seat 2: 5-card flush beats the DP's 3-card flush; its run of 4 beats no run
    assert seat_result(revealed, 2) == {
        "seat": 2, "dead": False, "folded": False, "ante": 10, "raise": 20,
        "straight_flush_bonus": capped(5 * 40), "flush_bonus": capped(5 * 20), "fee": -1,
        "net": 10 + 20 + capped(200) + capped(100) - 1}
    # seat 3: a 4-card flush wins 3 to 1; without a run of 3 its Straight Flush bonus loses
    assert seat_result(revealed, 3) == {
        "seat": 3, "dead": False, "folded": False, "ante": 10, "raise": 10,
        "straight_flush_bonus": -5, "flush_bonus": capped(15), "fee": -1, "net": 10 + 10 - 5 + capped(15) - 1}
    assert stacks_of(await host.snapshot()) == expected_stacks(before, [revealed])


@pytest.mark.parametrize("table_overrides", [{"fee": 2}])
async def test_fee_modes_take_the_fee_from_the_right_payers(server: Server) -> None:
    host, _ = await server.table(Policy(), Policy(decide=raise_min), Policy(decide=raise_min))
    before = stacks_of(await host.snapshot())
    played = []
    for mode in ("all", "players", "designated", "none"):
        reply = await host.host("change_settings", settings={"fee_mode": mode})
        assert reply["applied"] == "now"
        assert reply["settings"]["fee_mode"] == mode
        (revealed,) = await run_hands(host, 1)
        played.append(revealed)
        dealer = revealed["dealer"]
        players = sorted({1, 2, 3} - {dealer})
        payers = {"all": [1, 2, 3], "players": players, "designated": [dealer], "none": []}[mode]
        events = hand_events(host, revealed["hand_id"])
        assert one(events, "fees_collected")["fees"] == [[seat, 2] for seat in payers]
        settlement = revealed["settlement"]
        assert settlement["dealer"]["fee"] == (-2 if dealer in payers else 0)
        assert {r["seat"]: r["fee"] for r in settlement["seats"]} == {s: -2 if s in payers else 0 for s in players}
        assert settlement["house"] == 2 * len(payers)
        snapshot = await host.snapshot()
        assert stacks_of(snapshot) == expected_stacks(before, played)
        assert not events_of(events, "hand_voided")
    assert [h["dealer"] for h in played] == [1, 2, 3, 1]
    total = sum(h["settlement"]["house"] for h in played)
    assert total == 2 * (3 + 2 + 1 + 0)
    assert sum(stacks_of(await host.snapshot()).values()) == 3000 - total
