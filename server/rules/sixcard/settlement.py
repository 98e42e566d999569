"""Settling a 6 Card Poker hand (docs/rules/sixcard.md sections 3, 5 and 6).

Every amount is the player's change in chips on one bet: positive won, negative
lost. The house takes the other side of everything, so ``house_net`` is minus the
sum of the boxes' nets.

>>> from server.rules.cards import parse_cards
>>> from server.rules.sixcard.settings import SixcardSettings
>>> dealer = parse_cards("Kc Kd 7h 4s 2c")                         # a pair: qualifies
>>> box = BoxWager(1, "ann", parse_cards("Qs Qh Qd 9c 3h"), ante=10, bonus=1, raised=True)
>>> s = settle(SixcardSettings(), dealer, None, [box])
>>> s.dealer_qualifies, s.boxes[0].as_json()
(True, {'box': 1, 'blind': False, 'draw_fee': 0, 'ante': 10, 'bet': 60, 'bonus': 25, 'net': 95})
>>> s.house_net
-95
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from server.rules.cards import Card, card_text, rank_of
from server.rules.errors import SettleError as SettleError
from server.rules.poker import best_five, class_name, qualifies_pair, rank5
from server.rules.sixcard.settings import SixcardSettings

Role = str
"""A box's role: ``"open"``, ``"blind"`` or ``"bonus_only"``."""
OPEN: Final = "open"
BLIND: Final = "blind"
BONUS_ONLY: Final = "bonus_only"
OPEN_PER_PLAYER: Final = 2
"""Of one player's played boxes, in box order, this many are open and the rest blind (section 3)."""

HAND_SIZE: Final = 5
EXCHANGE_SIZES: Final = (1, 2, 5)
"""The "1-2-5": how many cards an exchange may replace (section 4)."""


@dataclass(frozen=True, slots=True)
class Draw:
    """A box's one draw: ``buy`` a sixth card, or ``exchange`` 1, 2 or 5 of its original cards."""

    kind: Literal["buy", "exchange"]
    discard: tuple[Card, ...] = ()
    new: tuple[Card, ...] = ()


def check_draw(original: Sequence[Card], draw: Draw) -> None:
    """Raise :class:`SettleError` if ``draw`` is not a legal draw on the five cards ``original``.

    >>> from server.rules.cards import parse_cards
    >>> check_draw(parse_cards("Ah Kh 9c 5d 2s"), Draw("exchange", parse_cards("9c 5d 2s"), parse_cards("Qh Jh Th")))
    Traceback (most recent call last):
    ...
    server.rules.errors.SettleError: an exchange replaces 1, 2 or 5 cards, not 3
    """
    if draw.kind == "buy":
        if draw.discard or len(draw.new) != 1:
            raise SettleError(f"a buy adds exactly one card and discards none, got {len(draw.new)} new, "
                              f"{len(draw.discard)} discarded")
    elif draw.kind == "exchange":
        if len(draw.discard) not in EXCHANGE_SIZES:
            raise SettleError(f"an exchange replaces 1, 2 or 5 cards, not {len(draw.discard)}")
        missing = [card for card in draw.discard if card not in original]
        if missing:
            raise SettleError(f"the discard {card_text(missing[0])} is not one of the box's cards")
        if len(set(draw.discard)) != len(draw.discard):
            raise SettleError("an exchange discards each card once")
        if len(draw.new) != len(draw.discard):
            raise SettleError(f"an exchange of {len(draw.discard)} cards takes {len(draw.discard)} new ones, "
                              f"got {len(draw.new)}")
    else:
        raise SettleError(f"a draw is a buy or an exchange, got {draw.kind!r}")
    clash = [card for card in draw.new if card in original]
    if clash or len(set(draw.new)) != len(draw.new):
        raise SettleError(f"the new card {card_text((clash or list(draw.new))[0])} is already in the hand")


def final_cards(original: tuple[Card, ...], draw: Draw | None) -> tuple[Card, ...]:
    """The box's cards after its draw: 6 after a buy, 5 after an exchange (new cards in the discards' places).

    >>> from server.rules.cards import format_cards, parse_cards
    >>> hand = parse_cards("Ah Kh 9c 5d 2s")
    >>> format_cards(final_cards(hand, Draw("buy", new=parse_cards("Qh"))))
    'Ah Kh 9c 5d 2s Qh'
    >>> format_cards(final_cards(hand, Draw("exchange", parse_cards("9c 2s"), parse_cards("Qh Jh"))))
    'Ah Kh Qh 5d Jh'
    """
    if draw is None:
        return original
    check_draw(original, draw)
    if draw.kind == "buy":
        return (*original, *draw.new)
    replaced = dict(zip(draw.discard, draw.new, strict=True))
    return tuple(replaced.get(card, card) for card in original)


