"""A drill deck arranged by seat: the host says who gets which cards, the rules work out the order.

The host of a drill wants "these 7 cards to seat 2, these to the DP" without
working out the dealing order by hand. Who deals first is only known once the
bets are closed (clockwise from the first seat left of the button with an Ante,
the DP last in each round: docs/rules/hcf.md section 3.4), so a
:class:`SeatDeck` is kept as it was given and turned into a deck at the deal,
by :func:`deck_for_seats`. Every card nobody was given comes from the hand's
own shuffled deck, in its order: the rest of the deal is random (and the hand is
still marked arranged). Pure, standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from server.rules.cards import Card, CardError, cards_list, parse_cards

DEALER: Final = 0
"""The key of the dealer's cards: the DP at High Card Flush (whichever seat banks), the house's dealer elsewhere."""
BY_SEAT: Final[Mapping[str, tuple[int, str]]] = {"hcf": (7, "seat"), "caribbean": (5, "spot"), "sixcard": (5, "box")}
"""The games that take a deck by place: the hand size, and what a place is (the settings count ``seats``,
``spots``, ``boxes``)."""
CARDS_PER_HAND: Final[Mapping[str, int]] = {"hcf": 7, "caribbean": 5, "sixcard": 5}
"""The cards each hand of a game is dealt (the dealer's too): what a deck in dealing order must hold."""


@dataclass(frozen=True, slots=True)
class SeatDeck:
    """Cards given to places (seat numbers; :data:`DEALER` for the DP), each at most a hand."""

    hands: tuple[tuple[int, tuple[Card, ...]], ...]

    def cards_of(self, place: int) -> tuple[Card, ...]:
        """What ``place`` was given (nothing: an empty tuple)."""
        return dict(self.hands).get(place, ())

    def as_json(self) -> dict[str, list[str]]:
        """``{"2": [...], "dp": [...]}``, as recorded with the hand's inputs."""
        return {("dp" if place == DEALER else str(place)): cards_list(cards) for place, cards in self.hands}


def seat_deck(hands: Mapping[str, Any], hand_size: int, places: int, noun: str = "seat") -> SeatDeck:
    """Read ``{"2": "Ah Kh ...", "dp": "..."}`` (a place, or ``dp``, to its cards); raises CardError.

    >>> deck = seat_deck({"2": "Ah Kh", "dp": "2c 3c"}, 7, 7)
    >>> deck.as_json()
    {'dp': ['2c', '3c'], '2': ['Ah', 'Kh']}
    >>> seat_deck({"8": "Ah"}, 7, 7)
    Traceback (most recent call last):
    ...
    server.rules.cards.CardError: there is no seat 8: the seats are 1 to 7, and 'dp' for the dealer
    """
    parsed: dict[int, tuple[Card, ...]] = {}
    seen: set[Card] = set()
    for key, text in hands.items():
        place = _place(str(key), places, noun)
        cards = parse_cards(text) if isinstance(text, str | list | tuple) else ()
        if not cards:
            raise CardError(f"give {_name(place, noun)} at least one card")
        if len(cards) > hand_size:
            raise CardError(f"{_name(place, noun)} is given {len(cards)} cards; a hand has {hand_size}")
        again = seen.intersection(cards)
        if again:
            raise CardError(f"{cards_list(sorted(again))[0]} is given twice")
        seen.update(cards)
        parsed[place] = cards
    if not parsed:
        raise CardError(f"give cards to at least one {noun} or to the dealer")
    return SeatDeck(tuple(sorted(parsed.items())))


def seat_deck_from_json(data: Mapping[str, Any]) -> SeatDeck:
    """The inverse of :meth:`SeatDeck.as_json` (for replay)."""
    return SeatDeck(tuple(sorted((DEALER if k == "dp" else int(k), parse_cards(v)) for k, v in data.items())))


def _place(key: str, places: int, noun: str) -> int:
    if key.strip().lower() in ("dp", "dealer"):
        return DEALER
    if key.strip().isdigit() and 1 <= int(key) <= places:
        return int(key)
    plural = "boxes" if noun == "box" else f"{noun}s"
    raise CardError(f"there is no {noun} {key}: the {plural} are 1 to {places}, and 'dp' for the dealer")


def _name(place: int, noun: str) -> str:
    return "the dealer" if place == DEALER else f"{noun} {place}"


def deck_for_seats(order: Sequence[int], hand_size: int, given: SeatDeck, shuffled: Sequence[Card],
                   *, dealer: int | None) -> tuple[Card, ...]:
    """The deck, in dealing order, that deals each place what it was given; the rest from ``shuffled``.

    ``order`` is the rules' dealing order, one card at a time, ``hand_size`` rounds;
    ``dealer`` is the place in it that gets the :data:`DEALER` cards (the DP's seat,
    or the house's place). Cards given to a place that takes no part stay in the deck.

    >>> deck = deck_for_seats([3, 1], 2, SeatDeck(((0, (50,)), (3, (10, 11)))), list(range(52)), dealer=1)
    >>> deck[:4]
    (10, 50, 11, 0)
    >>> len(deck), len(set(deck))
    (52, 52)
    """
    playing = {DEALER if place == dealer else place for place in order}
    in_play = {card for place, cards in given.hands if place in playing for card in cards}
    rest = iter([card for card in shuffled if card not in in_play])  # 52 cards: never runs out
    wanted = {place: given.cards_of(DEALER if place == dealer else place) for place in order}
    deck: list[Card] = []
    for round_no in range(hand_size):
        for place in order:
            cards = wanted[place]
            deck.append(cards[round_no] if round_no < len(cards) else next(rest))
    used = set(deck)
    deck.extend(card for card in shuffled if card not in used)
    return tuple(deck)


def short_deck_warning(game: str, house_banked: bool, players: int, count: int) -> str | None:
    """A warning when a deck in dealing order cannot deal a whole hand to the ``players`` seated now.

    >>> short_deck_warning("hcf", False, 3, 21) is None
    True
    >>> short_deck_warning("hcf", False, 3, 2)
    "this deck has 2 cards: a hand for the 3 players seated now needs 21 (7 each, the DP's included); \
a seat dealt short is dead, and a DP dealt short voids the hand"
    """
    per = CARDS_PER_HAND.get(game)
    if per is None:
        return None
    if house_banked:  # every player bets one spot or box at least, and the dealer has a hand
        needed = per * (max(players, 1) + 1)
        if count >= needed:
            return None
        return (f"this deck has {count} cards: a hand needs at least {needed} ({per} for each hand that "
                f"bets and {per} for the dealer); a hand dealt short is dead")
    needed = per * max(players, 2)
    if count >= needed:
        return None
    who = f"for the {players} players seated now" if players >= 2 else "of two players, the fewest,"
    return (f"this deck has {count} cards: a hand {who} needs {needed} ({per} each, the DP's included); "
            "a seat dealt short is dead, and a DP dealt short voids the hand")
