"""One 6 Card Poker 1-2-5 hand as a state machine of pure transitions (docs/rules/sixcard.md sections 3-5, 7).

``decide(state, command)`` checks a command and returns the events it causes, or
raises :class:`Violation` (with a stable code) and changes nothing;
``evolve(state, event)`` applies one event. ``step`` does both. The deck stays in
the state (the stub feeds the draws and the dealer exchange) and is never part of
an event: replaying the events rebuilds it from the seeds.

>>> from server.rules.cards import parse_cards
>>> from server.rules.game import Player
>>> from server.rules.sixcard.settings import SixcardSettings
>>> deck = parse_cards("As Kd Ad Kh Ah 7c Ac 5s 2c 3d Qs Js")  # box 1 and the dealer in turn, then the stub
>>> s = new_hand(SixcardSettings(boxes=2), [Player(1, 1000)], bytes(32), arranged_deck=deck)
>>> s, _ = step(s, PlaceBoxBets(1, ((1, 10, 0),)))
>>> s, events = step(s, ConfirmBets(1))
>>> s.phase, s.turn, [e.type for e in events][-2:]
('decisions', 1, ['cards_dealt', 'turn_started'])
>>> s, events = step(s, RaiseBox(1, 1))
>>> s.phase, s.settlement.boxes[0].cls, s.settlement.boxes[0].net
('settled', 'quads', 410)
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
from server.rules.house.betting import BettingRound, check_hold
from server.rules.machine import need_phase, need_stay
from server.rules.poker import qualifies_pair, rank5
from server.rules.sixcard.messages import (
    BetsCleared,
    BetsClosed,
    BetsConfirmed,
    BetsPassed,
    BettingOpened,
    BlindBetsPlaced,
    BlindBoxesShown,
    BoxBet,
    BoxBetsPlaced,
    BoxFolded,
    BoxRaised,
    BuyCard,
    CancelExchange,
    CardsDealt,
    CardsDrawn,
    ClearBets,
    ClockExpired,
    CloseBets,
    CloseExchange,
    Command,
    ConfirmBets,
    ContinueExchange,
    DealerExchanged,
    DealerRevealed,
    DeckPrepared,
    DeclareDead,
    Event,
    ExchangeCancelled,
    ExchangeCards,
    ExchangeClosed,
    ExchangeContinued,
    ExchangeOpened,
    ExchangeRequested,
    FoldBox,
    HandNotDealt,
    HandSettled,
    HandVoided,
    Leave,
    LeaveWithdrawn,
    PassBets,
    PlaceBoxBets,
    PlayerLeaving,
    RaiseBox,
    RepeatBets,
    RequestExchange,
    SeatDead,
    Stay,
    TurnStarted,
)
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.settlement import (
    BLIND,
    BONUS_ONLY,
    EXCHANGE_SIZES,
    HAND_SIZE,
    OPEN,
    BoxWager,
    Draw,
    Role,
    SixcardSettlement,
    box_roles,
    dealer_exchange,
    final_cards,
    play_order,
    ratio_ok,
    settle,
)

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


# ---------------------------------------------------------------- decide


def decide(state: HandState, command: Command) -> list[Event]:
    """The events ``command`` causes, or a :class:`Violation`; the state is not touched."""
    return machine.decide(_HANDLERS, TERMINAL, state, command)


# ------------------------------------------------ betting


def check_bets(state: HandState, seat: int, bets: Sequence[Any], seed: Any) -> tuple[BoxBet, ...]:
    """``seat``'s bets in box order if they may stand (section 3), else raise a Violation naming the rule."""
    s = state.settings
    if not isinstance(bets, tuple | list) or not all(_is_box_bet(b) for b in bets):
        raise Violation("bets are (box, ante, bonus) triples of whole numbers", "request/malformed")
    if seed is not None and (not isinstance(seed, str) or len(seed) > MAX_SEED_LENGTH):
        raise Violation(f"a player seed is text of at most {MAX_SEED_LENGTH} characters", "bet/bad_seed")
    placed = tuple(sorted((int(b), int(a), int(n)) for b, a, n in bets))
    numbers = [b for b, _, _ in placed]
    check_hold(state, seat, len(placed), s.max_hands_while_waiting, "box")
    for box, ante, bonus in placed:
        _check_box(state, seat, box, numbers)
        if ante == 0 and bonus == 0:
            raise Violation(f"box {box}: a box needs an Ante, a bonus bet or both", "bet/below_min")
        if ante and ante < s.min_ante:
            raise Violation(f"box {box}: the Ante is at least {s.min_ante}, got {ante}", "bet/below_min")
        if s.max_ante is not None and ante > s.max_ante:
            raise Violation(f"box {box}: the Ante is at most {s.max_ante}, got {ante}", "bet/above_max")
        if bonus and bonus < s.min_bonus:
            raise Violation(f"box {box}: the bonus bet is at least {s.min_bonus}, got {bonus}", "bonus/below_min")
        if s.max_bonus is not None and bonus > s.max_bonus:
            raise Violation(f"box {box}: the bonus bet is at most {s.max_bonus}, got {bonus}", "bonus/above_max")
    if not ratio_ok([a for _, a, _ in placed], s.ante_ratio):
        antes = [a for _, a, _ in placed if a]
        raise Violation(f"your largest Ante ({max(antes)}) may be at most {s.ante_ratio}x your smallest "
                        f"({min(antes)})", "bet/ante_ratio")
    needed = cover_needed(placed)
    stack = state.player(seat).stack
    if needed > stack:
        raise Violation(f"your stack of {stack} must cover every Bet and draw fee these boxes may take "
                        f"({needed})", "bet/insufficient_stack")
    return placed


