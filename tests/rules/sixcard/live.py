"""Helpers to drive live 6 Card Poker hands in tests: arranged decks, scripted and random hands."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

from server.rules.cards import Card, parse_cards
from server.rules.errors import Violation
from server.rules.game import Player
from server.rules.sixcard.hand import TERMINAL, HandState, decide, evolve, new_hand, opening_events
from server.rules.sixcard.messages import (
    BuyCard,
    CancelExchange,
    ClearBets,
    ClockExpired,
    CloseBets,
    CloseExchange,
    Command,
    ConfirmBets,
    ContinueExchange,
    DeclareDead,
    Event,
    ExchangeCards,
    FoldBox,
    Leave,
    Misdeal,
    PassBets,
    PlaceBoxBets,
    RaiseBox,
    RepeatBets,
    RequestExchange,
)
from server.rules.sixcard.settings import SixcardSettings

SEED = bytes(range(32))
TABLE = "t"


def arranged(boxes: Mapping[int, str], dealer: str, stub: str = "", *, full: bool = True) -> tuple[Card, ...]:
    """A deck dealing ``boxes`` (box -> 5 cards) in box order and ``dealer`` last (its 5th card up), then ``stub``.

    ``full`` fills the rest of the deck after the stub; without it the deck ends there.
    """
    order = sorted(boxes)
    hands = [parse_cards(boxes[b], 5) for b in order] + [parse_cards(dealer, 5)]
    deck = [hand[r] for r in range(5) for hand in hands] + list(parse_cards(stub))
    assert len(set(deck)) == len(deck), "a card is arranged twice"
    rest = tuple(c for c in range(52) if c not in deck) if full else ()
    return tuple(deck) + rest


@dataclass
class Run:
    """A hand driven command by command, keeping every event with the state just before it."""

    state: HandState
    trace: list[tuple[HandState, Event]] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)

    def do(self, *commands: Command) -> list[Event]:
        """Run ``commands`` in order; the events of the last one."""
        events: list[Event] = []
        for command in commands:
            events = decide(self.state, command)
            self.commands.append(command)
            for event in events:
                self.trace.append((self.state, event))
                self.state = evolve(self.state, event)
        return events

    def bet(self, seat: int, *bets: tuple[int, int, int] | tuple[int, int], seed: str | None = None,
            confirm: bool = True) -> list[Event]:
        """Place ``(box, ante[, bonus])`` bets for ``seat`` and, by default, press Deal."""
        full = tuple((b[0], b[1], b[2] if len(b) > 2 else 0) for b in bets)
        events = self.do(PlaceBoxBets(seat, full, seed))
        return self.do(ConfirmBets(seat)) if confirm else events

    @property
    def events(self) -> list[Event]:
        """Every event so far."""
        return [e for _, e in self.trace]

    def types(self) -> list[str]:
        """Every event type so far."""
        return [e.type for e in self.events]

    def of(self, kind: type[Any]) -> list[Any]:
        """Every event of one class so far."""
        return [e for e in self.events if isinstance(e, kind)]


def open_hold(settings: SixcardSettings) -> SixcardSettings:
    """``settings`` letting a player hold every box while others wait.

    Scenario tests place several boxes per player in any order; the hold limit has
    its own tests (tests/rules/house/test_betting.py).
    """
    return dataclasses.replace(settings, max_hands_while_waiting=settings.boxes)


def run(players: Sequence[tuple[int, int]] = ((1, 1000),), *, settings: SixcardSettings | None = None,
        deck: Sequence[Card] | None = None, last_bets: Mapping[int, tuple[tuple[int, int, int], ...]] | None = None,
        seed: bytes = SEED) -> Run:
    """A :class:`Run` of a new hand, its opening events applied, with :func:`open_hold` settings."""
    state = new_hand(open_hold(settings or SixcardSettings()), [Player(s, stack) for s, stack in players], seed,
                     arranged_deck=deck, last_bets=last_bets)
    r = Run(state)
    for event in opening_events(state):
        r.trace.append((r.state, event))
        r.state = evolve(r.state, event)
    return r


# ---------------------------------------------------------------- random hands

ANTES = (5, 10, 25, 50)


def random_bets(data: st.DataObject, settings: SixcardSettings) -> tuple[tuple[int, int, int], ...]:
    """Bets on random boxes (now and then out of range, breaking the ratio, or bonus-only)."""
    boxes = data.draw(st.lists(st.integers(1, settings.boxes + 1), max_size=settings.boxes, unique=True))
    return tuple((b, data.draw(st.sampled_from((0, *ANTES))), data.draw(st.sampled_from((0, 0, 1, 5))))
                 for b in boxes)


def pick(data: st.DataObject, options: Sequence[Command]) -> Command:
    """One of ``options``, drawn."""
    return data.draw(st.sampled_from(options))


def next_command(data: st.DataObject, state: HandState) -> Command:
    """A likely legal command most of the time, an interruption (leave, dead seat, misdeal, clock) now and then."""
    seats = [p.seat for p in state.players]
    seat = data.draw(st.sampled_from(seats))
    # Hypothesis favours small numbers, so the rare interruptions sit in the middle of the range.
    roll = (data.draw(st.integers(0, 79)) + 40) % 80
    if roll == 0:
        return Misdeal(data.draw(st.sampled_from(["misdeal", "interrupted"])))
    if roll <= 8:
        return pick(data, [Leave(seat), DeclareDead(seat), ClockExpired(seat)])
    if state.phase == "betting":
        if roll <= 10:
            return CloseBets()
        choices: list[Command] = [PlaceBoxBets(seat, random_bets(data, state.settings),
                                               data.draw(st.none() | st.text("xyz", max_size=6))),
                                  ConfirmBets(seat), ConfirmBets(seat), RepeatBets(seat), ClearBets(seat),
                                  PassBets(seat)]
        return data.draw(st.sampled_from(choices))
    if state.phase == "exchange":
        owner = data.draw(st.sampled_from(state.exchange_owners)) if state.exchange_owners else seat
        box = data.draw(st.sampled_from([b for b, _ in state.exchange_boxes]))
        if roll <= 11:
            return CloseExchange()
        return pick(data, [RequestExchange(owner, box), RequestExchange(owner, box),
                           CancelExchange(owner, box), ContinueExchange(owner)])
    turn = state.turn
    assert turn is not None
    owner = state.box(turn).seat
    positions = tuple(data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=5, unique=True)))
    return pick(data, [RaiseBox(owner), RaiseBox(owner, turn), FoldBox(owner), BuyCard(owner),
                       ExchangeCards(owner, turn, positions), ExchangeCards(owner, None, (1, 2)),
                       ClockExpired(owner)])


def finish(r: Run) -> None:
    """Close the betting, time out every decision and the exchange choice still open."""
    while r.state.phase not in TERMINAL:
        if r.state.phase == "betting":
            r.do(CloseBets())
        elif r.state.phase == "exchange":
            r.do(CloseExchange())
        else:
            turn = r.state.turn
            assert turn is not None
            r.do(ClockExpired(r.state.box(turn).seat))


def random_hand(data: st.DataObject, r: Run, max_steps: int = 40) -> Run:
    """Drive ``r`` with random commands (refused ones change nothing), then finish it."""
    for _ in range(max_steps):
        if r.state.phase in TERMINAL:
            break
        with contextlib.suppress(Violation):
            r.do(next_command(data, r.state))
    finish(r)
    return r


def planned_hand(data: st.DataObject, settings: SixcardSettings | None = None) -> Run:
    """A hand whose bets are drawn first and confirmed (so most examples deal), then played at random."""
    s = settings or SixcardSettings()
    seats = data.draw(st.lists(st.integers(1, s.boxes), min_size=1, max_size=3, unique=True))
    free = list(range(1, s.boxes + 1))
    plan: dict[int, list[tuple[int, int, int]]] = {}
    for seat in seats:
        ante = data.draw(st.sampled_from(ANTES))
        for _ in range(data.draw(st.integers(0, 4))):
            if free:
                box = free.pop(data.draw(st.integers(0, len(free) - 1)))
                played = data.draw(st.integers(0, 5)) > 0
                plan.setdefault(seat, []).append((box, ante if played else 0, data.draw(st.sampled_from((0, 1, 5)))
                                                  if played else 5))
    r = run([(seat, 2000) for seat in sorted(seats)], settings=s, seed=data.draw(st.binary(min_size=32, max_size=32)))
    for seat, bets in sorted(plan.items()):
        r.do(PlaceBoxBets(seat, tuple(bets), data.draw(st.none() | st.sampled_from(["a", "seed-2"]))))
    for seat in sorted(plan):
        if r.state.phase == "betting":
            r.do(ConfirmBets(seat))
    if r.state.phase == "betting":
        r.do(CloseBets())
    return random_hand(data, r)
