"""The trainee's short answers (``offer 3``, ``fees 1:1 4:1``, ``q y``, ``settle 5 +10 +20 0 -5`` ...).

:func:`parse_answer` turns one typed line into the exact answer object of a step
(docs/drills.md, "The steps"), or raises :class:`AnswerError` with a sentence saying
the form the step expects; :func:`format_answer` writes an answer back in the same
words, so a right answer is shown to the trainee as they would have typed it. Pure.

>>> parse_answer("settle_seat", "settle 5 +10 +20 0 -5")
{'seat': 5, 'ante': 10, 'raise': 20, 'straight_flush_bonus': 0, 'flush_bonus': -5}
>>> parse_answer("payout", "pay seat 3 flush 150 100 25x2")
{'seat': 3, 'bet': 'flush_bonus', 'amount': 150, 'chips': {'100': 1, '25': 2}}
>>> format_answer("payout", {"spot": 2, "bet": "jackpot", "amount": 50, "chips": {"25": 2}})
'pay spot 2 jackpot 50 25x2'
>>> format_answer("fees", {"fees": {"4": 1, "1": 2}})
'fees 1:2 4:1'
>>> parse_answer("first_card", "frist 2")
Traceback (most recent call last):
...
client_cli.drill.grammar.AnswerError: the answer here is `first SEAT` (the seat dealt the first card)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from server.i18n import _, phrase, spoken
from server.rules.cards import CardError, card_text, parse_card
from server.rules.drill.explain import step_name
from server.rules.vocabulary import JSON

FORMS: Final[Mapping[str, str]] = {
    "offer_bank": phrase("`offer SEAT` (the seat offered the bank) or `offer none` (nobody may be offered)"),
    "fees": phrase("`fees SEAT:FEE SEAT:FEE ...` (each payer and its fee, like `fees 1:1 4:1`) or `fees none`"),
    "first_card": phrase("`first SEAT` (the seat dealt the first card)"),
    "irregularity": phrase("`dead SEAT` (that seat's hand is dead), `dead hand` (the whole hand) or `play on`"),
    "walk_away": phrase("`fold` or `wait`"),
    "qualify": phrase("`q y` (the dealer's hand qualifies) or `q n` (it does not)"),
    "qualify_after": phrase("`q y` (the dealer's new hand qualifies) or `q n` (it does not)"),
    "settle_seat": phrase("`settle SEAT ANTE RAISE SF-BONUS FLUSH-BONUS` (each bet's result: +won, -lost, 0 push "
                          "or no bet, like `settle 5 +10 +20 0 -5`), or `settle SEAT dead` when the DP cannot "
                          "cover it"),
    "bank_after": phrase("`bank STACK` (the DP's stack after the hand, like `bank 1186`)"),
    "settle_spot": phrase("`spot SPOT ANTE BET JACKPOT` (each result: +won, -lost, 0; like `spot 2 +5 +10 0`)"),
    "settle_box": phrase("`box BOX ANTE BET BONUS` (each result: +won, -lost, 0; like `box 1 +5 +10 0`)"),
    "dealer_exchange": phrase("`card CARD` (the dealer card that is replaced, like `card Kd`)"),
    "payout": phrase("`pay PLACE N BET AMOUNT CHIPS...` (the place is seat, spot or box; the bet ante, raise, bet, sf, "
                     "flush, bonus or jackpot; then the chips, each a chip or CHIPxCOUNT, when chips are in play: "
                     "like `pay seat 3 flush 150 100 25x2`)"),
}
"""Each step's answer, as the trainee types it (the typed words stay English: docs/i18n.md; the rest is said in
the trainee's language)."""

SETTLE_BETS: Final[Mapping[str, tuple[str, str, tuple[str, ...]]]] = {
    "settle_seat": ("settle", "seat", ("ante", "raise", "straight_flush_bonus", "flush_bonus")),
    "settle_spot": ("spot", "spot", ("ante", "bet", "jackpot")),
    "settle_box": ("box", "box", ("ante", "bet", "bonus")),
}
"""The settlement steps: the word that starts the answer, the place's key, and the bets in the order typed."""

