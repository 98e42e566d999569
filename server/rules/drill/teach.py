"""Why a payout is what it is, in this hand's figures: the bet, what it paid to 1, and the ceiling when it bit.

The amount is always the settlement's; this only says it in words, from the stake on
the felt and the table's own ``max_payout`` (Caribbean Stud and 6 Card Poker).
"""

from __future__ import annotations

from typing import Any, Final

BET_WORDS: Final = {"ante": "Ante", "raise": "Raise", "bet": "Bet", "straight_flush_bonus": "Straight Flush bonus",
                    "flush_bonus": "Flush bonus", "bonus": "bonus", "jackpot": "jackpot award"}
"""Each bet of a payout as a sentence names it."""

PLACE: Final = {"hcf": "seat", "caribbean": "spot", "sixcard": "box"}


def stake(game: str, before: Any, place: int, bet: str) -> int | None:
    """The chips on ``bet`` at ``place`` as the settlement found them (None: not a stake paid to 1)."""
    if game == "hcf":
        if bet == "raise":
            return int(before.raises.get(place, 0)) or None
        bets = before.bets.get(place)
        return int(getattr(bets, bet)) if bets is not None and bet != "raise" else None
    if game == "caribbean":
        if bet == "bet":
            return int(before.played.get(place, 0)) or None
        found = [b.ante for b in before.bets if b.spot == place]
        return int(found[0]) if bet == "ante" and found else None
    found_box = [b for b in before.boxes if b.box == place]
    if not found_box or bet not in ("ante", "bonus"):
        return None
    return int(getattr(found_box[0], bet))


def payout_reason(game: str, before: Any, result: Any, bet: str, amount: int) -> str:
    """This payout's reason: the bet's stake and what it paid to 1, or the ceiling that capped it.

    >>> from types import SimpleNamespace as S
    >>> before = S(bets={3: S(ante=10, straight_flush_bonus=0, flush_bonus=15)}, raises={}, settings=S())
    >>> payout_reason("hcf", before, S(seat=3), "flush_bonus", 150)
    "seat 3's Flush bonus of 15 chips is paid 10 to 1 by the table's pay table: 15 x 10 = 150 chips"
    """
    where = f"{PLACE[game]} {getattr(result, PLACE[game])}"
    name = BET_WORDS.get(bet, bet)
    if bet == "jackpot":
        return f"{where}'s hand wins the jackpot award of {amount} chips on the table's jackpot pay table"
    staked = stake(game, before, getattr(result, PLACE[game]), bet)
    ceiling = getattr(before.settings, "max_payout", None)
    capped = ceiling is not None and _capped(game, result, bet, ceiling)
    if staked is None or staked <= 0:
        return f"{where}'s {name} wins {amount} chips as the settlement pays it"
    if capped:
        return (f"the table's ceiling (max_payout {ceiling}) caps what {where}'s {_capped_what(bet)} win, so its "
                f"{name} of {staked} chips is paid {amount} chips")
    if amount % staked:
        return f"{where}'s {name} of {staked} chips wins {amount} chips as the settlement pays it"
    odds = amount // staked
    return (f"{where}'s {name} of {staked} chips is paid {odds} to 1"
            f"{' by the table' + chr(39) + 's pay table' if odds > 1 else ''}: {staked} x {odds} = {amount} chips")


def _capped_what(bet: str) -> str:
    return "bonus can" if bet == "bonus" else "Ante and Bet together can"


def _capped(game: str, result: Any, bet: str, ceiling: int) -> bool:
    """Whether the ceiling bit: Ante and Bet together (and 6 Card Poker's bonus on its own) reached it."""
    if bet == "bonus":
        return int(result.bonus) >= ceiling
    if game in ("caribbean", "sixcard") and bet in ("ante", "bet"):
        return int(result.ante) + int(result.bet) >= ceiling
    return False
