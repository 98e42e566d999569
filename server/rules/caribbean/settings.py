"""A Caribbean Stud table's posted settings (docs/rules/caribbean.md section 2), validated once.

>>> s = CaribbeanSettings.from_mapping({"bet_pays": "royal: 250, straight_flush: 50, quads: 20, "
...     "full_house: 7, flush: 5, straight: 4, trips: 3, two_pair: 2, pair: 1"})
>>> s.bet_pay("royal"), s.bet_pay("high_card"), s.jackpot_pay("royal"), s.jackpot_pay("flush")
(250, 1, ('percent', 100), ('chips', 50))
>>> CaribbeanSettings.from_mapping({"spots": 10})
Traceback (most recent call last):
...
server.rules.errors.SettingsError: spots: must be 1 to 9 (nine hands and the dealer use 50 cards), got 10
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from server.i18n import phrase
from server.rules.drill.chips import chips_setting
from server.rules.errors import SettingsError
from server.rules.house.settings import HouseTable, merged_values, settings_dict
from server.rules.validate import buy_in_order, flag, not_above, optional_whole, pay, pay_pairs, seconds, whole

ClassPays = tuple[tuple[str, int], ...]
JackpotKind = Literal["chips", "percent"]

GAME: Final = "caribbean"
MAX_SPOTS: Final = 9

BET_CLASSES: Final = ("royal", "straight_flush", "quads", "full_house", "flush", "straight", "trips",
                      "two_pair", "pair")
"""The Back Bet pay table's rows, high to low; ``pair`` also pays a winning high card."""

JACKPOT_CHIP_CLASSES: Final = ("quads", "full_house", "flush")
"""Jackpot awards in whole chips, paid by the house."""

JACKPOT_PERCENT_CLASSES: Final = ("royal", "straight_flush")
"""Jackpot awards as a percentage of the meter, paid from it."""

JACKPOT_CLASSES: Final = JACKPOT_PERCENT_CLASSES + JACKPOT_CHIP_CLASSES

DEFAULT_BET_PAYS: Final[ClassPays] = (
    ("royal", 100), ("straight_flush", 50), ("quads", 20), ("full_house", 7), ("flush", 5), ("straight", 4),
    ("trips", 3), ("two_pair", 2), ("pair", 1),
)
DEFAULT_JACKPOT_PAYS: Final[ClassPays] = (
    ("royal", 100), ("straight_flush", 10), ("quads", 500), ("full_house", 100), ("flush", 50),
)


@dataclass(frozen=True, slots=True)
class CaribbeanSettings(HouseTable):
    """Every posted setting of a Caribbean Stud table. Build with :meth:`from_mapping`."""

    spots: int = 7
    max_hands: int = 3
    max_hands_while_waiting: int = 1
    min_ante: int = 5
    max_ante: int = 500
    bet_pays: ClassPays = DEFAULT_BET_PAYS
    max_payout: int | None = None
    jackpot: bool = True
    jackpot_wager: int = 1
    jackpot_pays: ClassPays = DEFAULT_JACKPOT_PAYS
    jackpot_seed: int = 10000
    jackpot_rate: int = 50
    bet_seconds: float = 30
    action_seconds: float = 30
    min_buy_in: int = 100
    max_buy_in: int = 10000
    default_buy_in: int = 1000
    pause_seconds: float = 3
    time_bank_seconds: float = 0  # each player's time bank for the session (0: none; docs/server.md)
    chips: tuple[int, ...] = ()  # the chips in play (a drill's payouts); none: not said
    _lookup: dict[str, dict[str, int]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], base: CaribbeanSettings | None = None) -> CaribbeanSettings:
        """Validated settings: ``values`` override ``base`` (or the defaults).

        A ``game`` key must say ``caribbean`` and is otherwise ignored, so :meth:`as_dict` round-trips.
        """
        merged = merged_values(values, (base or cls()).as_dict(), GAME, SETTING_NAMES,
                               "game: these are Caribbean Stud settings, got game {given!r}")
        return _validated(merged)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready settings, ``"game": "caribbean"`` first; pay tables as ``{"royal": 100, ...}``."""
        return settings_dict(self, GAME, SETTING_NAMES)

    def bet_pay(self, class_name: str) -> int:
        """Back Bet odds (N to 1) for a winning hand of ``class_name``; a high card is paid as a pair.

        >>> CaribbeanSettings().bet_pay("full_house")
        7
        """
        return self._table("bet_pays")["pair" if class_name == "high_card" else class_name]

    def jackpot_pay(self, class_name: str) -> tuple[JackpotKind, int] | None:
        """The jackpot award for ``class_name``: ``("chips", n)``, ``("percent", p)`` of the meter, or None.

        >>> CaribbeanSettings().jackpot_pay("straight_flush"), CaribbeanSettings().jackpot_pay("straight")
        (('percent', 10), None)
        """
        amount = self._table("jackpot_pays").get(class_name, 0)
        if not amount:
            return None
        return ("percent" if class_name in JACKPOT_PERCENT_CLASSES else "chips"), amount

    @property
    def seats(self) -> int:
        """The table's places are its betting spots."""
        return self.spots

    @property
    def contribution(self) -> int:
        """Hundredths of a chip one jackpot wager adds to the meter (``jackpot_rate``% of ``jackpot_wager``).

        >>> CaribbeanSettings().contribution
        50
        """
        return self.jackpot_rate * self.jackpot_wager


