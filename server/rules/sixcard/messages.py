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

from server.rules.cards import Card, cards_list, parse_cards
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
class ConfirmBets:
    """*Deal*: the player's bets are final."""

    seat: int


@dataclass(frozen=True, slots=True)
class RepeatBets:
    """*Re-Bet*: place the bets of the player's last hand again (not yet confirmed)."""

    seat: int
    seed: str | None = None


@dataclass(frozen=True, slots=True)
class ClearBets:
    """*Clear*: take every bet of the player back, confirmed or not."""

    seat: int


@dataclass(frozen=True, slots=True)
class CloseBets:
    """The betting clock ran out: unconfirmed bets go back."""


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
    """The exchange clock ran out: unconfirmed requests are dropped (RULES-sixcard.md 5.1)."""


@dataclass(frozen=True, slots=True)
class ClockExpired:
    """The decision clock of ``seat`` ran out: the box in turn folds."""

    seat: int


@dataclass(frozen=True, slots=True)
class Leave:
    """The player asked to leave: their bets go back while betting, their boxes fold at their turn."""

    seat: int


@dataclass(frozen=True, slots=True)
class DeclareDead:
    """The floor declares every box of ``seat`` dead (everything back)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Misdeal:
    """The whole hand is dead: ``misdeal``, ``shuffler_fault``, ``interrupted``, ``shutdown``."""

    reason: str = "misdeal"


Command = (
    PlaceBoxBets | ConfirmBets | RepeatBets | ClearBets | CloseBets | RaiseBox | FoldBox | BuyCard
    | ExchangeCards | RequestExchange | CancelExchange | ContinueExchange | CloseExchange | ClockExpired
    | Leave | DeclareDead | Misdeal
)

# ---------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; ``type`` names it on the wire and in the log."""

    type: ClassVar[str] = "event"

    def as_json(self) -> dict[str, Any]:
        """JSON-ready payload with a ``type`` key (tuples become lists)."""
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = _listed(getattr(self, f.name))
        return out


def _listed(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_listed(v) for v in value]
    return value


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
class BetsConfirmed(Event):
    """``seat`` pressed *Deal*: its bets are final."""

    type: ClassVar[str] = "bets_confirmed"
    seat: int


@dataclass(frozen=True, slots=True)
class BetsCleared(Event):
    """``seat``'s bets went back: ``clear`` (its choice), ``clock`` (unconfirmed at the close), ``left``."""

    type: ClassVar[str] = "bets_cleared"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class PlayerLeaving(Event):
    """A player asked to leave; they stand up after the hand."""

    type: ClassVar[str] = "player_leaving"
    seat: int


@dataclass(frozen=True, slots=True)
class BetsClosed(Event):
    """Betting is over: the confirmed bets ``(box, seat, ante, bonus)`` in box order; their chips move now."""

    type: ClassVar[str] = "bets_closed"
    bets: tuple[tuple[int, int, int, int], ...]


@dataclass(frozen=True, slots=True)
class BlindBetsPlaced(Event):
    """Each blind box's Bet ``(box, seat, amount)`` placed for it (2x Ante; RULES-sixcard.md section 3)."""

    type: ClassVar[str] = "blind_bets_placed"
    bets: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, slots=True)
class HandNotDealt(Event):
    """No hand this time: ``no_bets`` or ``no_players``."""

    type: ClassVar[str] = "hand_not_dealt"
    reason: str


@dataclass(frozen=True, slots=True)
class DeckPrepared(Event):
    """The deck is fixed: derived from the seeds, or arranged by the host."""

    type: ClassVar[str] = "deck_prepared"
    arranged: bool
    player_seeds: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Five cards to every box with a bet and to the dealer, one at a time in ``order`` (box 0: the dealer).

    The dealer's fifth card is the up-card. The rest of the deck is the stub, kept
    in the hand's state and never published.
    """

    type: ClassVar[str] = "cards_dealt"
    order: tuple[int, ...]
    hands: tuple[tuple[int, tuple[Card, ...]], ...]
    dealer: tuple[Card, ...]

    def as_json(self) -> dict[str, Any]:
        """Cards in notation."""
        return {"type": self.type, "order": list(self.order),
                "hands": [[box, cards_list(cards)] for box, cards in self.hands],
                "dealer": cards_list(self.dealer)}


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
    """``box`` folded: ``fold`` (by choice), ``clock`` or ``left``; its Ante goes to the house now."""

    type: ClassVar[str] = "box_folded"
    seat: int
    box: int
    reason: str


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    """A draw on ``box``: ``buy`` (a sixth card) or ``exchange`` (``positions`` 1..5 replaced in place).

    ``discarded`` are the cards given up, ``new`` the stub cards taken in order;
    ``fee`` (1x Ante) goes to the house now and is never returned but for a dead box.
    """

    type: ClassVar[str] = "cards_drawn"
    seat: int
    box: int
    kind: str
    positions: tuple[int, ...]
    discarded: tuple[Card, ...]
    new: tuple[Card, ...]
    fee: int

    def as_json(self) -> dict[str, Any]:
        """Cards in notation."""
        return {"type": self.type, "seat": self.seat, "box": self.box, "kind": self.kind,
                "positions": list(self.positions), "discarded": cards_list(self.discarded),
                "new": cards_list(self.new), "fee": self.fee}


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
class DealerRevealed(Event):
    """The dealer's five cards are shown; ``qualifies``: a pair or better."""

    type: ClassVar[str] = "dealer_revealed"
    cards: tuple[Card, ...]
    qualifies: bool

    def as_json(self) -> dict[str, Any]:
        """Cards in notation."""
        return {"type": self.type, "cards": cards_list(self.cards), "qualifies": self.qualifies}


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
    boxes: tuple[int, ...]
    discarded: Card
    replacement: Card
    after: tuple[Card, ...]
    qualifies: bool

    def as_json(self) -> dict[str, Any]:
        """Cards in notation."""
        return {"type": self.type, "boxes": list(self.boxes), "discarded": cards_list([self.discarded])[0],
                "replacement": cards_list([self.replacement])[0], "after": cards_list(self.after),
                "qualifies": self.qualifies}


