"""What a player types at a house-banked game's table, read the same way for every game.

Pure. A game describes its own verbs, its bet syntax and its turn in a
:class:`Grammar`; :func:`read_line` does the rest: the table-wide commands
(help, leave, sitout, back, topup N) and the betting round's verbs (bet, deal,
rebet, clear, pass). Nothing here knows when a move may be made: the play loop
sends a move only if the server's choices hold it, and says what they hold
otherwise (client_cli/offers.py, ``check``).

>>> assign_places([None, 2], mine=[], free=[1, 2, 3], taken={}, last=3, word="box")
[1, 2]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Generic, Protocol, TypeVar

from client_cli.games.house import Move
from client_cli.parse import Help, InputError, Leave, SitOut, Stay, TopUp, seat_command, unknown_command
from server.i18n import _

Command = Move | Help | Leave | Stay | SitOut | TopUp

TABLE_WORDS: Final = {
    "leave": "leave", "quit": "leave", "exit": "leave", "q": "leave", "stay": "stay",
    "sitout": "sitout", "back": "back", "topup": "topup", "top-up": "topup",
    "help": "help", "?": "help", "h": "help",
}
BETTING_WORDS: Final = {
    "bet": "bet", "b": "bet", "ante": "bet",
    "deal": "deal", "d": "deal", "confirm": "deal",
    "rebet": "rebet", "re-bet": "rebet", "again": "rebet",
    "clear": "clear", "c": "clear",
    "pass": "pass", "skip": "pass",
}


class BetChoices(Protocol):
    """What the shared commands read of a game's choices."""

    @property
    def kind(self) -> str | None: ...
    @property
    def free(self) -> tuple[int, ...]: ...
    @property
    def taken(self) -> tuple[tuple[int, str], ...]: ...


C = TypeVar("C", bound=BetChoices)


@dataclass(frozen=True, slots=True)
class Grammar(Generic[C]):
    """How one game's lines read, beyond what every game shares."""

    words: Mapping[str, str]
    """The game's own words -> its verbs (the betting and table words are added)."""
    example: str
    """A first bet, as the player is told to place one: ``bet SPOT:ANTE, e.g. 'bet 1:10j'``."""
    prompt: Callable[[C], str | None]
    """What may be typed now (said for an empty line)."""
    bets: Callable[[list[str], C], Move | InputError]
    """A ``bet`` line's arguments -> the move."""
    turn: Callable[[str, list[str], C], Move | InputError | None]
    """The game's own verbs -> the move (None: a betting verb)."""
    bet_signs: str = ""
    """Besides a digit, what starts a line that is a bet without the word ``bet``."""


def read_line(line: str, choices: C, grammar: Grammar[C]) -> Command | InputError:
    """One typed line -> a legal move, or why not."""
    words = line.strip().lower().split()
    if not words:
        return InputError(grammar.prompt(choices) or _("type 'help' for the commands"))
    if choices.kind == "bets" and (words[0][:1].isdigit() or words[0][:1] in grammar.bet_signs):
        words = ["bet", *words]
    common = table_command(words)
    if common is not None:
        return common
    verb = BETTING_WORDS.get(words[0]) or grammar.words.get(words[0])
    if verb is None:
        return unknown_command(words[0], [*TABLE_WORDS, *BETTING_WORDS, *grammar.words])
    move = grammar.turn(verb, words[1:], choices)
    if move is not None:
        return move
    if verb == "bet":  # not offered now: the play loop says what is, from the server's choices
        return grammar.bets(words[1:], choices) if choices.kind == "bets" else Move("bet")
    return Move(verb, note=_("you pass this hand") if verb == "pass" else None)  # the server's choices judge it


def table_command(words: Sequence[str]) -> Command | InputError | None:
    """The table-wide commands (help, leave, stay, sitout, back, topup N); None when ``words`` are none of them."""
    verb = TABLE_WORDS.get(words[0]) if words else None
    if verb is None:
        return None
    if verb == "help":
        return Help()
    if verb == "leave":
        return Leave()
    if verb == "stay":
        return Stay()
    return seat_command(verb, words[1:])


def typed_bets(args: Sequence[str], choices: BetChoices, amount: re.Pattern[str], *, usage: str, mine: Sequence[int],
               last: int, word: str) -> list[tuple[int, re.Match[str]]] | InputError:
    """``PLACE:AMOUNT`` or ``AMOUNT`` tokens -> each bet's place (``word``: spot, box) and its ``amount`` match,
    or why not (``usage`` says how to bet)."""
    named: list[int | None] = []
    amounts: list[re.Match[str]] = []
    for token in args:
        place, _, rest = token.rpartition(":")
        match = amount.match(rest)
        if match is None or not rest or (place and not place.isdigit()):
            return InputError(usage)
        named.append(int(place) if place else None)
        amounts.append(match)
    if not amounts:
        return InputError(usage)
    places = assign_places(named, mine=mine, free=choices.free, taken=dict(choices.taken), last=last, word=word)
    if isinstance(places, str):
        return InputError(places)
    return list(zip(places, amounts, strict=True))


def assign_places(named: Sequence[int | None], *, mine: Sequence[int], free: Sequence[int],
                  taken: Mapping[int, str], last: int, word: str) -> list[int] | str:
    """Places (spots, boxes) for bets typed with a number or without one (None), or why they cannot be.

    Bets without a number take the player's own places first, then free ones, in order.

    >>> assign_places([None, 5, None], mine=[3], free=[1, 2, 3, 4, 5], taken={}, last=5, word="spot")
    [3, 5, 1]
    >>> assign_places([2], mine=[], free=[1, 3], taken={2: "bo"}, last=3, word="box")
    'box 2 is taken by bo; free: 1 3'
    """
    explicit = [p for p in named if p is not None]
    free_text = " ".join(str(p) for p in free) or _("none")
    for place in explicit:
        if not 1 <= place <= last:
            return _("{place}: this table's {places} are 1 to {last}", place=_place(word, place),
                     places=_places(word), last=last)
        if place in taken:
            return _("{place} is taken by {name}; free: {free}", place=_place(word, place), name=taken[place],
                     free=free_text)
        if explicit.count(place) > 1:
            return _("{place} is named twice", place=_place(word, place))
    pool = [p for p in dict.fromkeys([*mine, *free]) if p not in explicit and p not in taken]
    out: list[int] = []
    for given in named:
        if given is not None:
            out.append(given)
        elif pool:
            out.append(pool.pop(0))
        else:
            return _("not enough free {places} for {n} bets (free: {free})", places=_places(word), n=len(named),
                     free=free_text)
    return out


def _place(word: str, number: int) -> str:
    """``spot 3`` or ``box 3``, in the reader's language."""
    return _("box {n}", n=number) if word == "box" else _("spot {n}", n=number)


def _places(word: str) -> str:
    return _("boxes") if word == "box" else _("spots")
