"""A 6 Card Poker hand's state: the boxes, the cards, the decisions and the exchange, immutable (docs/rules/sixcard.md).

:func:`new_hand` builds it and :func:`opening_events` says what it announces
first; every change after that is an event applied by
:func:`server.rules.sixcard.evolve.evolve`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from server.rules import machine
from server.rules.arrange import SeatDeck
from server.rules.cards import Card
from server.rules.fairness import commitment
from server.rules.game import Player
from server.rules.sixcard.messages import BettingOpened, BoxBet, Event, HandNotDealt
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.settlement import BLIND, OPEN, Draw, Role, SixcardSettlement, final_cards

Phase = Literal["betting", "decisions", "exchange", "settled", "not_dealt", "void"]
TERMINAL: Final = frozenset({"settled", "not_dealt", "void"})
DEALER: Final = 0
"""The dealer's place in the deal order (boxes are numbered from 1)."""
MAX_SEED_LENGTH: Final = 128
COVER_OPEN: Final = 4
"""An open box may take Ante + draw fee + Bet = 4x Ante (the covering rule, section 3)."""
COVER_BLIND: Final = 3
"""A blind box takes Ante + Bet = 3x Ante."""


@dataclass(frozen=True, slots=True)
class PendingBets:
    """A player's bets while betting is open."""

    bets: tuple[BoxBet, ...]
    seed: str | None = None
    confirmed: bool = False


@dataclass(frozen=True, slots=True)
class Box:
    """A box with a confirmed bet, from the close of betting on."""

    box: int
    seat: int
    ante: int
    bonus: int
    role: Role


@dataclass(frozen=True, slots=True)
class HandState:
    """Everything about one hand, immutable. Build with :func:`new_hand`."""

    settings: SixcardSettings
    players: tuple[Player, ...]
    server_seed: bytes = field(repr=False)
    offer_from: int
    phase: Phase
    arranged_deck: tuple[Card, ...] | None = None
    seat_deck: SeatDeck | None = None  # a drill deck given by box: made into a deck once the boxes are known
    last_bets: Mapping[int, tuple[BoxBet, ...]] = field(default_factory=dict)
    pending: Mapping[int, PendingBets] = field(default_factory=dict)
    leaving: frozenset[int] = frozenset()
    left_out: frozenset[int] = frozenset()  # leaving seats the leave already acted on (bets back, a fold, Continue)
    passed: frozenset[int] = frozenset()  # seats that bet nothing this hand (Pass)
    boxes: tuple[Box, ...] = ()
    order: tuple[int, ...] = ()
    arranged: bool = False
    player_seeds: tuple[tuple[int, str], ...] = ()
    deck: tuple[Card, ...] = field(default=(), repr=False)
    next_card: int = 0
    deal_order: tuple[int, ...] = ()
    cards: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    dealer_cards: tuple[Card, ...] = ()
    seen: frozenset[int] = frozenset()
    blind_shown: frozenset[int] = frozenset()
    decisions: Mapping[int, str] = field(default_factory=dict)
    timed_out: frozenset[int] = frozenset()
    draws: Mapping[int, Draw] = field(default_factory=dict)
    dead: frozenset[int] = frozenset()
    revealed: bool = False
    dealer_qualifies: bool | None = None
    exchange_boxes: tuple[tuple[int, int], ...] = ()
    requests: frozenset[int] = frozenset()
    confirmed_requests: frozenset[int] = frozenset()
    continued: frozenset[int] = frozenset()
    exchange_closed: bool = False
    replacement: Card | None = None
    dealer_after: tuple[Card, ...] | None = None
    exchanged_boxes: frozenset[int] = frozenset()
    settlement: SixcardSettlement | None = None
    reason: str | None = None

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, published when betting opens."""
        return commitment(self.server_seed)

    @property
    def turn(self) -> int | None:
        """The open box being decided, if any."""
        if self.phase != "decisions" or not self.cards:
            return None
        return next((b for b in self.order if b not in self.decisions and b not in self.dead), None)

    def player(self, seat: int) -> Player:
        """The player at ``seat`` (raises a Violation if none)."""
        return machine.player_at(self.players, seat)

    @property
    def bettors(self) -> Mapping[int, PendingBets]:
        """Seats with bets placed (confirmed or not) while betting is open."""
        return self.pending

    @property
    def unconfirmed(self) -> list[int]:
        """Seats with bets not yet confirmed, in seat order."""
        return [seat for seat, p in sorted(self.pending.items()) if not p.confirmed]

    def box(self, number: int) -> Box:
        """The box with a confirmed bet numbered ``number`` (raises KeyError if none)."""
        for b in self.boxes:
            if b.box == number:
                return b
        raise KeyError(number)

    def boxes_of(self, seat: int) -> tuple[Box, ...]:
        """``seat``'s boxes in box order."""
        return tuple(b for b in self.boxes if b.seat == seat)

    def current_cards(self, number: int) -> tuple[Card, ...]:
        """A box's cards now: its original five, changed by its draw."""
        return final_cards(self.cards[number], self.draws.get(number))

    def in_play(self, b: Box) -> bool:
        """Raised or blind, and not dead: the box meets the dealer's hand."""
        if b.box in self.dead:
            return False
        return b.role == BLIND or (b.role == OPEN and self.decisions.get(b.box) == "raise")

    @property
    def exchange_owners(self) -> tuple[int, ...]:
        """The seats choosing in the dealer exchange (a box in it, not dead), in seat order."""
        return tuple(sorted({seat for box, seat in self.exchange_boxes if box not in self.dead}))

    def felt(self, b: Box) -> int:
        """Chips of the box on the felt: its stakes stay there, folded or given for the exchange, until settlement.

        Keeping them on the felt (and a draw fee held apart, :meth:`fee_held`) lets a hand
        cut off by a crash be refunded whole from those places (docs/rules/sixcard.md section 7).
        A dead box's chips went back when it died.
        """
        if b.box in self.dead or not self.boxes:
            return 0
        bet = 2 * b.ante if b.role == BLIND or self.decisions.get(b.box) == "raise" else 0
        return b.ante + b.bonus + bet

    def fee_held(self, b: Box) -> int:
        """The box's draw fee, held until settlement gives it to the house (a dead box got it back)."""
        return b.ante if b.box in self.draws and b.box not in self.dead else 0


