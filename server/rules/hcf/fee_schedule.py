"""A posted fee schedule: flat fees by the size of the Ante, for the players and the DP (docs/rules/hcf.md section 9.5).

California collection fees are flat amounts fixed before the hand, never a share of
the wagers, so every tier holds whole chips and nothing else.

>>> schedule = parse_schedule("fee_schedule", [{"ante_to": 20, "player": 1, "dp": 2},
...                                            {"ante_to": 100, "player": 2, "dp": 4}], max_ante=100)
>>> tier_for(schedule, 20).player, tier_for(schedule, 21).dp
(1, 4)
>>> parse_schedule("fee_schedule", [{"ante_to": 100, "player": "5%", "dp": 2}], max_ante=100)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
server.rules.errors.SettingsError: fee_schedule: tier 1's player fee must be a flat whole number of chips (a fee is ...
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, Final

from server.i18n import phrase
from server.rules.errors import SettingsError
from server.rules.validate import MAX_CHIPS

TIER_KEYS: Final = ("ante_to", "player", "dp")
MAX_TIERS: Final = 20
_FLAT: Final = phrase("a fee is fixed before the hand and never a share of the wagers")


@dataclass(frozen=True, slots=True, kw_only=True)
class FeeTier:
    """Antes up to ``ante_to`` pay ``player`` chips each; a DP whose largest Ante is in this tier pays ``dp``."""

    ante_to: int
    player: int
    dp: int

    def as_dict(self) -> dict[str, int]:
        """The tier as the host posts it."""
        return {"ante_to": self.ante_to, "player": self.player, "dp": self.dp}


FeeSchedule = tuple[FeeTier, ...]


def tier_for(schedule: FeeSchedule, ante: int) -> FeeTier:
    """The tier an Ante of ``ante`` falls in (the last tier covers every Ante the table allows)."""
    return next((t for t in schedule if ante <= t.ante_to), schedule[-1])


def parse_schedule(name: str, value: Any, *, max_ante: int) -> FeeSchedule | None:
    """The schedule posted as a list of tiers (or its JSON text); None or empty for no schedule."""
    if value is None or value == "" or value == []:
        return None
    if isinstance(value, str):
        value = _from_text(name, value)
    if not isinstance(value, Sequence) or isinstance(value, str | bytes):
        raise SettingsError(phrase("{name}: must be a list of tiers, each with ante_to, player and dp, got {value}",
                                   name=name, value=repr(value)))
    if len(value) > MAX_TIERS:
        raise SettingsError(phrase("{name}: posts at most {most} tiers, got {count}", name=name, most=MAX_TIERS,
                                   count=len(value)))
    tiers = tuple(_tier(name, n, row) for n, row in enumerate(value, start=1))
    _check_order(name, tiers, max_ante)
    return tiers


def _from_text(name: str, text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise SettingsError(phrase("{name}: write the tiers as a list such as {example}, got {value}", name=name,
                                   example='[{"ante_to": 20, "player": 1, "dp": 2}]', value=repr(text))) from None


def _tier(name: str, n: int, row: Any) -> FeeTier:
    if not isinstance(row, Mapping) or set(row) != set(TIER_KEYS):
        raise SettingsError(phrase("{name}: tier {n} must give exactly ante_to, player and dp, got {value}", name=name,
                                   n=n, value=repr(row)))
    ante_to = _chips(name, phrase("tier {n}'s ante_to", n=n), row["ante_to"], 1)
    return FeeTier(ante_to=ante_to, player=_chips(name, phrase("tier {n}'s player fee", n=n), row["player"], 0),
                   dp=_chips(name, phrase("tier {n}'s dp fee", n=n), row["dp"], 0))


def _chips(name: str, what: str, value: Any, low: int) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(phrase("{name}: {what} must be a flat whole number of chips ({why}), got {value}",
                                   name=name, what=what, why=_FLAT, value=repr(value)))
    if value < low or value > MAX_CHIPS:
        raise SettingsError(phrase("{name}: {what} must be from {low} to {high} chips, got {value}", name=name,
                                   what=what, low=low, high=f"{MAX_CHIPS:,}", value=repr(value)))
    return value


def _check_order(name: str, tiers: FeeSchedule, max_ante: int) -> None:
    for n, (lower, upper) in enumerate(pairwise(tiers), start=2):
        if upper.ante_to <= lower.ante_to:
            raise SettingsError(phrase("{name}: each tier must reach a larger Ante than the one before; tier {n} "
                                       "reaches {upper}, tier {before} already {lower}", name=name, n=n,
                                       upper=upper.ante_to, before=n - 1, lower=lower.ante_to))
        if upper.player < lower.player or upper.dp < lower.dp:
            raise SettingsError(phrase("{name}: fees never fall as the Ante grows; tier {n} charges less than tier "
                                       "{before}", name=name, n=n, before=n - 1))
    if tiers[-1].ante_to < max_ante:
        raise SettingsError(phrase("{name}: the last tier must cover the largest Ante the table allows ({ante}); it "
                                   "reaches {reached}", name=name, ante=max_ante, reached=tiers[-1].ante_to))
