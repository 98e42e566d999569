"""Commands (what someone asks) and events (what happened) of a 6 Card Poker hand.

Commands are imperative and may be refused; events are past tense and always
apply. Every event serializes to a JSON object with a ``type`` key and reads
back exactly (:func:`event_from_json`), so the log, the wire and a replay speak
the same shapes. Events are logged whole, cards included; what each viewer may
see of them is :mod:`server.rules.sixcard.view`'s business.

>>> event_from_json(BoxFolded(2, 3, "clock").as_json()) == BoxFolded(2, 3, "clock")
True
>>> command_as_json(ExchangeCards(1, 2, (1, 5)))
{'command': 'exchange_cards', 'seat': 1, 'box': 2, 'positions': [1, 5]}
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from server.rules import events
from server.rules.cards import Card, cards_list, parse_cards
from server.rules.codec import MessageCodec
from server.rules.commands import ClockExpired as ClockExpired
from server.rules.commands import CloseBets as CloseBets
from server.rules.commands import DeclareDead as DeclareDead
from server.rules.commands import Leave as Leave
from server.rules.commands import Misdeal as Misdeal
from server.rules.commands import Stay as Stay
from server.rules.events import CARD, CARDS, HANDS, Codec, listed, tupled
from server.rules.events import DeckPrepared as DeckPrepared
from server.rules.events import Event as Event
from server.rules.events import HandNotDealt as HandNotDealt
from server.rules.events import HandVoided as HandVoided
from server.rules.events import LeaveWithdrawn as LeaveWithdrawn
from server.rules.events import PlayerLeaving as PlayerLeaving
from server.rules.house.messages import BetsCleared as BetsCleared
from server.rules.house.messages import BetsConfirmed as BetsConfirmed
from server.rules.house.messages import BetsPassed as BetsPassed
from server.rules.house.messages import ClearBets as ClearBets
from server.rules.house.messages import ConfirmBets as ConfirmBets
from server.rules.house.messages import DealerRevealed as DealerRevealed
from server.rules.house.messages import PassBets as PassBets
from server.rules.sixcard.settlement import BoxResult, SixcardSettlement

BoxBet = tuple[int, int, int]
"""``(box, ante, bonus)`` as a player places it; ante 0 with a bonus is a bonus-only box."""

# ---------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class PlaceBoxBets:
    """Replace the player's unconfirmed bets (an empty tuple takes them all back)."""

    seat: int
    bets: tuple[BoxBet, ...]
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class RepeatBets:
    """*Re-Bet*: place the bets of the player's last hand again (not yet confirmed)."""

    seat: int
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class RaiseBox:
    """Place the Bet (2x Ante) on the box in turn. (``box`` None: the box in turn)."""

    seat: int
    box: int | None = None


@dataclass(frozen=True, slots=True)
class FoldBox:
    """Give up the box in turn (its Ante is lost, its bonus bet stands). (``box`` None: the box in turn)."""

    seat: int
    box: int | None = None


@dataclass(frozen=True, slots=True)
class BuyCard:
    """Buy a sixth card for the box in turn (fee: 1x Ante). (``box`` None: the box in turn)."""

    seat: int
    box: int | None = None


@dataclass(frozen=True, slots=True)
class ExchangeCards:
    """Exchange 1, 2 or 5 cards of the box in turn (``box`` None: whichever it is), by position 1..5 (fee 1x Ante)."""

    seat: int
    box: int | None
    positions: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RequestExchange:
    """Ask for the dealer exchange with this box (may be cancelled until the player continues)."""

    seat: int
    box: int


@dataclass(frozen=True, slots=True)
class CancelExchange:
    """Withdraw the box's unconfirmed exchange request."""

    seat: int
    box: int


@dataclass(frozen=True, slots=True)
class ContinueExchange:
    """The player's exchange requests are final (none: every box takes the sure win)."""

    seat: int


@dataclass(frozen=True, slots=True)
class CloseExchange:
    """The exchange clock ran out: unconfirmed requests are dropped (docs/rules/sixcard.md section 5.1)."""


Command = (
    PlaceBoxBets | ConfirmBets | RepeatBets | ClearBets | PassBets | CloseBets | RaiseBox | FoldBox | BuyCard
    | ExchangeCards | RequestExchange | CancelExchange | ContinueExchange | CloseExchange | ClockExpired
    | Leave | Stay | DeclareDead | Misdeal
)

