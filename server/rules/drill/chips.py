"""The chips in play at a drill table (the table setting ``chips``) and the fewest chips that make a payout.

A dealer pays a winning bet in the fewest chips the rack allows. With chips of
1, 5, 25, 100 and 500 that is the largest chip first; with odd sets it need not be
(with 1, 3 and 4, six is 3 + 3, not 4 + 1 + 1), so the make-up is worked out exactly.

>>> fewest_chips(150, (1, 5, 25, 100, 500))
{100: 1, 25: 2}
>>> fewest_chips(6, (1, 3, 4))
{3: 2}
>>> print(fewest_chips(3, (5, 25)))
None
>>> chips_setting([25, 1, 5])
(1, 5, 25)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from server.i18n import joined, phrase, told
from server.rules.errors import SettingsError

MAX_DENOMINATIONS: Final = 10
MAX_CHIP: Final = 100_000
LIMITS: Final = phrase("chips: a list of 1 to {most} different whole numbers of chips from 1 to {high}, like "
                       "{example}", most=MAX_DENOMINATIONS, high=f"{MAX_CHIP:,}", example="[1, 5, 25, 100, 500]")
"""The setting's limits, as a refusal says them."""


def chips_setting(value: Any) -> tuple[int, ...]:
    """The ``chips`` setting checked and sorted (None or []: no chips in play); SettingsError with the limits."""
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        raise SettingsError(phrase("{limits}; got {value}", limits=LIMITS, value=repr(value)))
    if not value:
        return ()
    for chip in value:
        if isinstance(chip, bool) or not isinstance(chip, int) or not 1 <= chip <= MAX_CHIP:
            raise SettingsError(phrase("{limits}; {chip} is not one", limits=LIMITS, chip=repr(chip)))
    if len(value) > MAX_DENOMINATIONS or len(set(value)) != len(value):
        raise SettingsError(phrase("{limits}; got {count} chips, {different} of them different", limits=LIMITS,
                                   count=len(value), different=len(set(value))))
    return tuple(sorted(value))


def fewest_chips(amount: int, chips: Sequence[int]) -> dict[int, int] | None:
    """The fewest chips of ``chips`` that make ``amount`` exactly, largest chips first (None: they cannot).

    Among make-ups of the fewest chips, the one with the most of the largest chip is chosen, so a key is
    always the same; a judge counts chips, so any other make-up of as few chips is as right.
    """
    if amount < 0:
        raise ValueError(f"a payout is never negative, got {amount}")
    denominations = tuple(sorted(set(chips)))
    if not denominations:
        return None
    largest = denominations[-1]
    # An optimal make-up holds fewer than lcm(c, largest) / c chips of each smaller chip c (that many equal
    # fewer largest chips), so all but the last `bound` chips of the amount go in the largest chip.
    bound = sum(math.lcm(c, largest) for c in denominations[:-1]) + largest
    taken = max(0, (amount - bound) // largest)
    rest = _make_up(amount - taken * largest, denominations)
    if rest is None:
        return None
    if taken:
        rest[largest] = rest.get(largest, 0) + taken
    return dict(sorted(rest.items(), reverse=True))


def _make_up(amount: int, denominations: tuple[int, ...]) -> dict[int, int] | None:
    counts = _fewest_counts(amount, denominations)
    if counts[amount] is None:
        return None
    out: dict[int, int] = {}
    while amount:
        here = counts[amount]
        assert here is not None  # every amount left on the way down to 0 is made of fewer chips
        chip = next(c for c in reversed(denominations)
                    if c <= amount and (b := counts[amount - c]) is not None and b == here - 1)
        out[chip] = out.get(chip, 0) + 1
        amount -= chip
    return out


TABLE_SIZE: Final = 1_000_000
"""The amounts one chip set's table of fewest counts covers before a larger amount gets a table of its own."""


def _fewest_counts(amount: int, denominations: tuple[int, ...]) -> tuple[int | None, ...]:
    """For each amount from 0 to at least ``amount``, the fewest chips that make it (None: none do)."""
    shared = _shared_counts(denominations)
    return shared if amount < len(shared) else _counts_to(amount, denominations)


@lru_cache(maxsize=32)
def _shared_counts(denominations: tuple[int, ...]) -> tuple[int | None, ...]:
    largest = denominations[-1]
    bound = sum(math.lcm(c, largest) for c in denominations[:-1]) + 2 * largest
    return _counts_to(min(TABLE_SIZE, bound), denominations)


def _counts_to(amount: int, denominations: tuple[int, ...]) -> tuple[int | None, ...]:
    best: list[int | None] = [0] + [None] * amount
    for value in range(1, amount + 1):
        options = [b for c in denominations if c <= value and (b := best[value - c]) is not None]
        best[value] = min(options) + 1 if options else None
    return tuple(best)


def chip_count(make_up: Mapping[int, int]) -> int:
    """How many chips a make-up holds."""
    return sum(make_up.values())


def make_up_json(make_up: Mapping[int, int]) -> dict[str, int]:
    """A make-up as an answer holds it: each chip (as text, JSON's keys) with how many, largest first."""
    return {str(chip): count for chip, count in sorted(make_up.items(), reverse=True) if count}


def make_up_given(value: Any) -> dict[int, int] | None:
    """A trainee's chips read as a make-up: ``{"100": 1, "25": 2}`` or ``[100, 25, 25]`` (None: unreadable)."""
    pairs: list[tuple[Any, Any]]
    if isinstance(value, Mapping):
        pairs = list(value.items())
    elif isinstance(value, list):
        pairs = [(chip, 1) for chip in value]
    else:
        return None
    out: dict[int, int] = {}
    for chip, count in pairs:
        try:
            denomination = int(chip) if isinstance(chip, str) else chip
        except ValueError:
            return None
        if not _whole(denomination) or denomination < 1 or not _whole(count) or count < 0:
            return None
        if count:
            out[denomination] = out.get(denomination, 0) + count
    return out


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def make_up_words(make_up: Mapping[int, int]) -> str:
    """A make-up in words: ``1 chip of 100 and 2 of 25``.

    >>> make_up_words({100: 1, 25: 2})
    '1 chip of 100 and 2 of 25'
    >>> make_up_words({})
    'no chips'
    """
    counted = [(count, chip) for chip, count in sorted(make_up.items(), reverse=True) if count]
    if not counted:
        return told("no chips")
    (count, chip), rest = counted[0], counted[1:]
    parts = [told("1 chip of {chip}", chip=chip) if count == 1 else told("{count} chips of {chip}", count=count,
                                                                          chip=chip)]
    parts += [told("{count} of {chip}", count=count, chip=chip) for count, chip in rest]
    return parts[0] if len(parts) == 1 else told("{items} and {last}", items=joined(parts[:-1]), last=parts[-1])
