"""What every game's events share: the JSON they are logged as, and reading it back.

An event is a small frozen dataclass with a ``type``; :meth:`Event.as_json` writes
its fields in order (tuples as lists) and :meth:`Event.from_json` is its exact
inverse, so the log, the wire and a replay speak the same shapes. A field the
plain rule does not fit (cards, a settlement, named tuples) names its
:class:`Codec` in :attr:`Event.codecs`.

The events every game has live here too: a player leaving (or taking it back), no hand, the deck, a void hand.

>>> DeckPrepared(False, ((1, "abc"),)).as_json()
{'type': 'deck_prepared', 'arranged': False, 'player_seeds': [[1, 'abc']]}
>>> event_from_json(EVENT_TYPES, {"type": "hand_voided", "reason": "misdeal"})
HandVoided(reason='misdeal')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Self

from server.rules.cards import Card, card_text, cards_list, parse_card, parse_cards


@dataclass(frozen=True, slots=True)
class Codec:
    """How one event field is written to JSON (``write``) and read back (``read``)."""

    write: Callable[[Any], Any]
    read: Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; ``type`` names it on the wire and in the log."""

    type: ClassVar[str] = "event"
    codecs: ClassVar[Mapping[str, Codec]] = {}

    def as_json(self) -> dict[str, Any]:
        """JSON-ready payload with a ``type`` key (tuples become lists; a field with a codec is written by it)."""
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            codec = self.codecs.get(f.name)
            out[f.name] = listed(value) if codec is None else codec.write(value)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild the event written by :meth:`as_json` (lists become tuples; a field with a codec is read by it)."""
        args: dict[str, Any] = {}
        for key, value in data.items():
            if key != "type":
                codec = cls.codecs.get(key)
                args[key] = tupled(value) if codec is None else codec.read(value)
        return cls(**args)


def listed(value: Any) -> Any:
    """Every tuple in ``value`` a list (deeply), named tuples included.

    >>> listed((1, (2, 3)))
    [1, [2, 3]]
    """
    if isinstance(value, tuple):
        return [listed(v) for v in value]
    return value


def tupled(value: Any) -> Any:
    """Every list in ``value`` a tuple: the inverse of :func:`listed`.

    >>> tupled([1, [2, 3]])
    (1, (2, 3))
    """
    if isinstance(value, list):
        return tuple(tupled(v) for v in value)
    return value


def hands_as_json(hands: Iterable[tuple[int, tuple[Card, ...]]]) -> list[list[Any]]:
    """``(place, cards)`` pairs as ``[place, ["As", ...]]`` lists."""
    return [[place, cards_list(cards)] for place, cards in hands]


def hands_from_json(items: Iterable[Any]) -> tuple[tuple[int, tuple[Card, ...]], ...]:
    """Read :func:`hands_as_json` back."""
    return tuple((place, parse_cards(cards)) for place, cards in items)


CARD: Final = Codec(card_text, parse_card)
"""One card, in notation."""
CARDS: Final = Codec(cards_list, parse_cards)
"""A tuple of cards, as a list in notation."""
HANDS: Final = Codec(hands_as_json, hands_from_json)
"""``(place, cards)`` pairs."""


def event_types(*classes: type[Event]) -> dict[str, type[Event]]:
    """The event classes of a game by their ``type``."""
    return {cls.type: cls for cls in classes}


def event_from_json(types: Mapping[str, type[Event]], data: Mapping[str, Any]) -> Event:
    """Rebuild an event of one of ``types`` from :meth:`Event.as_json` (for replays)."""
    return types[data["type"]].from_json(data)


# ---------------------------------------------------------------- events every game has


@dataclass(frozen=True, slots=True)
class PlayerLeaving(Event):
    """A player asked to leave; they stand up after the hand."""

    type: ClassVar[str] = "player_leaving"
    seat: int


@dataclass(frozen=True, slots=True)
class LeaveWithdrawn(Event):
    """A leaving player took their leave back before it acted on the hand: they play it, and stay after it."""

    type: ClassVar[str] = "leave_withdrawn"
    seat: int


@dataclass(frozen=True, slots=True)
class HandNotDealt(Event):
    """No hand this time; ``reason`` says why (``no_bank``, ``no_ante``, ``no_bets``, ``no_players``)."""

    type: ClassVar[str] = "hand_not_dealt"
    reason: str


@dataclass(frozen=True, slots=True)
class DeckPrepared(Event):
    """The deck is fixed: derived from the seeds (seat order), or arranged by the host."""

    type: ClassVar[str] = "deck_prepared"
    arranged: bool
    player_seeds: tuple[tuple[int, str], ...]


@dataclass(frozen=True, slots=True)
class HandVoided(Event):
    """The whole hand is dead (a misdeal, a short arranged deck, an interruption); everything goes back."""

    type: ClassVar[str] = "hand_voided"
    reason: str


EVENT_TYPES: Final = event_types(PlayerLeaving, LeaveWithdrawn, HandNotDealt, DeckPrepared, HandVoided)