@dataclass(frozen=True, slots=True)
class BoxWager:
    """One box's bets, cards and decisions, as the hand ends.

    ``cards`` are the original five. ``ante`` 0 with a bonus makes a bonus-only box.
    ``raised`` is an open box's choice (False: folded); a blind box always plays.
    """

    box: int
    player: str
    cards: tuple[Card, ...]
    ante: int = 0
    bonus: int = 0
    draw: Draw | None = None
    raised: bool = False
    exchange_request: bool = False
    dead: bool = False


def box_roles(boxes: Iterable[BoxWager]) -> dict[int, Role]:
    """Each box's role: per player, the played boxes (with an Ante) in box order are open, open, then blind.

    >>> bets = [BoxWager(b, p, (), ante=a) for b, p, a in ((1, "x", 5), (2, "y", 0), (3, "x", 5), (4, "x", 9))]
    >>> box_roles(bets)
    {1: 'open', 2: 'bonus_only', 3: 'open', 4: 'blind'}
    """
    roles: dict[int, Role] = {}
    played: dict[str, int] = {}
    for wager in sorted(boxes, key=lambda w: w.box):
        if wager.ante <= 0:
            roles[wager.box] = BONUS_ONLY
            continue
        seen = played.get(wager.player, 0)
        played[wager.player] = seen + 1
        roles[wager.box] = OPEN if seen < OPEN_PER_PLAYER else BLIND
    return roles


def play_order(boxes: Sequence[BoxWager]) -> list[int]:
    """The open boxes in turn order (section 3).

    Players go in the order of their lowest played box; each plays their larger Ante
    first, equal Antes in box order. Blind and bonus-only boxes take no turn.

    >>> bets = [BoxWager(1, "x", (), ante=5), BoxWager(2, "y", (), ante=5), BoxWager(3, "x", (), ante=20),
    ...         BoxWager(4, "y", (), ante=5)]
    >>> play_order(bets)
    [3, 1, 2, 4]
    """
    roles = box_roles(boxes)
    by_player: dict[str, list[BoxWager]] = {}
    for wager in sorted(boxes, key=lambda w: w.box):
        if roles[wager.box] == OPEN:
            by_player.setdefault(wager.player, []).append(wager)
    # Insertion order is each player's lowest open box, which is their lowest played box.
    return [w.box for own in by_player.values() for w in sorted(own, key=lambda w: (-w.ante, w.box))]


def ratio_ok(antes: Iterable[int], ratio: int) -> bool:
    """Whether one player's Antes keep the ratio rule: the largest at most ``ratio`` times the smallest.

    Exactly ``ratio`` times is allowed (section 3); zeros (bonus-only boxes) are left out.

    >>> ratio_ok([5, 25], 5), ratio_ok([5, 26], 5), ratio_ok([0, 100], 5), ratio_ok([], 5)
    (True, False, True, True)
    """
    played = [ante for ante in antes if ante > 0]
    return not played or max(played) <= ratio * min(played)


def dealer_exchange(dealer: Sequence[Card], replacement: Card) -> tuple[Card, ...]:
    """The dealer's hand with its highest card (ace high) replaced, in that card's place.

    A non-qualifying hand has no pair, so its highest card is unique; on a paired hand
    the first card of the top rank goes.

    >>> from server.rules.cards import format_cards, parse_cards
    >>> format_cards(dealer_exchange(parse_cards("9c Ad 7h 4s 2c"), parse_cards("Ks")[0]))
    '9c Ks 7h 4s 2c'
    """
    out = max(dealer, key=rank_of)
    return tuple(replacement if card == out else card for card in dealer)


def capped(ante_win: int, bet_win: int, cap: int) -> tuple[int, int]:
    """Ante and Bet wins cut to ``cap`` together, the excess off the Bet's win first (section 6).

    >>> capped(10, 2000, 10000), capped(1000, 200000, 10000), capped(20000, 40000, 10000)
    ((10, 2000), (1000, 9000), (10000, 0))
    """
    ante = min(ante_win, cap)
    return ante, min(bet_win, cap - ante)


