"""How both house-banked games' settings are written out and read back in.

Their :meth:`as_dict` names the game first and writes pay tables as objects
(``{"royal": 100, ...}``); their ``from_mapping`` accepts that ``game`` key back,
refuses any other game or unknown name, and lays the values over a base.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from server.rules.errors import SettingsError
from server.rules.validate import known


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
    """JSON-ready settings: ``"game"`` first, then ``names`` in order, pay tables (``*_pays``) as objects."""
    out: dict[str, Any] = {"game": game}
    for name in names:
        value = getattr(settings, name)
        out[name] = dict(value) if name.endswith("_pays") else value
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
