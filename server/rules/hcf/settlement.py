"""Settling a High Card Flush hand (docs/rules/hcf.md section 3.7, sections 5 and 7).

All amounts are int chips seen from the party named: positive won, negative lost.
Conservation is structural: ``sum(seat.net) + dealer_net + house == 0``.

>>> from server.rules.cards import parse_cards
>>> from server.rules.hcf.settings import HcfSettings
>>> dp = parse_cards("9h 5h 2h Kc Qd Js 3s")       # qualifies: 9-high 3-card flush
>>> player = parse_cards("Ac Tc 8c 6c 4d 3d 2d")   # 4-card flush beats it
>>> s = settle(HcfSettings(), dp, [Wager(4, player, ante=10, raise_amount=10)],
...            button=3, dealer_stack=1000)
>>> s.result(4).net, s.dealer_net, s.house
(19, -20, 1)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from server.rules.cards import Card, card_text
from server.rules.errors import SettleError as SettleError
from server.rules.hcf import fees
from server.rules.hcf.evaluate import HAND_SIZE, HcfHand, evaluate
from server.rules.hcf.fees import pays_fee as pays_fee  # re-exported: its callers read it here
from server.rules.hcf.settings import HcfSettings


@dataclass(frozen=True, slots=True)
class Wager:
    """One seat's bets and cards. ``raise_amount`` 0 with an Ante means folded."""

    seat: int
    cards: tuple[Card, ...]
    ante: int
    straight_flush_bonus: int = 0
    flush_bonus: int = 0
    raise_amount: int = 0

    @property
    def folded(self) -> bool:
        """An Ante with no raise is a fold."""
        return self.ante > 0 and self.raise_amount == 0

    @property
    def staked(self) -> int:
        """Every chip this seat put on the felt."""
        return self.ante + self.straight_flush_bonus + self.flush_bonus + self.raise_amount


DEAD_REASONS: Final = ("funds", "card_count", "floor", "void")
"""Why a seat's hand is dead: the DP could not cover it, its card count, the floor, or the whole hand void."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    """What one seat won (+) or lost (-) on each bet; ``fee`` is minus the fee kept.

    A dead seat carries ``dead_reason`` (one of :data:`DEAD_REASONS`); a seat the
    DP's funds could not cover (``funds``) also carries ``bank``, the DP's running
    bank when its turn came, and ``owed``, what its bets would have won (more than
    ``bank``). The defaults keep results recorded before these fields readable.
    """

    seat: int
    dead: bool
    folded: bool
    ante: int
    raise_amount: int
    straight_flush_bonus: int
    flush_bonus: int
    fee: int
    dead_reason: str | None = None
    bank: int | None = None
    owed: int | None = None

    @property
    def net(self) -> int:
        """The seat's whole change, fee included."""
        return self.bets + self.fee

    @property
    def bets(self) -> int:
        """The change from its bets alone (what the DP pays or collects)."""
        return self.ante + self.raise_amount + self.straight_flush_bonus + self.flush_bonus

    def as_json(self) -> dict[str, object]:
        """The ``rules settle`` shape."""
        return {
            "seat": self.seat,
            "dead": self.dead,
            "folded": self.folded,
            "ante": self.ante,
            "raise": self.raise_amount,
            "straight_flush_bonus": self.straight_flush_bonus,
            "flush_bonus": self.flush_bonus,
            "fee": self.fee,
            "net": self.net,
        } | self._why()

    def _why(self) -> dict[str, object]:
        # Only a dead seat says why, so a live seat's shape is what it always was.
        if not self.dead:
            return {}
        why: dict[str, object] = {"dead_reason": self.dead_reason}
        if self.dead_reason == "funds":
            why |= {"bank": self.bank, "owed": self.owed}
        return why


@dataclass(frozen=True, slots=True)
class Settlement:
    """The whole hand's outcome. ``dealer_net`` includes ``dealer_fee``."""

    dealer_qualifies: bool
    dealer_fee: int
    dealer_net: int
    order: tuple[int, ...]
    seats: tuple[SeatResult, ...]
    house: int
    void: bool = False

    def as_json(self) -> dict[str, object]:
        """The ``rules settle`` shape."""
        return {
            "dealer": {"qualifies": self.dealer_qualifies, "net": self.dealer_net, "fee": self.dealer_fee},
            "order": list(self.order),
            "seats": [seat.as_json() for seat in self.seats],
            "house": self.house,
        }

    def result(self, seat: int) -> SeatResult:
        """One seat's result."""
        return next(r for r in self.seats if r.seat == seat)