# ---------------------------------------------------------------- the settlement, whole

_RESULT_CARDS: Final = frozenset({"best"})
_SETTLEMENT_CARDS: Final = frozenset({"dealer_cards", "dealer_after"})


def settlement_as_json(settlement: SixcardSettlement) -> dict[str, Any]:
    """Every field of a settlement, cards in notation (the log's form; views strip hidden cards)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(settlement):
        value = getattr(settlement, f.name)
        if f.name == "boxes":
            out["boxes"] = [_result_as_json(r) for r in value]
        elif f.name in _SETTLEMENT_CARDS:
            out[f.name] = None if value is None else cards_list(value)
        else:
            out[f.name] = listed(value)
    return out


def _result_as_json(result: BoxResult) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        out[f.name] = cards_list(value) if f.name in _RESULT_CARDS else listed(value)
    return out


def settlement_from_json(data: Mapping[str, Any]) -> SixcardSettlement:
    """Rebuild a settlement written by :func:`settlement_as_json`."""
    args: dict[str, Any] = {}
    for key, value in data.items():
        if key == "boxes":
            args[key] = tuple(_result_from_json(r) for r in value)
        elif key in _SETTLEMENT_CARDS:
            args[key] = None if value is None else parse_cards(value)
        else:
            args[key] = tupled(value)
    return SixcardSettlement(**args)


def _result_from_json(data: Mapping[str, Any]) -> BoxResult:
    args: dict[str, Any] = {k: parse_cards(v) if k in _RESULT_CARDS else tupled(v) for k, v in data.items()}
    return BoxResult(**args)


SETTLEMENT: Final = Codec(settlement_as_json, settlement_from_json)


# ---------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class BettingOpened(Event):
    """Bets are open for ``seats``; the server seed is committed."""

    type: ClassVar[str] = "betting_opened"
    commitment: str
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BoxBetsPlaced(Event):
    """``seat``'s unconfirmed bets are now ``bets`` (replacing any before; empty: none)."""

    type: ClassVar[str] = "box_bets_placed"
    seat: int
    bets: tuple[BoxBet, ...]
    seed: str | None


@dataclass(frozen=True, slots=True)
class BetsClosed(Event):
    """Betting is over: the confirmed bets ``(box, seat, ante, bonus)`` in box order; their chips move now."""

    type: ClassVar[str] = "bets_closed"
    bets: tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True, slots=True)