def _is_box_bet(item: Any) -> bool:
    return (isinstance(item, tuple | list) and len(item) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in item))


def _check_box(state: HandState, seat: int, box: int, numbers: list[int]) -> None:
    if not 1 <= box <= state.settings.boxes:
        raise Violation(f"the table has boxes 1 to {state.settings.boxes}, not {box}", "box/invalid")
    if numbers.count(box) > 1:
        raise Violation(f"box {box} is given twice", "box/invalid")
    for other, pending in state.pending.items():
        if other != seat and any(b == box for b, _, _ in pending.bets):
            raise Violation(f"box {box} is taken by seat {other}", "box/taken")


def cover_needed(bets: Sequence[BoxBet]) -> int:
    """The chips one player's bets may take at most: 4x Ante on open boxes, 3x on blind ones, every bonus.

    >>> cover_needed([(1, 10, 1), (2, 10, 0), (3, 20, 5), (4, 0, 2)])  # (40 + 1) + 40 + (60 + 5) + 2
    148
    """
    roles = box_roles(BoxWager(box, "", (), ante, bonus) for box, ante, bonus in bets)
    per_role = {OPEN: COVER_OPEN, BLIND: COVER_BLIND, BONUS_ONLY: 0}
    return sum(per_role[roles[box]] * ante + bonus for box, ante, bonus in bets)


def _place(state: HandState, cmd: PlaceBoxBets) -> list[Event]:
    _need_bettor(state, cmd.seat)
    bets = check_bets(state, cmd.seat, cmd.bets, cmd.seed)
    if not bets and cmd.seat not in state.pending:
        raise Violation("you have no bets to take back", "bet/none")
    return _BETTING.close_if_ready(state, [BoxBetsPlaced(cmd.seat, bets, cmd.seed)])


def _need_bettor(state: HandState, seat: int) -> None:
    need_phase(state.phase, "betting", "bet")
    state.player(seat)
    if seat in state.leaving:
        raise Violation("you are leaving the table", "seat/not_in_hand")
    pending = state.pending.get(seat)
    if pending is not None and pending.confirmed:
        raise Violation("your bets are confirmed: Clear them to bet again", "bet/confirmed")


def _confirm(state: HandState, cmd: ConfirmBets) -> list[Event]:
    _need_bettor(state, cmd.seat)
    if cmd.seat not in state.pending:
        raise Violation("place a bet before you Deal", "bet/none")
    return _BETTING.close_if_ready(state, [BetsConfirmed(cmd.seat)])


