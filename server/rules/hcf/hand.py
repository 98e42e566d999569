"""One High Card Flush hand as a state machine of pure transitions (docs/rules/hcf.md section 3).

``decide(state, command)`` checks a command and returns the events it causes, or
raises :class:`Violation` (with a stable code) and changes nothing;
``evolve(state, event)`` applies one event. ``step`` does both. The table shell
feeds commands, records events, and never reaches inside.

>>> from server.rules.hcf.settings import HcfSettings
>>> s = new_hand(HcfSettings(), [Player(1, 1000), Player(2, 1000)], bytes(32), offer_from=1)
>>> s.phase, s.offered
('offer', 1)
>>> s, _ = step(s, AcceptBank(1))
>>> s, _ = step(s, PlaceBets(2, ante=10))
>>> s.phase
'decisions'
>>> s, events = step(s, Raise(2, 10))
>>> s.phase, [e.type for e in events][-2:]
('settled', ['dealer_revealed', 'hand_settled'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal

from server.rules import machine
from server.rules.arrange import SeatDeck, deck_for_seats
from server.rules.cards import Card
from server.rules.errors import Violation
from server.rules.fairness import commitment, seeded_deck
from server.rules.game import Player
from server.rules.hcf.evaluate import HAND_SIZE, evaluate
from server.rules.hcf.messages import (
    AcceptBank,
    BankAccepted,
    BankDeclined,
    BankOffered,
    BetsClosed,
    BetsPassed,
    BetsPlaced,
    BettingOpened,
    CardsDealt,
    ClockExpired,
    CloseBets,
    Command,
    DealerRevealed,
    DeckPrepared,
    DeclareDead,
    DeclineBank,
    Event,
    FeesCollected,
    Fold,
    HandNotDealt,
    HandSettled,
    HandVoided,
    Leave,
    LeaveWithdrawn,
    Misdeal,
    PassBets,
    PlaceBets,
    PlayerFolded,
    PlayerLeaving,
    PlayerRaised,
    Raise,
    SeatDead,
    Stay,
    TurnStarted,
)
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.settlement import Settlement, Wager, deal_order, pays_fee, settle
from server.rules.machine import need_phase, need_stay

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
    settlement: Settlement | None = None
    reason: str | None = None
    arranged_deck: tuple[Card, ...] | None = None
    seat_deck: SeatDeck | None = None  # a drill deck given by seat: made into a deck at the deal

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
    fee = settings.fee if pays_fee(settings, dealer=True) else 0
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
) -> HandState:
    """A fresh hand. California starts by offering the bank clockwise from ``offer_from``.

    ``server_seed`` stays secret in the state until the hand ends (views never
    show it). ``arranged_deck``, for a host's drill, replaces the derived deck:
    cards in dealing order; a short deck deals short hands, which end dead. The
    caller runs :func:`opening_events` to learn what the hand announced. A
    :class:`SeatDeck` gives cards by seat instead (the DP's as ``DEALER``): the
    deck is made from it at the deal, in the dealing order (section 3, step 4).
    """
    seat_deck = arranged_deck if isinstance(arranged_deck, SeatDeck) else None
    arranged = tuple(arranged_deck) if arranged_deck is not None and not isinstance(arranged_deck, SeatDeck) else None
    seated = tuple(sorted(players, key=lambda p: p.seat))
    if settings.house_banked:
        bettors = tuple(p.seat for p in seated)
        return HandState(settings, seated, server_seed, offer_from, "betting", bettors=bettors,
                         arranged_deck=arranged, seat_deck=seat_deck)
    by_seat = {p.seat: p for p in seated}
    offers = tuple(s for s in clockwise_from(settings.seats, offer_from)
                   if s in by_seat and eligible_to_bank(settings, by_seat[s]))
    state = HandState(settings, seated, server_seed, offer_from, "offer", offers=offers,
                      arranged_deck=arranged, seat_deck=seat_deck)
    if len(seated) < 2 or not offers:
        return replace(state, phase="not_dealt", reason="no_bank")
    return state


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


# ---------------------------------------------------------------- decide


def decide(state: HandState, command: Command) -> list[Event]:
    """The events ``command`` causes, or a :class:`Violation`; the state is not touched."""
    return machine.decide(_HANDLERS, TERMINAL, state, command)


def _accept(state: HandState, cmd: AcceptBank) -> list[Event]:
    need_phase(state.phase, "offer", "take the bank")
    _need_offered(state, cmd.seat)
    bettors = tuple(s for s in deal_order(state.settings.seats, cmd.seat)
                    if any(p.seat == s for p in state.players))
    events: list[Event] = [BankAccepted(cmd.seat), BettingOpened(cmd.seat, state.commitment, bettors)]
    # Players who asked to leave during the offer sit this hand out (docs/rules/hcf.md section 4).
    events += [BetsPassed(s, "left") for s in bettors if s in state.leaving]
    return _close_if_all_answered(state, events) if len(events) > 2 else events


def _decline(state: HandState, cmd: DeclineBank) -> list[Event]:
    need_phase(state.phase, "offer", "decline the bank")
    _need_offered(state, cmd.seat)
    return _after_decline(state, cmd.seat, "declined")


def _need_offered(state: HandState, seat: int) -> None:
    state.player(seat)
    if state.offered != seat:
        raise Violation(f"the bank is offered to seat {state.offered}, not {seat}", "turn/not_yours")


def _after_decline(state: HandState, seat: int, reason: str) -> list[Event]:
    events: list[Event] = [BankDeclined(seat, reason)]
    for later in state.offers[state.offer_index + 1:]:
        if later not in state.leaving:
            return [*events, BankOffered(later)]
        events.append(BankDeclined(later, "left"))
    return [*events, HandNotDealt("no_bank")]


def _place_bets(state: HandState, cmd: PlaceBets) -> list[Event]:
    need_phase(state.phase, "betting", "bet")
    _need_bettor(state, cmd.seat)
    s = state.settings
    amounts = (cmd.ante, cmd.straight_flush_bonus, cmd.flush_bonus)
    if any(isinstance(a, bool) or not isinstance(a, int) for a in amounts):
        raise Violation("bets are whole numbers of chips", "request/malformed")
    if not cmd.ante and (cmd.straight_flush_bonus or cmd.flush_bonus):
        raise Violation("a bonus bet needs an Ante", "bet/bonus_without_ante")
    if cmd.ante < s.min_ante:
        raise Violation(f"the Ante is at least {s.min_ante}, got {cmd.ante}", "bet/below_min")
    if cmd.ante > s.max_ante:
        raise Violation(f"the Ante is at most {s.max_ante}, got {cmd.ante}", "bet/above_max")
    for name, amount in (("Straight Flush", cmd.straight_flush_bonus), ("Flush", cmd.flush_bonus)):
        if amount and amount < s.min_bonus:
            raise Violation(f"the {name} bonus is at least {s.min_bonus}, got {amount}", "bet/below_min")
        if amount > s.max_bonus:
            raise Violation(f"the {name} bonus is at most {s.max_bonus}, got {amount}", "bet/above_max")
    if cmd.seed is not None and (not isinstance(cmd.seed, str) or len(cmd.seed) > MAX_SEED_LENGTH):
        raise Violation(f"a player seed is text of at most {MAX_SEED_LENGTH} characters", "bet/bad_seed")
    fee = s.fee if pays_fee(s, dealer=False) else 0
    needed = cmd.ante + cmd.straight_flush_bonus + cmd.flush_bonus + cmd.ante + fee
    stack = state.player(cmd.seat).stack
    if needed > stack:
        raise Violation(
            f"your stack of {stack} must cover these bets, the smallest raise and the fee ({needed})",
            "bet/insufficient_stack",
        )
    placed = BetsPlaced(cmd.seat, cmd.ante, cmd.straight_flush_bonus, cmd.flush_bonus, cmd.seed)
    return _close_if_all_answered(state, [placed])


def _pass_bets(state: HandState, cmd: PassBets) -> list[Event]:
    need_phase(state.phase, "betting", "pass")
    _need_bettor(state, cmd.seat)
    return _close_if_all_answered(state, [BetsPassed(cmd.seat, "passed")])


def _need_bettor(state: HandState, seat: int) -> None:
    state.player(seat)
    if seat not in state.bettors:
        raise Violation("the designated player banks the hand and does not bet", "bet/not_a_player")
    if seat in state.bets or seat in state.passed:
        raise Violation("you have already answered this betting round", "bet/already_answered")


def _close_if_all_answered(state: HandState, events: list[Event]) -> list[Event]:
    after = apply_events(state, events)
    if any(s not in after.bets and s not in after.passed for s in after.bettors):
        return events
    return [*events, *_close(after)]


def _close_bets(state: HandState, _cmd: CloseBets) -> list[Event]:
    need_phase(state.phase, "betting", "close the bets")
    events: list[Event] = [BetsPassed(s, "clock") for s in state.bettors
                           if s not in state.bets and s not in state.passed]
    return [*events, *_close(apply_events(state, events))]


def _close(state: HandState) -> list[Event]:
    """Close the bets, then take the fees, fix the deck, deal, and start the first turn."""
    closed = BetsClosed(state.in_hand)
    if not state.bets:
        return [closed, HandNotDealt("no_ante")]
    dealt = [closed, *_deal_events(apply_events(state, [closed]))]
    after = apply_events(state, dealt)
    return dealt if after.phase != "decisions" else [*dealt, *_advance(after)]


def _deal_events(state: HandState) -> list[Event]:
    """Fees, deck and deal, once the bets are closed."""
    s = state.settings
    fees = [(seat, s.fee) for seat in state.in_hand if pays_fee(s, dealer=False)]
    if state.dealer is not None and pays_fee(s, dealer=True):
        fees.append((state.dealer, s.fee))
    seeds = tuple((seat, b.seed) for seat, b in sorted(state.bets.items()) if b.seed is not None)
    arranged = state.arranged_deck
    deck = arranged if arranged is not None else seeded_deck(state.server_seed, seeds)
    order = (*(seat for seat in deal_order(s.seats, state.dealer) if seat in state.bets),
             state.dealer if state.dealer is not None else HOUSE)
    if state.seat_deck is not None:
        deck = deck_for_seats(order, HAND_SIZE, state.seat_deck, deck, dealer=order[-1])
    hands = deal_hands(deck, order)
    drill = arranged is not None or state.seat_deck is not None
    events: list[Event] = [FeesCollected(tuple(sorted(fees))), DeckPrepared(drill, seeds),
                           CardsDealt(order, hands)]
    if len(dict(hands)[order[-1]]) != HAND_SIZE:
        return [*events, HandVoided("card_count")]
    events += [SeatDead(seat, "card_count") for seat, cards in hands if len(cards) != HAND_SIZE]
    return events


def deal_hands(deck: Sequence[Card], order: Sequence[int]) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """Deal one card at a time to each seat of ``order``, seven rounds, while the deck lasts.

    >>> dict(deal_hands(tuple(range(52)), [3, 1]))[1]
    (1, 3, 5, 7, 9, 11, 13)
    """
    hands: dict[int, list[Card]] = {seat: [] for seat in order}
    position = 0
    for _ in range(HAND_SIZE):
        for seat in order:
            if position < len(deck):
                hands[seat].append(deck[position])
                position += 1
    return tuple((seat, tuple(cards)) for seat, cards in hands.items())


def _fold(state: HandState, cmd: Fold) -> list[Event]:
    _need_turn(state, cmd.seat)
    return _after_decision(state, PlayerFolded(cmd.seat, "fold"))


def _raise(state: HandState, cmd: Raise) -> list[Event]:
    _need_turn(state, cmd.seat)
    amount = cmd.amount
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise Violation("a raise is a whole number of chips", "request/malformed")
    ante = state.bets[cmd.seat].ante
    limit = evaluate(state.hands[cmd.seat]).raise_limit
    if amount < ante:
        raise Violation(f"the raise is at least the Ante ({ante}), got {amount}", "raise/below_min")
    if amount > limit * ante:
        raise Violation(f"your flush allows a raise of up to {limit}x the Ante ({limit * ante}), "
                        f"got {amount}", "raise/above_limit")
    room = state.player(cmd.seat).stack - state.committed(cmd.seat)
    if amount > room:
        raise Violation(f"your stack has only {room} chips left for the raise", "raise/insufficient_stack")
    return _after_decision(state, PlayerRaised(cmd.seat, amount))


def _need_turn(state: HandState, seat: int) -> None:
    need_phase(state.phase, "decisions", "act")
    state.player(seat)
    if state.turn != seat:
        raise Violation(f"it is seat {state.turn}'s turn, not seat {seat}'s", "turn/not_yours")


def _after_decision(state: HandState, decision: Event) -> list[Event]:
    after = evolve(state, decision)
    return [decision, *_advance(after)]


def _advance(state: HandState) -> list[Event]:
    """Start the next turn, folding players who left; settle when nobody is left."""
    events: list[Event] = []
    while (seat := state.turn) is not None:
        if seat not in state.leaving:
            return [*events, TurnStarted(seat)]
        folded = PlayerFolded(seat, "left")
        events.append(folded)
        state = evolve(state, folded)
    return [*events, *_showdown(state)]


def _showdown(state: HandState) -> list[Event]:
    dealer_seat = state.dealer if state.dealer is not None else HOUSE
    dealer_cards = state.hands[dealer_seat]
    wagers = [
        Wager(seat, state.hands.get(seat, ()), b.ante, b.straight_flush_bonus, b.flush_bonus,
              state.raises.get(seat, 0))
        for seat, b in sorted(state.bets.items())
    ]
    stack = state.player(state.dealer).stack if state.dealer is not None else None
    result = settle(state.settings, dealer_cards, wagers, button=state.dealer,
                    dealer_stack=stack, dead_seats=state.dead)
    shown = tuple((r.seat, state.hands[r.seat]) for r in result.seats
                  if not r.folded and (not r.dead or r.seat not in state.dead))
    return [DealerRevealed(dealer_seat, dealer_cards, result.dealer_qualifies), HandSettled(result, shown)]


def _clock(state: HandState, cmd: ClockExpired) -> list[Event]:
    if state.phase == "offer" and state.offered == cmd.seat:
        return _after_decline(state, cmd.seat, "clock")
    if state.phase == "decisions" and state.turn == cmd.seat:
        return _after_decision(state, PlayerFolded(cmd.seat, "clock"))
    raise Violation(f"no clock of seat {cmd.seat} is running", "clock/stale")


def _leave(state: HandState, cmd: Leave) -> list[Event]:
    state.player(cmd.seat)
    if cmd.seat in state.leaving:
        return []
    events: list[Event] = [PlayerLeaving(cmd.seat)]
    if state.phase == "offer" and state.offered == cmd.seat:
        return [*events, *_after_decline(state, cmd.seat, "left")]
    if state.phase == "betting" and cmd.seat in state.bettors and cmd.seat not in state.bets \
            and cmd.seat not in state.passed:
        return _close_if_all_answered(state, [*events, BetsPassed(cmd.seat, "left")])
    if state.phase == "decisions" and state.turn == cmd.seat:
        return [*events, *_after_decision(evolve(state, events[0]), PlayerFolded(cmd.seat, "left"))]
    return events


def _stay(state: HandState, cmd: Stay) -> list[Event]:
    """Take back a leave that has not acted yet: the seat bets, banks and decides as if it never asked."""
    state.player(cmd.seat)
    need_stay(state.leaving, state.left_out, cmd.seat)
    return [LeaveWithdrawn(cmd.seat)]


def _declare_dead(state: HandState, cmd: DeclareDead) -> list[Event]:
    if cmd.seat == state.dealer:
        return decide(state, Misdeal("dealer_dead"))
    need_phase(state.phase, "decisions", "declare a seat dead")
    if cmd.seat not in state.bets or cmd.seat in state.dead:
        raise Violation(f"seat {cmd.seat} has no live hand", "seat/not_in_hand")
    if state.raises.get(cmd.seat) == 0:
        raise Violation(f"seat {cmd.seat} folded: its bets already belong to the DP", "seat/not_in_hand")
    dead = SeatDead(cmd.seat, "floor")
    if state.turn != cmd.seat:
        return [dead]
    return [dead, *_advance(evolve(state, dead))]


_HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    AcceptBank: _accept, DeclineBank: _decline, PlaceBets: _place_bets, PassBets: _pass_bets,
    CloseBets: _close_bets, Fold: _fold, Raise: _raise, ClockExpired: _clock, Leave: _leave,
    Stay: _stay, DeclareDead: _declare_dead,
}


# ---------------------------------------------------------------- evolve


def evolve(state: HandState, event: Event) -> HandState:
    """Apply one event. Events are facts: this never refuses."""
    match event:
        case BankOffered():
            return replace(state, offer_index=state.offers.index(event.seat))
        case BankDeclined():
            return state
        case BankAccepted(seat=seat):
            return replace(state, dealer=seat)
        case BettingOpened(bettors=bettors):
            return replace(state, phase="betting", bettors=bettors)
        case BetsPlaced():
            bets = Bets(event.ante, event.straight_flush_bonus, event.flush_bonus, event.seed)
            return replace(state, bets={**state.bets, event.seat: bets})
        case BetsPassed(seat=seat, reason=reason):
            return replace(state, passed=state.passed | {seat}, left_out=_left_out(state, seat, reason))
        case PlayerLeaving(seat=seat):
            return replace(state, leaving=state.leaving | {seat})
        case LeaveWithdrawn(seat=seat):
            return replace(state, leaving=state.leaving - {seat})
        case BetsClosed():
            return replace(state, phase="decisions" if state.bets else state.phase)
        case HandNotDealt(reason=reason):
            return replace(state, phase="not_dealt", reason=reason)
        case FeesCollected(fees=fees):
            return replace(state, fees=dict(fees))
        case DeckPrepared(arranged=arranged):
            return replace(state, arranged=arranged)
        case CardsDealt(order=order, hands=hands):
            turn_order = tuple(seat for seat in order if seat in state.bets)
            return replace(state, hands=dict(hands), deal_sequence=order, turn_order=turn_order)
        case SeatDead(seat=seat):
            return replace(state, dead=state.dead | {seat})
        case TurnStarted():
            return state
        case PlayerFolded(seat=seat, reason=reason):
            timed = state.timed_out | {seat} if reason == "clock" else state.timed_out
            return replace(state, raises={**state.raises, seat: 0}, timed_out=timed,
                           left_out=_left_out(state, seat, reason))
        case PlayerRaised(seat=seat, amount=amount):
            return replace(state, raises={**state.raises, seat: amount})
        case DealerRevealed():
            return state
        case HandSettled(settlement=settlement):
            return replace(state, phase="settled", settlement=settlement)
        case HandVoided(reason=reason):
            return replace(state, phase="void", reason=reason)
    raise TypeError(f"not an event of this game: {event!r}")


def _left_out(state: HandState, seat: int, reason: str) -> frozenset[int]:
    return state.left_out | {seat} if reason == "left" else state.left_out


def step(state: HandState, command: Command) -> tuple[HandState, list[Event]]:
    """Decide and apply: the new state and every event the command caused."""
    events = decide(state, command)
    return apply_events(state, events), events


def apply_events(state: HandState, events: Iterable[Event]) -> HandState:
    """Fold recorded events into a state (for replay and recovery)."""
    return machine.apply_events(evolve, state, events)