class BlindBetsPlaced(Event):
    """Each blind box's Bet ``(box, seat, amount)`` placed for it (2x Ante; docs/rules/sixcard.md section 3)."""

    type: ClassVar[str] = "blind_bets_placed"
    bets: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Five cards to every box with a bet and to the dealer, one at a time in ``order`` (box 0: the dealer).

    The dealer's fifth card is the up-card. The rest of the deck is the stub, kept
    in the hand's state and never published.
    """

    type: ClassVar[str] = "cards_dealt"
    codecs: ClassVar[dict[str, Codec]] = {"hands": HANDS, "dealer": CARDS}
    order: tuple[int, ...]
    hands: tuple[tuple[int, tuple[Card, ...]], ...]
    dealer: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """It is the decision on ``box`` (of ``seat``); its cards go to its owner now."""

    type: ClassVar[str] = "turn_started"
    seat: int
    box: int


@dataclass(frozen=True, slots=True)
class BoxRaised(Event):
    """``seat`` placed the Bet of ``amount`` (2x Ante) on ``box``."""

    type: ClassVar[str] = "box_raised"
    seat: int
    box: int
    amount: int


@dataclass(frozen=True, slots=True)
class BoxFolded(Event):
    """``box`` folded: ``fold`` (by choice), ``clock`` or ``left``; its Ante is lost now (settlement moves it)."""

    type: ClassVar[str] = "box_folded"
    seat: int
    box: int
    reason: str


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """A draw on ``box``: ``buy`` (a sixth card) or ``exchange`` (``positions`` 1..5 replaced in place).

    ``discarded`` are the cards given up, ``new`` the stub cards taken in order;
    ``fee`` (1x Ante) is lost now (held until settlement) and never returned but for a dead box.
    """

    type: ClassVar[str] = "cards_drawn"
    codecs: ClassVar[dict[str, Codec]] = {"discarded": CARDS, "new": CARDS}
    seat: int
    box: int
    kind: str
    positions: tuple[int, ...]
    discarded: tuple[Card, ...]
    new: tuple[Card, ...]
    fee: int


@dataclass(frozen=True, slots=True)
class BlindBoxesShown(Event):
    """``seat`` finished its open boxes: its blind ``boxes`` are shown to it now."""

    type: ClassVar[str] = "blind_boxes_shown"
    seat: int
    boxes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatDead(Event):
    """Every box of ``seat`` (``boxes``) is dead: ``floor``. Its bets and draw fees go back now."""

    type: ClassVar[str] = "seat_dead"
    seat: int
    boxes: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class ExchangeOpened(Event):
    """The dealer does not qualify: the owners of ``boxes`` ``(box, seat)`` still in play choose at once."""

    type: ClassVar[str] = "exchange_opened"
    boxes: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class ExchangeRequested(Event):
    """``box`` asks for the dealer exchange (not binding until its owner continues)."""

    type: ClassVar[str] = "exchange_requested"
    seat: int
    box: int


@dataclass(frozen=True, slots=True)
class ExchangeCancelled(Event):
    """``box`` no longer asks for the dealer exchange."""

    type: ClassVar[str] = "exchange_cancelled"
    seat: int
    box: int


@dataclass(frozen=True, slots=True)
class ExchangeContinued(Event):
    """``seat`` pressed Continue (``continue``) or left (``left``); ``boxes`` are its binding requests."""

    type: ClassVar[str] = "exchange_continued"
    seat: int
    boxes: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class ExchangeClosed(Event):
    """The choice is over: ``continued`` (everyone pressed Continue) or ``clock``; ``dropped`` requests lapsed."""

    type: ClassVar[str] = "exchange_closed"
    reason: str
    dropped: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealerExchanged(Event):
    """The dealer's highest card ``discarded`` was replaced by the stub's next card, for ``boxes``.

    Each asking box has paid its Ante as the fee; ``after`` is the dealer's new hand.
    """

    type: ClassVar[str] = "dealer_exchanged"
    codecs: ClassVar[dict[str, Codec]] = {"discarded": CARD, "replacement": CARD, "after": CARDS}
    boxes: tuple[int, ...]
    discarded: Card
    replacement: Card
    after: tuple[Card, ...]
    qualifies: bool


@dataclass(frozen=True, slots=True)
class HandSettled(Event):
    """The results; ``shown``: the final cards of every box that reached settlement (folded and dead ones not)."""

    type: ClassVar[str] = "hand_settled"
    codecs: ClassVar[dict[str, Codec]] = {"settlement": SETTLEMENT, "shown": HANDS}
    settlement: SixcardSettlement
    shown: tuple[tuple[int, tuple[Card, ...]], ...]


EVENT_TYPES: Final[dict[str, type[Event]]] = events.event_types(
    BettingOpened, BoxBetsPlaced, BetsConfirmed, BetsCleared, BetsPassed, PlayerLeaving, LeaveWithdrawn, BetsClosed,
    BlindBetsPlaced,
    HandNotDealt, DeckPrepared, CardsDealt, TurnStarted, BoxRaised, BoxFolded, CardsDrawn, BlindBoxesShown,
    SeatDead, DealerRevealed, ExchangeOpened, ExchangeRequested, ExchangeCancelled, ExchangeContinued,
    ExchangeClosed, DealerExchanged, HandSettled, HandVoided,
)


COMMAND_TYPES: Final[dict[str, type]] = {
    "place_box_bets": PlaceBoxBets, "confirm_bets": ConfirmBets, "repeat_bets": RepeatBets, "clear_bets": ClearBets,
    "pass_bets": PassBets, "raise_box": RaiseBox, "fold_box": FoldBox, "buy_card": BuyCard,
    "exchange_cards": ExchangeCards, "request_exchange": RequestExchange, "cancel_exchange": CancelExchange,
    "continue_exchange": ContinueExchange, "close_exchange": CloseExchange,
}

CODEC: Final = MessageCodec[Command, Event](EVENT_TYPES.values(), COMMAND_TYPES)
"""This game's JSON forms: events as logged, commands as recorded in the hand's input log."""
event_from_json: Final = CODEC.event_from_json
command_as_json: Final = CODEC.command_as_json
command_from_json: Final = CODEC.command_from_json
