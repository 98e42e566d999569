"""A Caribbean Stud hand's state: the spot bets, the cards, the decisions and the meter, immutable.

:func:`new_hand` builds it, open for bets at once (the house banks;
docs/rules/caribbean.md section 3); :func:`opening_events` says what it announces
first; every change after that is an event applied by
:func:`server.rules.caribbean.evolve.evolve`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from server.rules import machine
from server.rules.arrange import SeatDeck
from server.rules.cards import Card
from server.rules.caribbean.messages import BettingOpened, ClosedBet, Event, HandNotDealt, SpotBet
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.caribbean.settlement import BACK_BET_MULTIPLE, CaribbeanSettlement
from server.rules.fairness import commitment
from server.rules.game import Player

Phase = Literal["betting", "decisions", "settled", "not_dealt", "void"]
TERMINAL: Final = frozenset({"settled", "not_dealt", "void"})
HAND_SIZE: Final = 5
UP_CARD: Final = 4
"""The dealer's fifth card is dealt face up (section 3 step 2)."""
MAX_SEED_LENGTH: Final = 128
PLAY_MULTIPLE: Final = 1 + BACK_BET_MULTIPLE
"""Ante plus Back Bet, in Antes: what a stack must cover per spot, so a Play is never refused."""


@dataclass(frozen=True, slots=True)
class HandState:
    """Everything about one hand, immutable. Build with :func:`new_hand`."""

    settings: CaribbeanSettings
    players: tuple[Player, ...]
    server_seed: bytes = field(repr=False)
    offer_from: int
    phase: Phase
    meter: int  # hundredths of a chip, as the hand started
    funded: bool = False  # whether the jackpot place already holds the meter's chips
    last_bets: Mapping[int, tuple[SpotBet, ...]] = field(default_factory=dict)
    seats: tuple[int, ...] = ()
    placed: Mapping[int, tuple[SpotBet, ...]] = field(default_factory=dict)  # while betting, by seat
    confirmed: frozenset[int] = frozenset()
    passed: frozenset[int] = frozenset()  # seats that bet nothing this hand (Pass)
    seeds: Mapping[int, str] = field(default_factory=dict)
    leaving: frozenset[int] = frozenset()
    left_out: frozenset[int] = frozenset()  # leaving seats whose bets the leave sent back or whose spot it folded
    bets: tuple[ClosedBet, ...] = ()  # once betting closed, in spot order
    arranged: bool = False
    deal_order: tuple[int, ...] = ()
    hands: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)  # by spot
    dealer: tuple[Card, ...] = ()
    played: Mapping[int, int] = field(default_factory=dict)  # spot -> Back Bet
    folded: Mapping[int, str] = field(default_factory=dict)  # spot -> reason
    dead: frozenset[int] = frozenset()
    dealer_qualifies: bool | None = None  # set when the dealer's hand is shown
    settlement: CaribbeanSettlement | None = None
    shown: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    reason: str | None = None
    arranged_deck: tuple[Card, ...] | None = None
    seat_deck: SeatDeck | None = None  # a drill deck given by spot: made into a deck at the deal

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, published when betting opens."""
        return commitment(self.server_seed)

    @property
    def turn(self) -> ClosedBet | None:
        """The spot (and its owner) whose decision it is, if any: the lowest undecided live spot."""
        if self.phase != "decisions":
            return None
        return next((b for b in self.bets if self.undecided(b.spot)), None)

    @property
    def revealed(self) -> bool:
        """Whether the dealer's hand has been shown."""
        return self.dealer_qualifies is not None

    @property
    def meter_now(self) -> int:
        """The meter in hundredths: as the hand started, or after its settlement."""
        return self.settlement.meter_after if self.settlement is not None else self.meter

    def undecided(self, spot: int) -> bool:
        """A live spot that has neither played nor folded."""
        return spot not in self.played and spot not in self.folded and spot not in self.dead

    def player(self, seat: int) -> Player:
        """The player at ``seat`` (raises a Violation if none)."""
        return machine.player_at(self.players, seat)

    @property
    def bettors(self) -> Mapping[int, tuple[SpotBet, ...]]:
        """Seats with bets placed (confirmed or not) while betting is open."""
        return self.placed

    @property
    def unconfirmed(self) -> list[int]:
        """Seats with bets not yet confirmed, in seat order."""
        return [seat for seat in sorted(self.placed) if seat not in self.confirmed]

    def bet_on(self, spot: int) -> ClosedBet:
        """The closed bet on ``spot``."""
        return next(b for b in self.bets if b.spot == spot)

    def wager(self, bet: ClosedBet | SpotBet) -> int:
        """Chips of the jackpot wager riding with ``bet``."""
        return self.settings.jackpot_wager if bet.jackpot else 0

    def player_seeds(self) -> tuple[tuple[int, str], ...]:
        """Seeds of the seats with confirmed bets, in seat order: what the deck mixes in."""
        return tuple((seat, self.seeds[seat]) for seat in sorted(self.confirmed) if seat in self.seeds)

    def bets_by_seat(self) -> dict[int, tuple[SpotBet, ...]]:
        """Each seat's confirmed bets (closed ones once betting is over), in spot order."""
        if not self.bets:  # betting has not closed (or closed empty)
            return {seat: self.placed[seat] for seat in sorted(self.confirmed) if seat in self.placed}
        out: dict[int, list[SpotBet]] = {}
        for b in self.bets:
            out.setdefault(b.seat, []).append(SpotBet(b.spot, b.ante, b.jackpot))
        return {seat: tuple(bets) for seat, bets in sorted(out.items())}


def new_hand(
    settings: CaribbeanSettings,
    players: Sequence[Player],
    server_seed: bytes,
    *,
    offer_from: int = 1,
    arranged_deck: Sequence[Card] | SeatDeck | None = None,
    carry: Mapping[str, Any] | None = None,
) -> HandState:
    """A fresh hand, open for bets at once (the house banks).

    ``carry`` is what the table kept from the last hand: the jackpot ``meter``
    (hundredths; a new table starts at ``jackpot_seed`` chips, not yet ``funded``
    in the ledger) and each seat's ``last_bets`` for *Re-Bet*. ``server_seed``
    stays secret in the state until the hand ends. ``arranged_deck``, for a
    host's drill, replaces the derived deck (cards in dealing order); a
    :class:`SeatDeck` gives cards by spot (and the dealer's), ordered at the deal.
    """
    carry = carry or {}
    seat_deck = arranged_deck if isinstance(arranged_deck, SeatDeck) else None
    arranged = tuple(arranged_deck) if arranged_deck is not None and not isinstance(arranged_deck, SeatDeck) else None
    seated = tuple(sorted(players, key=lambda p: p.seat))
    last = {int(seat): tuple(SpotBet(*bet) for bet in bets) for seat, bets in carry.get("last_bets", {}).items()}
    state = HandState(settings, seated, server_seed, offer_from, "betting",
                      meter=int(carry.get("meter", settings.jackpot_seed * 100)),
                      funded=bool(carry.get("funded", False)), last_bets=last,
                      seats=tuple(p.seat for p in seated), arranged_deck=arranged, seat_deck=seat_deck)
    if not seated:
        return replace(state, phase="not_dealt", reason="no_players")
    return state


def opening_events(state: HandState) -> list[Event]:
    """What a new hand announces first: betting open (commitment and meter), or no hand."""
    if state.phase == "not_dealt":
        return [HandNotDealt(state.reason or "no_players")]
    return [BettingOpened(state.commitment, state.seats, state.meter)]
