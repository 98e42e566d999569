"""A table of High Card Flush hands played through the Game seam alone, as the table task drives it, with
players who take or refuse the bank at random, seats that change players, and a clock that moves.

It gives the rules what the table gives them (its clock and the seats' names in the carry) and keeps what
they hand back; it records what each hand did, so the properties of the bank's house rules can be checked
against a model of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any

from server.rules.commands import ClockExpired, CloseBets
from server.rules.game import SEAT_NAMES, TABLE_CLOCK, AfterHand, Player
from server.rules.games import game_named
from server.rules.hcf import messages as m
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.state import HandState

HCF = game_named("hcf")


@dataclass
class Hand:
    """What one hand did: who sat where, who refused the bank, who banked, and the table's answer after it."""

    names: dict[int, str]
    players: tuple[Player, ...]
    refused: list[int]
    state: HandState
    after: AfterHand
    now: float
    fees: dict[int, int] = field(default_factory=dict)


@dataclass
class Table:
    """Seats, names, the carry and the clock of a table the rules play on."""

    settings: HcfSettings
    rnd: Random
    names: dict[int, str]
    now: float = 0.0
    carry: dict[str, Any] = field(default_factory=dict)
    offer_from: int = 1
    hands: list[Hand] = field(default_factory=list)
    ended: bool = False
    newcomers: int = 0

    def players(self) -> list[Player]:
        """Everyone seated, some away or unwilling to bank, some short of the bank's minimum."""
        out = []
        for seat in sorted(self.names):
            roll = self.rnd.random()
            stack = self.settings.min_bank - 1 if roll < 0.08 else 10_000
            out.append(Player(seat, stack, willing_to_bank=roll < 0.9 or roll >= 0.95, present=roll < 0.95))
        return out

    def change_seats(self, keep: Mapping[str, Any] = ()) -> None:
        """A player stands up and another sits down now and then (the third-party banker stays)."""
        if self.rnd.random() < 0.15:
            seat = self.rnd.choice(sorted(self.names))
            if self.names[seat] not in keep:
                self.newcomers += 1
                self.names[seat] = f"newcomer{self.newcomers}"

    def _carry(self) -> dict[str, Any]:
        return {**self.carry, TABLE_CLOCK: self.now, SEAT_NAMES: {str(s): n for s, n in self.names.items()}}

    def play(self) -> Hand:
        """One hand, from the offer to the table's answer after it."""
        players = self.players()
        carry = self._carry()
        state = HCF.new_hand(self.settings, players, self.rnd.randbytes(32), offer_from=self.offer_from,
                             arranged_deck=None, carry=carry)
        state = _applied(state, HCF.opening_events(state))
        refused: list[int] = []
        fees: dict[int, int] = {}
        while state.phase not in HCF.terminal:
            command = self._next(state, refused)
            events = HCF.decide(state, command)
            fees |= {seat: fee for e in events if isinstance(e, m.FeesCollected) for seat, fee in e.fees}
            state = _applied(state, events)
        self.now += self.rnd.uniform(20, 200)
        after = HCF.after_hand(state, {**carry, TABLE_CLOCK: self.now})
        hand = Hand(dict(self.names), tuple(players), refused, state, after, self.now, fees)
        self.hands.append(hand)
        self.carry, self.offer_from, self.ended = dict(after.carry), after.offer_from, after.ends_game
        self.now += after.pause
        return hand

    def _next(self, state: HandState, refused: list[int]) -> Any:
        if state.phase == "offer":
            seat = state.offered
            assert seat is not None
            answer = self.rnd.random()
            if answer < 0.35:
                return m.AcceptBank(seat)
            if seat not in (state.keeper, state.third_party) or answer < 0.7:
                refused.append(seat)
            return m.DeclineBank(seat) if answer < 0.7 else ClockExpired(seat)
        if state.phase == "betting":
            waiting = [s for s in state.bettors if s not in state.bets and s not in state.passed]
            if not waiting:
                return CloseBets()
            seat = waiting[0]
            room = (state.player(seat).stack - 10) // 2  # the Ante, the smallest raise and the largest fee
            antes = [a for a in (self.settings.min_ante, 20, 21, 100, 101, self.settings.max_ante) if a <= room]
            return m.PlaceBets(seat, self.rnd.choice(antes)) if antes else m.PassBets(seat)
        assert state.turn is not None
        return m.Fold(state.turn) if self.rnd.random() < 0.5 else m.Raise(state.turn, state.bets[state.turn].ante)


def _applied(state: HandState, events: list[Any]) -> HandState:
    for event in events:
        state = HCF.evolve(state, event)
    return state
