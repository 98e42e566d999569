"""How both house-banked games' settings are written out and read back in.

Their :meth:`as_dict` names the game first and writes pay tables as objects
(``{"royal": 100, ...}``); their ``from_mapping`` accepts that ``game`` key back,
refuses any other game or unknown name, and lays the values over a base.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Final, Self

from server.rules.errors import SettingsError
from server.rules.validate import buy_in_order, known, seconds, whole

MAX_SEATS: Final = 7
"""The most seats a plain game's table has (a drill deck names seats 1 to 7: server/rules/arrange.py)."""


class HouseTable:
    """What a house-banked game's settings answer alike: the table's questions and pay-table lookups."""

    __slots__ = ()
    bet_seconds: float
    _lookup: dict[str, dict[str, int]]

    @property
    def house_banked(self) -> bool:
        """Always: the house deals and banks."""
        return True

    @property
    def offer_seconds(self) -> float:
        """No bank is offered: the pause before retrying after a hand without bets is the betting clock."""
        return self.bet_seconds

    def _table(self, name: str) -> dict[str, int]:
        """The pay table ``name`` as a dict, built once."""
        table = self._lookup.get(name)
        if table is None:
            table = dict(getattr(self, name))
            self._lookup[name] = table
        return table


def settings_dict(settings: object, game: str, names: Sequence[str]) -> dict[str, Any]:
    """JSON-ready settings: ``"game"`` first, then ``names`` in order, pay tables (``*_pays``) as objects, the
    chips in play as a list."""
    out: dict[str, Any] = {"game": game}
    for name in names:
        value = getattr(settings, name)
        out[name] = dict(value) if name.endswith("_pays") else list(value) if name == "chips" else value
    return out


def merged_values(values: Mapping[str, Any], base: Mapping[str, Any], game: str, names: Sequence[str],
                  other_game: str) -> dict[str, Any]:
    """``base`` (an :func:`settings_dict`) overlaid with ``values``, neither keeping the ``game`` key.

    ``values`` may name ``game`` and nothing unknown; ``other_game`` is the refusal
    for another game, with ``{given!r}`` standing for the game named.
    """
    values = dict(values)
    given = values.pop("game", game)
    if given != game:
        raise SettingsError(other_game.format(given=given))
    known(values, names)
    merged = {k: v for k, v in base.items() if k != "game"}
    merged.update(values)
    return merged


@dataclass(frozen=True, slots=True)
class PlainSettings:
    """What a simple house-banked game's settings hold, written out and read back like the others'.

    A game subclasses it (a frozen, slotted dataclass), names itself in ``game``, adds
    its own whole-number fields (``*_seconds`` ones are seconds), and says in
    :meth:`check` what must hold between them. Its ``from_mapping`` is this one.
    """

    game: ClassVar[str] = ""
    seats: int = 6
    min_buy_in: int = 100
    max_buy_in: int = 10_000
    default_buy_in: int = 1_000
    pause_seconds: float = 2.0
    bet_seconds: float = 15.0
    time_bank_seconds: float = 0.0  # each player's time bank for the session (0: none; docs/server.md)

    @property
    def house_banked(self) -> bool:
        """Always: the house deals and banks."""
        return True

    @property
    def offer_seconds(self) -> float:
        """No bank is offered: the pause before retrying after a hand without bets is the betting clock."""
        return self.bet_seconds

    @property
    def chips(self) -> tuple[int, ...]:
        """No chips in play are set at a plain game's table (its drill, if any, asks the amounts alone)."""
        return ()

    def as_dict(self) -> dict[str, Any]:
        """The settings as stored and shown, the game's name first."""
        return {"game": self.game, **asdict(self)}

    def check(self) -> None:
        """Refuse (SettingsError) values that do not fit together; the table's own are checked already."""

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any], base: Self | None = None) -> Self:
        """``values`` laid over ``base`` (or the defaults), every field checked; SettingsError says what is wrong."""
        names = [f.name for f in fields(cls)]
        merged = merged_values(values, (base or cls()).as_dict(), cls.game, names,
                               f"game: this table plays {cls.game}, not {{given!r}}")
        checked: dict[str, Any] = {name: seconds(name, merged[name], 0) if name.endswith("_seconds")
                                   else whole(name, merged[name], 1, MAX_SEATS if name == "seats" else None)
                                   for name in names}
        out = cls(**checked)
        buy_in_order(out.min_buy_in, out.default_buy_in, out.max_buy_in)
        out.check()
        return out