def _repeat(state: HandState, cmd: RepeatBets) -> list[Event]:
    _need_bettor(state, cmd.seat)
    last = state.last_bets.get(cmd.seat)
    if not last:
        raise Violation("you have no bets of an earlier hand to repeat", "bet/none")
    bets = check_bets(state, cmd.seat, last, cmd.seed)
    return [BoxBetsPlaced(cmd.seat, bets, cmd.seed)]


def _close(state: HandState) -> list[Event]:
    """Close the bets (their chips move now), place the blind Bets, fix the deck, deal, start the first turn."""
    closed = BetsClosed(tuple(sorted((box, seat, ante, bonus) for seat, p in state.pending.items()
                                     for box, ante, bonus in p.bets)))
    if not closed.bets:
        return [closed, HandNotDealt("no_bets")]
    events: list[Event] = [closed]
    after = evolve(state, closed)
    blind = tuple((b.box, b.seat, 2 * b.ante) for b in after.boxes if b.role == BLIND)
    if blind:
        events.append(BlindBetsPlaced(blind))
    seeds = tuple((seat, p.seed) for seat, p in sorted(state.pending.items()) if p.seed is not None)
    prepared = DeckPrepared(state.arranged_deck is not None or state.seat_deck is not None, seeds)
    events.append(prepared)
    after = apply_events(after, events[1:])
    order = (*(b.box for b in after.boxes), DEALER)
    if len(after.deck) < HAND_SIZE * len(order):
        return [*events, HandVoided("card_count")]
    dealt = deal_boxes(after.deck, order)
    hands = dict(dealt)
    deal = CardsDealt(order, tuple((box, cards) for box, cards in dealt if box != DEALER), hands[DEALER])
    events.append(deal)
    return [*events, *_advance(evolve(after, deal))]


def deal_boxes(deck: Sequence[Card], order: Sequence[int]) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """Deal one card at a time to each place of ``order``, five rounds.

    >>> deal_boxes(tuple(range(52)), [2, 0])
    ((2, (0, 2, 4, 6, 8)), (0, (1, 3, 5, 7, 9)))
    """
    return tuple((place, tuple(deck[i * len(order) + k] for i in range(HAND_SIZE)))
                 for k, place in enumerate(order))


def deck_for(state: HandState, seeds: Sequence[tuple[int, str]]) -> tuple[Card, ...]:
    """The hand's deck: the arranged one, or the shuffle of the server seed and the player seeds in seat order.

    A deck given by box takes the boxes' dealing order (known once the bets are closed); the rest is the shuffle.
    """
    if state.arranged_deck is not None:
        return state.arranged_deck
    shuffled = seeded_deck(state.server_seed, seeds)
    if state.seat_deck is not None:
        order = (*(b.box for b in state.boxes), DEALER)
        return deck_for_seats(order, HAND_SIZE, state.seat_deck, shuffled, dealer=DEALER)
    return shuffled


# ------------------------------------------------ decisions


def _need_turn(state: HandState, seat: int, box: int | None) -> Box:
    """The box in turn, if it is ``seat``'s and ``box`` names it (None: whichever it is)."""
    need_phase(state.phase, "decisions", "act")
    state.player(seat)
    turn = state.turn
    if turn is None or state.box(turn).seat != seat:
        raise Violation(f"it is not your turn (box in turn: {turn})", "turn/not_yours")
    if box is not None and box != turn:
        raise Violation(f"box {turn} is in turn, not box {box}", "turn/not_yours")
    return state.box(turn)


def _raise(state: HandState, cmd: RaiseBox) -> list[Event]:
    b = _need_turn(state, cmd.seat, cmd.box)
    return _after_decision(state, BoxRaised(cmd.seat, b.box, 2 * b.ante))


def _fold(state: HandState, cmd: FoldBox) -> list[Event]:
    b = _need_turn(state, cmd.seat, cmd.box)
    return _after_decision(state, BoxFolded(cmd.seat, b.box, "fold"))