@dataclass(frozen=True, slots=True)
class BoxResult:
    """What one box won (+) or lost (-) on each bet; ``draw_fee`` is minus a fee kept."""

    box: int
    player: str
    role: Role
    blind: bool
    dead: bool
    folded: bool
    cls: str
    best: tuple[Card, ...]
    draw_fee: int
    ante: int
    bet: int
    bonus: int
    net: int
    exchanged: bool
    dead_reason: str | None = None
    """Why a dead box is dead (``floor``); None when live, and in results logged before boxes said why."""

    def as_json(self) -> dict[str, object]:
        """The ``rules settle`` shape (exactly these keys)."""
        return {"box": self.box, "blind": self.blind, "draw_fee": self.draw_fee, "ante": self.ante,
                "bet": self.bet, "bonus": self.bonus, "net": self.net}

    def as_record(self) -> dict[str, object]:
        """The ``as_json`` keys and the rest of the result, for a hand's record."""
        return {**self.as_json(), "player": self.player, "role": self.role, "dead": self.dead,
                "folded": self.folded, "class": self.cls, "best": [card_text(c) for c in self.best],
                "exchanged": self.exchanged} | ({"dead_reason": self.dead_reason} if self.dead else {})


@dataclass(frozen=True, slots=True)
class SixcardSettlement:
    """A settled hand: the dealer's hands and every box's result in box order."""

    dealer_qualifies: bool
    exchanged: bool
    qualifies_after: bool | None
    dealer_cards: tuple[Card, ...]
    dealer_after: tuple[Card, ...] | None
    boxes: tuple[BoxResult, ...]

    @property
    def house_net(self) -> int:
        """The house's change: the other side of every box."""
        return -sum(result.net for result in self.boxes)

    def result(self, box: int) -> BoxResult:
        """The result of box number ``box``."""
        for result in self.boxes:
            if result.box == box:
                return result
        raise KeyError(box)

    def as_json(self) -> dict[str, object]:
        """The ``rules settle`` shape."""
        dealer: dict[str, bool] = {"qualifies": self.dealer_qualifies, "exchanged": self.exchanged}
        if self.exchanged:
            dealer["qualifies_after"] = bool(self.qualifies_after)
        return {"dealer": dealer, "boxes": [result.as_json() for result in self.boxes]}


def in_play(wager: BoxWager, role: Role) -> bool:
    """Whether a box is still in play when the dealer's hand is shown: raised or blind, and not dead."""
    return not wager.dead and (role == BLIND or (role == OPEN and wager.raised))


def settle(settings: SixcardSettings, dealer: Sequence[Card], replacement: Card | None,
           boxes: Sequence[BoxWager]) -> SixcardSettlement:
    """Settle a hand: the dealer's five, the next stub card (for the dealer exchange) and every box.

    The dealer exchange happens iff the dealer does not qualify and a box still in
    play asks for it; ``replacement`` is then required. Bet limits are not checked here.
    """
    dealer = tuple(dealer)
    roles = box_roles(boxes)
    _check(settings, dealer, replacement, boxes, roles)
    dealer_value = rank5(dealer)
    qualifies = qualifies_pair(dealer_value)
    askers = {w.box for w in boxes if w.exchange_request and in_play(w, roles[w.box])}
    exchanged = not qualifies and bool(askers)
    after: tuple[Card, ...] | None = None
    after_value: int | None = None
    if exchanged:
        if replacement is None:
            raise SettleError("dealer_replacement: the dealer exchange needs the next stub card")
        after = dealer_exchange(dealer, replacement)
        after_value = rank5(after)
    outcome = _Dealer(dealer_value, qualifies, after_value)
    results = tuple(_settle_box(settings, w, roles[w.box], outcome, w.box in askers)
                    for w in sorted(boxes, key=lambda w: w.box))
    qualifies_after = None if after_value is None else qualifies_pair(after_value)
    return SixcardSettlement(qualifies, exchanged, qualifies_after, dealer, after, results)


@dataclass(frozen=True, slots=True)
class _Dealer:
    value: int
    qualifies: bool
    after: int | None  # the value after the exchange, when there was one


