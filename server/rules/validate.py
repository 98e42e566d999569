"""The checks every game's posted settings run: whole numbers, seconds, flags, pay tables, known names.

Each check returns the value it accepts or raises :class:`SettingsError` with a
sentence naming the setting, so a host sees exactly what to fix.

>>> whole("seats", 0, 1)
Traceback (most recent call last):
...
server.rules.errors.SettingsError: seats: must be a whole number of at least 1, got 0
>>> pay("bet_pays[royal]", 10**30)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
server.rules.errors.SettingsError: bet_pays[royal]: must be at most 100,000 to 1 (the largest pay a table ...
>>> pay_pairs("bet_pays", "royal: 250, pair: 1", str, "'royal: 100, straight_flush: 50, ...'", "hand classes")
{'royal': 250, 'pair': 1}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Final, TypeVar

from server.i18n import phrase
from server.rules.errors import SettingsError

K = TypeVar("K")

MAX_CHIPS: Final = 10**9
"""The most any whole-number setting may be: an Ante, a bonus, a buy-in, a fee, a cap, a jackpot.

With :data:`MAX_PAY` this bounds every chip amount a hand can move, far inside
SQLite's and PostgreSQL's signed 64-bit integers (2**63 - 1 = 9.2e18): one bet wins
at most 10**9 x 2 (a Back Bet or raise) x 10**5 = 2e14, a hand of at most 9 spots,
4 boxes or 7 seats with two bonus bets each moves under 2e15 in all, and a stack
bought in at 10**9 would need thousands of such hands in a row to come near the limit
(docs/configuration.md, "Limits that keep every amount in range").
"""
MAX_PAY: Final = 10**5
"""The largest pay a pay table may post (N to 1)."""
_CHIPS_WHY: Final = phrase("the largest amount a table setting may hold, so that no settlement can overflow")
_PAY_WHY: Final = phrase("the largest pay a table may post, so that no settlement can overflow")


def whole(name: str, value: Any, low: int = 0, high: int | None = None) -> int:
    """``value`` if it is a whole number (not a bool) from ``low`` to ``high`` (None: :data:`MAX_CHIPS`)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SettingsError(phrase("{name}: must be a whole number of at least {low}, got {value}", name=name, low=low,
                                   value=repr(value)))
    if high is not None and value > high:
        raise SettingsError(phrase("{name}: must be at most {high}, got {value}", name=name, high=high,
                                   value=repr(value)))
    if value > MAX_CHIPS:
        raise SettingsError(phrase("{name}: must be at most {high} ({why}), got {value}", name=name,
                                   high=f"{MAX_CHIPS:,}", why=_CHIPS_WHY, value=repr(value)))
    return value


def pay(name: str, value: Any, low: int = 1) -> int:
    """``value`` as a pay table's odds (N to 1): a whole number from ``low`` to :data:`MAX_PAY`."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SettingsError(phrase("{name}: must be a whole number of at least {low}, got {value}", name=name, low=low,
                                   value=repr(value)))
    if value > MAX_PAY:
        raise SettingsError(phrase("{name}: must be at most {high} to 1 ({why}), got {value}", name=name,
                                   high=f"{MAX_PAY:,}", why=_PAY_WHY, value=repr(value)))
    return int(value)


def optional_whole(name: str, value: Any, low: int) -> int | None:
    """None for no value (None or ``""``), else :func:`whole`."""
    return None if value is None or value == "" else whole(name, value, low)


def seconds(name: str, value: Any, low: float) -> float:
    """``value`` as a number of seconds from ``low`` to an hour."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= low:
        raise SettingsError(phrase("{name}: must be a number of seconds of at least {low}, got {value}", name=name,
                                   low=low, value=repr(value)))
    if value > 3600:
        raise SettingsError(phrase("{name}: must be at most 3600 seconds, got {value}", name=name,
                                   value=repr(value)))
    return float(value)


def flag(name: str, value: Any) -> bool:
    """``value`` if it is true or false."""
    if not isinstance(value, bool):
        raise SettingsError(phrase("{name}: must be true or false, got {value}", name=name, value=repr(value)))
    return value


def not_above(low_name: str, low: int, high_name: str, high: int | None) -> None:
    """Refuse a minimum above its maximum (a maximum of None has no limit)."""
    if high is not None and low > high:
        raise SettingsError(phrase("{low_name}: must not exceed {high_name} ({low} > {high})", low_name=low_name,
                                   high_name=high_name, low=low, high=high))


def buy_in_order(minimum: int, default: int, maximum: int) -> None:
    """Refuse a default buy-in outside the table's range."""
    if not minimum <= default <= maximum:
        raise SettingsError(phrase("default_buy_in: must lie between min_buy_in and max_buy_in"))


def known(values: Mapping[str, Any], names: Iterable[str]) -> None:
    """Refuse a setting that is not one of ``names`` (the first in sorted order is named)."""
    names = tuple(names)
    unknown = sorted(set(values) - set(names))
    if unknown:
        raise SettingsError(phrase("{name}: unknown setting (known: {known})", name=unknown[0], known=", ".join(names)))


def pay_pairs(name: str, value: Any, key: Callable[[Any], K], example: str, keyed_by: str) -> dict[K, Any]:
    """A pay table's rows from a mapping, ``(key, pay)`` pairs, or text like ``example``; pays not yet checked.

    ``key`` turns each row's key into the table's kind (``int`` for card counts,
    ``str`` for hand classes); ``keyed_by`` names that kind in the error.
    """
    if isinstance(value, str):
        try:
            pairs = [part.split(":") for part in value.split(",") if part.strip()]
            value = {key(k.strip()): int(v) for k, v in pairs}
        except ValueError:
            raise SettingsError(phrase("{name}: write it as {example}, got {value}", name=name, example=example,
                                       value=repr(value))) from None
    if isinstance(value, Mapping):
        value = list(value.items())
    try:
        return {key(k): v for k, v in value}
    except (TypeError, ValueError):
        raise SettingsError(phrase("{name}: must map {keyed_by} to payouts, got {value}", name=name, keyed_by=keyed_by,
                                   value=repr(value))) from None
