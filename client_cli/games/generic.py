"""A game this client does not know, played from the server's ``choices`` alone.

Pure. A typed line is read generically: the table-wide commands first (help, leave,
sitout, back, topup N), then a move named as the server's choices name it, its values in
the order the choice lists its args, or as ``name=value``. A fixed value of the choice is
sent as given. Nothing here knows a rule: what is not among the choices is answered by the
play loop with what is possible now, and never sent. Cards, events and results are shown
plainly, in the words of the server's own fields.

>>> model = {"you": {"seat": 2}, "seats": [{"seat": 2, "stack": 90}], "hand": {"phase": "betting"},
...          "choices": {"moves": [{"request": "move", "action": "bet", "ante": {"min": 5, "max": 50}},
...                                {"request": "move", "action": "pass"}]}}
>>> choices = legal_choices(model)
>>> parse_line("bet 10", choices)
Move(action='bet', args={'ante': 10}, note=None)
>>> parse_line("bet ante=10", choices), parse_line("pass", choices).action
(Move(action='bet', args={'ante': 10}, note=None), 'pass')
>>> parse_line("raise 5", choices).message
"raise is not a move here now: type 'help' for the commands"
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rich.text import Text

from client_cli.games.commands import table_command
from client_cli.games.house import IDLE_PHASES, Move, Names, idle
from client_cli.offers import UNCHECKED, Offer, Offers, read_offers
from client_cli.parse import Command, InputError, SeatChoices, my_seat, my_stack
from server.i18n import _, phrase

HELP: Final = phrase("""This client does not know this game: it offers the server's own moves.
  MOVE VALUES...     a move as the line above the prompt names it, then its values in order
                     (e.g. 'bet 10'), or by name (e.g. 'bet ante=10')
  sitout / back      sit out from the next hand / come back
  topup N            add N chips to your stack, between hands
  leave (q)          leave the table (Ctrl-C too)
  help (?)           this help""")


@dataclass(frozen=True, slots=True)
class GenericChoices(SeatChoices):
    """What the player may do now: the server's move choices as they are (``kind`` ``moves`` when any)."""

    offers: tuple[Offer, ...] = ()
    declared: tuple[str, ...] = ()
    """Every move the table's game takes (the snapshot's ``game_moves``; empty when the model does not say)."""


def unknown_game_line(game: str) -> str:
    """The line that says this client does not know the table's game.

    >>> unknown_game_line("topcard")
    "This client does not know the game 'topcard': its moves come from the server's choices, and its cards \
and results are shown plainly."
    """
    return _("This client does not know the game '{game}': its moves come from the server's choices, "
             "and its cards and results are shown plainly.", game=game)


def legal_choices(model: Mapping[str, Any], offers: Offers | None = None) -> GenericChoices:
    """The server's move choices (``offers``, else the model's own; none in a bare snapshot)."""
    moves = tuple(o for o in (read_offers(model) if offers is None else offers).items if o.request == "move")
    hand = model.get("hand") or {}
    declared = model.get("game_moves")
    return GenericChoices(kind="moves" if moves else None, stack=my_stack(model), seated=my_seat(model) is not None,
                          between_hands=hand.get("phase") in IDLE_PHASES, offers=moves,
                          declared=tuple(str(name) for name in declared) if isinstance(declared, Mapping) else ())


def choices_text(choices: GenericChoices) -> str | None:
    """``Your move: bet ANTE (5 to 50), pass`` (None when no move is offered)."""
    if not choices.offers:
        return None
    return _("Your move: {moves}", moves=", ".join(dict.fromkeys(_usage(o) for o in choices.offers)))


def _usage(offer: Offer) -> str:
    free = [f"{arg.upper()} ({_spec_words(offer.limits[arg])})" for arg in _free_args(offer)]
    return " ".join([_word(str(offer.action)), *free])


def _spec_words(spec: Any) -> str:
    if isinstance(spec, Mapping) and isinstance(spec.get("min"), int) and isinstance(spec.get("max"), int):
        return _("{low} to {high}", low=spec["min"], high=spec["max"])
    if isinstance(spec, list | tuple):
        return _(" or ").join(_spec_words(s) if isinstance(s, Mapping) else str(s) for s in spec)
    return _("see help")


def _word(action: str) -> str:
    return action.replace("_", "-")


def _free_args(offer: Offer) -> list[str]:
    """The args the player types: a range or a list of values (a fixed value goes as the server gave it)."""
    return [arg for arg, spec in offer.limits.items()
            if arg not in UNCHECKED and isinstance(spec, Mapping | list | tuple)]


