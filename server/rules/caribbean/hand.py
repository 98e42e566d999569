"""One Caribbean Stud hand as a state machine of pure transitions (docs/rules/caribbean.md sections 3 and 5).

``decide(state, command)`` checks a command and returns the events it causes, or
raises :class:`Violation` (with a stable code) and changes nothing;
``evolve(state, event)`` applies one event; ``step`` does both. The house banks
every hand, so a hand opens straight into betting.

>>> from server.rules.game import Player
>>> s = new_hand(CaribbeanSettings(), [Player(1, 1000)], bytes(32))
>>> s, _ = step(s, PlaceSpotBets(1, (SpotBet(2, 10, True), SpotBet(5, 10))))
>>> s, events = step(s, ConfirmBets(1))
>>> s.phase, s.turn
('decisions', ClosedBet(spot=2, seat=1, ante=10, jackpot=True))
>>> s, _ = step(s, PlaySpot(1))
>>> s, events = step(s, FoldSpot(1, 5))
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
from server.rules.caribbean.messages import (
    HOUSE,
    BetsCleared,
    BetsClosed,
    BetsConfirmed,
    BetsPassed,
    BettingOpened,
    CardsDealt,
    ClearBets,
    ClockExpired,
    CloseBets,
    ClosedBet,
    Command,
    ConfirmBets,
    DealerRevealed,
    DeckPrepared,
    DeclareDead,
    Event,
    FoldSpot,
    HandNotDealt,
    HandSettled,
    HandVoided,
    Leave,
    LeaveWithdrawn,
    PassBets,
    PlaceSpotBets,
    PlayerLeaving,
    PlaySpot,
    RepeatBets,
    SpotBet,
    SpotBetsPlaced,
    SpotDead,
    SpotFolded,
    SpotPlayed,
    Stay,
    TurnStarted,
)
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.caribbean.settlement import BACK_BET_MULTIPLE, CaribbeanSettlement, SpotWager, settle
from server.rules.errors import Violation
from server.rules.fairness import commitment, seeded_deck
from server.rules.game import Player
from server.rules.house.betting import BettingRound, check_hold
from server.rules.machine import need_phase, need_stay

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


# ---------------------------------------------------------------- decide


def decide(state: HandState, command: Command) -> list[Event]:
    """The events ``command`` causes, or a :class:`Violation`; the state is not touched."""
    return machine.decide(_HANDLERS, TERMINAL, state, command)


def _need_open_bets(state: HandState, seat: int, what: str) -> None:
    need_phase(state.phase, "betting", what)
    state.player(seat)
    if seat in state.leaving:
        raise Violation("you are leaving the table: no more bets this hand", "seat/leaving")
    if seat in state.confirmed:
        raise Violation("your bets are confirmed: Clear them first to change them", "bet/confirmed")


def _place(state: HandState, cmd: PlaceSpotBets) -> list[Event]:
    _need_open_bets(state, cmd.seat, "bet")
    if cmd.seed is not None and (not isinstance(cmd.seed, str) or len(cmd.seed) > MAX_SEED_LENGTH):
        raise Violation(f"a player seed is text of at most {MAX_SEED_LENGTH} characters", "bet/bad_seed")
    bets = checked_bets(state, cmd.seat, cmd.bets)
    if not bets and cmd.seat not in state.placed:
        # As in 6 Card Poker: an empty list takes bets back, so with none down it is no move (docs/choices.md).
        raise Violation("you have no bets to take back", "bet/none")
    return _BETTING.close_if_ready(state, [SpotBetsPlaced(cmd.seat, bets, cmd.seed)])


def _repeat(state: HandState, cmd: RepeatBets) -> list[Event]:
    _need_open_bets(state, cmd.seat, "bet")
    last = state.last_bets.get(cmd.seat)
    if not last:
        raise Violation("you have no bets from a last hand to repeat", "bet/no_last_bets")
    return [SpotBetsPlaced(cmd.seat, checked_bets(state, cmd.seat, last), None)]


def checked_bets(state: HandState, seat: int, bets: Any) -> tuple[SpotBet, ...]:
    """``bets`` as :class:`SpotBet` in spot order, or the Violation saying why ``seat`` may not place them."""
    s = state.settings
    if not isinstance(bets, tuple | list) or not all(_bet_shaped(b) for b in bets):
        raise Violation("bets are a list of (spot, ante, jackpot): whole numbers and a flag", "request/malformed")
    out = tuple(sorted((SpotBet(*b) for b in bets), key=lambda b: b.spot))
    if len({b.spot for b in out}) != len(out):
        raise Violation("a spot is listed twice", "request/malformed")
    if len(out) > s.max_hands:
        raise Violation(f"you may play at most {s.max_hands} spots, got {len(out)}", "bet/too_many")
    check_hold(state, seat, len(out), s.max_hands_while_waiting, "spot")
    for b in out:
        if not 1 <= b.spot <= s.spots:
            raise Violation(f"spot {b.spot}: this table's spots are 1 to {s.spots}", "spot/invalid")
        owner = next((other for other, theirs in state.placed.items()
                      if other != seat and any(t.spot == b.spot for t in theirs)), None)
        if owner is not None:
            raise Violation(f"spot {b.spot} is taken by seat {owner}", "spot/taken")
        if b.ante < s.min_ante:
            raise Violation(f"spot {b.spot}: the Ante is at least {s.min_ante}, got {b.ante}", "bet/below_min")
        if b.ante > s.max_ante:
            raise Violation(f"spot {b.spot}: the Ante is at most {s.max_ante}, got {b.ante}", "bet/above_max")
        if b.jackpot and not s.jackpot:
            raise Violation("this table offers no jackpot wager", "bet/no_jackpot")
    needed = sum(PLAY_MULTIPLE * b.ante + state.wager(b) for b in out)
    stack = state.player(seat).stack
    if needed > stack:
        raise Violation(f"your stack of {stack} must cover each Ante three times (Ante and Back Bet) "
                        f"plus the jackpot wagers: {needed}", "bet/insufficient_stack")
    return out


def _bet_shaped(bet: Any) -> bool:
    if not isinstance(bet, tuple | list) or len(bet) != 3:
        return False
    spot, ante, jackpot = bet
    return all(isinstance(n, int) and not isinstance(n, bool) for n in (spot, ante)) and isinstance(jackpot, bool)


def _confirm(state: HandState, cmd: ConfirmBets) -> list[Event]:
    _need_open_bets(state, cmd.seat, "deal")
    if not state.placed.get(cmd.seat):
        raise Violation("place a bet before you deal", "bet/none")
    return _BETTING.close_if_ready(state, [BetsConfirmed(cmd.seat)])


def _close(state: HandState) -> list[Event]:
    """Close the bets, then fix the deck, deal, and start the first turn."""
    bets = sorted((ClosedBet(b.spot, seat, b.ante, b.jackpot)
                   for seat, placed in state.placed.items() if seat in state.confirmed for b in placed),
                  key=lambda b: b.spot)
    closed = BetsClosed(tuple(bets))
    if not bets:
        return [closed, HandNotDealt("no_ante")]
    after = evolve(state, closed)
    dealt = _deal_events(after)
    after = apply_events(after, dealt)
    return [closed, *dealt, *(_advance(after) if after.phase == "decisions" else [])]


def _deal_events(state: HandState) -> list[Event]:
    """The deck (derived from the seeds, or arranged) and the deal; a short deck voids the hand."""
    seeds = state.player_seeds()
    deck = state.arranged_deck
    if deck is None:
        deck = seeded_deck(state.server_seed, seeds)
    order = (*(b.spot for b in state.bets), HOUSE)
    if state.seat_deck is not None:
        deck = deck_for_seats(order, HAND_SIZE, state.seat_deck, deck, dealer=HOUSE)
    hands = deal_hands(deck, order)
    dealer = hands.pop()[1]
    drill = state.arranged_deck is not None or state.seat_deck is not None
    events: list[Event] = [DeckPrepared(drill, seeds),
                           CardsDealt(order, tuple(hands), dealer)]
    # The dealer takes the last card of every round, so any short deck leaves the dealer short.
    if len(dealer) != HAND_SIZE:
        events.append(HandVoided("card_count"))
    return events


def deal_hands(deck: Sequence[Card], order: Sequence[int]) -> list[tuple[int, tuple[Card, ...]]]:
    """Deal one card at a time to each place of ``order``, five rounds, while the deck lasts.

    >>> deal_hands(tuple(range(52)), [2, 5, 0])[2]
    (0, (2, 5, 8, 11, 14))
    """
    hands: dict[int, list[Card]] = {place: [] for place in order}
    position = 0
    for _ in range(HAND_SIZE):
        for place in order:
            if position < len(deck):
                hands[place].append(deck[position])
                position += 1
    return [(place, tuple(cards)) for place, cards in hands.items()]


def _need_turn(state: HandState, seat: int, spot: int | None) -> ClosedBet:
    need_phase(state.phase, "decisions", "act")
    state.player(seat)
    turn = state.turn
    if turn is None or turn.seat != seat:
        whose = f"seat {turn.seat}'s (spot {turn.spot})" if turn is not None else "nobody's"
        raise Violation(f"it is {whose} turn, not seat {seat}'s", "turn/not_yours")
    if spot is not None and spot != turn.spot:
        raise Violation(f"spot {spot} is not in turn: spot {turn.spot} is", "turn/not_yours")
    return turn


def _play(state: HandState, cmd: PlaySpot) -> list[Event]:
    turn = _need_turn(state, cmd.seat, cmd.spot)
    return _after_decision(state, SpotPlayed(turn.seat, turn.spot, BACK_BET_MULTIPLE * turn.ante))


def _fold(state: HandState, cmd: FoldSpot) -> list[Event]:
    turn = _need_turn(state, cmd.seat, cmd.spot)
    return _after_decision(state, SpotFolded(turn.seat, turn.spot, "fold"))


def _after_decision(state: HandState, decision: Event) -> list[Event]:
    return [decision, *_advance(evolve(state, decision))]


def _advance(state: HandState) -> list[Event]:
    """Start the next turn, folding the spots of players who left; show down when none is left."""
    events: list[Event] = []
    while (turn := state.turn) is not None:
        if turn.seat not in state.leaving:
            return [*events, TurnStarted(turn.seat, turn.spot)]
        folded = SpotFolded(turn.seat, turn.spot, "left")
        events.append(folded)
        state = evolve(state, folded)
    return [*events, *_showdown(state)]


def _showdown(state: HandState) -> list[Event]:
    wagers = [SpotWager(b.spot, state.hands[b.spot], b.ante, play=b.spot in state.played, jackpot=b.jackpot,
                        dead=b.spot in state.dead) for b in state.bets]
    result = settle(state.settings, state.meter, state.dealer, wagers)
    # Step 6: hands that played are shown; a folded hand only when it won a jackpot award.
    shown = tuple((r.spot, state.hands[r.spot]) for r in result.spots
                  if not r.dead and (not r.folded or r.jackpot_award > 0))
    return [DealerRevealed(state.dealer, result.dealer_qualifies), HandSettled(result, shown)]


def _clock(state: HandState, cmd: ClockExpired) -> list[Event]:
    turn = state.turn
    if turn is None or turn.seat != cmd.seat:
        raise Violation(f"no clock of seat {cmd.seat} is running", "clock/stale")
    return _after_decision(state, SpotFolded(turn.seat, turn.spot, "clock"))


def _leave(state: HandState, cmd: Leave) -> list[Event]:
    state.player(cmd.seat)
    if cmd.seat in state.leaving:
        return []
    leaving = PlayerLeaving(cmd.seat)
    if state.phase == "betting":
        return _BETTING.leave(state, leaving)
    turn = state.turn
    if turn is None or turn.seat != cmd.seat:
        return [leaving]  # the seat's spots fold as their turns come
    return [leaving, *_after_decision(evolve(state, leaving), SpotFolded(turn.seat, turn.spot, "left"))]


def _stay(state: HandState, cmd: Stay) -> list[Event]:
    """Take back a leave that has not acted yet: the seat bets and decides as if it never asked."""
    state.player(cmd.seat)
    need_stay(state.leaving, state.left_out, cmd.seat)
    return [LeaveWithdrawn(cmd.seat)]


def _declare_dead(state: HandState, cmd: DeclareDead) -> list[Event]:
    need_phase(state.phase, "decisions", "declare a seat dead")
    state.player(cmd.seat)
    # A folded spot's Ante already belongs to the house, so only live spots can die.
    spots = [b.spot for b in state.bets if b.seat == cmd.seat and b.spot not in state.folded
             and b.spot not in state.dead]
    if not spots:
        raise Violation(f"seat {cmd.seat} has no live spot", "seat/not_in_hand")
    events: list[Event] = [SpotDead(cmd.seat, spot, "floor") for spot in spots]
    turn = state.turn
    if turn is None or turn.spot not in spots:
        return events
    return [*events, *_advance(apply_events(state, events))]


# ---------------------------------------------------------------- evolve


def _without(mapping: Mapping[int, Any], key: int) -> dict[int, Any]:
    return {k: v for k, v in mapping.items() if k != key}


def evolve(state: HandState, event: Event) -> HandState:
    """Apply one event. Events are facts: this never refuses."""
    match event:
        case BettingOpened(seats=seats, meter=meter):
            return replace(state, phase="betting", seats=seats, meter=meter)
        case SpotBetsPlaced(seat=seat, bets=bets, seed=seed):
            placed = {**state.placed, seat: bets} if bets else _without(state.placed, seat)
            seeds = {**state.seeds, seat: seed} if seed is not None else state.seeds
            passed = state.passed - {seat} if bets else state.passed
            return replace(state, placed=placed, seeds=seeds, passed=passed)
        case BetsConfirmed(seat=seat):
            return replace(state, confirmed=state.confirmed | {seat})
        case BetsCleared(seat=seat, reason=reason):
            left_out = state.left_out | {seat} if reason == "left" else state.left_out
            return replace(state, placed=_without(state.placed, seat), confirmed=state.confirmed - {seat},
                           seeds=_without(state.seeds, seat), left_out=left_out)
        case BetsPassed(seat=seat):
            return replace(state, placed=_without(state.placed, seat), seeds=_without(state.seeds, seat),
                           passed=state.passed | {seat})
        case PlayerLeaving(seat=seat):
            return replace(state, leaving=state.leaving | {seat})
        case LeaveWithdrawn(seat=seat):
            return replace(state, leaving=state.leaving - {seat})
        case BetsClosed(bets=bets):
            confirmed = frozenset(b.seat for b in bets)
            return replace(state, phase="decisions" if bets else state.phase, bets=bets, confirmed=confirmed,
                           placed={}, seeds={s: seed for s, seed in state.seeds.items() if s in confirmed})
        case HandNotDealt(reason=reason):
            return replace(state, phase="not_dealt", reason=reason)
        case DeckPrepared(arranged=arranged):
            return replace(state, arranged=arranged)
        case CardsDealt(order=order, hands=hands, dealer=dealer):
            return replace(state, deal_order=order, hands=dict(hands), dealer=dealer)
        case TurnStarted():
            return state
        case SpotPlayed(spot=spot, bet=bet):
            return replace(state, played={**state.played, spot: bet})
        case SpotFolded(seat=seat, spot=spot, reason=reason):
            left_out = state.left_out | {seat} if reason == "left" else state.left_out
            return replace(state, folded={**state.folded, spot: reason}, left_out=left_out)
        case SpotDead(spot=spot):
            return replace(state, dead=state.dead | {spot})
        case DealerRevealed(qualifies=qualifies):
            return replace(state, dealer_qualifies=qualifies)
        case HandSettled(settlement=settlement, shown=shown):
            return replace(state, phase="settled", settlement=settlement, shown=shown)
        case HandVoided(reason=reason):
            return replace(state, phase="void", reason=reason)
    raise TypeError(f"not an event of this game: {event!r}")


def step(state: HandState, command: Command) -> tuple[HandState, list[Event]]:
    """Decide and apply: the new state and every event the command caused."""
    events = decide(state, command)
    return apply_events(state, events), events


def apply_events(state: HandState, events: Iterable[Event]) -> HandState:
    """Fold recorded events into a state (for replay and recovery)."""
    return machine.apply_events(evolve, state, events)


_BETTING: Final = BettingRound(apply_events, _close)
_HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    PlaceSpotBets: _place, RepeatBets: _repeat, ConfirmBets: _confirm, ClearBets: _BETTING.clear,
    PassBets: _BETTING.pass_bets,
    CloseBets: _BETTING.close_bets, PlaySpot: _play, FoldSpot: _fold, ClockExpired: _clock, Leave: _leave,
    Stay: _stay, DeclareDead: _declare_dead,
}
