"""Top Card, a toy fourth game that proves the Game seam: it plugs into a real server from this package alone.

Each seated player bets an Ante or passes; once all have answered (or the betting
clock runs out) every bettor and the house get one card from the seeded deck, and
the higher rank wins even money (suits do not count; a tie pushes).

>>> top_card_result(12, 3), top_card_result(3, 3), top_card_result(2, 9)
(1, 0, -1)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Final

from server.rules.adapter import PlainGame
from server.rules.arrange import SeatDeck
from server.rules.cards import Card, card_text, rank_of
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


def top_card_result(player: Card, house: Card) -> int:
    """+1 the player wins, 0 a push, -1 the house wins (card ranks only, as ints 0..12 here)."""
    return (player > house) - (player < house)


@dataclass(frozen=True, slots=True)
class ToySettings(PlainSettings):
    """A table's posted limits: the table's own (PlainSettings), and the Ante's."""

    game: ClassVar[str] = "topcard"
    min_ante: int = 5
    max_ante: int = 500

    def check(self) -> None:
        not_above("min_ante", self.min_ante, "max_ante", self.max_ante)


@dataclass(frozen=True, slots=True)
class PlaceAnte:
    seat: int
    ante: int
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class AntePlaced(Event):
    type: ClassVar[str] = "ante_placed"
    seat: int
    ante: int
    seed: str | None


@dataclass(frozen=True, slots=True)
class AntesCalled(Event):
    """The hand opens: the betting clock runs (the table gives this event the clock's deadline)."""

    type: ClassVar[str] = "antes_called"


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """``hands``: each bettor's card, then the house's (the table numbers a hand once it is recorded)."""

    type: ClassVar[str] = "top_cards_dealt"
    hands: tuple[tuple[int, str], ...]
    house: str


@dataclass(frozen=True, slots=True)
class HandSettled(Event):
    type: ClassVar[str] = "hand_settled"
    nets: tuple[tuple[int, int], ...]


Command = PlaceAnte | PassBets | SharedCommand
CODEC: Final = MessageCodec[Command, Event]([AntesCalled, AntePlaced, BetsPassed, CardsDealt, HandSettled],
                                            {"place_ante": PlaceAnte, "pass_bets": PassBets})


@dataclass(frozen=True, slots=True)
class ToyHand:
    settings: ToySettings
    players: tuple[Player, ...]
    server_seed: bytes
    offer_from: int
    phase: str = "betting"
    reason: str | None = None
    arranged_deck: tuple[Card, ...] | None = None
    seat_deck: SeatDeck | None = None
    antes: dict[int, tuple[int, str | None]] = field(default_factory=dict)
    answered: frozenset[int] = frozenset()
    cards: tuple[tuple[int, str], ...] = ()
    house: str | None = None
    nets: tuple[tuple[int, int], ...] = ()

    @property
    def commitment(self) -> str:
        return commitment(self.server_seed)


def _ante(state: ToyHand, cmd: PlaceAnte) -> list[Event]:
    need_phase(state.phase, "betting", "bet")
    player = player_at(state.players, cmd.seat)
    if cmd.seat in state.answered:
        raise Violation("you already answered this betting round", "bet/already_answered")
    low, high = state.settings.min_ante, state.settings.max_ante
    if not low <= cmd.ante <= high:
        code = "bet/below_min" if cmd.ante < low else "bet/above_max"
        raise Violation(f"the Ante at this table is {low} to {high} chips, got {cmd.ante}", code)
    if cmd.ante > player.stack:
        raise Violation(f"your stack of {player.stack} cannot cover an Ante of {cmd.ante}", "bet/insufficient_stack")
    return _close_if_ready(state, [AntePlaced(cmd.seat, cmd.ante, cmd.seed)])


def _pass(state: ToyHand, cmd: PassBets | Leave) -> list[Event]:
    need_phase(state.phase, "betting", "pass")
    player_at(state.players, cmd.seat)
    if cmd.seat in state.answered:
        raise Violation("you already answered this betting round", "bet/already_answered")
    return _close_if_ready(state, [BetsPassed(cmd.seat) if isinstance(cmd, PassBets) else PlayerLeaving(cmd.seat)])


def _close_if_ready(state: ToyHand, out: list[Event]) -> list[Event]:
    after = apply_events(evolve, state, out)
    return out if len(after.answered) < len(after.players) else [*out, *_deal(after)]


def _deal(state: ToyHand) -> list[Event]:
    if not state.antes:
        return [HandNotDealt("no_bets")]
    seeds = tuple((seat, seed) for seat, (_, seed) in sorted(state.antes.items()) if seed)
    deck = state.arranged_deck or seeded_deck(state.server_seed, seeds)
    if len(deck) <= len(state.antes):
        return [DeckPrepared(True, seeds), HandVoided("card_count")]
    hands = tuple((seat, card_text(deck[i])) for i, seat in enumerate(sorted(state.antes)))
    house = deck[len(hands)]
    nets = tuple((seat, ante * top_card_result(rank_of(deck[i]), rank_of(house)))
                 for i, (seat, (ante, _)) in enumerate(sorted(state.antes.items())))
    return [DeckPrepared(state.arranged_deck is not None, seeds), CardsDealt(hands, card_text(house)),
            HandSettled(nets)]


def _unanswered_pass(state: ToyHand, _cmd: CloseBets) -> list[Event]:
    need_phase(state.phase, "betting", "close the bets")
    unanswered = [BetsPassed(p.seat) for p in state.players if p.seat not in state.answered]
    return _deal(apply_events(evolve, state, unanswered))


