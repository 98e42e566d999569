"""Dealer Duel, a second toy game: it plugs into a real server from this package and the registry alone.

Unlike Top Card it has a move name and an argument no other game has (``wager`` with a
``stake``), its own deal event (``duel_dealt``), cards of the dealer's own (one up, one
in the hole) and a second clock of its own (``calls``). Each seated player wagers a
stake or passes; when all have answered (or the betting clock runs out) every bettor
gets one card that only they see, and the dealer one card up and one in the hole. Then
each bettor holds or surrenders (the calling clock holds for whoever has not answered).
At the showdown the hole card and the held cards are shown: a card of higher rank
than the dealer's best wins the stake, a lower one loses it, an equal one pushes. A
surrender loses half the stake (rounded down) and its card is never shown.

>>> duel_result(12, (3, 11)), duel_result(11, (3, 11)), duel_result(2, (9, 0))
(1, 0, -1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Final

from server.rules.adapter import PlainGame
from server.rules.arrange import SeatDeck
from server.rules.cards import Card, card_text, parse_cards, rank_of
from server.rules.choices import move, span
from server.rules.codec import MessageCodec
from server.rules.commands import CloseBets, Leave, SharedCommand
from server.rules.errors import Violation
from server.rules.events import DeckPrepared, Event, HandNotDealt, HandVoided, PlayerLeaving
from server.rules.fairness import commitment, seeded_deck
from server.rules.game import JSON, AccountId, ClockSpec, JSONIn, Player, TableWords, Transfer, log_fields
from server.rules.house.messages import BetsPassed, PassBets
from server.rules.house.settings import PlainSettings
from server.rules.machine import apply_events, need_phase, player_at
from server.rules.machine import decide as dispatch
from server.rules.moves import Moves, chips, text
from server.rules.places import HOUSE_BANK, felt_place, stack_place
from server.rules.validate import not_above

TERMINAL: Final = frozenset({"settled", "void", "not_dealt"})


def duel_result(player: int, dealer: tuple[int, int]) -> int:
    """+1 the player's rank beats the dealer's best, 0 a push, -1 the dealer wins (ranks as ints 0..12)."""
    best = max(dealer)
    return (player > best) - (player < best)


def surrender_loss(stake: int) -> int:
    """What a surrender gives up: half the stake, rounded down (the player keeps the odd chip).

    >>> surrender_loss(10), surrender_loss(5)
    (5, 2)
    """
    return stake // 2


@dataclass(frozen=True, slots=True)
class DuelSettings(PlainSettings):
    """A table's posted limits: the table's own (PlainSettings), the stake's, and the calling clock."""

    game: ClassVar[str] = "duel"
    min_stake: int = 5
    max_stake: int = 500
    call_seconds: float = 15.0

    def check(self) -> None:
        not_above("min_stake", self.min_stake, "max_stake", self.max_stake)


@dataclass(frozen=True, slots=True)
class Wager:
    seat: int
    stake: int
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class Hold:
    seat: int


@dataclass(frozen=True, slots=True)
class Surrender:
    seat: int


@dataclass(frozen=True, slots=True)
class StakesCalled(Event):
    """The hand opens: the betting clock runs (the table gives this event the clock's deadline)."""

    type: ClassVar[str] = "stakes_called"


@dataclass(frozen=True, slots=True)
class Wagered(Event):
    type: ClassVar[str] = "wagered"
    seat: int
    stake: int
    seed: str | None


@dataclass(frozen=True, slots=True)
class DuelDealt(Event):
    """Each bettor's hidden card, the dealer's up card and hole card; it opens the calling clock."""

    type: ClassVar[str] = "duel_dealt"
    hands: tuple[tuple[int, str], ...]
    dealer_up: str
    dealer_hole: str


@dataclass(frozen=True, slots=True)
class Held(Event):
    type: ClassVar[str] = "held"
    seat: int


@dataclass(frozen=True, slots=True)
class Surrendered(Event):
    type: ClassVar[str] = "surrendered"
    seat: int


@dataclass(frozen=True, slots=True)
class DuelSettled(Event):
    """The showdown: the hole card, the held cards (a surrendered card is never among them), the nets."""

    type: ClassVar[str] = "duel_settled"
    dealer_hole: str
    shown: tuple[tuple[int, str], ...]
    nets: tuple[tuple[int, int], ...]


