"""A High Card Flush hand's state: the bank, the bets, the cards and the decisions, immutable (docs/rules/hcf.md).

:func:`new_hand` builds it, offering the bank (section 3.1) or, at a house-banked
table, opening the betting; :func:`opening_events` says what it announces first;
every change after that is an event applied by :func:`server.rules.hcf.evolve.evolve`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from server.rules import machine
from server.rules.arrange import SeatDeck
from server.rules.cards import Card
from server.rules.fairness import commitment
from server.rules.game import Player
from server.rules.hcf import rotation
from server.rules.hcf.fees import most_dealer_fee
from server.rules.hcf.messages import BankOffered, BettingOpened, Event, HandNotDealt
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.settlement import Settlement

Phase = Literal["offer", "betting", "decisions", "settled", "not_dealt", "void"]
TERMINAL: Final = frozenset({"settled", "not_dealt", "void"})
HOUSE: Final = 0
MAX_SEED_LENGTH: Final = 128


@dataclass(frozen=True, slots=True)
class Bets:
    """A player's confirmed bets."""

    ante: int
    straight_flush_bonus: int = 0
    flush_bonus: int = 0
    seed: str | None = None

    @property
    def total(self) -> int:
        """Chips on the felt before the decision."""
        return self.ante + self.straight_flush_bonus + self.flush_bonus


