"""Settling a Caribbean Stud hand (docs/rules/caribbean.md section 3.5, section 4, section 5).

Chip amounts are ints seen from the player: positive won, negative lost. The
jackpot meter counts hundredths of a chip. Every settled hand keeps, exactly::

    100 * sum(spot.net) + house_net(settlement, settings) + (meter_after - meter_before) == 0

>>> from server.rules.cards import parse_cards
>>> dealer = parse_cards("Ac Kd 7h 5s 2c")                        # A-K: qualifies
>>> player = SpotWager(1, parse_cards("9h 9s 4c 4d Jh"), ante=10, play=True, jackpot=True)
>>> s = settle(CaribbeanSettings(), 1_000_000, dealer, [player])
>>> r = s.spots[0]
>>> r.cls, r.ante, r.bet, r.jackpot, r.net, s.meter_after
('two_pair', 10, 40, -1, 49, 1000050)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from server.rules.cards import Card, card_text
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.errors import SettleError as SettleError
from server.rules.poker import class_name, qualifies_ak, rank5

HAND_SIZE = 5
BACK_BET_MULTIPLE = 2
"""The Back Bet is exactly twice the Ante (section 3 step 3)."""


@dataclass(frozen=True, slots=True)
class SpotWager:
    """One spot's hand and bets. ``play`` False is a fold; ``jackpot`` carries the jackpot wager."""

    spot: int
    cards: tuple[Card, ...]
    ante: int
    play: bool = False
    jackpot: bool = False
    dead: bool = False


@dataclass(frozen=True, slots=True)
class SpotResult:
    """One spot's change on each bet. ``cls`` is ``"none"`` for a dead hand without five cards."""

    spot: int
    dead: bool
    folded: bool
    cls: str
    ante: int
    bet: int
    jackpot: int
    jackpot_award: int
    award_from_meter: int
    net: int
    dead_reason: str | None = None
    """Why a dead spot is dead: ``floor``, ``card_count``, or ``void`` (the dealer's hand); None when live."""

    def as_json(self) -> dict[str, Any]:
        """The ``rules settle`` keys, plus ``dead``, ``folded`` and ``class`` (and a dead spot's ``dead_reason``)."""
        why = {"dead_reason": self.dead_reason} if self.dead else {}
        return {
            "spot": self.spot,
            "ante": self.ante,
            "bet": self.bet,
            "jackpot": self.jackpot,
            "jackpot_award": self.jackpot_award,
            "net": self.net,
            "dead": self.dead,
            "folded": self.folded,
            "class": self.cls,
        } | why


@dataclass(frozen=True, slots=True)
class CaribbeanSettlement:
    """The whole hand's outcome. Meter figures are hundredths of a chip; ``seed_funding`` is whole chips."""

    dealer_qualifies: bool
    dealer_class: str
    order: tuple[int, ...]
    spots: tuple[SpotResult, ...]
    meter_before: int
    meter_after: int
    contributions: int
    seed_funding: int
    jackpot_wagers: int = 0
    """How many jackpot wagers the house collected (dead hands' are given back, so not counted)."""

    def as_json(self) -> dict[str, Any]:
        """The ``rules settle`` shape, plus ``dealer.class``, ``contributions`` and ``seed_funding``."""
        return {
            "dealer": {"qualifies": self.dealer_qualifies, "class": self.dealer_class},
            "order": list(self.order),
            "spots": [spot.as_json() for spot in self.spots],
            "meter": self.meter_after,
            "contributions": self.contributions,
            "seed_funding": self.seed_funding,
        }

    def result(self, spot: int) -> SpotResult:
        """One spot's result."""
        return next(r for r in self.spots if r.spot == spot)


def house_net(settlement: CaribbeanSettlement, settings: CaribbeanSettings) -> int:
    """The house's change in hundredths of a chip.

    The house pays the Ante and Back Bet results and the fixed jackpot awards, collects every
    jackpot wager, gives the contributions to the meter and funds the seed at a royal's reset.
    """
    ante_and_bet = sum(r.ante + r.bet for r in settlement.spots)
    fixed_awards = sum(r.jackpot_award - r.award_from_meter for r in settlement.spots)
    chips = settlement.jackpot_wagers * settings.jackpot_wager - ante_and_bet - fixed_awards - settlement.seed_funding
    return 100 * chips - settlement.contributions


def main_bets(settings: CaribbeanSettings, ante: int, mine: int, dealer: int,
              dealer_qualifies: bool) -> tuple[int, int]:
    """(Ante, Back Bet) results of a hand that played, from the two hands' values (step 5's table).

    >>> from server.rules.cards import parse_cards
    >>> main_bets(CaribbeanSettings(), 10, rank5(parse_cards("Ah Ad 9c 5s 2h")), 0, True)
    (10, 20)
    """
    if not dealer_qualifies:
        return capped(settings, ante, 0)
    if mine == dealer:
        return 0, 0
    if mine < dealer:
        return -ante, -BACK_BET_MULTIPLE * ante
    return capped(settings, ante, BACK_BET_MULTIPLE * ante * settings.bet_pay(class_name(mine)))


