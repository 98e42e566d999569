"""The moves a game takes on the wire and the shape of each one's arguments: a member of its Game definition.

The protocol's ``move`` request carries an ``action`` and its ``args`` and knows no
game; each game declares its own :class:`Moves` (``Game.moves``), which checks a
move's arguments before the game turns it into a command, and tells a client what
each move takes (the snapshot's ``moves``). A malformed move is refused with a
sentence that names this game's moves and their limits, never another game's.
The game's rules still judge a well-formed move against the hand and the table's
settings (a stake above the table's maximum, say).

>>> duel = Moves("Dealer Duel", {"wager": {"stake": chips(required=True), "seed": text()}, "pass": {}})
>>> duel.check("wager", {"stake": 20, "seed": "mine"})
>>> duel.check("bet", {"ante": 5})
Traceback (most recent call last):
...
server.rules.errors.RuleError: Dealer Duel's moves are wager (stake, seed) and pass, not 'bet'
>>> duel.check("wager", {"stake": -1})
Traceback (most recent call last):
...
server.rules.errors.RuleError: wager: the stake is whole chips from 0 to 1000000000, got -1
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol

from server.rules.errors import RuleError
from server.rules.vocabulary import JSON

MOST_CHIPS: Final = 10**9
MOST_PLACES: Final = 1000  # a seat, spot or box: loose here, the rules check it against the table's own number


@dataclass(frozen=True, slots=True, kw_only=True)
class Arg:
    """One argument's shape: a whole number in a range, true or false, text up to a length, or a list."""

    kind: Literal["whole", "flag", "text", "list"]
    low: int = 0
    high: int = 0  # whole: the range's top; text: its most characters; list: its most entries
    unit: str = ""  # " chips" for an amount
    each: Arg | None = None  # a list of values: each one's shape
    fields: Mapping[str, Arg] = field(default_factory=dict)  # a list of objects: each one's fields (all optional)
    required: bool = False

    def problem(self, value: Any) -> str | None:
        """Why ``value`` does not fit (None: it fits)."""
        if self.kind == "flag":
            return None if isinstance(value, bool) else "true or false"
        if self.kind == "text":
            return None if isinstance(value, str) and len(value) <= self.high else self.words()
        if self.kind == "whole":
            return None if _whole(value) and self.low <= value <= self.high else self.words()
        return self._list_problem(value)

    def _list_problem(self, value: Any) -> str | None:
        if not isinstance(value, list) or len(value) > self.high:
            return self.words()
        for entry in value:
            wrong = self.each.problem(entry) if self.each is not None else _entry_problem(self.fields, entry)
            if wrong is not None:
                return f"{self.words()}: {wrong}"
        return None

    def words(self) -> str:
        """The shape in a sentence's words."""
        if self.kind == "flag":
            return "true or false"
        if self.kind == "text":
            return f"text of at most {self.high} characters"
        if self.kind == "whole":
            return f"whole{self.unit or ' numbers'} from {self.low} to {self.high}"
        inner = self.each.words() if self.each is not None else "with " + _and([_named(k) for k in self.fields])
        return f"a list of at most {self.high} entries, each {inner}"

    def as_json(self) -> Any:
        """The shape as the choices write one (docs/choices.md): a span, text, true/false, a list."""
        if self.kind == "flag":
            return [True, False]
        if self.kind == "text":
            return {"max_length": self.high}
        if self.kind == "whole":
            return {"min": self.low, "max": self.high}
        each = self.each.as_json() if self.each is not None else {k: a.as_json() for k, a in self.fields.items()}
        return {"count": {"min": 0, "max": self.high}, "each": each}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry_problem(fields: Mapping[str, Arg], entry: Any) -> str | None:
    if not isinstance(entry, Mapping):
        return "an entry is an object"
    extra = sorted(set(entry) - set(fields))
    if extra:
        return f"an entry has no {extra[0]!r}"
    return next((f"its {_named(k)} is {wrong}" for k, v in entry.items()
                 if (wrong := fields[k].problem(v)) is not None), None)


def chips(*, required: bool = False) -> Arg:
    """An amount of whole chips (the rules hold it to the table's own limits)."""
    return Arg(kind="whole", low=0, high=MOST_CHIPS, unit=" chips", required=required)


def place(*, required: bool = False) -> Arg:
    """A seat, spot or box by its number (the rules hold it to the table's own number of them)."""
    return Arg(kind="whole", low=1, high=MOST_PLACES, required=required)


def whole(low: int, high: int, *, required: bool = False) -> Arg:
    """A whole number from ``low`` to ``high``."""
    return Arg(kind="whole", low=low, high=high, required=required)


def flag(*, required: bool = False) -> Arg:
    """True or false."""
    return Arg(kind="flag", required=required)


def text(most: int = 128, *, required: bool = False) -> Arg:
    """Text of at most ``most`` characters (a player seed by default)."""
    return Arg(kind="text", high=most, required=required)


def values(each: Arg, most: int, *, required: bool = False) -> Arg:
    """A list of at most ``most`` values, each shaped as ``each``."""
    return Arg(kind="list", high=most, each=each, required=required)


def entries(most: int, *, required: bool = False, **fields: Arg) -> Arg:
    """A list of at most ``most`` objects, each with some of ``fields`` (one spot's or box's bets, say)."""
    return Arg(kind="list", high=most, fields=fields, required=required)


