"""A drill scenario (docs/drills.md): a table, its players, and each hand's deck, bets and moves.

Read from JSON by :func:`parse`, which checks the shape and refuses what is wrong
with a :class:`ScenarioError` naming the hand, the seat and the problem. Whether
every move is legal when it comes is checked by playing the scenario through the
rules (:mod:`server.rules.drill.play`), still before anything is played at a table.
Pure: the server (:mod:`server.drill.scenario`) and the client read the files.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeGuard

from server.rules.arrange import SeatDeck, seat_deck
from server.rules.cards import Card, CardError, parse_cards
from server.rules.drill.irregularity import DEALER, KINDS, Irregularity
from server.rules.drill.standards import PassMarks, pass_setting, standards_setting
from server.rules.drill.steps import steps_asked
from server.rules.errors import RuleError
from server.rules.games import game_named

KEYS: Final = ("name", "game", "title", "about", "table", "steps", "button", "seats", "hands", "standards", "pass")
SEAT_KEYS: Final = ("seat", "name", "stack", "bank")
HAND_KEYS: Final = ("deck", "bank", "bets", "decide", "irregularity")
PLACE: Final = {"hcf": "seat", "caribbean": "spot", "sixcard": "box"}
"""What a hand's place is called in each game's answers and messages."""
DRILL_CLOCKS: Final = {"pause_seconds": 0}
"""Scripted players never keep the table waiting: the next hand comes at once. (The runner never moves
the table's clock during a hand, so no decision clock runs out.)"""


class ScenarioError(ValueError):
    """A scenario that cannot be carried out; the message names the hand, the seat and the problem."""


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who sits where, with how many chips, and whether they bank when offered."""

    seat: int
    name: str
    stack: int
    bank: bool = True


@dataclass(frozen=True, slots=True)
class HandSpec:
    """One scripted hand. ``bets``/``decide``/``bank`` are keyed by seat number.

    ``deck``: the cards in dealing order, or (High Card Flush) cards by seat, the DP's as ``dp``,
    as the host's ``arrange_deck`` takes them; the dry run works out the dealing order.
    """

    deck: tuple[Card, ...] | SeatDeck
    bank: Mapping[int, bool]
    bets: Mapping[int, Any]
    decide: Mapping[int, Any]
    irregularity: Irregularity | None


@dataclass(frozen=True, slots=True)
class Scenario:
    """A whole scenario, checked for shape."""

    name: str
    game: str
    title: str
    about: str
    table: Mapping[str, Any]
    settings: Any
    steps: tuple[str, ...]
    button: int | None
    seats: tuple[SeatSpec, ...]
    hands: tuple[HandSpec, ...]
    chips: tuple[int, ...] = ()  # the table's ``chips``: the denominations a payout is made of (none: amounts only)
    standards: Mapping[str, int] = field(default_factory=dict)  # step kind -> standard seconds, over the defaults
    pass_marks: PassMarks | None = None  # an exam's pass marks

    def seat(self, seat: int) -> SeatSpec:
        """The scenario's player at ``seat``."""
        return next(s for s in self.seats if s.seat == seat)

    @property
    def offer_from(self) -> int:
        """Where the first bank search starts: left of the button, or seat 1 itself without one."""
        return 1 if self.button is None else self.button % int(self.settings.seats) + 1


def from_text(text: str, where: str) -> Scenario:
    """A scenario from the text of its JSON file (``where`` names the file in a refusal); raises ScenarioError."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{where}: not JSON: {exc}") from None
    return parse(data)


def parse(data: Any) -> Scenario:
    """Check a scenario's shape and read it; raises ScenarioError naming where the problem is."""
    if not isinstance(data, dict):
        raise ScenarioError("a scenario is a JSON object")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise ScenarioError("the scenario needs a name")
    where = f"scenario {name}"
    _known(data, KEYS, where)
    game = data.get("game", "hcf")
    if game not in PLACE:
        raise ScenarioError(f"{where}: game is one of {', '.join(PLACE)}, got {game!r}")
    table = data.get("table") or {}
    if not isinstance(table, dict):
        raise ScenarioError(f"{where}: table is an object of settings")
    try:
        settings = game_named(game).settings_from_mapping(_with_clocks(game, table))
        chips = settings.chips  # a table setting of every game: the live table deals with them too
    except RuleError as exc:
        raise ScenarioError(f"{where}: table: {exc.message}") from None
    steps = _steps(data.get("steps"), game, bool(settings.house_banked), bool(chips), where)
    seats = _seats(data.get("seats"), settings, where)
    button = data.get("button")
    if button is not None and (not _whole(button) or not 1 <= button <= settings.seats):
        raise ScenarioError(f"{where}: button is a seat from 1 to {settings.seats}, or null")
    hands_data = data.get("hands")
    if not isinstance(hands_data, list) or not hands_data:
        raise ScenarioError(f"{where}: hands is a list of at least one hand")
    taken = {s.seat for s in seats}
    hands = tuple(_hand(h, f"{where}, hand {i}", taken, PLACE[game], settings.seats)
                  for i, h in enumerate(hands_data, 1))
    title, about = data.get("title", name), data.get("about", "")
    if not isinstance(title, str) or not isinstance(about, str):
        raise ScenarioError(f"{where}: title and about are text")
    try:
        standards, marks = standards_setting(data.get("standards")), pass_setting(data.get("pass"))
    except RuleError as exc:
        raise ScenarioError(f"{where}: {exc.message}") from None
    given = data.get("standards") or {}
    return Scenario(name, game, title, about, table, settings, steps, button, seats, hands, chips,
                    {k: v for k, v in standards.items() if k in given}, marks)


def _with_clocks(game: str, table: Mapping[str, Any]) -> dict[str, Any]:
    names = game_named(game).settings_from_mapping({}).as_dict()
    return {**table, **{k: v for k, v in DRILL_CLOCKS.items() if k in names}}


def _known(data: Mapping[str, Any], keys: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise ScenarioError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(keys)})")


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _steps(value: Any, game: str, house_banked: bool, chips: bool, where: str) -> tuple[str, ...]:
    try:
        return steps_asked(value, game, house_banked, chips)
    except ValueError as exc:
        raise ScenarioError(f"{where}: {exc}") from None


