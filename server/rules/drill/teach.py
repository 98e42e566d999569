"""Why an answer is what it is, in this hand's figures (issue 27, item 3): the pay table line and the ceiling of a
payout, the settlement order of a settlement step.

The amounts are always the settlement's; this only says them in words, from the
stake on the felt, the hand shown, and the table's own pay tables and ceilings
(``max_bonus_win`` at High Card Flush, ``max_payout`` at the house games), without
naming any setting by its code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from server.i18n import joined, told
from server.rules.cards import Card
from server.rules.hcf.evaluate import evaluate

BET_WORDS: Final[Mapping[str, Callable[[str], str]]] = {
    "ante": lambda where: told("{where}'s Ante", where=where),
    "raise": lambda where: told("{where}'s Raise", where=where),
    "bet": lambda where: told("{where}'s Bet", where=where),
    "straight_flush_bonus": lambda where: told("{where}'s Straight Flush bonus", where=where),
    "flush_bonus": lambda where: told("{where}'s Flush bonus", where=where),
    "bonus": lambda where: told("{where}'s bonus", where=where),
    "jackpot": lambda where: told("{where}'s jackpot award", where=where),
}
"""Each bet of a payout as a sentence names it, with its place ("seat 3's Flush bonus")."""

PLACE: Final = {"hcf": "seat", "caribbean": "spot", "sixcard": "box"}
ORDER: Final = {"hcf": told("counter-clockwise from the right of the button"),
                "caribbean": told("from the highest spot down"), "sixcard": told("in box order")}
"""How each game's settlement goes round the table (docs/rules: hcf.md 3.7, caribbean.md 3.5, sixcard.md 6)."""


def order_reason(game: str, places: Sequence[int]) -> str:
    """The settlement order of this hand, as a reason: ``settlement goes ... : seat 4, then seat 3``.

    >>> order_reason("hcf", [4, 3, 2])
    'settlement goes counter-clockwise from the right of the button, one place at a time: seat 4, then 3, then 2'
    """
    if not places:
        return told("settlement goes {order}, one place at a time", order=ORDER[game])
    listed = joined([_place(game, places[0]), *(told("then {n}", n=p) for p in places[1:])])
    return told("settlement goes {order}, one place at a time: {places}", order=ORDER[game], places=listed)


def _place(game: str, n: int) -> str:
    """A seat, spot or box by its number."""
    if game == "caribbean":
        return told("spot {spot}", spot=n)
    return told("box {box}", box=n) if game == "sixcard" else told("seat {seat}", seat=n)


def stake(game: str, before: Any, place: int, bet: str) -> int | None:
    """The chips on ``bet`` at ``place`` as the settlement found them (None: not a stake paid to 1)."""
    if game == "hcf":
        if bet == "raise":
            return int(before.raises.get(place, 0)) or None
        bets = before.bets.get(place)
        return int(getattr(bets, bet)) if bets is not None else None
    if game == "caribbean":
        if bet == "bet":
            return int(before.played.get(place, 0)) or None
        found = [b.ante for b in before.bets if b.spot == place]
        return int(found[0]) if bet == "ante" and found else None
    boxes = [b for b in before.boxes if b.box == place]
    if not boxes or bet not in ("ante", "bonus"):
        return None
    return int(getattr(boxes[0], bet))


def payout_reason(game: str, before: Any, result: Any, bet: str, amount: int,
                  shown: Mapping[int, Sequence[Card]] | None = None) -> str:
    """This payout's reason: the stake and the pay table line it is paid by, or the ceiling that capped it.

    >>> from types import SimpleNamespace as S
    >>> before = S(bets={3: S(ante=10, straight_flush_bonus=0, flush_bonus=15)}, raises={},
    ...            settings=S(max_bonus_win=None))
    >>> payout_reason("hcf", before, S(seat=3), "flush_bonus", 150)
    "seat 3's Flush bonus of 15 chips is paid 10 to 1: 15 x 10 = 150 chips"
    """
    place = int(getattr(result, PLACE[game]))
    where = _place(game, place)
    whose = BET_WORDS[bet](where) if bet in BET_WORDS else told("{where}'s {bet}", where=where, bet=bet)
    if bet == "jackpot":
        return told("{where}'s hand wins {amount} chips on the table's jackpot pay table, paid whole; the jackpot "
                    "wager itself is settled apart", where=where, amount=amount)
    staked = stake(game, before, place, bet)
    if staked is None or staked <= 0:
        return told("{bet} wins {amount} chips as the settlement pays it", bet=whose, amount=amount)
    cap = _ceiling(game, before.settings, result, bet)
    if cap is not None:
        return told("{bet} of {staked} chips is paid {amount} chips: {cap}", bet=whose, staked=staked, amount=amount,
                    cap=cap)
    line = _line(game, result, bet, (shown or {}).get(place))
    if amount % staked:
        return told("{bet} of {staked} chips wins {amount} chips as the settlement pays it{line}", bet=whose,
                    staked=staked, amount=amount, line=line)
    odds = amount // staked
    return told("{bet} of {staked} chips is paid {odds} to 1{line}: {staked} x {odds} = {amount} chips", bet=whose,
                staked=staked, odds=odds, line=line, amount=amount)


POKER_CLASSES: Final = {
    "royal": told("royal flush"), "straight_flush": told("straight flush"), "quads": told("four of a kind"),
    "full_house": told("full house"), "flush": told("flush"), "straight": told("straight"),
    "trips": told("three of a kind"), "two_pair": told("two pair"), "pair": told("pair"),
    "high_card": told("high card"),
}
"""The pay table's lines (each a poker hand class) as people say them, in the reader's language."""


def _line(game: str, result: Any, bet: str, cards: Sequence[Card] | None) -> str:
    """The pay table line, where the hand tells it: ``, the table's Flush bonus line for a 5-card flush``."""
    if game == "hcf" and bet in ("flush_bonus", "straight_flush_bonus") and cards:
        hand = evaluate(cards)
        if bet == "flush_bonus":
            return told(", the table's Flush bonus line for a {n}-card flush", n=hand.flush_size)
        return told(", the table's Straight Flush bonus line for a {n}-card straight flush",
                    n=hand.straight_flush_length)
    cls = str(getattr(result, "cls", None) or "")
    if game in ("caribbean", "sixcard") and bet == "bet" and cls:
        return told(", the table's Bet line for {hand}", hand=POKER_CLASSES.get(cls, cls.replace("_", " ")))
    if game == "sixcard" and bet == "bonus":
        return told(", the table's bonus line for the box's first five cards")
    return ""


def _ceiling(game: str, settings: Any, result: Any, bet: str) -> str | None:
    """The ceiling that capped this bet, in words; None when none did."""
    if game == "hcf":
        cap = getattr(settings, "max_bonus_win", None)
        won = int(getattr(result, bet, 0)) if bet != "raise" else 0
        if cap is not None and bet in ("flush_bonus", "straight_flush_bonus") and won >= cap:
            return told("the table's ceiling on what one bonus bet can win in a hand is {cap} chips, and it is paid "
                        "that", cap=cap)
        return None
    cap = getattr(settings, "max_payout", None)
    if cap is None:
        return None
    if bet == "bonus":
        return told("the table's ceiling of {cap} chips on the bonus is reached", cap=cap) \
            if int(result.bonus) >= cap else None
    if bet in ("ante", "bet") and int(result.ante) + int(result.bet) >= cap:
        return told("the table's ceiling of {cap} chips on what the Ante and Bet win together is reached, taken "
                    "off the Bet first", cap=cap)
    return None