PAY_BETS: Final[Mapping[str, str]] = {
    "ante": "ante", "raise": "raise", "bet": "bet", "bonus": "bonus", "jackpot": "jackpot",
    "sf": "straight_flush_bonus", "straight_flush": "straight_flush_bonus", "straight_flush_bonus":
    "straight_flush_bonus", "flush": "flush_bonus", "flush_bonus": "flush_bonus",
}
"""A payout's bet as typed, and the answer's name for it."""
SAY_BET: Final = {"straight_flush_bonus": "sf", "flush_bonus": "flush"}
PAY_PLACES: Final = ("seat", "spot", "box")
_CHIP: Final = re.compile(r"([0-9]+)(?:x([0-9]+))?")

_WHOLE: Final = re.compile(r"[0-9]+")
_SIGNED: Final = re.compile(r"[+-]?[0-9]+")


class AnswerError(ValueError):
    """A line that is no answer to this step; the message says the form expected, and ``reason`` is that sentence
    as a phrase (a client says it in its language)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_answer(step: str, line: str) -> JSON:
    """The answer object ``line`` gives to ``step``; raises AnswerError with the expected form."""
    words = line.split()
    try:
        answer = _parse(step, [w.lower() for w in words], words)
    except (CardError, ValueError, IndexError):
        answer = None
    if answer is None:
        raise AnswerError(phrase("the answer here is {form}", form=FORMS[step]))
    return answer


def _parse(step: str, words: list[str], raw: list[str]) -> JSON | None:
    if step in SETTLE_BETS:
        return _settle(step, words)
    if step == "payout":
        return _payout(words)
    head, rest = (words[0], words[1:]) if words else ("", [])
    match step, head, rest:
        case "offer_bank", "offer", ["none"]:
            return {"seat": None}
        case "offer_bank", "offer", [seat]:
            return {"seat": _seat(seat)}
        case "fees", "fees", ["none"]:
            return {"fees": {}}
        case "fees", "fees", [_, *_]:
            return {"fees": _fees(rest)}
        case "first_card", "first", [seat]:
            return {"seat": _seat(seat)}
        case "irregularity", "dead", ["hand"]:
            return {"ruling": "dead_hand"}
        case "irregularity", "dead", [seat]:
            return {"ruling": "dead_seat", "seat": _seat(seat)}
        case "irregularity", "play", ["on"]:
            return {"ruling": "play_on"}
        case "walk_away", ("fold" | "wait"), []:
            return {"ruling": head}
        case ("qualify" | "qualify_after"), "q", [("y" | "n") as yes]:
            return {"qualifies": yes == "y"}
        case "bank_after", "bank", [stack]:
            return {"stack": _whole(stack)}
        case "dealer_exchange", "card", [_]:
            return {"card": card_text(parse_card(raw[1]))}
    return None


def _settle(step: str, words: list[str]) -> JSON | None:
    word, place, bets = SETTLE_BETS[step]
    if len(words) < 2 or words[0] != word:
        return None
    number = _seat(words[1])
    if step == "settle_seat" and words[2:] == ["dead"]:
        return {place: number, "dead": True}
    if len(words) != 2 + len(bets):
        return None
    return {place: number, **{name: _signed(text) for name, text in zip(bets, words[2:], strict=True)}}


def _payout(words: list[str]) -> JSON | None:
    """``pay seat 3 flush 150 100 25x2``: the place, the bet, the amount, and the chips if any are given."""
    if len(words) < 5 or words[0] != "pay" or words[1] not in PAY_PLACES or words[3] not in PAY_BETS:
        return None
    answer: JSON = {words[1]: _seat(words[2]), "bet": PAY_BETS[words[3]], "amount": _whole(words[4])}
    if words[5:]:
        chips: dict[int, int] = {}
        for word in words[5:]:
            found = _CHIP.fullmatch(word)
            if found is None or int(found[1]) < 1 or (found[2] is not None and int(found[2]) < 1):
                return None
            chip = int(found[1])
            chips[chip] = chips.get(chip, 0) + int(found[2] or 1)
        answer["chips"] = {str(chip): count for chip, count in sorted(chips.items(), reverse=True)}
    return answer


def _format_payout(a: Mapping[str, Any]) -> str:
    place = next(p for p in PAY_PLACES if p in a)
    words = ["pay", place, str(a[place]), SAY_BET.get(a["bet"], a["bet"]), str(int(a["amount"]))]
    chips = a.get("chips") or {}
    words += [chip if int(count) == 1 else f"{chip}x{count}"
              for chip, count in sorted(chips.items(), key=lambda pair: -int(pair[0])) if int(count)]
    return " ".join(words)


def _seat(text: str) -> int:
    number = _whole(text)
    if number < 1:
        raise ValueError(text)
    return number


def _whole(text: str) -> int:
    if not _WHOLE.fullmatch(text):
        raise ValueError(text)
    return int(text)


def _signed(text: str) -> int:
    if not _SIGNED.fullmatch(text):
        raise ValueError(text)
    return int(text)


def _fees(pairs: list[str]) -> dict[str, int]:
    fees: dict[str, int] = {}
    for pair in pairs:
        seat, sep, fee = pair.partition(":")
        if not sep or str(_seat(seat)) in fees:
            raise ValueError(pair)
        fees[str(_seat(seat))] = _seat(fee)
    return fees


def format_answer(step: str, answer: Mapping[str, Any] | None) -> str:
    """``answer`` in the trainee's words (``-`` for no answer); what :func:`parse_answer` reads back."""
    if answer is None:
        return "-"
    try:
        return _format(step, answer)
    except (KeyError, TypeError, ValueError):
        return str(dict(answer))  # not an answer this grammar can say (a file's answers may be anything)