def settlement_order(seats: int, button: int | None) -> tuple[int, ...]:
    """Counter-clockwise from the first seat right of the button (the reverse of the deal).

    Without a button (house-banked) the deal starts at seat 1, so settlement
    runs from the last seat down.

    >>> settlement_order(7, 3)
    (2, 1, 7, 6, 5, 4)
    >>> settlement_order(6, None)
    (6, 5, 4, 3, 2, 1)
    """
    if button is None:
        return tuple(range(seats, 0, -1))
    return tuple((button - 1 - k) % seats + 1 for k in range(1, seats))


def deal_order(seats: int, button: int | None) -> tuple[int, ...]:
    """Clockwise from the first seat left of the button; the button seat itself excluded.

    >>> deal_order(7, 3)
    (4, 5, 6, 7, 1, 2)
    """
    return tuple(reversed(settlement_order(seats, button)))


def _bonus_win(settings: HcfSettings, stake: int, odds: int) -> int:
    win = stake * odds
    cap = settings.max_bonus_win
    return win if cap is None else min(win, cap)


def _versus(settings: HcfSettings, stake: int, mine: int, theirs: int, odds: int) -> int:
    """A bonus judged against the DP: needs ``odds`` > 0 (a paying hand)."""
    if not stake:
        return 0
    if not odds or mine < theirs:
        return -stake
    return _bonus_win(settings, stake, odds) if mine > theirs else 0


def _own_hand(settings: HcfSettings, stake: int, odds: int) -> int:
    if not stake:
        return 0
    return _bonus_win(settings, stake, odds) if odds else -stake


def _own_bonuses(settings: HcfSettings, wager: Wager, hand: HcfHand) -> tuple[int, int]:
    """House-banked bonuses: paid on the player's own hand by the pay table."""
    sf_odds = settings.straight_flush_pay(hand.straight_flush_length)
    return (_own_hand(settings, wager.straight_flush_bonus, sf_odds),
            _own_hand(settings, wager.flush_bonus, settings.flush_pay(hand.flush_size)))


def judge_bets(
    settings: HcfSettings, wager: Wager, hand: HcfHand, dealer: HcfHand
) -> tuple[int, int, int, int]:
    """(ante, raise, straight flush bonus, flush bonus) results of a seat that played."""
    if wager.folded:
        if settings.house_banked:
            return (-wager.ante, 0, *_own_bonuses(settings, wager, hand))
        return -wager.ante, 0, -wager.straight_flush_bonus, -wager.flush_bonus
    if not dealer.qualifies:
        ante, raised = wager.ante, 0
    elif hand.flush_key == dealer.flush_key:
        ante, raised = 0, 0
    else:
        sign = 1 if hand.flush_key > dealer.flush_key else -1
        ante, raised = sign * wager.ante, sign * wager.raise_amount
    if settings.house_banked:
        sf, fl = _own_bonuses(settings, wager, hand)
    else:
        sf = _versus(settings, wager.straight_flush_bonus, hand.run_key, dealer.run_key,
                     settings.straight_flush_pay(hand.straight_flush_length))
        fl = _versus(settings, wager.flush_bonus, hand.flush_key, dealer.flush_key,
                     settings.flush_pay(hand.flush_size))
    return ante, raised, sf, fl


def check_wagers(
    settings: HcfSettings, dealer_cards: Sequence[Card], wagers: Sequence[Wager], button: int | None
) -> None:
    """Refuse what cannot be settled: duplicate cards, bonuses without an Ante, bad raises."""
    owner: dict[Card, str] = dict.fromkeys(dealer_cards, "the dealer's hand")
    seen_seats: set[int] = set()
    for w in wagers:
        where = f"seat {w.seat}"
        if not 1 <= w.seat <= settings.seats:
            raise SettleError(f"{where}: no such seat at a {settings.seats}-seat table")
        if w.seat == button:
            raise SettleError(f"{where}: is the button, the designated player's seat")
        if w.seat in seen_seats:
            raise SettleError(f"{where}: listed twice")
        seen_seats.add(w.seat)
        for card in w.cards:
            if card in owner:
                raise SettleError(f"{where}: duplicate card {card_text(card)} (also in {owner[card]})")
            owner[card] = f"seat {w.seat}'s hand"
        _check_amounts(w, where)