Command = Wager | Hold | Surrender | PassBets | SharedCommand
CODEC: Final = MessageCodec[Command, Event](
    [StakesCalled, Wagered, BetsPassed, DuelDealt, Held, Surrendered, DuelSettled],
    {"wager": Wager, "hold": Hold, "surrender": Surrender, "pass_bets": PassBets})


@dataclass(frozen=True, slots=True)
class DuelHand:
    settings: DuelSettings
    players: tuple[Player, ...]
    server_seed: bytes
    offer_from: int
    phase: str = "betting"
    reason: str | None = None
    arranged_deck: tuple[Card, ...] | None = None
    seat_deck: SeatDeck | None = None
    stakes: dict[int, tuple[int, str | None]] = field(default_factory=dict)
    answered: frozenset[int] = frozenset()
    cards: tuple[tuple[int, str], ...] = ()
    dealer_up: str | None = None
    dealer_hole: str | None = None
    surrendered: frozenset[int] = frozenset()
    shown: tuple[tuple[int, str], ...] = ()
    nets: tuple[tuple[int, int], ...] = ()

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)


def _answer_once(state: DuelHand, seat: int) -> None:
    player_at(state.players if state.phase == "betting" else
              tuple(p for p in state.players if p.seat in state.stakes), seat)
    if seat in state.answered:
        raise Violation("you have already answered this round", "bet/already_answered")


def _wager(state: DuelHand, cmd: Wager) -> list[Event]:
    need_phase(state.phase, "betting", "wager")
    _answer_once(state, cmd.seat)
    low, high = state.settings.min_stake, state.settings.max_stake
    if not low <= cmd.stake <= high:
        words = f"the stake at this table is {low} to {high} chips, got {cmd.stake}"
        raise Violation(words, "bet/below_min") if cmd.stake < low else Violation(words, "bet/above_max")
    stack = player_at(state.players, cmd.seat).stack
    if cmd.stake > stack:
        raise Violation(f"your stack of {stack} cannot cover a stake of {cmd.stake}", "bet/insufficient_stack")
    return _deal_if_ready(state, [Wagered(cmd.seat, cmd.stake, cmd.seed)])


def _pass_or_leave(state: DuelHand, cmd: PassBets | Leave) -> list[Event]:
    if isinstance(cmd, Leave) and state.phase == "calling":
        return _surrender(state, Surrender(cmd.seat))  # a player who leaves mid-hand gives up the duel
    need_phase(state.phase, "betting", "pass")
    _answer_once(state, cmd.seat)
    return _deal_if_ready(state, [BetsPassed(cmd.seat) if isinstance(cmd, PassBets) else PlayerLeaving(cmd.seat)])


def _deal_if_ready(state: DuelHand, out: list[Event]) -> list[Event]:
    after = apply_events(evolve, state, out)
    return out if len(after.answered) < len(after.players) else [*out, *_deal(after)]


def _deal(state: DuelHand) -> list[Event]:
    if not state.stakes:
        return [HandNotDealt("no_bets")]
    seeds = tuple((seat, seed) for seat, (_, seed) in sorted(state.stakes.items()) if seed)
    deck = state.arranged_deck or seeded_deck(state.server_seed, seeds)
    if len(deck) < len(state.stakes) + 2:
        return [DeckPrepared(True, seeds), HandVoided("card_count")]
    hands = tuple((seat, card_text(deck[i])) for i, seat in enumerate(sorted(state.stakes)))
    up, hole = deck[len(hands)], deck[len(hands) + 1]
    return [DeckPrepared(state.arranged_deck is not None, seeds), DuelDealt(hands, card_text(up), card_text(hole))]


def _hold(state: DuelHand, cmd: Hold) -> list[Event]:
    need_phase(state.phase, "calling", "hold")
    _answer_once(state, cmd.seat)
    return _settle_if_ready(state, [Held(cmd.seat)])


def _surrender(state: DuelHand, cmd: Surrender) -> list[Event]:
    need_phase(state.phase, "calling", "surrender")
    _answer_once(state, cmd.seat)
    return _settle_if_ready(state, [Surrendered(cmd.seat)])


def _settle_if_ready(state: DuelHand, out: list[Event]) -> list[Event]:
    after = apply_events(evolve, state, out)
    return out if len(after.answered) < len(after.stakes) else [*out, _settle(after)]


