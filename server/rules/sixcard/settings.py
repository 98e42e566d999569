"""A 6 Card Poker table's posted settings (docs/rules/sixcard.md section 2), validated once.

>>> s = SixcardSettings.from_mapping({"boxes": 2, "max_ante": "", "bonus_pays": "royal: 500, trips: 30"})
>>> s.boxes, s.max_ante, s.bonus_pay("royal"), s.bonus_pay("flush"), s.bonus_pay("pair")
(2, None, 500, 50, 0)
>>> SixcardSettings.from_mapping({"boxes": 5})
Traceback (most recent call last):
...
server.rules.errors.SettingsError: boxes: a table has 1 to 4 boxes, got 5
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from server.i18n import phrase
from server.rules.drill.chips import chips_setting
from server.rules.errors import SettingsError
from server.rules.house.settings import HouseTable, merged_values, settings_dict
from server.rules.validate import buy_in_order, not_above, optional_whole, pay, pay_pairs, seconds, whole

GAME: Final = "sixcard"
PayTable = tuple[tuple[str, int], ...]

MAX_BOXES: Final = 4
"""Four boxes of at most 10 cards each and the dealer's 6 fit one deck (section 2)."""

BET_CLASSES: Final = ("royal", "straight_flush", "quads", "full_house", "flush", "straight", "trips",
                      "two_pair", "pair")
BONUS_CLASSES: Final = ("royal", "straight_flush", "quads", "full_house", "flush", "straight", "trips")

BET_PAYS: Final[PayTable] = (("royal", 100), ("straight_flush", 50), ("quads", 20), ("full_house", 7),
                             ("flush", 5), ("straight", 4), ("trips", 3), ("two_pair", 2), ("pair", 1))
BONUS_PAYS: Final[PayTable] = (("royal", 1000), ("straight_flush", 500), ("quads", 200), ("full_house", 70),
                               ("flush", 50), ("straight", 40), ("trips", 25))


@dataclass(frozen=True, slots=True)
class SixcardSettings(HouseTable):
    """Every posted setting of a 6 Card Poker table. Build with :meth:`from_mapping`."""

    boxes: int = 4
    max_hands_while_waiting: int = 1
    min_ante: int = 5
    max_ante: int | None = None
    ante_ratio: int = 5
    min_bonus: int = 1
    max_bonus: int | None = None
    max_payout: int = 10000
    bet_pays: PayTable = BET_PAYS
    bonus_pays: PayTable = BONUS_PAYS
    bet_seconds: float = 30
    action_seconds: float = 30
    exchange_seconds: float = 20
    min_buy_in: int = 100
    max_buy_in: int = 10000
    default_buy_in: int = 1000
    pause_seconds: float = 3
    time_bank_seconds: float = 0  # each player's time bank for the session (0: none; docs/server.md)
    chips: tuple[int, ...] = ()  # the chips in play (a drill's payouts); none: not said
    _lookup: dict[str, dict[str, int]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], base: SixcardSettings | None = None) -> SixcardSettings:
        """Validated settings: ``values`` override ``base`` (or the defaults).

        A ``game`` key is accepted when it says ``sixcard`` (``as_dict`` writes it), so a
        dumped table reads back.
        """
        start = base or SixcardSettings()
        merged = merged_values(values, start.as_dict(), GAME, SETTING_NAMES,
                               f"game: these are {GAME} settings, got {{given!r}}")
        return _validated(merged, start)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready settings, ``"game": "sixcard"`` first; pay tables as ``{"royal": 100, ...}``."""
        return settings_dict(self, GAME, SETTING_NAMES)

    def bet_pay(self, cls: str) -> int:
        """The Bet's odds (N to 1) for a best five of class ``cls``; 0 when that class is not paid."""
        return self._table("bet_pays").get(cls, 0)

    def bonus_pay(self, cls: str) -> int:
        """The bonus bet's odds (N to 1) for original five cards of class ``cls``; 0 when not paid."""
        return self._table("bonus_pays").get(cls, 0)

    # What the table task reads of any game's settings (server.rules.game.TableSettings).
    @property
    def seats(self) -> int:
        """The table's places: its boxes."""
        return self.boxes


SETTING_NAMES: Final = tuple(f.name for f in dataclasses.fields(SixcardSettings) if not f.name.startswith("_"))


def _pay_table(name: str, value: Any, base: PayTable, classes: tuple[str, ...]) -> PayTable:
    """A pay table from a mapping, pairs or ``'royal: 100, pair: 1'``; classes left out keep ``base``'s pay."""
    given = pay_pairs(name, value, str, "'royal: 100, straight_flush: 50, ...'", "hand classes")
    for cls, odds in given.items():
        if cls not in classes:
            raise SettingsError(phrase("{name}: {hand} is not paid here (classes: {classes})", name=name,
                                       hand=repr(cls), classes=", ".join(classes)))
        pay(f"{name}[{cls}]", odds)
    table = {**dict(base), **given}
    return tuple((cls, table[cls]) for cls in classes)


def _validated(v: dict[str, Any], base: SixcardSettings) -> SixcardSettings:
    boxes = whole("boxes", v["boxes"], 1)
    if boxes > MAX_BOXES:
        raise SettingsError(phrase("boxes: a table has 1 to {most} boxes, got {boxes}", most=MAX_BOXES, boxes=boxes))
    # While another player of the hand has neither bet nor passed (docs/rules/sixcard.md section 2).
    while_waiting = whole("max_hands_while_waiting", v["max_hands_while_waiting"], 1)
    not_above("max_hands_while_waiting", while_waiting, "boxes", boxes)
    ints = {n: whole(n, v[n], 1) for n in ("min_ante", "ante_ratio", "min_bonus", "max_payout",
                                             "min_buy_in", "max_buy_in", "default_buy_in")}
    max_ante = optional_whole("max_ante", v["max_ante"], 1)
    max_bonus = optional_whole("max_bonus", v["max_bonus"], 1)
    for lo, hi, high in (("min_ante", "max_ante", max_ante), ("min_bonus", "max_bonus", max_bonus),
                         ("min_buy_in", "max_buy_in", ints["max_buy_in"])):
        not_above(lo, ints[lo], hi, high)
    buy_in_order(ints["min_buy_in"], ints["default_buy_in"], ints["max_buy_in"])
    return SixcardSettings(
        boxes=boxes,
        max_hands_while_waiting=while_waiting,
        max_ante=max_ante,
        max_bonus=max_bonus,
        bet_pays=_pay_table("bet_pays", v["bet_pays"], base.bet_pays, BET_CLASSES),
        bonus_pays=_pay_table("bonus_pays", v["bonus_pays"], base.bonus_pays, BONUS_CLASSES),
        bet_seconds=seconds("bet_seconds", v["bet_seconds"], 1),
        action_seconds=seconds("action_seconds", v["action_seconds"], 1),
        exchange_seconds=seconds("exchange_seconds", v["exchange_seconds"], 1),
        pause_seconds=seconds("pause_seconds", v["pause_seconds"], 0),
        time_bank_seconds=seconds("time_bank_seconds", v["time_bank_seconds"], 0),
        chips=chips_setting(v.get("chips")),
        min_ante=ints["min_ante"],
        ante_ratio=ints["ante_ratio"],
        min_bonus=ints["min_bonus"],
        max_payout=ints["max_payout"],
        min_buy_in=ints["min_buy_in"],
        max_buy_in=ints["max_buy_in"],
        default_buy_in=ints["default_buy_in"],
    )