def _buy(state: HandState, cmd: BuyCard) -> list[Event]:
    b = _need_draw(state, cmd.seat, cmd.box)
    new = _stub(state, 1)
    if new is None:
        return [HandVoided("card_count")]
    return [CardsDrawn(cmd.seat, b.box, "buy", (), (), new, b.ante)]


def _exchange(state: HandState, cmd: ExchangeCards) -> list[Event]:
    b = _need_draw(state, cmd.seat, cmd.box)
    positions = cmd.positions
    if not isinstance(positions, tuple | list) or not all(
            isinstance(p, int) and not isinstance(p, bool) for p in positions):
        raise Violation("an exchange names card positions 1 to 5", "request/malformed")
    if len(positions) not in EXCHANGE_SIZES:
        raise Violation(f"an exchange replaces 1, 2 or 5 cards, not {len(positions)}", "draw/count")
    if len(set(positions)) != len(positions) or not all(1 <= p <= HAND_SIZE for p in positions):
        raise Violation(f"positions are distinct numbers 1 to {HAND_SIZE}, got {list(positions)}",
                        "draw/positions")
    ordered = tuple(sorted(positions))
    new = _stub(state, len(ordered))
    if new is None:
        return [HandVoided("card_count")]
    discarded = tuple(state.cards[b.box][p - 1] for p in ordered)
    return [CardsDrawn(cmd.seat, b.box, "exchange", ordered, discarded, new, b.ante)]


def _need_draw(state: HandState, seat: int, box: int | None) -> Box:
    b = _need_turn(state, seat, box)
    if b.box in state.draws:
        raise Violation(f"box {b.box} has had its draw: Raise or Fold", "draw/done")
    return b


def _stub(state: HandState, count: int) -> tuple[Card, ...] | None:
    """The stub's next ``count`` cards, or None when an arranged deck has run out."""
    cards = state.deck[state.next_card:state.next_card + count]
    return cards if len(cards) == count else None


def _after_decision(state: HandState, decision: Event) -> list[Event]:
    return [decision, *_advance(evolve(state, decision))]


def _advance(state: HandState) -> list[Event]:
    """Show blind boxes to players who are done, start the next turn (folding for players who left), or go on."""
    events: list[Event] = []
    while True:
        shown = _blind_reveals(state)
        events += shown
        state = apply_events(state, shown)
        box = state.turn
        if box is None:
            return [*events, *_reveal(state)]
        seat = state.box(box).seat
        if seat not in state.leaving:
            return [*events, TurnStarted(seat, box)]
        folded = BoxFolded(seat, box, "left")
        events.append(folded)
        state = evolve(state, folded)


def _blind_reveals(state: HandState) -> list[Event]:
    """A player's blind boxes are shown to them once every open box of theirs is decided (section 3)."""
    events: list[Event] = []
    for seat in sorted({b.seat for b in state.boxes}):
        if seat in state.blind_shown:
            continue
        own = state.boxes_of(seat)
        blind = tuple(b.box for b in own if b.role == BLIND and b.box not in state.dead)
        done = all(b.box in state.decisions or b.box in state.dead for b in own if b.role == OPEN)
        if blind and done:
            events.append(BlindBoxesShown(seat, blind))
    return events


def _reveal(state: HandState) -> list[Event]:
    """The dealer's hand is shown; the exchange choice if it does not qualify and a box is in play."""
    qualifies = qualifies_pair(rank5(state.dealer_cards))
    revealed = DealerRevealed(state.dealer_cards, qualifies)
    state = evolve(state, revealed)
    playing = tuple((b.box, b.seat) for b in state.boxes if state.in_play(b))
    if qualifies or not playing:
        return [revealed, *_settle(state)]
    opened = ExchangeOpened(playing)
    events: list[Event] = [opened]
    state = evolve(state, opened)
    events += [ExchangeContinued(seat, (), "left") for seat in state.exchange_owners if seat in state.leaving]
    return [revealed, *_close_exchange_if_ready(state, events)]