def _settle(state: DuelHand) -> DuelSettled:
    assert state.dealer_up is not None  # only ever called after the deal
    assert state.dealer_hole is not None
    dealer = (rank_of(parse_cards(state.dealer_up)[0]), rank_of(parse_cards(state.dealer_hole)[0]))
    cards = dict(state.cards)
    shown = tuple((seat, card) for seat, card in state.cards if seat not in state.surrendered)
    nets = tuple((seat, -surrender_loss(stake) if seat in state.surrendered else
                  stake * duel_result(rank_of(parse_cards(cards[seat])[0]), dealer))
                 for seat, (stake, _) in sorted(state.stakes.items()))
    return DuelSettled(state.dealer_hole, shown, nets)


def _clock_ran_out(state: DuelHand, _cmd: CloseBets) -> list[Event]:
    """The betting clock passes whoever has not answered; the calling clock holds for them."""
    if state.phase == "calling":
        return _settle_if_ready(state, [Held(s) for s in sorted(state.stakes) if s not in state.answered])
    need_phase(state.phase, "betting", "close the bets")
    unanswered = [BetsPassed(p.seat) for p in state.players if p.seat not in state.answered]
    return _deal(apply_events(evolve, state, unanswered))


HANDLERS: Final[dict[type, Callable[[DuelHand, Any], list[Event]]]] = {
    Wager: _wager, PassBets: _pass_or_leave, Leave: _pass_or_leave, Hold: _hold, Surrender: _surrender,
    CloseBets: _clock_ran_out}


def evolve(state: DuelHand, event: Event) -> DuelHand:
    """Apply one event."""
    if isinstance(event, Wagered):
        return replace(state, stakes={**state.stakes, event.seat: (event.stake, event.seed)},
                       answered=state.answered | {event.seat})
    if isinstance(event, BetsPassed | PlayerLeaving | Held):
        return replace(state, answered=state.answered | {event.seat})
    if isinstance(event, Surrendered):
        return replace(state, answered=state.answered | {event.seat}, surrendered=state.surrendered | {event.seat})
    if isinstance(event, DuelDealt):
        return replace(state, phase="calling", answered=frozenset(), cards=event.hands, dealer_up=event.dealer_up,
                       dealer_hole=event.dealer_hole)
    if isinstance(event, DuelSettled):
        return replace(state, phase="settled", shown=event.shown, nets=event.nets)
    if isinstance(event, HandNotDealt | HandVoided):
        return replace(state, phase="not_dealt" if isinstance(event, HandNotDealt) else "void", reason=event.reason)
    return state


def _visible_cards(state: DuelHand, viewer: int | None) -> dict[str, str]:
    """The players' cards ``viewer`` may see: their own always, the others' once shown at the showdown."""
    shown = dict(state.shown)
    return {str(seat): card for seat, card in state.cards if seat == viewer or seat in shown}


