"""Helpers to drive live Caribbean Stud hands in tests: arranged decks, scripted and random hands."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from server.rules.cards import Card, parse_cards
from server.rules.caribbean.hand import TERMINAL, HandState, decide, evolve, new_hand, opening_events
from server.rules.caribbean.messages import (
    ClearBets,
    ClockExpired,
    CloseBets,
    Command,
    ConfirmBets,
    DeclareDead,
    Event,
    FoldSpot,
    Leave,
    Misdeal,
    PassBets,
    PlaceSpotBets,
    PlaySpot,
    RepeatBets,
    SpotBet,
)
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.errors import Violation
from server.rules.game import Player

SEED = bytes(range(32))
TABLE = "t"

PREMIUM = {
    # Disjoint hands, so any of them can share a deck.
    "royal": "As Ks Qs Js Ts",
    "royal2": "Ad Kd Qd Jd Td",
    "straight_flush": "9h 8h 7h 6h 5h",
    "quads": "4c 4d 4h 4s 3c",
    "full_house": "2c 2d 2h 3d 3h",
    "flush": "Kc 9c 7c 6c 8c",
}


def arranged(spot_hands: Sequence[str], dealer: str) -> tuple[Card, ...]:
    """A deck dealing ``spot_hands`` to the spots with an Ante (spot order) and ``dealer`` last (up-card last)."""
    hands = [parse_cards(h, 5) for h in spot_hands] + [parse_cards(dealer, 5)]
    deck = [hand[r] for r in range(5) for hand in hands]
    return tuple(deck) + tuple(c for c in range(52) if c not in deck)


@dataclass
class Run:
    """A hand driven command by command, keeping every event with the state just before it."""

    state: HandState
    trace: list[tuple[HandState, Event]] = field(default_factory=list)
    inputs: list[tuple[Command, list[Event]]] = field(default_factory=list)  # accepted commands

    def do(self, *commands: Command) -> list[Event]:
        """Run ``commands`` in order; the events of the last one."""
        events: list[Event] = []
        for command in commands:
            events = decide(self.state, command)
            self.inputs.append((command, events))
            for event in events:
                self.trace.append((self.state, event))
                self.state = evolve(self.state, event)
        return events

    def bet(self, seat: int, *bets: tuple[int, int, bool] | tuple[int, int], seed: str | None = None,
            confirm: bool = True) -> list[Event]:
        """Place ``(spot, ante[, jackpot])`` bets for ``seat`` and, by default, press Deal."""
        events = self.do(PlaceSpotBets(seat, tuple(SpotBet(*b) for b in bets), seed))
        return self.do(ConfirmBets(seat)) if confirm else events

    @property
    def events(self) -> list[Event]:
        """Every event so far."""
        return [e for _, e in self.trace]

    def types(self) -> list[str]:
        """Every event type so far."""
        return [e.type for e in self.events]


def open_hold(settings: CaribbeanSettings) -> CaribbeanSettings:
    """``settings`` letting a player hold ``max_hands`` spots while others wait.

    Scenario tests place several spots per player in any order; the hold limit has
    its own tests (tests/rules/house/test_betting.py).
    """
    return dataclasses.replace(settings, max_hands_while_waiting=settings.max_hands)


def run(players: Sequence[tuple[int, int]] = ((1, 1000),), **kwargs: Any) -> Run:
    """A :class:`Run` of a new hand (``start``'s arguments), with :func:`open_hold` settings."""
    state = new_hand(open_hold(kwargs.pop("settings", None) or CaribbeanSettings()),
                     [Player(s, stack) for s, stack in players], kwargs.pop("seed", SEED),
                     arranged_deck=kwargs.pop("deck", None), carry=kwargs.pop("carry", None) or {})
    r = Run(state)
    for event in opening_events(state):
        r.trace.append((r.state, event))
        r.state = evolve(r.state, event)
    return r


# ---------------------------------------------------------------- random hands

ANTES = (5, 10, 25, 60, 500)


def random_bets(data: st.DataObject, settings: CaribbeanSettings) -> tuple[SpotBet, ...]:
    """One to ``max_hands`` bets on random spots, now and then one too many or on a spot that does not exist."""
    top = settings.spots + data.draw(st.sampled_from([0, 0, 0, 1]))
    most = min(top, settings.max_hands + data.draw(st.sampled_from([0, 0, 0, 1])))
    spots = data.draw(st.lists(st.integers(1, top), min_size=1, max_size=most, unique=True))
    return tuple(SpotBet(s, data.draw(st.sampled_from(ANTES)), settings.jackpot and data.draw(st.booleans()))
                 for s in spots)


def pick(data: st.DataObject, options: Sequence[Command]) -> Command:
    """One of ``options``, drawn."""
    return data.draw(st.sampled_from(options))


def next_command(data: st.DataObject, state: HandState) -> Command:
    """A likely legal command most of the time, an interruption (leave, dead seat, misdeal, clock) now and then."""
    seats = [p.seat for p in state.players]
    seat = data.draw(st.sampled_from(seats))
    roll = data.draw(st.integers(0, 99))  # interruptions at the top: hypothesis favours small numbers
    if roll == 99:
        return Misdeal(data.draw(st.sampled_from(["misdeal", "interrupted"])))
    if roll >= 93:
        return pick(data, [Leave(seat), DeclareDead(seat), ClockExpired(seat)])
    if state.phase == "betting":
        if roll >= 90:
            return CloseBets()
        choices: list[Command] = [PlaceSpotBets(seat, random_bets(data, state.settings),
                                                data.draw(st.none() | st.text("xyz", max_size=6))),
                                  PlaceSpotBets(seat, random_bets(data, state.settings), None),
                                  ConfirmBets(seat), ConfirmBets(seat), RepeatBets(seat), ClearBets(seat),
                                  PassBets(seat)]
        return data.draw(st.sampled_from(choices))
    turn = state.turn
    assert turn is not None
    return pick(data, [PlaySpot(turn.seat), PlaySpot(turn.seat, turn.spot), FoldSpot(turn.seat),
                       ClockExpired(turn.seat)])


def finish(r: Run) -> None:
    """Close the betting and time out every decision still open."""
    if r.state.phase == "betting":
        r.do(CloseBets())
    while r.state.phase not in TERMINAL:
        turn = r.state.turn
        assert turn is not None
        r.do(ClockExpired(turn.seat))


def random_hand(data: st.DataObject, r: Run, max_steps: int = 40) -> Run:
    """Drive ``r`` with random commands (refused ones change nothing), maybe void it midway, then finish it."""
    misdeal_at = data.draw(st.none() | st.integers(1, 12))
    for step in range(max_steps):
        if r.state.phase in TERMINAL:
            break
        if step == misdeal_at:
            r.do(Misdeal("interrupted"))
            break
        with contextlib.suppress(Violation):
            r.do(next_command(data, r.state))
    finish(r)
    return r


@st.composite
def table_settings(draw: st.DrawFn) -> CaribbeanSettings:
    """Settings across their range: spots, hands per player, jackpot on or off, a payout cap."""
    spots = draw(st.integers(1, 9))
    return CaribbeanSettings.from_mapping({
        "spots": spots, "max_hands": draw(st.integers(1, spots)), "jackpot": draw(st.booleans()),
        "max_payout": draw(st.none() | st.integers(1, 400)), "jackpot_seed": draw(st.integers(0, 20000)),
        "jackpot_wager": draw(st.sampled_from([1, 1, 5])), "jackpot_rate": draw(st.sampled_from([50, 33, 100])),
    })


def planted_deck(data: st.DataObject, spots: int) -> tuple[Card, ...]:
    """A deck for ``spots`` hands with Antes whose hands are often jackpot hands (and maybe two royals)."""
    names = data.draw(st.lists(st.sampled_from(sorted(PREMIUM)), max_size=spots, unique=True))
    planted = [parse_cards(PREMIUM[n]) for n in names]
    used = {c for hand in planted for c in hand}
    rest = list(data.draw(st.permutations([c for c in range(52) if c not in used])))
    hands = planted + [tuple(rest.pop() for _ in range(5)) for _ in range(spots - len(planted))]
    hands = list(data.draw(st.permutations(hands)))
    hands.append(tuple(rest.pop() for _ in range(5)))
    deck = [hand[i] for i in range(5) for hand in hands]
    return tuple(deck) + tuple(rest)


def planted_hand(data: st.DataObject, settings: CaribbeanSettings, carry: dict[str, Any]) -> Run:
    """A hand whose confirmed spots are drawn first, so the deck can plant jackpot hands on them."""
    seats = data.draw(st.lists(st.integers(1, settings.spots), min_size=1, max_size=3, unique=True))
    free = list(range(1, settings.spots + 1))
    plan: dict[int, list[SpotBet]] = {}
    for index, seat in enumerate(seats):
        for _ in range(data.draw(st.integers(0 if index else 1, settings.max_hands))):
            if free:
                spot = free.pop(data.draw(st.integers(0, len(free) - 1)))
                plan.setdefault(seat, []).append(SpotBet(spot, data.draw(st.sampled_from((5, 10, 40))),
                                                         settings.jackpot and data.draw(st.booleans())))
    spots = sum(len(bets) for bets in plan.values())
    deck = planted_deck(data, spots) if spots else None
    r = run([(seat, 2000) for seat in sorted(seats)], settings=settings, deck=deck, carry=carry,
            seed=data.draw(st.binary(min_size=32, max_size=32)))
    for seat, bets in sorted(plan.items()):
        r.do(PlaceSpotBets(seat, tuple(bets), None))
    for seat in sorted(plan):
        if r.state.phase == "betting":
            r.do(ConfirmBets(seat))
    if r.state.phase == "betting":
        r.do(CloseBets())
    return random_hand(data, r)