def parse_line(line: str, choices: GenericChoices) -> Command | Move | InputError:
    """One typed line -> a table command or one of the server's moves with its args, or why not."""
    words = line.strip().split()
    if not words:
        return InputError(choices_text(choices) or _("nothing to do now: wait for the table"))
    common = table_command([words[0].lower(), *words[1:]])
    if common is not None:
        return common
    wanted = words[0].lower().replace("-", "_")
    offer = next((o for o in choices.offers if o.action == wanted), None)
    if offer is None:
        return _not_offered(words[0], wanted, choices)
    return _move(offer, words[1:])


def _not_offered(typed: str, wanted: str, choices: GenericChoices) -> InputError:
    """A word that names no move offered now: one of the game's moves, not possible now (the play loop says what
    is), or none of them at all.

    >>> _not_offered("fly", "fly", GenericChoices(declared=("wager", "hold"))).message
    "fly is not a move here now: this game's moves are wager and hold (type 'help' for the commands)"
    >>> _not_offered("hold", "hold", GenericChoices(declared=("wager", "hold"))).not_now
    True
    """
    if choices.declared and wanted not in choices.declared:
        names = [_word(name) for name in choices.declared]
        moves = names[0] if len(names) == 1 else _("{first} and {last}", first=", ".join(names[:-1]), last=names[-1])
        return InputError(_("{typed} is not a move here now: this game's moves are {moves} (type 'help' for the "
                            "commands)", typed=typed, moves=moves))
    return InputError(_("{typed} is not a move here now: type 'help' for the commands", typed=typed), not_now=True)


def _move(offer: Offer, tokens: Sequence[str]) -> Move | InputError:
    args = {arg: spec for arg, spec in offer.limits.items() if arg not in UNCHECKED and not isinstance(
        spec, Mapping | list | tuple)}
    free = iter(_free_args(offer))
    for token in tokens:
        name, sep, text = token.partition("=")
        arg = name if sep else next(free, None)
        if arg is None or (sep and arg not in offer.limits):
            return InputError(_("{move} takes: {usage}", move=_word(str(offer.action)), usage=_usage(offer)))
        args[arg] = _value(text if sep else token)
    return Move(str(offer.action), args)


def _value(text: str) -> Any:
    """A typed value as the wire carries it: a whole number, yes/no as true/false, else the text.

    >>> _value("12"), _value("-3"), _value("yes"), _value("Ah")
    (12, -3, True, 'Ah')
    """
    if text.lstrip("-").isdigit():
        return int(text)
    return {"yes": True, "y": True, "true": True, "no": False, "n": False, "false": False}.get(text.lower(), text)


# ------------------------------------------------------------------ plain text