class DealerDuel(PlainGame[DuelSettings, DuelHand, Event]):
    """The Game seam, answered for Dealer Duel (PlainGame answers what a plain house game has nothing to say to)."""

    name = "duel"
    terminal = TERMINAL
    codec = CODEC
    clocked_events = frozenset({StakesCalled.type, DuelDealt.type})
    deal_event = DuelDealt.type
    words = TableWords(place="seat", banker="the dealer")
    moves = Moves("Dealer Duel", {"wager": {"stake": chips(required=True), "seed": text()}, "pass": {}, "hold": {},
                                  "surrender": {}})

    def log_fields(self, payload: JSONIn) -> JSON:
        return log_fields(payload, ("stake", "nets"))

    def opening_events(self, state: DuelHand) -> list[Event]:  # noqa: ARG002 (every hand opens alike)
        return [StakesCalled()]

    def settings_from_mapping(self, values: JSONIn, base: DuelSettings | None = None) -> DuelSettings:
        return DuelSettings.from_mapping(values, base)

    def new_hand(self, settings: DuelSettings, players: Sequence[Player], server_seed: bytes, *, offer_from: int,
                 arranged_deck: Sequence[Card] | SeatDeck | None, carry: JSONIn) -> DuelHand:  # noqa: ARG002
        deck = None if arranged_deck is None or isinstance(arranged_deck, SeatDeck) else tuple(arranged_deck)
        return DuelHand(settings, tuple(sorted(players, key=lambda p: p.seat)), server_seed, offer_from,
                        arranged_deck=deck)

    def decide(self, state: DuelHand, command: Command) -> list[Event]:
        return dispatch(HANDLERS, TERMINAL, state, command)

    def evolve(self, state: DuelHand, event: Event) -> DuelHand:
        return evolve(state, event)

    def postings(self, state: DuelHand, event: Event, table: str, accounts: Mapping[int, AccountId]) -> list[Transfer]:
        if isinstance(event, Wagered):
            acct = accounts[event.seat]
            return [Transfer(stack_place(table, acct), felt_place(table, acct), event.stake, "bet")]
        if not isinstance(event, DuelSettled | HandVoided):
            return []
        nets = dict(event.nets) if isinstance(event, DuelSettled) else {}
        out = []
        for seat, (stake, _) in sorted(state.stakes.items()):
            felt, stack = felt_place(table, accounts[seat]), stack_place(table, accounts[seat])
            lost, net = max(0, -nets.get(seat, 0)), nets.get(seat, 0)
            back = stake - lost
            out += [Transfer(felt, HOUSE_BANK, lost, "loss")] if lost else []
            kind = "refund" if isinstance(event, HandVoided) else "settle"
            out += [Transfer(felt, stack, back, kind)] if back else []
            out += [Transfer(HOUSE_BANK, stack, net, "win")] if net > 0 else []
        return out

    def public_event(self, event: Event) -> JSON:  # a new dict at each call, as Game.public_event says
        if isinstance(event, DuelDealt):  # the players' cards and the hole card stay hidden until the showdown
            return {"type": event.type, "order": [seat for seat, _ in event.hands], "dealer_up": event.dealer_up}
        return {k: v for k, v in event.as_json().items() if k != "seed"}  # a seed stays secret until the reveal

    def private_events(self, state: DuelHand, event: Event) -> list[tuple[int, JSON]]:  # noqa: ARG002
        if not isinstance(event, DuelDealt):
            return []
        return [(seat, {"type": "your_card", "card": card}) for seat, card in event.hands]

    def hand_view(self, state: DuelHand, viewer: int | None) -> JSON:
        return {"phase": state.phase, "reason": state.reason, "commitment": state.commitment,
                "stakes": {str(s): a for s, (a, _) in sorted(state.stakes.items())},
                "answered": sorted(state.answered), "surrendered": sorted(state.surrendered),
                "cards": _visible_cards(state, viewer), "dealer_up": state.dealer_up,
                "dealer_hole": state.dealer_hole if state.phase == "settled" else None}

    def choices(self, state: DuelHand, seat: int) -> list[JSON]:
        player = next((p for p in state.players if p.seat == seat), None)
        if player is None or seat in state.answered:
            return []
        if state.phase == "calling":
            return [move("hold"), move("surrender")] if seat in state.stakes else []
        if state.phase != "betting":
            return []
        low, top = state.settings.min_stake, min(state.settings.max_stake, player.stack)
        return [*([move("wager", stake=span(low, top))] if top >= low else []), move("pass")]

    def move(self, seat: int, action: str, args: JSONIn) -> Command:
        stake = args.get("stake")
        if action == "wager" and isinstance(stake, int) and not isinstance(stake, bool):
            seed = args.get("seed")
            return Wager(seat, stake, seed if isinstance(seed, str) else None)
        plain: dict[str, Callable[[int], Command]] = {"pass": PassBets, "hold": Hold, "surrender": Surrender}
        if action in plain:
            return plain[action](seat)
        raise Violation(f"Dealer Duel's moves are wager (with a stake), pass, hold and surrender, not {action!r}",
                        "request/unknown")

    def clock(self, state: DuelHand) -> ClockSpec[Command] | None:
        if state.phase == "betting":
            late = tuple(p.seat for p in state.players if p.seat not in state.answered)
            return ClockSpec("bets", None, state.settings.bet_seconds, expire=CloseBets(), late=late)
        if state.phase == "calling":
            late = tuple(s for s in sorted(state.stakes) if s not in state.answered)
            return ClockSpec("calls", None, state.settings.call_seconds, expire=CloseBets(), late=late)
        return None

    def summary(self, state: DuelHand) -> JSON:
        return {"cards": {str(s): c for s, c in state.shown}, "dealer_up": state.dealer_up,
                "dealer_hole": state.dealer_hole, "surrendered": sorted(state.surrendered),
                "nets": {str(s): n for s, n in state.nets},
                "player_seeds": [[seat, seed] for seat, (_, seed) in sorted(state.stakes.items()) if seed]}


DEALER_DUEL: Final = DealerDuel()
