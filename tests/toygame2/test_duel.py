"""Dealer Duel at a real server: a second toy game plugs in through the registry alone.

The pure rules first (the showdown, the surrender, chips that sum to zero), then two
players and a spectator over Socket.IO: each answers from the choices the server
offers, the game's own deal event numbers the hand and opens its own clock, and the
spectator never receives a card before the showdown shows it (a surrendered card, never).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Final, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.clock import ManualClock
from server.rules.cards import parse_cards, rank_of
from server.rules.events import Event
from server.rules.game import AccountId, GameRules, Player
from server.rules.places import HOUSE_BANK, felt_place, stack_place
from tests.server.conftest import Server
from tests.server.helpers import Client, replay_table
from tests.web.helpers import frame_cards

from .duel import DEALER_DUEL, Command, DuelDealt, DuelHand, DuelSettings, Hold, Surrender, Wager, duel_result

# mypy checks the toy against the seam with its own four types here (``mypy --strict tests/toygame2``).
_CHECKED: Final[GameRules[DuelSettings, DuelHand, Command, Event]] = DEALER_DUEL

TABLE = "duel"
SETTINGS = {"game": "duel", "min_stake": 5, "max_stake": 50, "pause_seconds": 0.2, "bet_seconds": 30,
            "call_seconds": 30}
SEED: Final = bytes(range(32))


def played(stakes: Iterable[tuple[int, int]], answers: dict[int, str]) -> tuple[DuelHand, list[Event]]:
    """A hand of the pure game: each seat wagers its stake, then holds or surrenders; every event it caused."""
    players = [Player(seat, 1_000) for seat, _ in stakes]
    state = DEALER_DUEL.new_hand(DuelSettings(min_stake=5, max_stake=50), players, SEED, offer_from=1,
                                 arranged_deck=None, carry={})
    log: list[Event] = []
    commands: list[Command] = [Wager(seat, stake) for seat, stake in stakes]
    commands += [Surrender(seat) if answers.get(seat) == "surrender" else Hold(seat) for seat, _ in stakes]
    for command in commands:
        for event in DEALER_DUEL.decide(state, command):
            log.append(event)
            state = DEALER_DUEL.evolve(state, event)
    return state, log


def test_a_card_above_the_dealers_best_wins_and_the_dealers_best_is_the_higher_of_two() -> None:
    assert duel_result(12, (11, 3)) == 1
    assert duel_result(10, (11, 3)) == -1  # beats the up card, not the hole card
    assert duel_result(11, (3, 11)) == 0


stakes_st = st.lists(st.integers(5, 50), min_size=1, max_size=6).map(lambda s: list(enumerate(s, start=1)))


@given(stakes=stakes_st, surrendering=st.sets(st.integers(1, 6)))
def test_every_chip_moved_by_a_hand_sums_to_zero_and_a_surrender_loses_half_the_stake(
        stakes: list[tuple[int, int]], surrendering: set[int]) -> None:
    state, log = played(stakes, dict.fromkeys(surrendering, "surrender"))
    assert state.phase == "settled"
    nets = dict(state.nets)
    for seat, stake in stakes:
        assert nets[seat] == -(stake // 2) if seat in surrendering else nets[seat] in {-stake, 0, stake}
    before = DEALER_DUEL.new_hand(state.settings, state.players, SEED, offer_from=1, arranged_deck=None, carry={})
    moved: dict[str, int] = {}
    accounts = {seat: AccountId(seat) for seat, _ in stakes}
    for event in log:
        for transfer in DEALER_DUEL.postings(before, event, TABLE, accounts):
            assert transfer.amount > 0
            moved[transfer.src] = moved.get(transfer.src, 0) - transfer.amount
            moved[transfer.dst] = moved.get(transfer.dst, 0) + transfer.amount
        before = DEALER_DUEL.evolve(before, event)
    stacks = {seat: moved.get(stack_place(TABLE, AccountId(seat)), 0) for seat, _ in stakes}
    assert stacks == nets  # each stack changes by its net
    assert all(moved.get(felt_place(TABLE, AccountId(seat)), 0) == 0 for seat, _ in stakes)  # the felt is cleared
    assert moved.get(HOUSE_BANK, 0) == -sum(nets.values())  # the house pays what the players win: the sum is zero


@given(stakes=stakes_st, surrendering=st.sets(st.integers(1, 6)))
def test_a_spectator_sees_no_hidden_card_and_a_surrendered_card_is_never_shown(
        stakes: list[tuple[int, int]], surrendering: set[int]) -> None:
    state, log = played(stakes, dict.fromkeys(surrendering, "surrender"))
    dealt = next(e for e in log if isinstance(e, DuelDealt))
    before = DEALER_DUEL.new_hand(state.settings, state.players, SEED, offer_from=1, arranged_deck=None, carry={})
    hidden = {card for _, card in dealt.hands} | {dealt.dealer_hole}
    for event in log[:-1]:  # up to the showdown: what a spectator receives, and its view after each event
        before = DEALER_DUEL.evolve(before, event)
        seen = json.dumps([DEALER_DUEL.public_event(event), DEALER_DUEL.hand_view(before, None)])
        assert not any(card in seen for card in hidden), seen
    after = json.dumps([*(DEALER_DUEL.public_event(e) for e in log), DEALER_DUEL.hand_view(state, None),
                        DEALER_DUEL.summary(state)])
    cards = dict(dealt.hands)
    assert not any(cards[seat] in after for seat in surrendering if seat in cards)
    assert dealt.dealer_hole in after


async def seated(server: Server, name: str) -> Client:
    player = await server.player(name, sit=False)
    await player.join(TABLE)
    await player.sit(TABLE, buy_in=500)
    return player


async def answer(player: Client, action: str, **args: Any) -> None:
    """``action`` once the server offers it to ``player``, with ``args``."""
    await player.wait_for(lambda _e: action in {m["action"] for m in player.moves(TABLE)}, what=action)
    await player.call("move", {"table": TABLE, "action": action, **args})


def cards_seen(client: Client, since: int = 0, until: int | None = None) -> set[str]:
    """Every card in what ``client`` received, as the browser tests read the frames."""
    frames = ["42" + json.dumps([entry]) for entry in client.log[since:until]]
    return {card for card, _ in frame_cards(frames)}


@pytest.mark.usefixtures("dealer_duel")
async def test_a_hand_of_dealer_duel_is_played_from_the_offered_choices_and_the_spectator_sees_no_hidden_card(
        server: Server) -> None:
    host = await server.host()
    await host.host("create_table", table=TABLE, settings=SETTINGS)
    await host.host("pause", table=TABLE)
    spectator = await server.client(name="watcher")
    await spectator.join(TABLE)
    alice, bob = await seated(server, "alice"), await seated(server, "bob")
    await host.join(TABLE)
    mark = spectator.mark()
    await host.host("resume", table=TABLE)
    await alice.wait_for(lambda _e: bool(alice.moves(TABLE)), what="a choice")
    offered = {m["action"]: m for m in alice.moves(TABLE)}
    assert offered["wager"]["stake"] == {"min": 5, "max": 50}, offered  # the game's own move and argument
    await answer(alice, "wager", stake=20, seed="alice's")
    await answer(bob, "wager", stake=10)
    at_deal, dealt = await spectator.event("duel_dealt", since=mark)
    assert dealt["deadline"] is not None  # the game's own deal event opens its own clock (Game.clocked_events)
    assert set(dealt) >= {"order", "dealer_up"}
    assert {m["action"] for m in alice.moves(TABLE)} == {"hold", "surrender"}
    mine = {e["event"]["card"] for e in alice.private_events() if e["event"].get("type") == "your_card"}
    assert len(mine) == 1
    await answer(alice, "surrender")
    await answer(bob, "hold")
    at_showdown, settled = await spectator.event("duel_settled", since=mark)
    _, revealed = await spectator.event("hand_revealed", since=mark)
    assert revealed["number"] == 1  # numbered by the game's own deal event (Game.deal_event)
    assert revealed["game"] == "duel"
    assert revealed["status"] == "settled"
    hole = settled["dealer_hole"]
    bobs = dict(settled["shown"])[2] if isinstance(settled["shown"][0], list) else settled["shown"]["2"]
    dealer = (rank_of(parse_cards(dealt["dealer_up"])[0]), rank_of(parse_cards(hole)[0]))
    bob_net = 10 * duel_result(rank_of(parse_cards(bobs)[0]), dealer)
    assert revealed["nets"] == {"1": -10, "2": bob_net}
    assert cards_seen(spectator, mark, at_showdown).isdisjoint({hole, bobs, *mine})  # hidden until shown
    assert mine.isdisjoint(cards_seen(spectator))  # a surrendered card: never, the record included
    assert mine.isdisjoint(cards_seen(bob))
    snapshot: dict[str, Any] = await alice.snapshot(TABLE)
    assert {s["name"]: s["stack"] for s in snapshot["seats"]} == {"alice": 490, "bob": 500 + bob_net}
    assert await bob.refused("move", {"table": TABLE, "action": "raise", "amount": 5}) in {"hand/none",
                                                                                             "request/unknown"}
    assert at_deal < at_showdown
    reports = await replay_table(server.database_url, TABLE)
    assert [r.ok for r in reports] == [True], [r.problems for r in reports]  # the log alone rebuilds the hand


@pytest.mark.usefixtures("dealer_duel")
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_the_calling_clock_of_its_own_holds_for_whoever_has_not_answered(server: Server) -> None:
    host = await server.host()
    await host.host("create_table", table=TABLE, settings={**SETTINGS, "call_seconds": 7})
    await host.host("pause", table=TABLE)
    await host.join(TABLE)
    alice = await seated(server, "alice")
    mark = host.mark()
    await host.host("resume", table=TABLE)
    clock = cast(ManualClock, server.clock)
    await alice.wait_for(lambda _e: bool(alice.moves(TABLE)) or not clock.advance(0.05), what="a choice")
    await answer(alice, "wager", stake=5)
    _, dealt = await host.event("duel_dealt", since=mark)
    assert dealt["deadline"] is not None
    clock.advance(6.9)
    assert {m["action"] for m in alice.moves(TABLE)} == {"hold", "surrender"}
    clock.advance(0.2)
    _, settled = await host.event("duel_settled", since=mark)
    assert [seat for seat, _ in settled["shown"]] == [1]  # held by the clock: the card is shown


async def refusal(client: Client, payload: dict[str, Any]) -> tuple[str, str]:
    """The code and the sentence a refused ``move`` answers."""
    reply = await client.conn.raw_call("move", payload)
    assert isinstance(reply, dict), reply
    assert reply.get("ok") is False, reply
    return reply["error"]["code"], reply["error"]["message"]


@pytest.mark.usefixtures("dealer_duel")
async def test_a_malformed_move_is_refused_in_the_tables_own_words_and_a_move_may_carry_its_args(
        server: Server) -> None:
    host = await server.host()
    await host.host("create_table", table=TABLE, settings=SETTINGS)
    alice = await seated(server, "alice")
    code, said = await refusal(alice, {"table": TABLE, "action": "raise", "amount": 5})
    assert code == "request/unknown"  # before ``hand/none``: no game of this table has it
    assert said == "Dealer Duel's moves are wager (stake, seed), pass, hold and surrender, not 'raise'"
    await seated(server, "bob")
    await alice.wait_for(lambda _e: bool(alice.moves(TABLE)), what="a choice")
    assert await refusal(alice, {"table": TABLE, "action": "wager", "ante": 5}) == (
        "request/malformed", "wager takes stake and seed, not 'ante'")
    assert await refusal(alice, {"table": TABLE, "action": "wager"}) == (
        "request/malformed", "wager needs the stake: whole chips from 0 to 1000000000")
    assert await refusal(alice, {"table": TABLE, "action": "wager", "args": {"stake": "ten"}}) == (
        "request/malformed", "wager: the stake is whole chips from 0 to 1000000000, got 'ten'")
    assert await refusal(alice, {"table": TABLE, "action": "wager", "args": {"stake": 60}}) == (
        "bet/above_max", "the stake at this table is 5 to 50 chips, got 60")  # the table's own limit: its rules'
    await alice.call("move", {"table": TABLE, "action": "wager", "args": {"stake": 10, "seed": None}})
    await alice.wait_for(lambda _e: "wager" not in {m["action"] for m in alice.moves(TABLE)}, what="the wager")