def _clock(state: HandState, cmd: ClockExpired) -> list[Event]:
    turn = state.turn
    if turn is not None and state.box(turn).seat == cmd.seat:
        return _after_decision(state, BoxFolded(cmd.seat, turn, "clock"))
    raise Violation(f"no clock of seat {cmd.seat} is running", "clock/stale")


# ------------------------------------------------ the dealer exchange


def _need_exchange_box(state: HandState, seat: int, box: int) -> None:
    _need_exchange_seat(state, seat)
    if (box, seat) not in state.exchange_boxes or box in state.dead:
        raise Violation(f"box {box} is not yours or not in play", "turn/not_yours")


def _need_exchange_seat(state: HandState, seat: int) -> None:
    need_phase(state.phase, "exchange", "choose the dealer exchange")
    state.player(seat)
    if seat not in state.exchange_owners:
        raise Violation(f"seat {seat} has no box in play", "seat/not_in_hand")
    if seat in state.continued:
        raise Violation("you pressed Continue: your choice is final", "exchange/continued")


def _request(state: HandState, cmd: RequestExchange) -> list[Event]:
    _need_exchange_box(state, cmd.seat, cmd.box)
    if cmd.box in state.requests:
        raise Violation(f"box {cmd.box} already asks for the exchange", "exchange/requested")
    return [ExchangeRequested(cmd.seat, cmd.box)]


def _cancel(state: HandState, cmd: CancelExchange) -> list[Event]:
    _need_exchange_box(state, cmd.seat, cmd.box)
    if cmd.box not in state.requests:
        raise Violation(f"box {cmd.box} does not ask for the exchange", "exchange/not_requested")
    return [ExchangeCancelled(cmd.seat, cmd.box)]


def _continue(state: HandState, cmd: ContinueExchange) -> list[Event]:
    _need_exchange_seat(state, cmd.seat)
    mine = tuple(sorted(box for box, seat in state.exchange_boxes if seat == cmd.seat and box in state.requests))
    return _close_exchange_if_ready(state, [ExchangeContinued(cmd.seat, mine, "continue")])


def _close_exchange_if_ready(state: HandState, events: list[Event]) -> list[Event]:
    after = apply_events(state, events)
    if any(seat not in after.continued for seat in after.exchange_owners):
        return events
    return [*events, *_close_exchange(after, "continued")]


def _close_exchange_cmd(state: HandState, _cmd: CloseExchange) -> list[Event]:
    need_phase(state.phase, "exchange", "close the dealer exchange")
    return _close_exchange(state, "clock")


def _close_exchange(state: HandState, reason: str) -> list[Event]:
    """Unconfirmed requests lapse; the dealer's highest card is replaced once if any box asked."""
    closed = ExchangeClosed(reason, tuple(sorted(state.requests)))
    state = evolve(state, closed)
    askers = tuple(sorted(box for box in state.confirmed_requests if box not in state.dead))
    if not askers:
        return [closed, *_settle(state)]
    stub = _stub(state, 1)
    if stub is None:
        return [closed, HandVoided("card_count")]
    after = dealer_exchange(state.dealer_cards, stub[0])
    (discarded,) = set(state.dealer_cards) - set(after)
    exchanged = DealerExchanged(askers, discarded, stub[0], after, qualifies_pair(rank5(after)))
    return [closed, exchanged, *_settle(evolve(state, exchanged))]


# ------------------------------------------------ settlement, presence, the floor


def wagers(state: HandState) -> list[BoxWager]:
    """Every box as settlement takes it."""
    return [
        BoxWager(b.box, str(b.seat), state.cards[b.box], b.ante, b.bonus, state.draws.get(b.box),
                 raised=b.role == BLIND or state.decisions.get(b.box) == "raise",
                 exchange_request=b.box in state.confirmed_requests and b.box not in state.dead,
                 dead=b.box in state.dead)
        for b in state.boxes
    ]


def _settle(state: HandState) -> list[Event]:
    result = settle(state.settings, state.dealer_cards, state.replacement, wagers(state))
    shown = tuple((r.box, state.current_cards(r.box)) for r in result.boxes if not r.folded and not r.dead)
    return [HandSettled(result, shown)]