def _check_amounts(w: Wager, where: str) -> None:
    for name, amount in (("ante", w.ante), ("straight_flush_bonus", w.straight_flush_bonus),
                         ("flush_bonus", w.flush_bonus), ("raise", w.raise_amount)):
        if amount < 0:
            raise SettleError(f"{where}: {name} must not be negative, got {amount}")
    if not w.ante and (w.straight_flush_bonus or w.flush_bonus):
        raise SettleError(f"{where}: a bonus bet needs an Ante")
    if not w.ante and w.raise_amount:
        raise SettleError(f"{where}: a raise needs an Ante")
    if w.raise_amount and len(w.cards) == HAND_SIZE:
        hand = evaluate(w.cards)
        top = hand.raise_limit * w.ante
        if not w.ante <= w.raise_amount <= top:
            raise SettleError(
                f"{where}: raise {w.raise_amount} is outside 1x to {hand.raise_limit}x the Ante "
                f"({w.ante} to {top}) for a {hand.flush_size}-card flush"
            )


def settle(
    settings: HcfSettings,
    dealer_cards: Sequence[Card],
    wagers: Sequence[Wager],
    *,
    button: int | None = None,
    dealer_stack: int | None = None,
    dead_seats: Collection[int] | Mapping[int, str] = (),
) -> Settlement:
    """Settle a hand: the DP's (or house's) cards against every seat's wager.

    A seat whose card count is wrong, or listed in ``dead_seats``, is dead; a
    dealer hand of the wrong size voids the hand. In the ``california`` profile
    ``dealer_stack`` (the DP's table stack before their fee) caps the action.
    ``dead_seats`` may map each seat to its reason (``floor``, ``card_count``);
    a plain collection means the floor, unless the seat's card count is wrong.
    """
    check_wagers(settings, dealer_cards, wagers, button)
    banked = not settings.house_banked
    order = [s for s in settlement_order(settings.seats, button if banked else None)
             if any(w.seat == s for w in wagers)]
    by_seat = {w.seat: w for w in wagers}
    dealer_fee = fees.dealer_fee(settings, (w.ante for w in wagers)) if banked else 0
    if len(dealer_cards) != HAND_SIZE:
        voided = tuple(_dead(seat, "void") for seat in order)
        return Settlement(False, 0, 0, tuple(order), voided, 0, void=True)
    dealer = evaluate(dealer_cards)
    dead = _dead_reasons(wagers, dead_seats)
    bank = None
    if banked:
        folded_stakes = sum(w.staked for w in wagers if w.folded and w.seat not in dead)
        bank = (dealer_stack if dealer_stack is not None else 0) - dealer_fee + folded_stakes
    results: list[SeatResult] = []
    for seat in order:
        w = by_seat[seat]
        if seat in dead or not w.ante:
            results.append(_dead(seat, dead[seat]) if seat in dead else _idle(seat))
            continue
        ante, raised, sf, fl = judge_bets(settings, w, evaluate(w.cards), dealer)
        total = ante + raised + sf + fl
        if bank is not None and not w.folded:
            if total > bank:
                results.append(_dead(seat, "funds", bank=bank, owed=total))
                continue
            bank -= total
        fee = -fees.player_fee(settings, w.ante)
        results.append(SeatResult(seat, False, w.folded, ante, raised, sf, fl, fee))
    had_action = any(not r.dead and by_seat[r.seat].ante for r in results)
    if not had_action:
        dealer_fee = 0
    house = dealer_fee - sum(r.fee for r in results)
    dealer_net = -sum(r.bets for r in results) - dealer_fee
    return Settlement(dealer.qualifies, -dealer_fee, dealer_net, tuple(order), tuple(results), house)


def _dead_reasons(wagers: Sequence[Wager], dead_seats: Collection[int] | Mapping[int, str]) -> dict[int, str]:
    """Each seat dead before settlement, with why: the reason given, else a wrong card count, else the floor."""
    given = dead_seats if isinstance(dead_seats, Mapping) else {}
    out: dict[int, str] = {}
    for w in wagers:
        if w.seat in dead_seats or len(w.cards) != HAND_SIZE:
            out[w.seat] = given.get(w.seat) or ("card_count" if len(w.cards) != HAND_SIZE else "floor")
    return out


def _dead(seat: int, reason: str, *, bank: int | None = None, owed: int | None = None) -> SeatResult:
    # A dead hand takes no part, so it neither folded nor raised (a folded seat cannot die).
    return SeatResult(seat, True, False, 0, 0, 0, 0, 0, reason, bank, owed)


def _idle(seat: int) -> SeatResult:
    return SeatResult(seat, False, False, 0, 0, 0, 0, 0)