@dataclass(frozen=True, slots=True)
class HandState:
    """Everything about one hand, immutable. Build with :func:`new_hand`."""

    settings: HcfSettings
    players: tuple[Player, ...]
    server_seed: bytes = field(repr=False)
    offer_from: int
    phase: Phase
    offers: tuple[int, ...] = ()
    offer_index: int = 0
    dealer: int | None = None
    bettors: tuple[int, ...] = ()
    bets: Mapping[int, Bets] = field(default_factory=dict)
    passed: frozenset[int] = frozenset()
    leaving: frozenset[int] = frozenset()
    left_out: frozenset[int] = frozenset()  # leaving seats the leave already passed or folded: no taking it back
    fees: Mapping[int, int] = field(default_factory=dict)
    arranged: bool = False
    hands: Mapping[int, tuple[Card, ...]] = field(default_factory=dict)
    deal_sequence: tuple[int, ...] = ()
    turn_order: tuple[int, ...] = ()
    raises: Mapping[int, int] = field(default_factory=dict)
    timed_out: frozenset[int] = frozenset()
    dead: frozenset[int] = frozenset()
    dead_reasons: Mapping[int, str] = field(default_factory=dict)  # each dead seat's SeatDead reason
    settlement: Settlement | None = None
    reason: str | None = None
    arranged_deck: tuple[Card, ...] | None = None
    seat_deck: SeatDeck | None = None  # a drill deck given by seat: made into a deck at the deal
    keeper: int | None = None  # the DP of the hand before, asked first whether to keep the bank (silence keeps it)
    third_party: int | None = None  # the third-party banker's seat, offered the bank last (section 9.3)

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, published when betting opens."""
        return commitment(self.server_seed)

    @property
    def offered(self) -> int | None:
        """The seat being offered the bank now, if any."""
        if self.phase != "offer" or self.offer_index >= len(self.offers):
            return None
        return self.offers[self.offer_index]

    @property
    def turn(self) -> int | None:
        """The seat whose decision it is, if any."""
        if self.phase != "decisions":
            return None
        return next((s for s in self.turn_order if s not in self.raises and s not in self.dead), None)

    @property
    def in_hand(self) -> tuple[int, ...]:
        """Seats with an Ante, in seat order."""
        return tuple(sorted(self.bets))

    @property
    def house_banked(self) -> bool:
        """True for the ``standard`` profile."""
        return self.settings.house_banked

    def player(self, seat: int) -> Player:
        """The player at ``seat`` (raises a Violation if none)."""
        return machine.player_at(self.players, seat)

    def committed(self, seat: int) -> int:
        """Chips ``seat`` has on the felt or held as its fee."""
        bets = self.bets.get(seat)
        return (bets.total if bets else 0) + self.raises.get(seat, 0) + self.fees.get(seat, 0)


def eligible_to_bank(settings: HcfSettings, player: Player) -> bool:
    """Seated, present, willing, with ``min_bank`` chips (and their own fee)."""
    fee = most_dealer_fee(settings)
    return player.willing_to_bank and player.present and player.stack >= max(settings.min_bank, fee)


def clockwise_from(seats: int, start: int) -> tuple[int, ...]:
    """Every seat number clockwise, starting at ``start`` itself.

    >>> clockwise_from(7, 6)
    (6, 7, 1, 2, 3, 4, 5)
    """
    return tuple((start - 1 + k) % seats + 1 for k in range(seats))


def new_hand(
    settings: HcfSettings,
    players: Sequence[Player],
    server_seed: bytes,
    *,
    offer_from: int = 1,
    arranged_deck: Sequence[Card] | SeatDeck | None = None,
    carry: Mapping[str, Any] | None = None,
) -> HandState:
    """A fresh hand. California starts by offering the bank clockwise from ``offer_from``.

    ``server_seed`` stays secret in the state until the hand ends (views never
    show it). ``arranged_deck``, for a host's drill, replaces the derived deck:
    cards in dealing order; a short deck deals short hands, which end dead. The
    caller runs :func:`opening_events` to learn what the hand announced. A
    :class:`SeatDeck` gives cards by seat instead (the DP's as ``DEALER``): the
    deck is made from it at the deal, in the dealing order (section 3, step 4).
    ``carry`` (what the table kept from the hand before) drives the house rules
    for the bank (section 9) when the settings post any.
    """
    seat_deck = arranged_deck if isinstance(arranged_deck, SeatDeck) else None
    arranged = tuple(arranged_deck) if arranged_deck is not None and not isinstance(arranged_deck, SeatDeck) else None
    seated = tuple(sorted(players, key=lambda p: p.seat))
    if settings.house_banked:
        bettors = tuple(p.seat for p in seated)
        return HandState(settings, seated, server_seed, offer_from, "betting", bettors=bettors,
                         arranged_deck=arranged, seat_deck=seat_deck)
    by_seat = {p.seat: p for p in seated}
    state = HandState(settings, seated, server_seed, offer_from, "offer", arranged_deck=arranged, seat_deck=seat_deck)
    if rotation.active(settings):
        return _offered(state, by_seat, carry or {})
    offers = tuple(s for s in clockwise_from(settings.seats, offer_from)
                   if s in by_seat and eligible_to_bank(settings, by_seat[s]))
    return _offered(replace(state, offers=offers), by_seat, None)


def _offered(state: HandState, by_seat: Mapping[int, Player], carry: Mapping[str, Any] | None) -> HandState:
    """The hand with its offer order (under the house rules when ``carry`` is given), or no hand."""
    if carry is not None:
        state = _house_rules_offer(state, by_seat, carry)
        if state.phase == "not_dealt":
            return state
    if len(state.players) < 2 or not state.offers:
        return replace(state, phase="not_dealt", reason="no_bank")
    return state


def _house_rules_offer(state: HandState, by_seat: Mapping[int, Player], carry: Mapping[str, Any]) -> HandState:
    """Section 9: the window may end the game; the DP may be asked to keep the bank, or barred from it; the
    third-party banker is asked last, and is never in the players' turn."""
    s = state.settings
    names, record, now = rotation.seat_names(carry), rotation.BankRecord.from_carry(carry), rotation.table_clock(carry)
    window = s.rotation_window_minutes * 60 if s.rotation_window_minutes is not None else None
    if window is not None and now is not None and rotation.window_short(record, now, window,
                                                                         s.rotation_window_dealers):
        return replace(state, phase="not_dealt", reason="game_ended")
    banker = rotation.third_party_seat(s, names)
    banker = banker if banker in by_seat else None
    barred = record.last if s.bank_keep > 1 and record.run >= s.bank_keep else None
    offers = [seat for seat in clockwise_from(s.seats, state.offer_from) if seat in by_seat and seat != banker
              and rotation.who(names, seat) != barred and eligible_to_bank(s, by_seat[seat])]
    keeps = bool(offers) and s.bank_keep > 1 and record.last == rotation.who(names, offers[0])
    if banker is not None and eligible_to_bank(s, by_seat[banker]) \
            and (s.third_party_consecutive or not record.third_party_last):
        offers.append(banker)
    return replace(state, offers=tuple(offers), keeper=offers[0] if keeps else None, third_party=banker)


def opening_events(state: HandState) -> list[Event]:
    """What a new hand announces first (the offer, the open betting, or no hand)."""
    if state.phase == "not_dealt":
        return [HandNotDealt(state.reason or "no_bank")]
    if state.phase == "offer":
        return [BankOffered(state.offers[0])]
    return [BettingOpened(None, state.commitment, state.bettors)]


def next_offer_from(state: HandState) -> int:
    """Where the next hand's bank search starts (the button moves, or stays)."""
    if state.dealer is None:
        return state.offer_from
    if state.phase == "settled":
        return state.dealer % state.settings.seats + 1
    return state.dealer  # no Ante, or a voided hand: the DP keeps the button