def _seats(value: Any, settings: Any, where: str) -> tuple[SeatSpec, ...]:
    if not isinstance(value, list) or not value:
        raise ScenarioError(f"{where}: seats is a list of at least one player")
    out: list[SeatSpec] = []
    for entry in value:
        if not isinstance(entry, dict):
            raise ScenarioError(f"{where}: each seat is an object with seat, name and stack")
        seat = entry.get("seat")
        if not _whole(seat) or not 1 <= seat <= settings.seats:
            raise ScenarioError(f"{where}: seat {seat!r}: there is no such seat; the seats are 1 to {settings.seats}")
        here = f"{where}, seat {seat}"
        _known(entry, SEAT_KEYS, here)
        if any(s.seat == seat for s in out):
            raise ScenarioError(f"{here}: listed twice")
        name, stack, bank = entry.get("name"), entry.get("stack", settings.default_buy_in), entry.get("bank", True)
        if not isinstance(name, str) or not name.isidentifier() or any(s.name == name for s in out):
            raise ScenarioError(f"{here}: name is a bot's account name, one word, a different one at each seat")
        if not _whole(stack) or not settings.min_buy_in <= stack <= settings.max_buy_in:
            raise ScenarioError(f"{here}: stack is a buy-in from {settings.min_buy_in} to {settings.max_buy_in}, "
                                f"got {stack!r}")
        if not isinstance(bank, bool):
            raise ScenarioError(f"{here}: bank is true or false")
        out.append(SeatSpec(seat, name, stack, bank))
    return tuple(sorted(out, key=lambda s: s.seat))


def _by_seat(value: Any, key: str, where: str, taken: set[int], noun: str) -> dict[int, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: {key} maps a seat number to its entry")
    out: dict[int, Any] = {}
    for text, entry in value.items():
        if not str(text).isdigit() or int(text) not in taken:
            raise ScenarioError(f"{where}, {noun} {text}: {key} for a seat nobody sits at "
                                f"(seated: {', '.join(map(str, sorted(taken)))})")
        out[int(text)] = entry
    return out


def _deck(value: Any, where: str, place: str, seats: int) -> tuple[Card, ...] | SeatDeck:
    try:
        if isinstance(value, dict) and place == "seat":
            return seat_deck(value, 7, seats, place)
        deck = parse_cards(value if isinstance(value, str | list) else "")
    except CardError as exc:
        raise ScenarioError(f"{where}: deck: {exc.message}") from None
    if not deck:
        raise ScenarioError(f"{where}: deck: the cards in dealing order, like 'Ah Kh 9c ...'")
    return deck


def _hand(value: Any, where: str, taken: set[int], place: str, seats: int) -> HandSpec:
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: a hand is an object with a deck")
    _known(value, HAND_KEYS, where)
    deck = _deck(value.get("deck"), where, place, seats)
    bank = _by_seat(value.get("bank"), "bank", where, taken, "seat")
    for seat, answer in bank.items():
        if not isinstance(answer, bool):
            raise ScenarioError(f"{where}, seat {seat}: bank is true or false")
    bets = _by_seat(value.get("bets"), "bets", where, taken, "seat")
    decide = _by_seat(value.get("decide"), "decide", where, taken, "seat")
    return HandSpec(deck, bank, bets, decide, _irregularity(value.get("irregularity"), where, place))


def _irregularity(value: Any, where: str, place: str) -> Irregularity | None:
    if value is None:
        return None
    if not isinstance(value, dict) or value.get("kind") not in KINDS:
        raise ScenarioError(f"{where}: irregularity is null or an object whose kind is one of {', '.join(KINDS)}")
    _known(value, ("kind", "seat"), f"{where}: irregularity")
    kind, seat = value["kind"], value.get("seat")
    if kind != "miscount":
        if seat is not None:
            raise ScenarioError(f"{where}: irregularity: a {kind} names no {place}")
        return Irregularity(kind)
    if seat == "dealer":
        seat = DEALER
    if not _whole(seat) or seat < 0:
        raise ScenarioError(f"{where}: irregularity: a miscount names its {place}, or \"dealer\"")
    return Irregularity("miscount", seat)
