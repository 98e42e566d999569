"""From a table snapshot to the legal choices, and from a typed line to a command.

Pure: nothing here talks to the server. :func:`legal_choices` reads what this
player is asked now from the server's choices on the snapshot, with their limits
(the hand view only words them: the Ante in play, the flush's limit, what a fold
gives up); :func:`parse_line`
maps one line of input onto a :data:`Command`'s args, and the server's choices on
the snapshot judge them (:func:`client_cli.offers.misfit`, worded by
:mod:`client_cli.hcf_refusals`): an :class:`InputError` says what is wrong and what
is allowed, so invalid input is explained and never sent.

>>> snap = {"settings": {"min_ante": 5, "max_ante": 500, "min_bonus": 1, "max_bonus": 100,
...                      "fee_mode": "players", "fee": 1},
...         "you": {"seat": 2}, "seats": [{"seat": 2, "stack": 100}],
...         "hand": {"phase": "betting", "bettors": [2], "seats": {"2": {"in_hand": False, "passed": False}}},
...         "choices": {"moves": [{"request": "move", "action": "bet", "ante": {"min": 5, "max": 49},
...             "straight_flush_bonus": {"min": 0, "max": 89}, "flush_bonus": {"min": 0, "max": 89},
...             "limits": {"cover": {"max": 99, "ante": 2, "straight_flush_bonus": 1, "flush_bonus": 1}}}]}}
>>> choices = legal_choices(snap)
>>> choices.kind, choices.max_ante
('bets', 49)
>>> parse_line("bet 10 sf 5", choices)
PlaceBets(ante=10, straight_flush_bonus=5, flush_bonus=0)
>>> parse_line("bet 60", choices).message
'the Ante is 5 to 49 chips here (your stack of 100 must also cover the smallest raise and the fee)'
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, Literal, Protocol

from client_cli.hcf_refusals import bet_refusal, raise_refusal, raise_span_text
from client_cli.offers import Misfit, Offers, check, kind_of, misfit, read_offers, span_of
from server.i18n import _, heard, phrase, spoken

ChoiceKind = Literal["bank", "bets", "decision"]


@dataclass(frozen=True, slots=True)
class SeatChoices:
    """What any game's player may do now: what is asked (``kind``), and what every table's commands read."""

    kind: str | None = None
    stack: int = 0
    seated: bool = False
    between_hands: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class Choices(SeatChoices):
    """What the player may do now, with the limits that apply."""

    kind: ChoiceKind | None = None
    min_ante: int = 0
    max_ante: int = 0
    min_bonus: int = 0
    max_bonus: int = 0
    fee: int = 0
    ante: int = 0
    raise_limit: int = 1
    max_raise: int = 0
    fold_loses: tuple[tuple[str, int], ...] = ()
    """Bonus bets a fold gives up (the California profile: they go to the DP with the Ante)."""
    next_hand: str = ""
    """The server's sentence when the hand in progress goes on without this seat (it sat down during it)."""
    offers: Offers | None = field(default=None, compare=False, repr=False)
    """The server's choices now, the one judge of a typed move (None: the model carries none, the server judges)."""


# ------------------------------------------------------------------ commands


@dataclass(frozen=True, slots=True)
class AnswerBank:
    """Accept or decline the bank."""

    accept: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PlaceBets:
    """An Ante with optional bonus bets."""

    ante: int
    straight_flush_bonus: int = 0
    flush_bonus: int = 0


@dataclass(frozen=True, slots=True)
class PassBets:
    """Sit this hand out."""


@dataclass(frozen=True, slots=True)
class Fold:
    """Fold at your turn."""


@dataclass(frozen=True, slots=True)
class Raise:
    """Raise ``amount`` chips at your turn."""

    amount: int


@dataclass(frozen=True, slots=True)
class Leave:
    """Stand up now, or after the current hand, and quit."""


@dataclass(frozen=True, slots=True)
class Stay:
    """Take back a leave asked during the hand: keep the seat."""


@dataclass(frozen=True, slots=True)
class SitOut:
    """Sit out of the coming hands (``sitting_out``) or come back."""

    sitting_out: bool


@dataclass(frozen=True, slots=True)
class WillingToBank:
    """Whether the bank may be offered to you."""

    willing: bool