def _stay(state: HandState, cmd: Stay) -> list[Event]:
    """Take back a leave that has not acted yet: the seat bets, decides and exchanges as if it never asked."""
    state.player(cmd.seat)
    need_stay(state.leaving, state.left_out, cmd.seat)
    return [LeaveWithdrawn(cmd.seat)]


def _left_out(state: HandState, seat: int, reason: str) -> frozenset[int]:
    return state.left_out | {seat} if reason == "left" else state.left_out


def _leave(state: HandState, cmd: Leave) -> list[Event]:
    state.player(cmd.seat)
    if cmd.seat in state.leaving:
        return []
    leaving = PlayerLeaving(cmd.seat)
    events: list[Event] = [leaving]
    after = evolve(state, leaving)
    if state.phase == "betting":
        return _BETTING.leave(state, leaving)
    turn = state.turn
    if turn is not None and state.box(turn).seat == cmd.seat:
        return [leaving, *_after_decision(after, BoxFolded(cmd.seat, turn, "left"))]
    if state.phase == "exchange" and cmd.seat in state.exchange_owners and cmd.seat not in state.continued:
        return _close_exchange_if_ready(state, [leaving, ExchangeContinued(cmd.seat, (), "left")])
    return events


def _declare_dead(state: HandState, cmd: DeclareDead) -> list[Event]:
    if state.phase not in ("decisions", "exchange"):
        raise Violation(f"cannot declare a seat dead in the {state.phase} phase", "phase/wrong")
    state.player(cmd.seat)
    live = tuple(b.box for b in state.boxes_of(cmd.seat) if b.box not in state.dead)
    if not live:
        raise Violation(f"seat {cmd.seat} has no live box", "seat/not_in_hand")
    dead = SeatDead(cmd.seat, live, "floor")
    after = evolve(state, dead)
    if state.phase == "exchange":
        return _close_exchange_if_ready(state, [dead])
    if state.turn != after.turn:
        return [dead, *_advance(after)]
    return [dead]


# ---------------------------------------------------------------- evolve


