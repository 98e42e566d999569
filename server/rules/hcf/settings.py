"""A High Card Flush table's posted settings (docs/rules/hcf.md section 2), validated once.

>>> s = HcfSettings.from_mapping({"fee_mode": "all", "flush_pays": "7: 300, 6: 100, 5: 10, 4: 1"})
>>> s.fee_mode, s.flush_pay(7), s.profile
('all', 300, 'california')
>>> HcfSettings.from_mapping({"min_ante": 0})
Traceback (most recent call last):
...
server.rules.errors.SettingsError: min_ante: must be a whole number of at least 1, got 0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from server.i18n import phrase
from server.rules.drill.chips import chips_setting
from server.rules.errors import SettingsError
from server.rules.hcf.fee_schedule import FeeSchedule, parse_schedule
from server.rules.validate import (
    buy_in_order,
    flag,
    known,
    not_above,
    optional_whole,
    pay,
    pay_pairs,
    seconds,
    whole,
)

Profile = Literal["california", "standard"]
FeeMode = Literal["all", "players", "designated", "none"]
NobodyBanks = Literal["wait", "end", "third_party"]
PayTable = tuple[tuple[int, int], ...]

PROFILES: Final = ("california", "standard")
FEE_MODES: Final = ("all", "players", "designated", "none")
NOBODY_BANKS: Final = ("wait", "end", "third_party")
BANK_KEEP_MOST: Final = 10
WINDOW_MINUTES: Final = (5, 240)
WINDOW_DEALERS: Final = (1, 6)
MAX_NAME: Final = 64
FLUSH_SIZES: Final = (4, 5, 6, 7)
RUN_LENGTHS: Final = (3, 4, 5, 6, 7)

# The seed's tables (appendix headings un-swapped, docs/rules/hcf.md section 2) and the
# common casino ones for the house-banked profile (section 7).
CALIFORNIA_FLUSH_PAYS: Final[PayTable] = ((7, 200), (6, 50), (5, 10), (4, 2))
CALIFORNIA_STRAIGHT_FLUSH_PAYS: Final[PayTable] = ((7, 1000), (6, 500), (5, 100), (4, 60), (3, 8))
STANDARD_FLUSH_PAYS: Final[PayTable] = ((7, 300), (6, 100), (5, 10), (4, 1))
STANDARD_STRAIGHT_FLUSH_PAYS: Final[PayTable] = ((7, 8000), (6, 1000), (5, 100), (4, 60), (3, 7))

SEAT_LIMITS: Final = {"california": (2, 7), "standard": (2, 6)}
"""docs/rules/hcf.md section 2 says 2 to 7 seats; a standard table also deals the house a hand, so
6 seats + the dealer (49 cards) is its most."""


@dataclass(frozen=True, slots=True)
class HcfSettings:
    """Every posted setting of a High Card Flush table. Build with :meth:`from_mapping`."""

    profile: Profile = "california"
    seats: int = 7
    min_ante: int = 5
    max_ante: int = 500
    min_bonus: int = 1
    max_bonus: int = 100
    min_bank: int = 500
    fee_mode: FeeMode = "players"
    fee: int = 1
    flush_pays: PayTable = CALIFORNIA_FLUSH_PAYS
    straight_flush_pays: PayTable = CALIFORNIA_STRAIGHT_FLUSH_PAYS
    max_bonus_win: int | None = None
    bet_seconds: float = 30
    action_seconds: float = 30
    offer_seconds: float = 15
    min_buy_in: int = 100
    max_buy_in: int = 10000
    default_buy_in: int = 1000
    pause_seconds: float = 3
    time_bank_seconds: float = 0  # each player's time bank for the session (0: none; docs/server.md)
    # House rules for the bank (docs/rules/hcf.md section 9): the defaults are the table as it always was.
    bank_keep: int = 1
    nobody_banks: NobodyBanks = "wait"
    third_party_banker: str | None = None
    third_party_plays: bool = False
    third_party_consecutive: bool = True
    rotation_window_minutes: int | None = None
    rotation_window_dealers: int = 2
    fee_schedule: FeeSchedule | None = None
    chips: tuple[int, ...] = ()  # the chips in play (a drill's payouts); none: not said
    _lookup: dict[str, dict[int, int]] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], base: HcfSettings | None = None) -> HcfSettings:
        """Validated settings: ``values`` override ``base`` (or the profile's defaults)."""
        known(values, SETTING_NAMES)
        profile = values.get("profile", base.profile if base is not None else "california")
        if profile not in PROFILES:
            raise SettingsError(phrase("profile: must be one of {known}, got {value}", known=", ".join(PROFILES),
                                       value=repr(profile)))
        # Switching profile starts again from that profile's defaults.
        same = base is not None and base.profile == profile
        merged = base.as_dict() if base is not None and same else profile_defaults_full(profile)
        merged.update(values)
        return _validated(merged)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready settings; pay tables as ``{"7": 200, ...}``."""
        out: dict[str, Any] = {}
        for name in SETTING_NAMES:
            value = getattr(self, name)
            if name.endswith("_pays"):
                value = {str(k): v for k, v in value}
            elif name == "fee_schedule" and value is not None:
                value = [tier.as_dict() for tier in value]
            elif name == "chips":
                value = list(value)
            out[name] = value
        return out

    def flush_pay(self, size: int) -> int:
        """Flush bonus odds (N to 1) for a flush of ``size`` cards; 0 if it does not pay."""
        return self._table("flush_pays").get(size, 0)

    def straight_flush_pay(self, length: int) -> int:
        """Straight Flush bonus odds for a run of ``length`` cards; 0 if it does not pay."""
        return self._table("straight_flush_pays").get(length, 0)

    def _table(self, name: str) -> dict[int, int]:
        table = self._lookup.get(name)
        if table is None:
            table = dict(getattr(self, name))
            self._lookup[name] = table
        return table

    @property
    def house_banked(self) -> bool:
        """True for the ``standard`` profile: the house deals and banks."""
        return self.profile == "standard"


SETTING_NAMES: Final = tuple(f.name for f in dataclasses.fields(HcfSettings) if not f.name.startswith("_"))


def profile_defaults(profile: str) -> dict[str, Any]:
    """The defaults that differ by profile (docs/rules/hcf.md sections 2 and 7)."""
    if profile == "standard":
        return {
            "profile": "standard",
            "seats": 6,
            "fee_mode": "none",
            "flush_pays": STANDARD_FLUSH_PAYS,
            "straight_flush_pays": STANDARD_STRAIGHT_FLUSH_PAYS,
        }
    return {"profile": "california"}


def _pay_table(name: str, value: Any, sizes: tuple[int, ...]) -> PayTable:
    table = pay_pairs(name, value, int, "'7: 200, 6: 50, ...'", "card counts")
    if sorted(table) != sorted(sizes):
        expected = ", ".join(str(s) for s in sizes)
        raise SettingsError(phrase("{name}: must give a payout for each of {expected} cards, got {value}", name=name,
                                   expected=expected, value=sorted(table)))
    for size, odds in table.items():
        pay(f"{name}[{size}]", odds)
    return tuple(sorted(table.items(), reverse=True))


def _validated(v: dict[str, Any]) -> HcfSettings:
    profile = v["profile"]
    low, high = SEAT_LIMITS[profile]
    seats = whole("seats", v["seats"], low)
    if seats > high:
        raise SettingsError(phrase("seats: a {profile} table has {low} to {high} seats, got {seats}", profile=profile,
                                   low=low, high=high, seats=seats))
    ints: dict[str, int] = {n: whole(n, v[n], 1) for n in ("min_ante", "max_ante", "min_bonus", "max_bonus")}
    ints |= {n: whole(n, v[n], 0) for n in ("min_bank", "fee")}
    ints |= {n: whole(n, v[n], 1) for n in ("min_buy_in", "max_buy_in", "default_buy_in")}
    for lo, hi in (("min_ante", "max_ante"), ("min_bonus", "max_bonus"), ("min_buy_in", "max_buy_in")):
        not_above(lo, ints[lo], hi, ints[hi])
    buy_in_order(ints["min_buy_in"], ints["default_buy_in"], ints["max_buy_in"])
    if v["fee_mode"] not in FEE_MODES:
        raise SettingsError(phrase("fee_mode: must be one of {known}, got {value}", known=", ".join(FEE_MODES),
                                   value=repr(v["fee_mode"])))
    cap = optional_whole("max_bonus_win", v.get("max_bonus_win"), 1)
    return HcfSettings(
        **_bank_rules(v, seats),
        fee_schedule=parse_schedule("fee_schedule", v.get("fee_schedule"), max_ante=ints["max_ante"]),
        profile=profile,
        seats=seats,
        fee_mode=v["fee_mode"],
        flush_pays=_pay_table("flush_pays", v["flush_pays"], FLUSH_SIZES),
        straight_flush_pays=_pay_table("straight_flush_pays", v["straight_flush_pays"], RUN_LENGTHS),
        max_bonus_win=cap,
        chips=chips_setting(v.get("chips")),
        bet_seconds=seconds("bet_seconds", v["bet_seconds"], 1),
        action_seconds=seconds("action_seconds", v["action_seconds"], 1),
        offer_seconds=seconds("offer_seconds", v["offer_seconds"], 1),
        pause_seconds=seconds("pause_seconds", v["pause_seconds"], 0),
        time_bank_seconds=seconds("time_bank_seconds", v["time_bank_seconds"], 0),
        **ints,  # type: ignore[arg-type]  # only the int fields are in it
    )


def profile_defaults_full(profile: str) -> dict[str, Any]:
    """Every setting's default for a profile."""
    plain = HcfSettings()
    return {**{name: getattr(plain, name) for name in SETTING_NAMES}, **profile_defaults(profile)}


def _bank_rules(v: dict[str, Any], seats: int) -> dict[str, Any]:
    """The house rules for the bank (docs/rules/hcf.md section 9), checked against each other and the seats."""
    if v["nobody_banks"] not in NOBODY_BANKS:
        raise SettingsError(phrase("nobody_banks: must be one of {known}, got {value}", known=", ".join(NOBODY_BANKS),
                                   value=repr(v["nobody_banks"])))
    banker = _banker_name(v.get("third_party_banker"))
    if v["nobody_banks"] == "third_party" and banker is None:
        raise SettingsError(phrase("nobody_banks: third_party needs the third_party_banker's account name first"))
    minutes = v.get("rotation_window_minutes")
    if minutes is not None and minutes != "":
        minutes = whole("rotation_window_minutes", minutes, WINDOW_MINUTES[0], WINDOW_MINUTES[1])
    dealers = whole("rotation_window_dealers", v["rotation_window_dealers"], WINDOW_DEALERS[0], WINDOW_DEALERS[1])
    if minutes not in (None, "") and dealers > seats - 1:  # the count only matters with a window
        raise SettingsError(phrase("rotation_window_dealers: at a table of {seats} seats at most {most} players can "
                                   "bank besides the one who banked most, got {dealers}", seats=seats, most=seats - 1,
                                   dealers=dealers))
    return {
        "bank_keep": whole("bank_keep", v["bank_keep"], 1, BANK_KEEP_MOST),
        "nobody_banks": v["nobody_banks"],
        "third_party_banker": banker,
        "third_party_plays": flag("third_party_plays", v["third_party_plays"]),
        "third_party_consecutive": flag("third_party_consecutive", v["third_party_consecutive"]),
        "rotation_window_minutes": minutes if minutes != "" else None,
        "rotation_window_dealers": dealers,
    }


def _banker_name(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise SettingsError(phrase("third_party_banker: must be an account name of 1 to {most} characters, got "
                                   "{value}", most=MAX_NAME, value=repr(value)))
    return value.strip()