@dataclass(frozen=True, slots=True)
class TopUp:
    """Bring more chips from the account, between hands."""

    amount: int


@dataclass(frozen=True, slots=True)
class Help:
    """Show the help."""


Command = AnswerBank | PlaceBets | PassBets | Fold | Raise | Leave | Stay | SitOut | WillingToBank | TopUp | Help


@dataclass(frozen=True, slots=True)
class InputError:
    """Why a line was not understood or not allowed (nothing is sent)."""

    message: str
    not_now: bool = field(default=False, compare=False)
    """The command is fine but not among the choices of the moment (the caller names what is possible now)."""


# ------------------------------------------------------------------ choices


def player_fee(settings: Mapping[str, Any]) -> int:
    """The collection fee a player (not the DP) pays under the table's ``fee_mode``.

    >>> player_fee({"fee_mode": "all", "fee": 2}), player_fee({"fee_mode": "designated", "fee": 2})
    (2, 0)
    """
    return int(settings.get("fee", 0)) if settings.get("fee_mode") in ("all", "players") else 0


def my_seat(snapshot: Mapping[str, Any]) -> int | None:
    """This client's seat number, if it sits at the table."""
    you = snapshot.get("you") or {}
    seat = you.get("seat")
    return seat if isinstance(seat, int) else None


def my_stack(snapshot: Mapping[str, Any]) -> int:
    """Chips in this client's stack (0 when not seated)."""
    seat = my_seat(snapshot)
    for entry in snapshot.get("seats") or []:
        if entry.get("seat") == seat:
            return int(entry.get("stack", 0))
    return 0


KINDS: Final[dict[ChoiceKind, frozenset[str]]] = {
    "bank": frozenset({"bank"}), "bets": frozenset({"bet", "pass"}), "decision": frozenset({"raise", "fold"})}
"""Which hand moves of the server's choices each kind of :class:`Choices` stands for."""


def legal_choices(snapshot: Mapping[str, Any], offers: Offers | None = None) -> Choices:
    """What this client may do now: what the server's choices (``offers``, else the snapshot's own) ask, with
    their limits, and the hand view's words for them."""
    offers = read_offers(snapshot) if offers is None else offers
    hand = snapshot.get("hand") or {}
    base = Choices(stack=my_stack(snapshot), seated=my_seat(snapshot) is not None,
                   between_hands=hand.get("phase") in (None, "settled", "void", "not_dealt"),
                   next_hand=heard(snapshot.get("choices") or {}, "next_hand"), offers=offers)
    kind = kind_of(offers, KINDS)
    if kind == "bets":
        return _bet_choices(base, snapshot.get("settings") or {}, offers)
    if kind == "decision":
        return _decision_choices(base, snapshot, offers)
    return replace(base, kind=kind)


def _bet_choices(base: Choices, settings: Mapping[str, Any], offers: Offers) -> Choices:
    """Bets are open: the offered Ante's and bonuses' spans (no ``bet`` offered: the stack covers no Ante)."""
    bet = offers.first("move", "bet")
    min_ante = int(settings.get("min_ante", 1))
    ante = bet.range("ante") if bet is not None else None
    bonus = span_of(bet.limits.get("straight_flush_bonus")) if bet is not None else None
    low, high = ante or (min_ante, 0)
    bonus_low, bonus_high = bonus or (int(settings.get("min_bonus", 1)), 0)
    return replace(base, kind="bets", fee=player_fee(settings), min_ante=max(low, 1), max_ante=high,
                   min_bonus=max(bonus_low, 1), max_bonus=bonus_high)  # the least of a bet is never 0 chips


def _decision_choices(base: Choices, snapshot: Mapping[str, Any], offers: Offers) -> Choices:
    """This player's turn: the offered raise's span (none offered: the stack covers no raise), with the Ante and
    the flush's limit the hand view shows."""
    hand = snapshot.get("hand") or {}
    mine = (hand.get("seats") or {}).get(str(my_seat(snapshot))) or {}
    offered = offers.first("move", "raise")
    span = offered.range("amount") if offered is not None else None
    ante = int(mine.get("ante", 0)) or (span[0] if span else 0)
    limit = int((hand.get("your_cards") or {}).get("raise_limit", 1))
    return replace(base, kind="decision", ante=ante, raise_limit=limit, max_raise=span[1] if span else 0,
                   fold_loses=_fold_loses(hand, snapshot.get("settings") or {}, mine))


