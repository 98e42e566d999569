"""The house rules for the bank that outlive a hand (docs/rules/hcf.md section 9): who banked how many
hands in a row, whether the third-party banker banked the last one, and who banked within the rotation window.

Pure: the table keeps a :class:`BankRecord` in the hand's carry (under :data:`RECORD`) and gives the
rules its clock as a plain number of seconds (:data:`~server.rules.game.TABLE_CLOCK`) and each seat's
player name (:data:`~server.rules.game.SEAT_NAMES`); the rules never read a clock.

>>> record = BankRecord(window_start=0.0, banked=((0.0, "alice"), (60.0, "bob"), (120.0, "carol")))
>>> window_count(record.banked, 130.0, 40 * 60)
2
>>> window_deadline(record, 130.0, 40 * 60, 2)  # alice's hand leaves: one player besides the most
2400.0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from server.rules.game import SEAT_NAMES, TABLE_CLOCK
from server.rules.hcf.settings import HcfSettings

RECORD: Final = "bank"
"""The carry key of the bank's :class:`BankRecord`."""
WARN_SHARE: Final = 4
"""The table warns when a quarter of the window remains."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BankRecord:
    """What the bank's house rules remember from hand to hand (players by name, times in table seconds)."""

    last: str | None = None  # who banked the last settled hand (None: nobody yet, or the third-party banker)
    run: int = 0  # how many settled hands in a row ``last`` banked
    third_party_last: bool = False  # the third-party banker banked the last settled hand
    window_start: float | None = None  # when the window rule began counting
    banked: tuple[tuple[float, str], ...] = ()  # each hand a player banked within the window: when, who
    warned: float | None = None  # the deadline the seats were already warned of
    ended: bool = False  # the game ended: a hand dealt after it means the host reopened the table
    as_of: float | None = None  # the table's clock when the record was last brought up to date

    def as_json(self) -> dict[str, Any]:
        """The record as the carry keeps it."""
        return {"last": self.last, "run": self.run, "third_party_last": self.third_party_last,
                "window_start": self.window_start, "banked": [[t, who] for t, who in self.banked],
                "warned": self.warned, "ended": self.ended, "as_of": self.as_of}

    @classmethod
    def from_carry(cls, carry: Mapping[str, Any]) -> BankRecord:
        """The record in ``carry``; a fresh one when there is none or the game ended since (a reopened table)."""
        data = carry.get(RECORD)
        if not isinstance(data, Mapping) or data.get("ended"):
            return cls()
        return cls(last=data.get("last"), run=int(data.get("run") or 0),
                   third_party_last=bool(data.get("third_party_last")), window_start=data.get("window_start"),
                   banked=tuple((float(t), str(who)) for t, who in data.get("banked") or ()),
                   warned=data.get("warned"), as_of=data.get("as_of"))


def active(settings: HcfSettings) -> bool:
    """Whether any house rule of the bank is posted (a table without them behaves exactly as it always did)."""
    return not settings.house_banked and (
        settings.bank_keep > 1 or settings.nobody_banks != "wait" or settings.rotation_window_minutes is not None)


def table_clock(carry: Mapping[str, Any]) -> float | None:
    """The table's clock in seconds, as the table gave it (None: not given, the window is not counted)."""
    value = carry.get(TABLE_CLOCK)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def seat_names(carry: Mapping[str, Any]) -> dict[int, str]:
    """Each seat's player name, as the table gave it."""
    names = carry.get(SEAT_NAMES)
    if not isinstance(names, Mapping):
        return {}
    return {int(seat): str(name) for seat, name in names.items() if str(seat).isdigit()}


def who(names: Mapping[int, str], seat: int) -> str:
    """The name the record keeps for ``seat``'s player (its seat when the table gave no names)."""
    return names.get(seat, f"seat {seat}").lower()


def third_party_seat(settings: HcfSettings, names: Mapping[int, str]) -> int | None:
    """The seat of the third-party banker, when ``nobody_banks`` is ``third_party`` and they are seated."""
    banker = settings.third_party_banker
    if settings.nobody_banks != "third_party" or banker is None:
        return None
    return next((seat for seat, name in sorted(names.items()) if name.lower() == banker.lower()), None)


def after_settled(record: BankRecord, *, dealer: str | None, now: float | None, window: float | None) -> BankRecord:
    """The record after a settled hand banked by ``dealer`` (None: the third-party banker)."""
    if dealer is None:
        return replace(record, last=None, run=0, third_party_last=True)
    run = record.run + 1 if dealer == record.last else 1
    banked = (*record.banked, (now, dealer)) if window is not None and now is not None else record.banked
    return replace(record, last=dealer, run=run, third_party_last=False, banked=banked)


def window_count(banked: Sequence[tuple[float, str]], now: float, window: float) -> int:
    """How many players banked within the window ending at ``now``, not counting the one who banked most."""
    hands = Counter(name for t, name in banked if now - t < window)
    return max(len(hands) - 1, 0)


def window_short(record: BankRecord, now: float, window: float, dealers: int) -> bool:
    """Whether the window rule ends the game now: a whole window has run and its count falls short."""
    start = record.window_start
    return start is not None and now - start >= window and window_count(record.banked, now, window) < dealers


def window_deadline(record: BankRecord, now: float, window: float, dealers: int) -> float | None:
    """When the count falls short if nobody else banks (None: the window has not started)."""
    if record.window_start is None:
        return None
    moments = sorted({max(now, record.window_start + window)} | {t + window for t, _ in record.banked
                                                                   if t + window >= now})
    return next((t for t in moments if window_short(record, t, window, dealers)), moments[-1])


def pruned(record: BankRecord, now: float | None, window: float | None) -> BankRecord:
    """The record with the window started and the hands that left it forgotten."""
    if window is None or now is None:
        return replace(record, window_start=None, banked=(), warned=None, as_of=now)
    start = now if record.window_start is None else record.window_start
    return replace(record, window_start=start, banked=tuple((t, n) for t, n in record.banked if now - t < window),
                   as_of=now)