def new_hand(
    settings: SixcardSettings,
    players: Sequence[Player],
    server_seed: bytes,
    *,
    offer_from: int = 1,
    arranged_deck: Sequence[Card] | SeatDeck | None = None,
    last_bets: Mapping[int, tuple[BoxBet, ...]] | None = None,
) -> HandState:
    """A fresh hand, betting at once (the house banks; no offer).

    ``server_seed`` stays secret in the state until the hand ends (views never show
    it). ``arranged_deck``, for a host's drill, replaces the derived deck: cards in
    dealing order, then the stub; a deck that runs out voids the hand.
    ``last_bets`` (seat -> bets) is what *Re-Bet* repeats. A :class:`SeatDeck`
    gives cards by box (and the dealer's), ordered once the bets are closed.
    """
    seat_deck = arranged_deck if isinstance(arranged_deck, SeatDeck) else None
    arranged = tuple(arranged_deck) if arranged_deck is not None and not isinstance(arranged_deck, SeatDeck) else None
    seated = tuple(sorted(players, key=lambda p: p.seat))
    state = HandState(settings, seated, server_seed, offer_from, "betting", arranged_deck=arranged,
                      seat_deck=seat_deck, last_bets=dict(last_bets or {}))
    if not seated:
        return replace(state, phase="not_dealt", reason="no_players")
    return state


def opening_events(state: HandState) -> list[Event]:
    """What a new hand announces first: the open betting, or no hand."""
    if state.phase == "not_dealt":
        return [HandNotDealt(state.reason or "no_players")]
    return [BettingOpened(state.commitment, tuple(p.seat for p in state.players))]
