"""The dry run: a scenario played through the rules core alone, before anything is played at a table.

It is the scenario's full check (every move legal when it comes, every deck long
enough) and it makes the answer key, from the same ``new_hand`` / ``decide`` /
``evolve`` the table runs. Stacks, the button and what outlives a hand pass from
hand to hand as at the table (server/table/hands.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.rules.arrange import SeatDeck
from server.rules.cards import Card
from server.rules.commands import DeclareDead, Leave, Misdeal
from server.rules.drill.irregularity import DEALER, Irregularity
from server.rules.drill.key import hand_key
from server.rules.drill.moves import SCRIPTS, Floor, GameScript, Move, floor_for
from server.rules.drill.report import Asked
from server.rules.drill.scenario import HandSpec, Scenario, ScenarioError
from server.rules.drill.steps import KeyStep
from server.rules.errors import RuleError
from server.rules.game import SEAT_NAMES, Game, Player
from server.rules.games import game_named
from server.rules.places import stack_place
from server.rules.vocabulary import AccountId

TABLE = "drill"
MAX_COMMANDS = 500  # a hand takes a few dozen: more means the script goes round in circles


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One hand of the dry run: where it started, every event, and its key."""

    number: int
    initial: Any
    events: tuple[Any, ...]
    key: tuple[KeyStep, ...]
    deck: tuple[Card, ...]  # in dealing order, as the table is to be given it


def command_of(game: Game, action: Move | Floor) -> Any:
    """The rules command a scripted move or a floor ruling is."""
    if isinstance(action, Floor):
        if action.action == "declare_dead" and action.seat is not None:
            return DeclareDead(action.seat)
        return Misdeal(action.action)
    if action.action == "leave":
        return Leave(action.seat)
    return game.move(action.seat, action.action, dict(action.args))


def check_deal(script: GameScript, state: Any, hand: HandSpec, where: str) -> None:
    """Refuse a deck too short for the deal (and for a miscount's extra card), or a miscount at nobody."""
    dealt = script.cards_dealt(state)
    if script.short(state) or (hand.irregularity is not None and hand.irregularity.kind == "miscount"
                               and isinstance(hand.deck, tuple) and len(hand.deck) <= dealt):
        extra = " and the miscount's extra card" if hand.irregularity and hand.irregularity.kind == "miscount" else ""
        count = dealt if isinstance(hand.deck, SeatDeck) else len(hand.deck)
        raise ScenarioError(f"{where}: deck: {count} cards are too few for the deal{extra}")
    irregularity = hand.irregularity
    if irregularity is not None and irregularity.kind == "miscount" and irregularity.seat != DEALER \
            and irregularity.seat not in script.places_dealt(state):
        raise ScenarioError(f"{where}, seat {irregularity.seat}: a miscount at a seat that was dealt no hand")


def dry_run(scenario: Scenario) -> list[PlayedHand]:
    """Play every hand through the rules; raises ScenarioError naming the hand, the seat and the problem."""
    game = game_named(scenario.game)
    stacks = {s.seat: s.stack for s in scenario.seats}
    offer_from = scenario.offer_from
    carry: dict[str, Any] = {}
    played: list[PlayedHand] = []
    ended = ""  # why the game ended (the house rules for the bank): the table deals no more
    for number, hand in enumerate(scenario.hands, 1):
        where = f"scenario {scenario.name}, hand {number}"
        players = [Player(seat, stack, scenario.seat(seat).bank) for seat, stack in sorted(stacks.items())]
        needed = 1 if scenario.settings.house_banked else 2
        if len(players) < needed:
            raise ScenarioError(f"{where}: fewer than {needed} players are left at the table")
        if ended:
            raise ScenarioError(f"{where}: the game ended at the hand before ({ended}); no hand can follow it")
        # The table gives the rules each seat's player name: the house rules for the bank count by name.
        names = {SEAT_NAMES: {str(seat): scenario.seat(seat).name for seat in sorted(stacks)}}
        initial = game.new_hand(scenario.settings, players, bytes(32), offer_from=offer_from,
                                arranged_deck=hand.deck, carry={**carry, **names})
        state, events, leaving = _play_hand(game, scenario, hand, initial, stacks, where)
        key = hand_key(scenario.game, initial, events, game.evolve, irregularity=hand.irregularity,
                       asked=scenario.steps, chips=scenario.chips)
        played.append(PlayedHand(number, initial, tuple(events), key, SCRIPTS[scenario.game].deck(state, hand.deck)))
        if initial.phase != "not_dealt":  # a hand nobody could bank is never started: the table keeps its button
            after = game.after_hand(state, {**carry, **names})
            ended = after.message if after.ends_game else ""
            if state.phase != "not_dealt" or game.dealer_seat(state) is not None:
                offer_from = after.offer_from
            carry = dict(after.carry)
        for seat in leaving:
            del stacks[seat]
    return played


def _play_hand(game: Game, scenario: Scenario, hand: HandSpec, initial: Any, stacks: dict[int, int],
               where: str) -> tuple[Any, list[Any], set[int]]:
    script = SCRIPTS[scenario.game]
    accounts = {seat: AccountId(seat) for seat in stacks}  # a drill played alone: each seat its own account
    state: Any = initial
    events: list[Any] = []
    leaving: set[int] = set()
    injected, checked = hand.irregularity is None, False

    def apply(new: Sequence[Any]) -> None:
        nonlocal state
        for event in new:
            for t in game.postings(state, event, TABLE, accounts):
                _move_chips(stacks, t.src, -t.amount)
                _move_chips(stacks, t.dst, t.amount)
            state = game.evolve(state, event)
            events.append(event)

    apply(game.opening_events(initial))
    for _ in range(MAX_COMMANDS):
        if state.phase in game.terminal:
            if state.reason == "card_count":  # the rules dealt (or drew) from a deck that ran out
                count = len(hand.deck) if isinstance(hand.deck, tuple) else 52
                raise ScenarioError(f"{where}: deck: {count} cards are too few for this hand")
            return state, events, leaving
        if script.dealt(state) and not checked:
            check_deal(script, state, hand, where)
            checked = True
        action: Move | Floor | None
        if not injected and script.dealt(state):
            injected = True
            action = floor_for(script, state, _irregular(hand), where)
            if action is None:
                continue
        else:
            action = script.next_move(scenario, hand, state, where)
            if action.action == "leave":
                leaving.add(action.seat)
        try:
            apply(game.decide(state, command_of(game, action)))
        except RuleError as exc:
            seat = f", seat {action.seat}" if action.seat is not None else ""
            raise ScenarioError(f"{where}{seat}: {exc.message}") from None
        if script.dealt(state) and not checked:
            check_deal(script, state, hand, where)
            checked = True
    raise ScenarioError(f"{where}: the hand does not end (the moves go round in circles)")


def _irregular(hand: HandSpec) -> Irregularity:
    assert hand.irregularity is not None
    return hand.irregularity


def _move_chips(stacks: dict[int, int], place: str, amount: int) -> None:
    for seat in stacks:
        if place == stack_place(TABLE, seat):
            stacks[seat] += amount
            return


def key_of(played: Sequence[PlayedHand]) -> list[Asked]:
    """The whole scenario's key, hand by hand."""
    return [Asked(hand.number, step) for hand in played for step in hand.key]