@dataclass(frozen=True, slots=True)
class HandSettled(Event):
    """The results; ``shown``: the final cards of every box that reached settlement (folded and dead ones not)."""

    type: ClassVar[str] = "hand_settled"
    settlement: SixcardSettlement
    shown: tuple[tuple[int, tuple[Card, ...]], ...]

    def as_json(self) -> dict[str, Any]:
        """Settlement (every field) and shown cards in notation."""
        return {"type": self.type, "settlement": settlement_as_json(self.settlement),
                "shown": [[box, cards_list(cards)] for box, cards in self.shown]}


@dataclass(frozen=True, slots=True)
class HandVoided(Event):
    """The whole hand is dead (``card_count``: an arranged deck ran out, or a misdeal); everything goes back."""

    type: ClassVar[str] = "hand_voided"
    reason: str


EVENT_TYPES: Final[dict[str, type[Event]]] = {
    cls.type: cls
    for cls in (
        BettingOpened, BoxBetsPlaced, BetsConfirmed, BetsCleared, PlayerLeaving, BetsClosed, BlindBetsPlaced,
        HandNotDealt, DeckPrepared, CardsDealt, TurnStarted, BoxRaised, BoxFolded, CardsDrawn, BlindBoxesShown,
        SeatDead, DealerRevealed, ExchangeOpened, ExchangeRequested, ExchangeCancelled, ExchangeContinued,
        ExchangeClosed, DealerExchanged, HandSettled, HandVoided,
    )
}

_CARD_FIELDS: Final[dict[type[Event], frozenset[str]]] = {
    DealerRevealed: frozenset({"cards"}), CardsDrawn: frozenset({"discarded", "new"}),
}


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from :meth:`Event.as_json` (for replays); exact inverse."""
    cls = EVENT_TYPES[data["type"]]
    args = {k: v for k, v in data.items() if k != "type"}
    if cls is CardsDealt:
        return CardsDealt(tuple(args["order"]), tuple((box, parse_cards(c)) for box, c in args["hands"]),
                          parse_cards(args["dealer"]))
    if cls is HandSettled:
        return HandSettled(settlement_from_json(args["settlement"]),
                           tuple((box, parse_cards(c)) for box, c in args["shown"]))
    if cls is DealerExchanged:
        return DealerExchanged(tuple(args["boxes"]), parse_cards([args["discarded"]])[0],
                               parse_cards([args["replacement"]])[0], parse_cards(args["after"]),
                               args["qualifies"])
    cards = _CARD_FIELDS.get(cls, frozenset())
    return cls(**{k: parse_cards(v) if k in cards else _tupled(v) for k, v in args.items()})


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


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
            out[f.name] = _listed(value)
    return out


def _result_as_json(result: BoxResult) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        out[f.name] = cards_list(value) if f.name in _RESULT_CARDS else _listed(value)
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
            args[key] = _tupled(value)
    return SixcardSettlement(**args)


def _result_from_json(data: Mapping[str, Any]) -> BoxResult:
    args: dict[str, Any] = {k: parse_cards(v) if k in _RESULT_CARDS else _tupled(v) for k, v in data.items()}
    return BoxResult(**args)


# ---------------------------------------------------------------- commands as recorded

COMMAND_TYPES: Final[dict[str, type]] = {
    "place_box_bets": PlaceBoxBets, "confirm_bets": ConfirmBets, "repeat_bets": RepeatBets,
    "clear_bets": ClearBets, "close_bets": CloseBets, "raise_box": RaiseBox, "fold_box": FoldBox,
    "buy_card": BuyCard, "exchange_cards": ExchangeCards, "request_exchange": RequestExchange,
    "cancel_exchange": CancelExchange, "continue_exchange": ContinueExchange, "close_exchange": CloseExchange,
    "clock_expired": ClockExpired, "leave": Leave, "declare_dead": DeclareDead, "misdeal": Misdeal,
}
_COMMAND_NAMES: Final = {cls: name for name, cls in COMMAND_TYPES.items()}


def command_as_json(command: Command) -> dict[str, Any]:
    """A command as recorded in the hand's input log (for replays)."""
    out: dict[str, Any] = {"command": _COMMAND_NAMES[type(command)]}
    for f in dataclasses.fields(command):
        out[f.name] = _listed(getattr(command, f.name))
    return out


def command_from_json(data: Mapping[str, Any]) -> Command:
    """Rebuild a command recorded by :func:`command_as_json`."""
    cls = COMMAND_TYPES[data["command"]]
    command: Command = cls(**{k: _tupled(v) for k, v in data.items() if k != "command"})
    return command