def _format(step: str, a: Mapping[str, Any]) -> str:
    if step == "payout":
        return _format_payout(a)
    if step in SETTLE_BETS:
        word, place, bets = SETTLE_BETS[step]
        if a.get("dead") is True:
            return f"{word} {a[place]} dead"
        return " ".join([word, str(a[place]), *(_sign(a[name]) for name in bets)])
    simple: dict[str, Any] = {
        "offer_bank": lambda: "offer " + ("none" if a["seat"] is None else str(a["seat"])),
        "fees": lambda: "fees " + (" ".join(f"{s}:{f}" for s, f in sorted(a["fees"].items(), key=_by_seat))
                                   or "none"),
        "first_card": lambda: f"first {a['seat']}",
        "irregularity": lambda: {"dead_hand": "dead hand", "play_on": "play on"}.get(a["ruling"])
        or f"dead {a['seat']}",
        "walk_away": lambda: str(a["ruling"]),
        "qualify": lambda: "q y" if a["qualifies"] else "q n",
        "qualify_after": lambda: "q y" if a["qualifies"] else "q n",
        "bank_after": lambda: f"bank {a['stack']}",
        "dealer_exchange": lambda: f"card {a['card']}",
    }
    text: str = simple[step]()
    return text


def _by_seat(pair: tuple[str, Any]) -> int:
    return int(pair[0])


def _sign(amount: int) -> str:
    return f"+{amount}" if amount > 0 else str(amount)


def help_text(steps: tuple[str, ...]) -> str:
    """The answer forms of ``steps`` (a scenario's), one a line, with ``?`` itself."""
    lines = [f"  {spoken(step_name(step))}: {spoken(FORMS[step])}" for step in steps]
    return "\n".join([_("The answers (type them at the > prompt):"), *lines, "  " + _("? or help: these forms again")])
