"""The drill's feedback in words: what was wrong in an answer, the right answer, and why (issue 23, item 15).

Pure. The server sends these sentences to every client (the terminal and the
browser show them as they are), so they name no internal key: a bet is "the Flush
bonus", never ``flush_bonus``; only the bets answered wrong are named; and every
wrong answer says the rule's point in a sentence, with its section. Each sentence is a
shared phrase (``told``, docs/i18n.md): it reads as its English and carries its message
id, so each client says it in its own language.

>>> from textwrap import fill
>>> from server.rules.drill.steps import KeyStep
>>> fees = KeyStep("fees", {"fees": {"2": 1, "3": 1}}, "RULES 3.3",
...                "this table charges the fee to the players only: the DP (seat 1) pays none")
>>> print(fill(feedback(fees, {"fees": {"1": 1, "2": 1, "3": 1}}), 100))
wrong: seat 1 pays no fee. The right answer: seats 2 and 3 pay 1 chip each, because this table
charges the fee to the players only: the DP (seat 1) pays none (RULES 3.3: the High Card Flush rules, section
3.3, Fee).
>>> seat = KeyStep("settle_seat", {"seat": 4, "ante": 10, "raise": 20, "straight_flush_bonus": 0,
...                                "flush_bonus": -5}, "RULES 3.7")
>>> print(fill(feedback(seat, {"seat": 4, "ante": 10, "raise": 10, "straight_flush_bonus": 0, "flush_bonus": -5}), 100))
wrong: the Raise wins 20 (you said it wins 10); the rest of seat 4 was right. The right answer: seat
4: the Ante wins 10, the Raise wins 20, the Straight Flush bonus pushes or was not bet, the Flush
bonus loses 5, because a DP who does not qualify pays the Ante 1 to 1 and pushes the Raise; a DP who
qualifies is compared with the player: the better hand wins the Ante and the Raise 1 to 1, a tie
pushes both; each bonus is judged against the DP's hand on its own, and a seat the DP's running bank
cannot cover is dead (RULES 3.7: the High Card Flush rules, section 3.7, Settlement).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from server.i18n import joined, told
from server.rules.drill.chips import chip_count, make_up_given, make_up_words
from server.rules.drill.judge import Judgement, judge_step
from server.rules.drill.sections import cite
from server.rules.drill.steps import SETTLE_PLACE, KeyStep

BETS: Final[Mapping[str, str]] = {
    "ante": told("the Ante"), "raise": told("the Raise"), "straight_flush_bonus": told("the Straight Flush bonus"),
    "flush_bonus": told("the Flush bonus"), "bet": told("the Bet"), "jackpot": told("the jackpot wager"),
    "bonus": told("the bonus"),
}
"""Each bet of a settlement answer, as a person names it."""

PLACES: Final = tuple(SETTLE_PLACE.values())

PLACE_NAMES: Final[Mapping[str, Callable[[object], str]]] = {
    "seat": lambda n: told("seat {n}", n=n), "spot": lambda n: told("spot {n}", n=n),
    "box": lambda n: told("box {n}", n=n),
}
"""Each place of a settlement (``seat 4``), said with its number."""

OWNED: Final[Mapping[tuple[str, str], Callable[[object], str]]] = {
    ("seat", "ante"): lambda n: told("seat {n}'s Ante", n=n),
    ("seat", "raise"): lambda n: told("seat {n}'s Raise", n=n),
    ("seat", "straight_flush_bonus"): lambda n: told("seat {n}'s Straight Flush bonus", n=n),
    ("seat", "flush_bonus"): lambda n: told("seat {n}'s Flush bonus", n=n),
    ("spot", "ante"): lambda n: told("spot {n}'s Ante", n=n),
    ("spot", "bet"): lambda n: told("spot {n}'s Bet", n=n),
    ("spot", "jackpot"): lambda n: told("spot {n}'s jackpot wager", n=n),
    ("box", "ante"): lambda n: told("box {n}'s Ante", n=n),
    ("box", "bet"): lambda n: told("box {n}'s Bet", n=n),
    ("box", "bonus"): lambda n: told("box {n}'s bonus", n=n),
}
"""A bet of a place (``seat 4's Raise``): each bet a game's places have."""

WHY: Final[Mapping[str, str]] = {
    "offer_bank": told("the bank goes clockwise from the button to the next seat that can bank (seated, present, "
                       "not sitting out, willing to bank, with the table's smallest bank), and no seat is asked "
                       "twice in one hand"),
    "fees": told("as betting closes, the fee is taken from each payer the table's fee mode names"),
    "first_card": told("the cards go out clockwise, starting with the first seat with an Ante to the left of the "
                       "button; the DP takes the last card of each round"),
    "irregularity": told("a seat dealt the wrong number of cards is dead; a wrong count in the dealer's hand, or a "
                         "shuffler that fails, makes the whole hand dead; when nothing is wrong the hand plays on"),
    "walk_away": told("a player who has left the table folds when their turn comes: the table does not wait for "
                      "them"),
    "qualify@hcf": told("the DP's hand qualifies with a flush of 4 or more cards, or of 3 cards with a 9 or higher "
                        "on top"),
    "settle_seat": told("a DP who does not qualify pays the Ante 1 to 1 and pushes the Raise; a DP who qualifies "
                        "is compared with the player: the better hand wins the Ante and the Raise 1 to 1, a tie "
                        "pushes both; each bonus is judged against the DP's hand on its own, and a seat the DP's "
                        "running bank cannot cover is dead"),
    "bank_after": told("the DP's stack after the hand is the stack it began with, less the DP's own fee, plus the "
                       "bets of each fold and of each seat that lost, less what each winning seat was paid"),
    "qualify@caribbean": told("the dealer qualifies with ace-king or better: any pair or better, or an ace and a "
                              "king"),
    "settle_spot": told("a dealer who does not qualify pays the Ante 1 to 1 and pushes the Bet; a dealer who "
                        "qualifies is compared with the hand: higher wins the Ante 1 to 1 and the Bet by the pay "
                        "table, equal pushes both, lower loses both; the jackpot wager is settled on the hand's own "
                        "five cards, folded or not"),
    "payout": told("each winning bet is paid what the settlement pays it: the Ante and the Raise or Bet 1 to 1 (or "
                   "by the Bet's pay table), a bonus by the table's pay table for the hand, never past the table's "
                   "ceiling; the dealer pays in the fewest chips the rack allows"),
    "qualify@sixcard": told("the dealer qualifies with a pair of twos or better"),
    "dealer_exchange": told("when a box asks for the exchange, the dealer's highest card (the ace counts high) is "
                            "replaced, once for the whole table"),
    "qualify_after": told("the dealer's new hand qualifies with a pair of twos or better"),
    "settle_box": told("against a qualifying dealer a higher box wins the Ante 1 to 1 and the Bet by the pay "
                       "table, equal pushes, lower loses both; without an exchange a dealer who does not qualify "
                       "pays the Ante and pushes the Bet; the bonus pays on the box's first five cards alone"),
}
"""Each step's rule in a sentence (``step@game`` where the games differ)."""

STEP_NAMES: Final[Mapping[str, str]] = {
    "offer_bank": told("the bank offer"), "fees": told("the fees"), "first_card": told("the first card"),
    "irregularity": told("the irregularity"), "walk_away": told("the walk-away"), "qualify": told("the qualifier"),
    "settle_seat": told("a seat's settlement"), "bank_after": told("the DP's stack after"),
    "settle_spot": told("a spot's settlement"), "settle_box": told("a box's settlement"),
    "dealer_exchange": told("the dealer exchange"), "qualify_after": told("the qualifier after the exchange"),
    "payout": told("a payout"),
}
"""Each step kind as a person names it (the kinds themselves are the protocol's and the scenario files')."""

MISTAKE_NAMES: Final[Mapping[str, str]] = {
    "order": told("the wrong place"), "amount": told("a wrong amount"),
    "chips": told("not the fewest chips in play"), "no answer": told("no answer"), "wrong": told("wrong"),
}
"""Each kind of mistake as the report says it."""

GAME_OF_RULE: Final = (("RULES-caribbean", "caribbean"), ("RULES-sixcard", "sixcard"))


def feedback(step: KeyStep, given: Any) -> str:
    """Training mode's sentence after an answer: ``right.``, or what was wrong, the right answer and why."""
    verdict = judge_step(step, given)
    if verdict.right:
        return told("right.")
    if given is None:
        head: str = told("no answer")
    elif step.step == "payout":
        head = _payout_mistake(step, given, verdict)
    elif verdict.mistake == "order":
        head = _order(step, given)
    elif verdict.mistake == "amount":
        head = _amounts(step, given, verdict.wrong_bets)
    else:
        head = _difference(step, given)
    return told("{head}. The right answer: {answer}, because {why} ({rule}: {cite}).", head=head,
                answer=answer_words(step.step, step.answer), why=why(step), rule=step.rule, cite=cite(step.rule))


def step_name(step: str) -> str:
    """A step kind in words (an unknown one still said, without its underscores)."""
    return STEP_NAMES.get(step) or step.replace("_", " ")


def why(step: KeyStep) -> str:
    """The reason of a step's right answer: the key's own (this hand's facts) or the rule's sentence."""
    if step.why:
        return step.why
    game = next((g for prefix, g in GAME_OF_RULE if step.rule.startswith(prefix)), "hcf")
    return WHY.get(f"{step.step}@{game}") or WHY.get(step.step) or told("that is what the rule says")


def answer_words(step: str, answer: Mapping[str, Any] | None) -> str:
    """An answer said in words (what the trainee answered, or the right answer)."""
    if answer is None:
        return told("no answer")
    try:
        return _words(step, answer)
    except (KeyError, TypeError, ValueError, AttributeError):
        return told("an answer this step does not take")


def _place(place: str, n: object) -> str:
    return PLACE_NAMES[place](n) if place in PLACE_NAMES else f"{place} {n}"


def _owned(place: str, n: object, bet: str) -> str:
    """A place's bet: ``seat 4's Raise`` (a bet the place does not have: ``seat 4: the Bet``)."""
    said = OWNED.get((place, bet))
    return said(n) if said is not None else told("{place}: {bet}", place=_place(place, n),
                                                     bet=BETS.get(bet, told("a bet")))


def _words(step: str, a: Mapping[str, Any]) -> str:
    if step == "payout":
        return _payout_words(a)
    if step in SETTLE_PLACE:
        place = SETTLE_PLACE[step]
        if a.get("dead") is True:
            return told("{place}'s hand is dead: the DP's bank cannot cover it", place=_place(place, a[place]))
        results = joined([_result(bet, a[bet]) for bet in a if bet != place])
        return told("{place}: {results}", place=_place(place, a[place]), results=results)
    return _simple_words(step, a)


def _simple_words(step: str, a: Mapping[str, Any]) -> str:
    if step == "offer_bank":
        return told("nobody may be offered the bank") if a["seat"] is None \
            else told("the bank is offered to seat {seat}", seat=a["seat"])
    if step == "fees":
        return _fees(sorted(a["fees"].items(), key=lambda pair: int(pair[0])))
    if step == "first_card":
        return told("seat {seat} gets the first card", seat=a["seat"])
    if step == "irregularity":
        rulings = {"dead_hand": told("the whole hand is dead"), "play_on": told("the hand plays on")}
        return rulings.get(a["ruling"]) or told("seat {seat}'s hand is dead", seat=a["seat"])
    if step == "walk_away":
        return {"fold": told("the player's hand is folded"), "wait": told("the table waits for the player")}[
            a["ruling"]]
    if step in ("qualify", "qualify_after"):
        return told("the dealer's hand qualifies") if a["qualifies"] is True \
            else told("the dealer's hand does not qualify")
    if step == "bank_after":
        return told("the DP's stack is {chips}", chips=_chips(int(a["stack"])))
    if step == "dealer_exchange":
        return told("the dealer's {card} is replaced", card=a["card"])
    raise KeyError(step)


def _payout_words(a: Mapping[str, Any]) -> str:
    place = next(k for k in PLACES if k in a)
    paid = told("{bet} is paid {chips}", bet=_owned(place, a[place], a["bet"]), chips=_chips(int(a["amount"])))
    if a.get("chips") is None:
        return paid
    make_up = make_up_given(a["chips"])
    if make_up is None:
        raise ValueError(a["chips"])
    return told("{paid}, in {chips}", paid=paid, chips=make_up_words(make_up))


def _payout_mistake(step: KeyStep, given: Any, verdict: Judgement) -> str:
    right, mistake = step.answer, verdict.mistake
    place = next(k for k in PLACES if k in right)
    bet = _owned(place, right[place], right["bet"])
    if not isinstance(given, Mapping) or mistake == "wrong":
        return told("wrong: that is no payout")
    if mistake == "order":
        return told("wrong: the next payout is {bet}, not {other} (the dealer pays in settlement order, each "
                    "place's bets in turn)", bet=bet, other=_said_bet(given, place))
    if mistake == "amount":
        return _payout_amount(right, given, bet)
    if verdict.not_in_play:
        return _not_in_play(verdict.not_in_play, step.in_play, bet)
    fewest = make_up_given(right["chips"]) or {}
    given_chips = make_up_given(given.get("chips")) if given.get("chips") is not None else None
    if given_chips is None:
        return told("wrong: the amount is right, but the chips were not said: {bet} is paid in {chips}", bet=bet,
                    chips=make_up_words(fewest))
    return told("wrong: the amount is right, but it takes {count} chips, {chips}, not {given_count} ({given}): a "
                "payout goes out in the fewest chips", count=chip_count(fewest), chips=make_up_words(fewest),
                given_count=chip_count(given_chips), given=make_up_words(given_chips))


def _payout_amount(right: Mapping[str, Any], given: Mapping[str, Any], bet: str) -> str:
    said = given.get("amount")
    chips = make_up_given(given.get("chips")) if given.get("chips") is not None else None
    if isinstance(said, int) and said != right["amount"]:
        return told("wrong: {bet} is paid {chips}, not {said}", bet=bet, chips=_chips(int(right["amount"])),
                    said=said)
    total = sum(c * n for c, n in (chips or {}).items())
    return told("wrong: the chips you gave make {chips}, not the {amount} that {bet} is paid", chips=_chips(total),
                amount=right["amount"], bet=bet)


def _listed(numbers: tuple[int, ...]) -> str:
    """``100, 25 and 5``."""
    if len(numbers) == 1:
        return str(numbers[0])
    return told("{items} and {last}", items=", ".join(map(str, numbers[:-1])), last=numbers[-1])


def _not_in_play(stray: tuple[int, ...], in_play: tuple[int, ...], bet: str) -> str:
    """A make-up with chips the table does not have, said with the chips it does."""
    return told("wrong: the amount is right, but this table has no chip of {named}: {bet} is paid in the chips in "
                "play, {chips}", named=_listed(stray), bet=bet, chips=_listed(in_play))


def _said_bet(given: Mapping[str, Any], place: str) -> str:
    bet = given.get("bet")
    if not isinstance(bet, str) or bet not in BETS:
        return told("that")
    return _owned(place, given.get(place), bet)


def _fees(fees: list[tuple[str, Any]]) -> str:
    """Who pays which fee: ``seats 2, 3 and 4 pay 1 chip each`` when they all pay the same."""
    if not fees:
        return told("nobody pays a fee")
    amounts = {int(f) for _, f in fees}
    if len(fees) > 1 and len(amounts) == 1:
        seats = [s for s, _ in fees]
        return told("seats {seats} and {last} pay {chips} each", seats=", ".join(seats[:-1]), last=seats[-1],
                    chips=_chips(amounts.pop()))
    return joined([told("seat {seat} pays {chips}", seat=s, chips=_chips(int(f))) for s, f in fees])


def _result(bet: str, amount: Any) -> str:
    return told("{bet} {outcome}", bet=BETS.get(bet, told("a bet")), outcome=_outcome(amount))


def _outcome(amount: Any) -> str:
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise TypeError(amount)
    if amount > 0:
        return told("wins {amount}", amount=amount)
    if amount < 0:
        return told("loses {amount}", amount=-amount)
    return told("pushes or was not bet")


def _chips(n: int) -> str:
    return told("{n} chip", n=n) if n == 1 else told("{n} chips", n=n)


def _order(step: KeyStep, given: Mapping[str, Any]) -> str:
    place = SETTLE_PLACE[step.step]
    return told("wrong: {place} is settled next, not {other} (settlement goes in a fixed order)",
                place=_place(place, step.answer[place]), other=_place(place, given.get(place)))


def _amounts(step: KeyStep, given: Mapping[str, Any], wrong: tuple[str, ...]) -> str:
    place = SETTLE_PLACE[step.step]
    where = _place(place, step.answer[place])
    if step.answer.get("dead") is True:
        return told("wrong: you settled the bets of {place}, but its hand is dead", place=where)
    if given.get("dead") is True:
        return told("wrong: the hand of {place} is not dead: the DP's bank covers it", place=where)
    parts = []
    for bet in [b for b in step.answer if b in wrong] + [b for b in wrong if b not in step.answer]:
        right, said = step.answer.get(bet), given.get(bet)
        try:
            parts.append(told("{result} (you said it {said})", result=_result(bet, right), said=_outcome(said))
                         if isinstance(said, int) else told("{result} (you left it out)", result=_result(bet, right)))
        except TypeError:
            parts.append(told("{bet} is not part of this answer", bet=BETS.get(bet, told("a bet"))))
    if len(wrong) < len(step.answer) - 1:
        return told("wrong: {parts}; the rest of {place} was right", parts=joined(parts, "; "), place=where)
    return told("wrong: {parts}", parts=joined(parts, "; "))


def _difference(step: KeyStep, given: Mapping[str, Any]) -> str:
    if step.step == "fees" and isinstance(given.get("fees"), Mapping):
        said = {str(k): v for k, v in given["fees"].items()}
        right = step.answer["fees"]
        parts = [told("seat {seat} pays no fee", seat=s) for s in sorted(said, key=_seat) if s not in right]
        parts += [told("seat {seat} pays {chips} too", seat=s, chips=_chips(int(right[s])))
                  for s in sorted(right, key=_seat) if s not in said]
        parts += [told("seat {seat} pays {chips}, not {said}", seat=s, chips=_chips(int(right[s])), said=said[s])
                  for s in sorted(right, key=_seat) if s in said and said[s] != right[s]]
        if parts:
            return told("wrong: {parts}", parts=joined(parts, "; "))
    return told("wrong: you said {answer}", answer=answer_words(step.step, given))


def _seat(text: str) -> int:
    return int(text) if text.isdigit() else 0