# A Stay or the floor's DeclareDead is refused by the shared dispatch: every answer here is final.
HANDLERS: Final[dict[type, Callable[[ToyHand, Any], list[Event]]]] = {
    PlaceAnte: _ante, PassBets: _pass, Leave: _pass, CloseBets: _unanswered_pass}


def evolve(state: ToyHand, event: Event) -> ToyHand:
    """Apply one event."""
    if isinstance(event, AntePlaced):
        return replace(state, antes={**state.antes, event.seat: (event.ante, event.seed)},
                       answered=state.answered | {event.seat})
    if isinstance(event, BetsPassed | PlayerLeaving):
        return replace(state, answered=state.answered | {event.seat})
    if isinstance(event, CardsDealt):
        return replace(state, cards=event.hands, house=event.house)
    if isinstance(event, HandSettled):
        return replace(state, phase="settled", nets=event.nets)
    if isinstance(event, HandNotDealt | HandVoided):
        return replace(state, phase="not_dealt" if isinstance(event, HandNotDealt) else "void", reason=event.reason)
    return state


class TopCard(PlainGame[ToySettings, ToyHand, Event]):
    """The Game seam, answered for Top Card (PlainGame answers what a plain house game has nothing to say to)."""

    name = "topcard"
    terminal = TERMINAL
    codec = CODEC
    clocked_events = frozenset({AntesCalled.type})
    deal_event = CardsDealt.type
    words = TableWords(place="seat", banker="the house")
    moves = Moves("Top Card", {"bet": {"ante": chips(required=True), "seed": text()}, "pass": {}})

    def log_fields(self, payload: JSONIn) -> JSON:
        return log_fields(payload, ("ante", "nets"))

    def opening_events(self, state: ToyHand) -> list[Event]:  # noqa: ARG002 (every hand opens alike)
        return [AntesCalled()]

    def settings_from_mapping(self, values: JSONIn, base: ToySettings | None = None) -> ToySettings:
        return ToySettings.from_mapping(values, base)

    def new_hand(self, settings: ToySettings, players: Sequence[Player], server_seed: bytes, *, offer_from: int,
                 arranged_deck: Sequence[Card] | SeatDeck | None, carry: JSONIn) -> ToyHand:  # noqa: ARG002
        deck = None if arranged_deck is None or isinstance(arranged_deck, SeatDeck) else tuple(arranged_deck)
        return ToyHand(settings, tuple(sorted(players, key=lambda p: p.seat)), server_seed, offer_from,
                       arranged_deck=deck)

    def decide(self, state: ToyHand, command: Command) -> list[Event]:
        return dispatch(HANDLERS, TERMINAL, state, command)

    def evolve(self, state: ToyHand, event: Event) -> ToyHand:
        return evolve(state, event)

    def postings(self, state: ToyHand, event: Event, table: str, accounts: Mapping[int, AccountId]) -> list[Transfer]:
        if isinstance(event, AntePlaced):
            acct = accounts[event.seat]
            return [Transfer(stack_place(table, acct), felt_place(table, acct), event.ante, "bet")]
        out = []
        for seat, (ante, _) in state.antes.items() if isinstance(event, HandSettled | HandVoided) else ():
            net = dict(event.nets).get(seat, 0) if isinstance(event, HandSettled) else 0
            felt, stack = felt_place(table, accounts[seat]), stack_place(table, accounts[seat])
            back = "settle" if isinstance(event, HandSettled) else "refund"
            out += [Transfer(felt, HOUSE_BANK, ante, "loss")] if net < 0 else [Transfer(felt, stack, ante, back)]
            out += [Transfer(HOUSE_BANK, stack, net, "win")] if net > 0 else []
        return out

    def public_event(self, event: Event) -> JSON:
        return {k: v for k, v in event.as_json().items() if k != "seed"}  # a seed stays secret until the reveal

    def hand_view(self, state: ToyHand, viewer: int | None) -> JSON:  # noqa: ARG002 (every card is face up)
        return {"phase": state.phase, "reason": state.reason, "commitment": state.commitment,
                "antes": {str(s): a for s, (a, _) in sorted(state.antes.items())},
                "answered": sorted(state.answered), "cards": {str(s): c for s, c in state.cards},
                "house": state.house}

    def choices(self, state: ToyHand, seat: int) -> list[JSON]:
        player = next((p for p in state.players if p.seat == seat), None)
        if state.phase != "betting" or player is None or seat in state.answered:
            return []
        low, top = state.settings.min_ante, min(state.settings.max_ante, player.stack)
        return [*([move("bet", ante=span(low, top))] if top >= low else []), move("pass")]

    def move(self, seat: int, action: str, args: JSONIn) -> Command:
        if action == "bet" and isinstance(args.get("ante"), int) and not isinstance(args["ante"], bool):
            return PlaceAnte(seat, args["ante"], args.get("seed"))
        if action == "pass":
            return PassBets(seat)
        raise Violation(f"Top Card's moves are bet (with an ante) and pass, not {action!r}", "request/unknown")

    def clock(self, state: ToyHand) -> ClockSpec[Command] | None:
        late = tuple(p.seat for p in state.players if p.seat not in state.answered)
        return ClockSpec("bets", None, state.settings.bet_seconds, expire=CloseBets(), late=late) \
            if state.phase == "betting" else None

    def summary(self, state: ToyHand) -> JSON:
        return {"cards": {str(s): c for s, c in state.cards}, "house": state.house,
                "nets": {str(s): n for s, n in state.nets},
                "player_seeds": [[seat, seed] for seat, (_, seed) in sorted(state.antes.items()) if seed]}


TOP_CARD: Final = TopCard()