def capped(settings: CaribbeanSettings, ante_win: int, bet_win: int) -> tuple[int, int]:
    """Winnings under ``max_payout``: the excess comes off the Back Bet's win first, then the Ante's.

    >>> capped(CaribbeanSettings(max_payout=25), 10, 20), capped(CaribbeanSettings(max_payout=4), 10, 20)
    ((10, 15), (4, 0))
    """
    cap = settings.max_payout
    if cap is None or ante_win + bet_win <= cap:
        return ante_win, bet_win
    bet_win = max(0, cap - ante_win)
    return min(ante_win, cap), bet_win


def check_spots(settings: CaribbeanSettings, dealer: Sequence[Card], spots: Sequence[SpotWager], meter: int) -> None:
    """Refuse what cannot be settled: a negative meter, unknown or repeated spots, shared cards, bad bets."""
    if isinstance(meter, bool) or not isinstance(meter, int) or meter < 0:
        raise SettleError(f"meter: must be a whole number of hundredths, at least 0, got {meter!r}")
    owner: dict[Card, str] = dict.fromkeys(dealer, "the dealer's hand")
    seen: set[int] = set()
    for w in spots:
        where = f"spot {w.spot}"
        if not 1 <= w.spot <= settings.spots:
            raise SettleError(f"{where}: no such spot at a {settings.spots}-spot table")
        if w.spot in seen:
            raise SettleError(f"{where}: listed twice")
        seen.add(w.spot)
        if w.ante < 1:
            raise SettleError(f"{where}: ante must be at least 1 chip, got {w.ante}")
        if w.jackpot and not settings.jackpot and not w.dead:
            raise SettleError(f"{where}: a jackpot wager on a table without the jackpot")
        for card in w.cards:
            if card in owner:
                raise SettleError(f"{where}: duplicate card {card_text(card)} (also in {owner[card]})")
            owner[card] = f"spot {w.spot}'s hand"


def settle(settings: CaribbeanSettings, meter: int, dealer: Sequence[Card],
           spots: Sequence[SpotWager]) -> CaribbeanSettlement:
    """Settle a hand from the highest spot down, starting from ``meter`` (hundredths of a chip).

    A spot marked dead, or without exactly five cards, is dead: every bet back, nothing to the
    meter. A dealer's hand without five cards makes the whole hand dead.
    """
    check_spots(settings, dealer, spots, meter)
    ordered = sorted(spots, key=lambda w: w.spot, reverse=True)
    order = tuple(w.spot for w in ordered)
    if len(dealer) != HAND_SIZE:
        dead = tuple(_dead(w, "void") for w in ordered)
        return CaribbeanSettlement(False, "none", order, dead, meter, meter, 0, 0)
    dealer_value = rank5(dealer)
    qualifies = qualifies_ak(dealer_value)
    live = [w for w in ordered if not w.dead and len(w.cards) == HAND_SIZE]
    values = {w.spot: rank5(w.cards) for w in live}
    wagers = [w for w in live if w.jackpot]
    royals = sum(1 for w in wagers if class_name(values[w.spot]) == "royal")
    jackpot = _Jackpot(settings, meter, len(wagers), royals)
    results: list[SpotResult] = []
    for w in ordered:
        if w.spot not in values:
            results.append(_dead(w, "floor" if w.dead else "card_count"))
            continue
        value = values[w.spot]
        if w.play:
            ante, bet = main_bets(settings, w.ante, value, dealer_value, qualifies)
        else:
            ante, bet = -w.ante, 0
        award, from_meter = jackpot.award(class_name(value)) if w.jackpot else (0, 0)
        wager = settings.jackpot_wager if w.jackpot else 0
        results.append(SpotResult(w.spot, False, not w.play, class_name(value), ante, bet, award - wager, award,
                                  from_meter, ante + bet + award - wager))
    return CaribbeanSettlement(qualifies, class_name(dealer_value), order, tuple(results), meter, jackpot.meter,
                               jackpot.contributions, jackpot.seed_funding, len(wagers))


class _Jackpot:
    """The meter through one hand's settlement: contributions first, then awards in settlement order."""

    def __init__(self, settings: CaribbeanSettings, meter: int, wagers: int, royals: int) -> None:
        self.settings = settings
        self.royals = royals
        # Every jackpot wager of the hand feeds the meter before any award (section 4, Contribution).
        self.contributions = wagers * settings.contribution
        self.meter = meter + self.contributions
        self.seed_funding = 0
        self.royal_share: int | None = None

    def award(self, cls: str) -> tuple[int, int]:
        """(whole chips awarded, of which from the meter) for a jackpot wager on a ``cls`` hand."""
        pay = self.settings.jackpot_pay(cls)
        if pay is None:
            return 0, 0
        kind, amount = pay
        if kind == "chips":
            return amount, 0
        if cls == "royal":
            return self._royal(amount)
        chips = self.meter * amount // 100 // 100
        self.meter -= 100 * chips
        return chips, chips

    def _royal(self, percent: int) -> tuple[int, int]:
        # The first royal splits the meter among all the hand's royals and resets it at once;
        # each later royal takes the share already set aside for it.
        if self.royal_share is None:
            self.royal_share = self.meter * percent // 100 // 100 // self.royals
            self.meter += 100 * (self.settings.jackpot_seed - self.royal_share * self.royals)
            self.seed_funding = self.settings.jackpot_seed
        return self.royal_share, self.royal_share


def _dead(w: SpotWager, reason: str) -> SpotResult:
    cls = class_name(rank5(w.cards)) if len(w.cards) == HAND_SIZE else "none"
    return SpotResult(w.spot, True, False, cls, 0, 0, 0, 0, 0, 0, reason)
