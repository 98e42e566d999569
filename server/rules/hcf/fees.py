"""Who pays which collection fee (docs/rules/hcf.md sections 3.3 and 9.5): ``fee_mode`` says who pays,
``fee`` or the posted ``fee_schedule`` says how much.

>>> from server.rules.hcf.settings import HcfSettings
>>> s = HcfSettings.from_mapping({"fee_mode": "all", "fee_schedule": [
...     {"ante_to": 20, "player": 1, "dp": 2}, {"ante_to": 500, "player": 3, "dp": 6}]})
>>> player_fee(s, 10), player_fee(s, 25), dealer_fee(s, [10, 25]), dealer_fee(s, [10])
(1, 3, 6, 2)
"""

from __future__ import annotations

from collections.abc import Iterable

from server.rules.hcf.fee_schedule import tier_for
from server.rules.hcf.settings import HcfSettings


def pays_fee(settings: HcfSettings, *, dealer: bool) -> bool:
    """Whether a player (or the DP) pays the collection fee under the table's mode."""
    mode = settings.fee_mode
    if dealer:
        return not settings.house_banked and mode in ("all", "designated")
    return mode in ("all", "players")


def player_fee(settings: HcfSettings, ante: int) -> int:
    """What a player with an Ante of ``ante`` pays: their own Ante's tier, or the flat ``fee``."""
    if not pays_fee(settings, dealer=False):
        return 0
    schedule = settings.fee_schedule
    return settings.fee if schedule is None else tier_for(schedule, ante).player


def dealer_fee(settings: HcfSettings, antes: Iterable[int]) -> int:
    """What the DP pays for a hand with these Antes: the tier of the largest, or the flat ``fee``."""
    if not pays_fee(settings, dealer=True):
        return 0
    schedule = settings.fee_schedule
    return settings.fee if schedule is None else tier_for(schedule, max(antes, default=0)).dp


def most_dealer_fee(settings: HcfSettings) -> int:
    """The most a DP can be charged for one hand at this table (what the bank's offer asks them to hold)."""
    return dealer_fee(settings, [settings.max_ante])


def largest_ante(settings: HcfSettings, budget: int, per_ante: int) -> int:
    """The largest Ante whose ``per_ante`` times itself plus its own fee fits in ``budget`` (0: none fits)."""
    schedule = settings.fee_schedule
    if schedule is None:
        return min(settings.max_ante, (budget - player_fee(settings, settings.min_ante)) // per_ante)
    best, low = 0, 1
    for tier in schedule:
        top = min(tier.ante_to, settings.max_ante, (budget - player_fee(settings, tier.ante_to)) // per_ante)
        if top >= low:
            best = top
        low = tier.ante_to + 1
    return best