def plain(value: Any, names: Names | None = None) -> str:
    """A field's value in plain words: lists joined by spaces, dicts as ``key value`` pairs, seats by name.

    A mapping keyed by seat numbers, or a list of ``[seat, value]`` pairs, says each seat.

    >>> plain(["Ah", "Kd"]), plain({"ante": 10, "cards": ["2c"]}), plain(None)
    ('Ah Kd', 'ante 10, cards 2c', '-')
    >>> plain({"1": "8h", "2": "Kd"}, {1: "ann"}), plain([[1, "8h"]], {1: "ann"})
    ('ann 8h, seat 2 Kd', 'ann 8h')
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    by_seat = _by_seat(value)
    if by_seat is not None:
        return ", ".join(f"{_who(names, seat)} {plain(v, names)}" for seat, v in by_seat) or "-"
    if isinstance(value, list | tuple):
        return " ".join(plain(v, names) for v in value) or "-"
    if isinstance(value, Mapping):
        return ", ".join(f"{_label(k)} {plain(v, names)}" for k, v in value.items()) or "-"
    return str(value)


def _by_seat(value: Any) -> list[tuple[int, Any]] | None:
    """``value`` as (seat, value) pairs when it is a mapping keyed by seat numbers or a list of such pairs."""
    if isinstance(value, Mapping) and value and all(str(k).isdigit() for k in value):
        return [(int(k), v) for k, v in value.items()]
    if isinstance(value, list | tuple) and value and all(
            isinstance(p, list | tuple) and len(p) == 2 and type(p[0]) is int for p in value):
        return [(p[0], p[1]) for p in value]
    return None


def _who(names: Names | None, seat: int) -> str:
    return (names or {}).get(seat) or _("seat {n}", n=seat)


def _said(value: Any) -> bool:
    """Whether a field has something to say (not null, not empty)."""
    return value is not None and value != [] and value != {} and value != ""


def _label(key: object) -> str:
    return str(key).replace("_", " ")


def table_lines(snapshot: Mapping[str, Any], *, symbols: bool = True) -> list[Text]:  # noqa: ARG001
    """The seats, then each field of the hand as the server names it."""
    seats = [s for s in snapshot.get("seats") or [] if isinstance(s, Mapping)]
    lines = [Text(_("seat {n}: {name}, {chips} chips", n=s.get("seat"), name=s.get("name", ""),
                    chips=s.get("stack", 0))) for s in seats]
    names = {s["seat"]: str(s.get("name", "")) for s in seats if isinstance(s.get("seat"), int)}
    hand = snapshot.get("hand")
    if isinstance(hand, Mapping):
        lines += [Text(f"{_label(k)}: {plain(v, names)}") for k, v in hand.items() if k not in _UNSHOWN and _said(v)]
    return lines


_UNSHOWN: Final = frozenset({"game", "commitment", "clock", "deadline", "hand_id", "number"})
_UNSAID: Final = frozenset({"hand_id", "seq", "table", "game", "commitment", "server_seed", "deck_seed", "player_seeds",
                            "seed", "deal_order", "arranged", "reason", "number", "deadline", "carry"})
"""Fields the checks of the deal read (the verdict line speaks of them), not the player."""


def describe_event(event: Mapping[str, Any], names: Names) -> str | None:
    """An event in the server's own words: its type, whose seat, and its fields."""
    kind = event.get("type")
    if not isinstance(kind, str) or kind == "hand_revealed":  # the result lines say how it ended
        return None
    seat = event.get("seat")
    who = _("seat {n} ({name})", n=seat, name=names[seat]) if isinstance(seat, int) and seat in names else (
        _("seat {n}", n=seat) if isinstance(seat, int) else "")
    rest = {k: v for k, v in event.items() if k not in _UNSAID and k not in ("type", "seat") and _said(v)}
    text = " ".join(p for p in (who, _label(kind)) if p)
    clock = _("; the clock runs") if event.get("deadline") is not None else ""
    return f"{text}: {plain(rest, names)}{clock}" if rest else f"{text}{clock}"


def result_lines(reveal: Mapping[str, Any], names: Names, _my_seat: int | None = None, *,
                 symbols: bool = True) -> list[Text]:  # noqa: ARG001
    """A finished hand in plain words: its result fields as the server sends them, each seat's net a sentence."""
    names = {**names, **{int(k): str(v) for k, v in (reveal.get("names") or {}).items() if str(k).isdigit()}}
    shown = {k: v for k, v in reveal.items()
             if k not in _UNSAID and k not in ("type", "status", "number", "names", "nets") and _said(v)}
    head = _("hand #{number}", number=reveal.get("number", reveal.get("hand_id"))) + " " \
        + _label(reveal.get("status", "ended"))
    nets = [f"{_who(names, seat)} {_net_words(net)}" for seat, net in _by_seat(reveal.get("nets")) or []
            if isinstance(net, int)]
    said = "; ".join(p for p in (plain(shown, names) if shown else "", ", ".join(nets)) if p)
    return [Text(f"{head}: {said}" if said else head)]


def _net_words(net: int) -> str:
    """A seat's net in words.

    >>> _net_words(10), _net_words(-20), _net_words(0)
    ('wins 10', 'loses 20', 'pushes')
    """
    return _("wins {amount}", amount=net) if net > 0 else _("loses {amount}", amount=-net) if net < 0 \
        else _("pushes")


def history_bets(_hand: Mapping[str, Any], _names: Names) -> list[Text]:
    """Nothing of its own: the history shows what every game records."""
    return []


def seat_nets(hand: Mapping[str, Any]) -> dict[int, int]:
    """Each seat's net, when the hand's settlement gives it the way the known games do."""
    rows = (hand.get("settlement") or {}).get("seats") or []
    return {int(r["seat"]): int(r.get("net", 0)) for r in rows if isinstance(r, Mapping) and "seat" in r}


def bot_bets(_strategy: str, _choices: Any, _rng: random.Random, _ante: int | None = None,
             _prefer: int | None = None) -> list[dict[str, Any]] | None:
    """Bots do not play a game this client does not know."""
    return None


def bot_decision(_strategy: str, _choices: Any, _rng: random.Random) -> Move | None:
    """Bots do not play a game this client does not know."""
    return None


__all__ = ["HELP", "GenericChoices", "choices_text", "describe_event", "history_bets", "idle", "legal_choices",
           "parse_line", "result_lines", "seat_nets", "table_lines", "unknown_game_line"]