SETTING_NAMES: Final = tuple(f.name for f in dataclasses.fields(CaribbeanSettings) if not f.name.startswith("_"))


def _class_pays(name: str, value: Any, classes: tuple[str, ...], low: int,
                percent: tuple[str, ...] = (), *, chips: bool = False) -> ClassPays:
    """A pay table from ``{"royal": 100, ...}``, its pairs, or the text ``"royal: 100, ..."``.

    Its rows are odds (N to 1), or with ``chips`` fixed awards in chips, except the ``percent`` rows.
    """
    table = pay_pairs(name, value, str, f"'{classes[0]}: 100, {classes[1]}: 50, ...'", "hand classes")
    if sorted(table) != sorted(classes):
        raise SettingsError(phrase("{name}: must give a payout for each of {classes}, got {given}", name=name,
                                   classes=", ".join(classes), given=", ".join(table)))
    for key, odds in table.items():
        if key in percent:
            whole(f"{name}[{key}]", odds, low, 100)
        elif chips:
            whole(f"{name}[{key}]", odds, low)
        else:
            pay(f"{name}[{key}]", odds, low)
    return tuple((key, table[key]) for key in classes)


def _validated(v: dict[str, Any]) -> CaribbeanSettings:
    spots = whole("spots", v["spots"], 1)
    if spots > MAX_SPOTS:
        raise SettingsError(phrase("spots: must be 1 to {most} (nine hands and the dealer use 50 cards), got {spots}",
                                   most=MAX_SPOTS, spots=spots))
    max_hands = whole("max_hands", v["max_hands"], 1)
    if max_hands > spots:
        raise SettingsError(phrase("max_hands: must not exceed spots ({hands} > {spots})", hands=max_hands,
                                   spots=spots))
    # While another player of the hand has neither bet nor passed (docs/rules/caribbean.md section 3.1).
    while_waiting = whole("max_hands_while_waiting", v["max_hands_while_waiting"], 1)
    not_above("max_hands_while_waiting", while_waiting, "max_hands", max_hands)
    ints = {n: whole(n, v[n], 1) for n in ("min_ante", "max_ante", "jackpot_wager", "min_buy_in", "max_buy_in",
                                            "default_buy_in")}
    for lo, hi in (("min_ante", "max_ante"), ("min_buy_in", "max_buy_in")):
        not_above(lo, ints[lo], hi, ints[hi])
    buy_in_order(ints["min_buy_in"], ints["default_buy_in"], ints["max_buy_in"])
    return CaribbeanSettings(
        spots=spots,
        max_hands=max_hands,
        max_hands_while_waiting=while_waiting,
        bet_pays=_class_pays("bet_pays", v["bet_pays"], BET_CLASSES, 1),
        max_payout=optional_whole("max_payout", v["max_payout"], 1),
        jackpot=flag("jackpot", v["jackpot"]),
        jackpot_pays=_class_pays("jackpot_pays", v["jackpot_pays"], JACKPOT_CLASSES, 0, JACKPOT_PERCENT_CLASSES,
                                 chips=True),
        jackpot_seed=whole("jackpot_seed", v["jackpot_seed"], 0),
        jackpot_rate=whole("jackpot_rate", v["jackpot_rate"], 0, 100),
        bet_seconds=seconds("bet_seconds", v["bet_seconds"], 1),
        action_seconds=seconds("action_seconds", v["action_seconds"], 1),
        pause_seconds=seconds("pause_seconds", v["pause_seconds"], 0),
        time_bank_seconds=seconds("time_bank_seconds", v["time_bank_seconds"], 0),
        chips=chips_setting(v.get("chips")),
        min_ante=ints["min_ante"],
        max_ante=ints["max_ante"],
        jackpot_wager=ints["jackpot_wager"],
        min_buy_in=ints["min_buy_in"],
        max_buy_in=ints["max_buy_in"],
        default_buy_in=ints["default_buy_in"],
    )