# A field's name as a sentence says it (any other name is said as it is, its underscores as spaces).
_NAMES: Final[Mapping[str, str]] = {
    "ante": "Ante", "straight_flush_bonus": "Straight Flush bonus", "flush_bonus": "Flush bonus",
    "bonus": "bonus bet", "seed": "seed", "discard": "cards to exchange",
}


def _named(name: str) -> str:
    return _NAMES.get(name, name.replace("_", " "))


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1] if words else "nothing"


class MoveMaker(Protocol):
    """A game as :meth:`Moves.command` reads it: what turns a move it does not build itself into a command."""

    def move(self, seat: int, action: str, args: Mapping[str, Any]) -> object:
        """The game's command for a move its :class:`Moves` admits."""
        ...


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    """A move whose command is one record of the seat and the move's arguments by name (``Raise(seat, amount)``);
    ``defaults`` fill what the move may leave out.

    The table builds it from arguments whose names :meth:`Moves.record` checked, not their values: the game's
    handler of the record judges each value, refusing any a client may send that does not fit (a raise's amount
    that is not a whole number, say), as High Card Flush's raise does (tests/rules/test_record_moves.py)."""

    of: Callable[..., object]
    defaults: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Moves:
    """A game's moves by name, each with its arguments' shapes; ``game`` is the game's name as people say it.

    ``records`` names the moves whose command is a plain record (:class:`Record`): the table builds those
    itself once :meth:`record` found the move and its arguments' names to be this game's, and the game's rules
    judge their values with the move; the game's own ``move`` builds the others, checked and built here in one
    call (:meth:`command`).
    """

    game: str
    args: Mapping[str, Mapping[str, Arg]]
    records: Mapping[str, Record] = field(default_factory=dict)

    def command(self, game: MoveMaker, action: str, args: Mapping[str, Any], seat: Callable[[], int]) -> object:
        """The command of a move this game takes, checked (raises RuleError) and built: a move goes from the
        table to its command in this one call (docs/server.md, one raise's path). ``seat`` is asked only once
        the move is found to be one of this game's, well formed (it raises when the table has no hand)."""
        self.check(action, args)
        return self.build(game, seat(), action, args)

    def record(self, action: str, names: Collection[str]) -> Record | None:
        """The record a move of ``action`` is built as, when its command is one (None: :meth:`command` builds it),
        once the move takes arguments of these ``names``: refused (RuleError) as :meth:`check` refuses.

        Looked up by the move's name and its arguments' names, never their values: the rules judge a record's
        values where they judge the move (a raise's amount against the Ante and the flush), so the amount goes
        from the table into the rules in one call (docs/server.md, one raise's path).
        """
        record = self.records.get(action)
        if record is not None:
            self._check_names(action, self.args[action], names)
        return record

    def build(self, game: MoveMaker, seat: int, action: str, args: Mapping[str, Any]) -> object:
        """The command of a move already checked: its record, or what the game's ``move`` makes of it."""
        record = self.records.get(action)
        if record is None:
            return game.move(seat, action, args)
        return record.of(seat, **{**record.defaults, **args})

    def check(self, action: str, args: Mapping[str, Any]) -> None:
        """Refuse (RuleError) a move this game does not have or arguments it does not take, in its own words."""
        taken = self.args.get(action)
        if taken is None:
            raise RuleError(f"{self.game}'s moves are {self.listed()}, not {action!r}", "request/unknown")
        _check_extra(action, taken, args.keys())
        for name, arg in taken.items():
            if name not in args:
                if arg.required:
                    raise _needs(action, name, arg)
                continue
            wrong = arg.problem(args[name])
            if wrong is not None:
                raise RuleError(f"{action}: the {_named(name)} is {wrong}, got {_shown(args[name])}")

    @staticmethod
    def _check_names(action: str, taken: Mapping[str, Arg], names: Collection[str]) -> None:
        """Refuse an argument ``action`` does not take, or one it requires and is not given."""
        _check_extra(action, taken, names)
        missing = next((name for name, arg in taken.items() if arg.required and name not in names), None)
        if missing is not None:
            raise _needs(action, missing, taken[missing])

    def listed(self) -> str:
        """Every move, with what it takes: ``wager (stake, seed) and pass``."""
        return _and([f"{name} ({', '.join(_named(k) for k in taken)})" if taken else name
                     for name, taken in self.args.items()])

    def as_json(self) -> JSON:
        """What a client may send: each move's arguments as the choices write them, and which are required."""
        return {name: {"args": {k: a.as_json() for k, a in taken.items()},
                       "required": [k for k, a in taken.items() if a.required]}
                for name, taken in self.args.items()}


def _check_extra(action: str, taken: Mapping[str, Arg], names: Collection[str]) -> None:
    extra = sorted(set(names) - set(taken))
    if extra:
        takes = f"takes {_and([_named(k) for k in taken])}" if taken else "takes nothing more"
        raise RuleError(f"{action} {takes}, not {extra[0]!r}")


def _needs(action: str, name: str, arg: Arg) -> RuleError:
    return RuleError(f"{action} needs the {_named(name)}: {arg.words()}")


def _shown(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."