def _settle_box(settings: SixcardSettings, wager: BoxWager, role: Role, dealer: _Dealer,
                asked: bool) -> BoxResult:
    value, best = best_five(final_cards(wager.cards, wager.draw))
    cls = class_name(value)
    folded = role == OPEN and not wager.raised and not wager.dead
    exchanged = asked and dealer.after is not None
    if wager.dead:
        return BoxResult(wager.box, wager.player, role, role == BLIND, True, False, cls, best,
                         0, 0, 0, 0, 0, False, "floor")  # the floor is the only way a box dies
    fee = -wager.ante if wager.draw is not None else 0
    bonus = _bonus(settings, wager.bonus, class_name(rank5(wager.cards)))
    if role == BONUS_ONLY:
        ante, bet = 0, 0
    elif folded:
        ante, bet = -wager.ante, 0
    else:
        ante, bet = _main(settings, wager.ante, value, dealer, exchanged)
    return BoxResult(wager.box, wager.player, role, role == BLIND, False, folded, cls, best,
                     fee, ante, bet, bonus, fee + ante + bet + bonus, exchanged)


def _main(settings: SixcardSettings, ante: int, value: int, dealer: _Dealer, exchanged: bool) -> tuple[int, int]:
    """Ante and Bet of a box in play (Bet = 2x Ante): section 6's table, or section 5's after an exchange."""
    stake = 2 * ante
    against = dealer.after if exchanged and dealer.after is not None else dealer.value
    if not exchanged and not dealer.qualifies:
        return capped(ante, 0, settings.max_payout)
    if exchanged and not qualifies_pair(against):
        return -ante, 0
    if value > against:
        ante_win, bet_win = capped(ante, stake * settings.bet_pay(class_name(value)), settings.max_payout)
        # After an exchange the Ante is already gone as the fee; the 1-to-1 payment only makes it whole.
        return (ante_win - ante if exchanged else ante_win), bet_win
    if value == against:
        return (-ante if exchanged else 0), 0
    return -ante, -stake


def _bonus(settings: SixcardSettings, amount: int, cls: str) -> int:
    if amount <= 0:
        return 0
    pay = settings.bonus_pay(cls)
    return min(amount * pay, settings.max_payout) if pay else -amount


def _check(settings: SixcardSettings, dealer: tuple[Card, ...], replacement: Card | None,
           boxes: Sequence[BoxWager], roles: dict[int, Role]) -> None:
    if len(dealer) != HAND_SIZE:
        raise SettleError(f"dealer: a hand is {HAND_SIZE} cards, got {len(dealer)}")
    holder: dict[Card, str] = {}

    def deal(cards: Iterable[Card], who: str) -> None:
        for card in cards:
            if not 0 <= card < 52:
                raise SettleError(f"{who}: no such card number {card}")
            if card in holder:
                raise SettleError(f"{who}: {card_text(card)} is dealt twice (also to {holder[card]})")
            holder[card] = who

    deal(dealer, "dealer")
    if replacement is not None:
        deal([replacement], "dealer_replacement")
    numbers = [w.box for w in boxes]
    for wager in boxes:
        where = f"box {wager.box}"
        if numbers.count(wager.box) > 1:
            raise SettleError(f"{where}: given twice")
        if not 1 <= wager.box <= settings.boxes:
            raise SettleError(f"{where}: the table has boxes 1 to {settings.boxes}")
        if len(wager.cards) != HAND_SIZE:
            raise SettleError(f"{where}: a box is dealt {HAND_SIZE} cards, got {len(wager.cards)}")
        if wager.ante < 0 or wager.bonus < 0:
            raise SettleError(f"{where}: bets cannot be negative")
        if wager.ante == 0 and wager.bonus == 0:
            raise SettleError(f"{where}: no bet (an Ante, a bonus or both)")
        deal(wager.cards, where)
        role = roles[wager.box]
        if wager.draw is not None:
            if role != OPEN:
                raise SettleError(f"{where}: a {role.replace('_', '-')} box cannot buy or exchange")
            try:
                check_draw(wager.cards, wager.draw)
            except SettleError as exc:
                raise SettleError(f"{where}: {exc.message}") from None
            deal(wager.draw.new, where)
        if wager.exchange_request and not wager.dead and not in_play(wager, role):
            raise SettleError(f"{where}: only a box still in play (raised or blind) may ask for the dealer exchange")