def evolve(state: HandState, event: Event) -> HandState:
    """Apply one event. Events are facts: this never refuses."""
    match event:
        case BettingOpened():
            return replace(state, phase="betting")
        case BoxBetsPlaced(seat=seat, bets=bets, seed=seed):
            pending = {k: v for k, v in state.pending.items() if k != seat}
            if bets:
                pending[seat] = PendingBets(bets, seed)
            return replace(state, pending=pending, passed=state.passed - {seat} if bets else state.passed)
        case BetsConfirmed(seat=seat):
            return replace(state, pending={**state.pending, seat: replace(state.pending[seat], confirmed=True)})
        case BetsCleared(seat=seat, reason=reason):
            return replace(state, pending={k: v for k, v in state.pending.items() if k != seat},
                           left_out=_left_out(state, seat, reason))
        case BetsPassed(seat=seat):
            return replace(state, pending={k: v for k, v in state.pending.items() if k != seat},
                           passed=state.passed | {seat})
        case PlayerLeaving(seat=seat):
            return replace(state, leaving=state.leaving | {seat})
        case LeaveWithdrawn(seat=seat):
            return replace(state, leaving=state.leaving - {seat})
        case BetsClosed(bets=bets):
            return _closed(state, bets)
        case BlindBetsPlaced():
            return state
        case HandNotDealt(reason=reason):
            return replace(state, phase="not_dealt", reason=reason)
        case DeckPrepared(arranged=arranged, player_seeds=seeds):
            return replace(state, arranged=arranged, player_seeds=seeds, deck=deck_for(state, seeds))
        case CardsDealt(order=order, hands=boxes, dealer=dealer):
            bonus_only = {b.box for b in state.boxes if b.role == BONUS_ONLY}
            return replace(state, deal_order=order, cards=dict(boxes), dealer_cards=dealer,
                           next_card=HAND_SIZE * len(order), seen=state.seen | bonus_only)
        case TurnStarted(box=box):
            return replace(state, seen=state.seen | {box})
        case BoxRaised(box=box):
            return replace(state, decisions={**state.decisions, box: "raise"})
        case BoxFolded(seat=seat, box=box, reason=reason):
            timed = state.timed_out | {seat} if reason == "clock" else state.timed_out
            return replace(state, decisions={**state.decisions, box: "fold"}, timed_out=timed,
                           left_out=_left_out(state, seat, reason))
        case CardsDrawn(box=box, kind=kind, discarded=discarded, new=new):
            draw = Draw("buy" if kind == "buy" else "exchange", discarded, new)
            return replace(state, draws={**state.draws, box: draw}, next_card=state.next_card + len(new))
        case BlindBoxesShown(seat=seat, boxes=boxes):
            return replace(state, blind_shown=state.blind_shown | {seat}, seen=state.seen | set(boxes))
        case SeatDead(boxes=boxes):
            return replace(state, dead=state.dead | set(boxes))
        case DealerRevealed(qualifies=qualifies):
            return replace(state, revealed=True, dealer_qualifies=qualifies)
        case ExchangeOpened(boxes=boxes):
            return replace(state, phase="exchange", exchange_boxes=boxes)
        case ExchangeRequested(box=box):
            return replace(state, requests=state.requests | {box})
        case ExchangeCancelled(box=box):
            return replace(state, requests=state.requests - {box})
        case ExchangeContinued(seat=seat, boxes=boxes, reason=reason):
            mine = {box for box, owner in state.exchange_boxes if owner == seat}
            return replace(state, continued=state.continued | {seat}, requests=state.requests - mine,
                           confirmed_requests=state.confirmed_requests | set(boxes),
                           left_out=_left_out(state, seat, reason))
        case ExchangeClosed():
            return replace(state, exchange_closed=True, requests=frozenset())
        case DealerExchanged(boxes=boxes, replacement=card, after=after):
            return replace(state, replacement=card, dealer_after=after, exchanged_boxes=frozenset(boxes),
                           next_card=state.next_card + 1)
        case HandSettled(settlement=settlement):
            return replace(state, phase="settled", settlement=settlement)
        case HandVoided(reason=reason):
            return replace(state, phase="void", reason=reason)
    raise TypeError(f"not an event of this game: {event!r}")


def _closed(state: HandState, bets: Iterable[tuple[int, int, int, int]]) -> HandState:
    """Boxes with their roles and the turn order, once the bets are closed."""
    placed = [BoxWager(box, str(seat), (), ante, bonus) for box, seat, ante, bonus in bets]
    roles = box_roles(placed)
    boxes = tuple(Box(w.box, int(w.player), w.ante, w.bonus, roles[w.box]) for w in placed)
    phase: Phase = "decisions" if boxes else state.phase
    return replace(state, boxes=boxes, order=tuple(play_order(placed)), phase=phase)


def step(state: HandState, command: Command) -> tuple[HandState, list[Event]]:
    """Decide and apply: the new state and every event the command caused."""
    events = decide(state, command)
    return apply_events(state, events), events


def apply_events(state: HandState, events: Iterable[Event]) -> HandState:
    """Fold recorded events into a state (for replay and recovery)."""
    return machine.apply_events(evolve, state, events)


_BETTING: Final = BettingRound(apply_events, _close)
_HANDLERS: Final[dict[type, Callable[[HandState, Any], list[Event]]]] = {
    PlaceBoxBets: _place, ConfirmBets: _confirm, RepeatBets: _repeat, ClearBets: _BETTING.clear,
    PassBets: _BETTING.pass_bets,
    CloseBets: _BETTING.close_bets, RaiseBox: _raise, FoldBox: _fold, BuyCard: _buy, ExchangeCards: _exchange,
    ClockExpired: _clock, RequestExchange: _request, CancelExchange: _cancel, ContinueExchange: _continue,
    CloseExchange: _close_exchange_cmd, Leave: _leave, Stay: _stay, DeclareDead: _declare_dead,
}