def _fold_loses(hand: Mapping[str, Any], settings: Mapping[str, Any],
                mine: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    """A fold gives the bonus bets to the DP in the California profile (docs/rules/hcf.md section 3.5).

    The standard profile judges them anyway (section 7).
    """
    if (hand.get("profile") or settings.get("profile") or "california") != "california":
        return ()
    bonuses = ((phrase("Straight Flush bonus"), int(mine.get("straight_flush_bonus", 0))),
               (phrase("Flush bonus"), int(mine.get("flush_bonus", 0))))
    return tuple((label, amount) for label, amount in bonuses if amount)


def fold_warning(choices: Choices) -> str | None:
    """What a fold gives up beyond the Ante, when it is more.

    >>> fold_warning(Choices(kind="decision", fold_loses=(("Straight Flush bonus", 5),)))
    'fold loses your Straight Flush bonus of 5 too'
    """
    if choices.kind != "decision" or not choices.fold_loses:
        return None
    lost = [_("{bonus} of {chips}", bonus=spoken(label), chips=amount) for label, amount in choices.fold_loses]
    listed = lost[0] if len(lost) == 1 else _("{first} and {last}", first=", ".join(lost[:-1]), last=lost[-1])
    return _("fold loses your {lost} too", lost=listed)


def choices_text(choices: Choices) -> str | None:
    """One line that says exactly what may be typed now (None when nothing is asked).

    >>> choices_text(Choices(kind="decision", ante=10, raise_limit=2, max_raise=20, stack=500))
    'Your turn: fold (f) or raise 10 to 20 chips (r N, r max, r min)'
    """
    if choices.kind == "bank":
        return _("The bank is offered to you: accept (y) or decline (n)")
    if choices.kind == "bets":
        if choices.max_ante < choices.min_ante:
            return _("Bets are open, but your stack of {stack} cannot cover an Ante: pass (p)", stack=choices.stack)
        return _("Bets are open: bet ANTE [SF FLUSH] with an Ante of {low} to {high}, bonuses {bonus_low} to "
                 "{bonus_high} or 0; or pass (p)", low=choices.min_ante, high=choices.max_ante,
                 bonus_low=choices.min_bonus, bonus_high=choices.max_bonus)
    if choices.kind == "decision":
        warning = fold_warning(choices)
        return _decision_text(choices) + (f"\n  {warning}" if warning else "")
    return None


def _decision_text(choices: Choices) -> str:
    if choices.max_raise < choices.ante:
        return _("Your turn: fold (f); your stack cannot cover a raise")
    if choices.max_raise == choices.ante:
        return _("Your turn: fold (f) or raise {ante} chips (r {ante}, r max)", ante=choices.ante)
    return _("Your turn: fold (f) or raise {ante} to {most} chips (r N, r max, r min)", ante=choices.ante,
             most=choices.max_raise)


HELP = phrase("""\
Commands (type them and press Enter):
  y / n                 take or turn down the bank ('bank yes', 'bank no')
  bet ANTE [SF FLUSH]   an Ante, optional Straight Flush and Flush bonus bets:
                        'bet 10', 'bet 10 5 5', 'bet 10 flush 5' ('10': Ante 10)
  pass (p)              sit this hand out
  raise N (r N)         raise N chips at your turn; 'r max', 'r min', 'r 2x'
  fold (f)              fold at your turn
  sitout / back         sit out of the coming hands, or come back
  bank on / bank off    whether the bank may be offered to you
  topup N               bring N more chips from your account (between hands)
  leave (or Ctrl-C)     stand up now, or after the current hand, and quit
  stay                  take back a leave asked during the hand: keep your seat
  help (?)              this help""")


# ------------------------------------------------------------------ parsing


_WORDS = {
    "y": "yes", "yes": "yes", "accept": "yes", "a": "yes", "take": "yes",
    "n": "no", "no": "no", "decline": "no", "d": "no",
    "bet": "bet", "b": "bet", "ante": "bet",
    "pass": "pass", "p": "pass",
    "fold": "fold", "f": "fold",
    "raise": "raise", "r": "raise",
    "leave": "leave", "quit": "leave", "exit": "leave", "q": "leave", "stay": "stay",
    "sitout": "sitout", "back": "back",
    "bank": "bank", "topup": "topup", "top-up": "topup",
    "help": "help", "?": "help", "h": "help",
}


def unknown_command(word: str, known: Iterable[str]) -> InputError:
    """A word that is no command, and the command it most likely was, if one is close (a typo).

    >>> unknown_command("bett", ["bet", "b", "fold"]).message
    "unknown command 'bett': did you mean 'bet'? (type 'help' for the commands)"
    >>> unknown_command("dance", ["bet", "fold"]).message
    "unknown command 'dance': type 'help' for the commands"
    """
    # Only words of three letters or more are suggested: 'f' for 'g' would be a guess, not a typo.
    close = difflib.get_close_matches(word, [k for k in known if len(k) >= 3], n=1, cutoff=0.75)
    if close:
        return InputError(_("unknown command '{word}': did you mean '{command}'? (type 'help' for the commands)",
                            word=word, command=close[0]))
    return InputError(_("unknown command '{word}': type 'help' for the commands", word=word))


SAY_HELP: Final = phrase("  say TEXT              chat with the table (every game; 'say' is never a move)")


def said(line: str) -> str | None:
    """The text of a ``say TEXT`` line (its case and spacing kept), else None: chat, never a table command."""
    verb, _, text = line.strip().partition(" ")
    return text.strip() if verb.lower() == "say" else None


def parse_line(line: str, choices: Choices) -> Command | InputError:
    """One typed line -> a legal command, or why not (see :data:`HELP`)."""
    words = line.strip().lower().split()
    asked = choices.kind
    if not words:
        return InputError(choices_text(choices) or _("type 'help' for the commands"))
    if words[0].isdigit() and asked == "bets":
        words = ["bet", *words]
    verb = _WORDS.get(words[0])
    args = words[1:]
    if verb is None:
        return unknown_command(words[0], _WORDS)
    if verb == "help":
        return Help()
    if verb == "leave":
        return Leave()
    if verb == "stay":
        return Stay()
    if verb in ("sitout", "back", "bank", "topup"):
        return _table_command(verb, args, choices)
    if verb in ("yes", "no"):
        if asked != "bank":
            return InputError(_("the bank is not being offered to you now"), not_now=True)
        return AnswerBank(verb == "yes")
    if verb in ("bet", "pass", "fold", "raise") and choices.next_hand:
        return InputError(choices.next_hand, not_now=True)  # the server's reason: it sat down during this hand
    if verb in ("bet", "pass"):
        if asked != "bets":
            return InputError(_("you cannot bet now") if asked is None or verb == "bet"
                              else _("there is nothing to pass now"), not_now=True)
        return PassBets() if verb == "pass" else _bets(args, choices)
    if asked != "decision":
        return InputError(_("it is not your turn to fold or raise"), not_now=True)
    return Fold() if verb == "fold" else _raise(args, choices)


def _table_command(verb: str, args: list[str], choices: Choices) -> Command | InputError:
    if verb == "bank" and choices.seated:
        return _bank(args, choices)
    return seat_command(verb, args)


def _bank(args: list[str], choices: Choices) -> Command | InputError:
    """``bank on`` / ``bank off``: the switch; ``bank yes`` / ``bank no``: the answer to an offer (as ``y`` / ``n``)."""
    word = args[0] if len(args) == 1 else None
    if word in ("on", "off"):
        return WillingToBank(word == "on")
    answer = _WORDS.get(word or "")
    if answer in ("yes", "no"):
        if choices.kind != "bank":
            return InputError(_("the bank is not being offered to you now ('bank on' / 'bank off' sets "
                                "whether it may be)"), not_now=True)
        return AnswerBank(answer == "yes")
    if choices.kind == "bank":
        return InputError(_("take the bank with 'y' (or 'bank yes'), pass it on with 'n' (or 'bank no')"))
    return InputError(_("say 'bank on' or 'bank off' (whether the bank may be offered to you)"))


class TableChoices(Protocol):
    """What the commands of a seated player read of any game's choices."""

    @property
    def seated(self) -> bool: ...
    @property
    def between_hands(self) -> bool: ...


def seat_command(verb: str, args: Sequence[str]) -> SitOut | TopUp | InputError:
    """``sitout``, ``back`` or ``topup N`` (any other verb reads as ``topup``), at any game's table.

    Whether it may be sent now is the server's choices' to say (the play loop checks them).
    """
    if verb == "sitout":
        return SitOut(True)
    if verb == "back":
        return SitOut(False)
    if len(args) != 1 or not args[0].isdigit() or int(args[0]) < 1:
        return InputError(_("say 'topup N' with a number of chips"))
    return TopUp(int(args[0]))


_BONUS_KEYS = {"sf": "sf", "straight": "sf", "straightflush": "sf", "fl": "flush", "flush": "flush"}


def _bets(args: list[str], choices: Choices) -> Command | InputError:
    """The typed amounts as the ``bet`` move's args; the server's choices judge them."""
    amounts = _bet_amounts(args)
    if isinstance(amounts, InputError):
        return amounts
    ante, sf, flush = amounts
    sent = {"ante": ante, "straight_flush_bonus": sf, "flush_bonus": flush}
    refusal = _judged(choices, "bet", sent, lambda wrong: bet_refusal(wrong, stack=choices.stack))
    return PlaceBets(ante=ante, straight_flush_bonus=sf, flush_bonus=flush) if refusal is None else refusal


def _bet_amounts(args: list[str]) -> tuple[int, int, int] | InputError:
    usage = InputError(_("say 'bet ANTE [SF FLUSH]', e.g. 'bet 10', 'bet 10 5 5' or 'bet 10 flush 5'"))
    tokens = [t for a in args for t in a.replace("=", " ").split()]
    numbers: list[int] = []
    keyed: dict[str, int] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.isdigit():
            numbers.append(int(token))
            i += 1
        elif token in _BONUS_KEYS and i + 1 < len(tokens) and tokens[i + 1].isdigit():
            keyed[_BONUS_KEYS[token]] = int(tokens[i + 1])
            i += 2
        else:
            return usage
    if not numbers or len(numbers) > 3 or (keyed and len(numbers) > 1):
        return usage
    ante = numbers[0]
    sf = keyed.get("sf", numbers[1] if len(numbers) > 1 else 0)
    flush = keyed.get("flush", numbers[2] if len(numbers) > 2 else 0)
    return ante, sf, flush


def _raise(args: list[str], choices: Choices) -> Command | InputError:
    """``r N``, ``r Nx``, ``r max``, ``r min`` as the ``raise`` move's amount; the server's choices judge it."""
    if len(args) != 1 or not (args[0] in ("max", "min") or args[0].isdigit()
                              or (args[0].endswith("x") and args[0][:-1].isdigit())):
        if choices.max_raise < choices.ante:
            return InputError(_("your stack cannot cover a raise: fold (f)"))
        return InputError(_("say 'r N', 'r max' or 'r min': {span}",
                            span=raise_span_text(choices.ante, choices.max_raise)))
    amount = _raise_amount(args[0], choices)
    refusal = _judged(choices, "raise", {"amount": amount}, lambda wrong: raise_refusal(
        wrong, amount, ante=choices.ante, raise_limit=choices.raise_limit, stack=choices.stack))
    return Raise(amount) if refusal is None else refusal


def _judged(choices: Choices, action: str, args: Mapping[str, Any],
            words: Callable[[Misfit], str | None]) -> InputError | None:
    """The server's choices judge the move: None when they hold it, else why not, in the game's ``words`` when
    they have some (the judge's own sentence otherwise). No choices on the model: the server judges."""
    sent = {"action": action, **args}
    wrong = misfit(choices.offers, "move", sent) if choices.offers is not None else None
    if wrong is None or choices.offers is None:
        return None
    return InputError(words(wrong) or check(choices.offers, "move", sent) or "")


def _raise_amount(word: str, choices: Choices) -> int:
    """The chips a raise's word stands for: ``max``, ``min`` (the offered span's ends), ``2x`` (the Ante's
    multiple) or a number."""
    offered = choices.offers.first("move", "raise") if choices.offers is not None else None
    span = offered.range("amount") if offered is not None else None
    low, high = span or (choices.ante, choices.max_raise)
    if word in ("max", "min"):
        return high if word == "max" else low
    return int(word[:-1]) * choices.ante if word.endswith("x") else int(word)
