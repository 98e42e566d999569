"""The hand view of each game as types: what a snapshot's ``hand`` holds (issue 24, item 3).

Each game's ``view.hand_view`` returns its own type here, so mypy checks every key
it writes; docs/protocol.md section 7 (High Card Flush), docs/games/caribbean.md and
docs/games/sixcard.md show the same shapes, and tests/test_hand_view_shapes.py
checks the docs and real hands against these types both ways.

Standard library only and importing nothing of ours: the rules core (the lowest
layer that uses it) returns these types, and the protocol and the clients may read
them. Keys that are Python words (``class``, ``raise``) need the functional form;
``NotRequired`` marks a key that appears only sometimes (cards a viewer may see,
a dealer's hand once revealed). No postponed annotations here: Python 3.11's
``TypedDict`` must see ``NotRequired`` itself.
"""

from typing import Any, Literal, NotRequired, TypedDict

Cards = list[str]
"""Cards in notation (``["Ah", "Kd"]``)."""

SettlementJSON = dict[str, Any]
"""A settlement as the hand's ``settlement_as_json`` writes it (documented with each game)."""


# ------------------------------------------------------------------ High Card Flush (docs/protocol.md section 7)

HcfSeatView = TypedDict("HcfSeatView", {
    "in_hand": bool, "passed": bool, "leaving": bool, "dead": bool, "dead_reason": str | None,
    "ante": int, "straight_flush_bonus": int, "flush_bonus": int,
    "decision": Literal["fold", "raise", "dead"] | None, "raise": int, "fee": int, "card_count": int,
})
"""One player's part of a High Card Flush hand (``hand.seats["2"]``)."""


class YourCards(TypedDict):
    """A High Card Flush player's own cards, with what the rules say of them (also the ``your_cards`` event)."""

    type: Literal["your_cards"]
    cards: Cards
    flush: Cards
    straight_flush: Cards
    raise_limit: int
    qualifies: bool


class HcfHandView(TypedDict):
    """A High Card Flush hand as one viewer may see it."""

    phase: str
    profile: str
    dealer: int | None
    commitment: str | None
    arranged: bool
    offered: int | None
    turn: int | None
    bettors: list[int]
    seats: dict[str, HcfSeatView]
    reason: str | None
    your_cards: NotRequired[YourCards]
    dealer_cards: NotRequired[Cards]
    dealer_qualifies: NotRequired[bool]
    settlement: NotRequired[SettlementJSON]
    shown: NotRequired[dict[str, Cards]]


# ------------------------------------------------------------------ Caribbean Stud (docs/games/caribbean.md)


class SpotBetRow(TypedDict):
    """A spot's bet while betting is open (or once closed): who holds it, and whether it is confirmed."""

    spot: int
    seat: int
    ante: int
    jackpot: bool
    confirmed: bool


SpotCards = TypedDict("SpotCards", {"cards": Cards, "class": NotRequired[str]})
"""A spot's cards, and their class once it holds five."""

SpotView = TypedDict("SpotView", {
    "spot": int, "seat": int, "ante": int, "jackpot": bool, "bet": int, "folded": bool, "dead": bool,
    "cards": NotRequired[Cards], "class": NotRequired[str],
})
"""A dealt spot; its cards only for a viewer who may see them."""

CaribbeanDealerView = TypedDict("CaribbeanDealerView", {
    "up": str | None, "cards": NotRequired[Cards], "qualifies": NotRequired[bool | None], "class": NotRequired[str],
})
"""The dealer's up-card, and the whole hand once revealed."""


class SpotTurn(TypedDict):
    """The spot in turn and its owner."""

    seat: int
    spot: int


class CaribbeanHandView(TypedDict):
    """A Caribbean Stud hand as one viewer may see it."""

    game: str
    phase: str
    reason: str | None
    commitment: str | None
    arranged: bool
    meter: int
    seats: list[int]
    bets: list[SpotBetRow]
    passed: list[int]
    waiting: list[int]
    spots: list[SpotView]
    dealer: CaribbeanDealerView
    turn: SpotTurn | None
    leaving: list[int]
    settlement: SettlementJSON | None


# ------------------------------------------------------------------ 6 Card Poker (docs/games/sixcard.md)


class BoxBetRow(TypedDict):
    """A box's bet while betting is open (or once closed)."""

    box: int
    seat: int
    ante: int
    bonus: int
    confirmed: bool


class DrawView(TypedDict):
    """A box's draw (``buy`` or ``exchange``) and its fee; its owner also sees the cards that went and came."""

    kind: str
    fee: int
    discarded: NotRequired[Cards]
    new: NotRequired[Cards]


BoxView = TypedDict("BoxView", {
    "box": int, "seat": int, "role": str, "ante": int, "bonus": int, "bet": int, "folded": bool, "dead": bool,
    "draw": NotRequired[DrawView], "cards": NotRequired[Cards], "best": NotRequired[Cards],
    "class": NotRequired[str], "bonus_class": NotRequired[str],
    "exchange_request": NotRequired[bool], "continued": NotRequired[bool],
})
"""A box in play; its cards only for a viewer who may see them, its request while the dealer exchange is open."""

SixcardDealerView = TypedDict("SixcardDealerView", {
    "up": str | None, "cards": NotRequired[Cards], "qualifies": NotRequired[bool | None], "class": NotRequired[str],
    "exchanged": NotRequired[bool], "after": NotRequired[Cards], "qualifies_after": NotRequired[bool],
    "class_after": NotRequired[str],
})
"""The dealer's up-card, the whole hand once revealed, and the hand after an exchange."""


class BoxTurn(TypedDict):
    """The box in turn and its owner."""

    seat: int
    box: int


class ExchangeView(TypedDict):
    """The dealer exchange while it is open: who may ask, who pressed continue, whether it closed."""

    owners: list[int]
    continued: list[int]
    closed: bool


class SixcardHandView(TypedDict):
    """A 6 Card Poker hand as one viewer may see it."""

    game: str
    phase: str
    reason: str | None
    commitment: str | None
    arranged: bool
    leaving: list[int]
    seats: list[int]
    bets: list[BoxBetRow]
    passed: list[int]
    waiting: list[int]
    boxes: list[BoxView]
    order: list[int]
    dealer: SixcardDealerView
    turn: BoxTurn | None
    exchange: ExchangeView | None
    settlement: SettlementJSON | None


# ------------------------------------------------------------------ what the table adds to any game's view


class HandClock(TypedDict):
    """The running clock of a hand (docs/protocol.md section 7)."""

    kind: str
    seat: int | None
    deadline: float


class HandStamp(TypedDict):
    """What the table writes beside a game's hand view in a snapshot: the hand's id, number and clock."""

    hand_id: int | None
    number: int
    clock: NotRequired[HandClock]


HandView = HcfHandView | CaribbeanHandView | SixcardHandView
"""Any game's hand view this server plays."""

__all__ = [
    "BoxBetRow",
    "BoxTurn",
    "BoxView",
    "Cards",
    "CaribbeanDealerView",
    "CaribbeanHandView",
    "DrawView",
    "ExchangeView",
    "HandClock",
    "HandStamp",
    "HandView",
    "HcfHandView",
    "HcfSeatView",
    "SixcardDealerView",
    "SixcardHandView",
    "SpotBetRow",
    "SpotCards",
    "SpotTurn",
    "SpotView",
    "YourCards",
]
