"""The drill's feedback in words: what was wrong in an answer, the right answer, and why (issue 23, item 15).

Pure. The server sends these sentences to every client (the terminal and the
browser show them as they are), so they name no internal key: a bet is "the Flush
bonus", never ``flush_bonus``; only the bets answered wrong are named; and every
wrong answer says the rule's point in a sentence, with its section.

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

from collections.abc import Mapping
from typing import Any, Final

from server.rules.drill.chips import chip_count, make_up_given, make_up_words
from server.rules.drill.judge import Judgement, judge_step
from server.rules.drill.sections import cite
from server.rules.drill.steps import SETTLE_PLACE, KeyStep

BETS: Final[Mapping[str, str]] = {
    "ante": "the Ante", "raise": "the Raise", "straight_flush_bonus": "the Straight Flush bonus",
    "flush_bonus": "the Flush bonus", "bet": "the Bet", "jackpot": "the jackpot wager", "bonus": "the bonus",
}
"""Each bet of a settlement answer, as a person names it."""

PLACES: Final = tuple(SETTLE_PLACE.values())

WHY: Final[Mapping[str, str]] = {
    "offer_bank": "the bank goes clockwise from the button to the next seat that can bank (seated, present, "
                  "not sitting out, willing to bank, with the table's smallest bank), and no seat is asked twice "
                  "in one hand",
    "fees": "as betting closes, the fee is taken from each payer the table's fee mode names",
    "first_card": "the cards go out clockwise, starting with the first seat with an Ante to the left of the "
                  "button; the DP takes the last card of each round",
    "irregularity": "a seat dealt the wrong number of cards is dead; a wrong count in the dealer's hand, or a "
                    "shuffler that fails, makes the whole hand dead; when nothing is wrong the hand plays on",
    "walk_away": "a player who has left the table folds when their turn comes: the table does not wait for them",
    "qualify@hcf": "the DP's hand qualifies with a flush of 4 or more cards, or of 3 cards with a 9 or higher "
                   "on top",
    "settle_seat": "a DP who does not qualify pays the Ante 1 to 1 and pushes the Raise; a DP who qualifies is "
                   "compared with the player: the better hand wins the Ante and the Raise 1 to 1, a tie pushes "
                   "both; each bonus is judged against the DP's hand on its own, and a seat the DP's running "
                   "bank cannot cover is dead",
    "bank_after": "the DP's stack after the hand is the stack it began with, less the DP's own fee, plus the bets "
                  "of each fold and of each seat that lost, less what each winning seat was paid",
    "qualify@caribbean": "the dealer qualifies with ace-king or better: any pair or better, or an ace and a king",
    "settle_spot": "a dealer who does not qualify pays the Ante 1 to 1 and pushes the Bet; a dealer who qualifies "
                   "is compared with the hand: higher wins the Ante 1 to 1 and the Bet by the pay table, equal "
                   "pushes both, lower loses both; the jackpot wager is settled on the hand's own five cards, "
                   "folded or not",
    "payout": "each winning bet is paid what the settlement pays it: the Ante and the Raise or Bet 1 to 1 (or by "
              "the Bet's pay table), a bonus by the table's pay table for the hand, never past the table's "
              "ceiling; the dealer pays in the fewest chips the rack allows",
    "qualify@sixcard": "the dealer qualifies with a pair of twos or better",
    "dealer_exchange": "when a box asks for the exchange, the dealer's highest card (the ace counts high) is "
                       "replaced, once for the whole table",
    "qualify_after": "the dealer's new hand qualifies with a pair of twos or better",
    "settle_box": "against a qualifying dealer a higher box wins the Ante 1 to 1 and the Bet by the pay table, "
                  "equal pushes, lower loses both; without an exchange a dealer who does not qualify pays the "
                  "Ante and pushes the Bet; the bonus pays on the box's first five cards alone",
}
"""Each step's rule in a sentence (``step@game`` where the games differ)."""

STEP_NAMES: Final[Mapping[str, str]] = {
    "offer_bank": "the bank offer", "fees": "the fees", "first_card": "the first card",
    "irregularity": "the irregularity", "walk_away": "the walk-away", "qualify": "the qualifier",
    "settle_seat": "a seat's settlement", "bank_after": "the DP's stack after", "settle_spot": "a spot's settlement",
    "settle_box": "a box's settlement", "dealer_exchange": "the dealer exchange",
    "qualify_after": "the qualifier after the exchange", "payout": "a payout",
}
"""Each step kind as a person names it (the kinds themselves are the protocol's and the scenario files')."""

MISTAKE_NAMES: Final[Mapping[str, str]] = {
    "order": "the wrong place", "amount": "a wrong amount", "chips": "not the fewest chips in play",
    "no answer": "no answer", "wrong": "wrong",
}
"""Each kind of mistake as the report says it."""

GAME_OF_RULE: Final = (("RULES-caribbean", "caribbean"), ("RULES-sixcard", "sixcard"))


def feedback(step: KeyStep, given: Any) -> str:
    """Training mode's sentence after an answer: ``right.``, or what was wrong, the right answer and why."""
    verdict = judge_step(step, given)
    if verdict.right:
        return "right."
    if given is None:
        head = "no answer"
    elif step.step == "payout":
        head = _payout_mistake(step, given, verdict)
    elif verdict.mistake == "order":
        head = _order(step, given)
    elif verdict.mistake == "amount":
        head = _amounts(step, given, verdict.wrong_bets)
    else:
        head = _difference(step, given)
    return (f"{head}. The right answer: {answer_words(step.step, step.answer)}, because {why(step)} "
            f"({step.rule}: {cite(step.rule)}).")


def step_name(step: str) -> str:
    """A step kind in words (an unknown one still said, without its underscores)."""
    return STEP_NAMES.get(step) or step.replace("_", " ")


def why(step: KeyStep) -> str:
    """The reason of a step's right answer: the key's own (this hand's facts) or the rule's sentence."""
    if step.why:
        return step.why
    game = next((g for prefix, g in GAME_OF_RULE if step.rule.startswith(prefix)), "hcf")
    return WHY.get(f"{step.step}@{game}") or WHY.get(step.step) or "that is what the rule says"


def answer_words(step: str, answer: Mapping[str, Any] | None) -> str:
    """An answer said in words (what the trainee answered, or the right answer)."""
    if answer is None:
        return "no answer"
    try:
        return _words(step, answer)
    except (KeyError, TypeError, ValueError, AttributeError):
        return "an answer this step does not take"


def _words(step: str, a: Mapping[str, Any]) -> str:
    if step == "payout":
        return _payout_words(a)
    if step in SETTLE_PLACE:
        place = SETTLE_PLACE[step]
        if a.get("dead") is True:
            return f"{place} {a[place]}'s hand is dead: the DP's bank cannot cover it"
        results = ", ".join(_result(bet, a[bet]) for bet in a if bet != place)
        return f"{place} {a[place]}: {results}"
    if step == "offer_bank":
        return "nobody may be offered the bank" if a["seat"] is None else f"the bank is offered to seat {a['seat']}"
    if step == "fees":
        return _fees(sorted(a["fees"].items(), key=lambda pair: int(pair[0])))
    if step == "first_card":
        return f"seat {a['seat']} gets the first card"
    if step == "irregularity":
        rulings = {"dead_hand": "the whole hand is dead", "play_on": "the hand plays on"}
        return rulings.get(a["ruling"]) or f"seat {a['seat']}'s hand is dead"
    if step == "walk_away":
        return {"fold": "the player's hand is folded", "wait": "the table waits for the player"}[a["ruling"]]
    if step in ("qualify", "qualify_after"):
        return "the dealer's hand qualifies" if a["qualifies"] is True else "the dealer's hand does not qualify"
    if step == "bank_after":
        return f"the DP's stack is {_chips(int(a['stack']))}"
    if step == "dealer_exchange":
        return f"the dealer's {a['card']} is replaced"
    raise KeyError(step)


def _payout_words(a: Mapping[str, Any]) -> str:
    place = next(k for k in PLACES if k in a)
    paid = f"{place} {a[place]}'s {BETS[a['bet']].removeprefix('the ')} is paid {_chips(int(a['amount']))}"
    if a.get("chips") is None:
        return paid
    make_up = make_up_given(a["chips"])
    if make_up is None:
        raise ValueError(a["chips"])
    return f"{paid}, in {make_up_words(make_up)}"


def _payout_mistake(step: KeyStep, given: Any, verdict: Judgement) -> str:
    right, mistake = step.answer, verdict.mistake
    place = next(k for k in PLACES if k in right)
    bet = f"{place} {right[place]}'s {BETS[right['bet']].removeprefix('the ')}"
    if not isinstance(given, Mapping) or mistake == "wrong":
        return "wrong: that is no payout"
    if mistake == "order":
        return (f"wrong: the next payout is {bet}, not {_said_bet(given, place)} (the dealer pays in settlement "
                "order, each place's bets in turn)")
    if mistake == "amount":
        said = given.get("amount")
        chips = make_up_given(given.get("chips")) if given.get("chips") is not None else None
        if isinstance(said, int) and said != right["amount"]:
            return f"wrong: {bet} is paid {_chips(int(right['amount']))}, not {said}"
        total = sum(c * n for c, n in (chips or {}).items())
        return f"wrong: the chips you gave make {_chips(total)}, not the {right['amount']} that {bet} is paid"
    if verdict.not_in_play:
        return _not_in_play(verdict.not_in_play, step.in_play, bet)
    fewest = make_up_given(right["chips"]) or {}
    given_chips = make_up_given(given.get("chips")) if given.get("chips") is not None else None
    if given_chips is None:
        return f"wrong: the amount is right, but the chips were not said: {bet} is paid in {make_up_words(fewest)}"
    return (f"wrong: the amount is right, but it takes {chip_count(fewest)} chips, {make_up_words(fewest)}, not "
            f"{chip_count(given_chips)} ({make_up_words(given_chips)}): a payout goes out in the fewest chips")


def _not_in_play(stray: tuple[int, ...], in_play: tuple[int, ...], bet: str) -> str:
    """A make-up with chips the table does not have, said with the chips it does."""
    chips = " and ".join(", ".join(map(str, c)) for c in (in_play[:-1], in_play[-1:]) if c)
    named = " and ".join(", ".join(map(str, c)) for c in (stray[:-1], stray[-1:]) if c)
    return (f"wrong: the amount is right, but this table has no chip of {named}: {bet} is paid in the chips in "
            f"play, {chips}")


def _said_bet(given: Mapping[str, Any], place: str) -> str:
    bet = given.get("bet")
    if not isinstance(bet, str) or bet not in BETS:
        return "that"
    return f"{place} {given.get(place)}'s {BETS[bet].removeprefix('the ')}"


def _fees(fees: list[tuple[str, Any]]) -> str:
    """Who pays which fee: ``seats 2, 3 and 4 pay 1 chip each`` when they all pay the same."""
    if not fees:
        return "nobody pays a fee"
    amounts = {int(f) for _, f in fees}
    if len(fees) > 1 and len(amounts) == 1:
        seats = [s for s, _ in fees]
        return f"seats {', '.join(seats[:-1])} and {seats[-1]} pay {_chips(amounts.pop())} each"
    return ", ".join(f"seat {s} pays {_chips(int(f))}" for s, f in fees)


def _result(bet: str, amount: Any) -> str:
    return f"{BETS.get(bet, 'a bet')} {_outcome(amount)}"


def _outcome(amount: Any) -> str:
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise TypeError(amount)
    if amount > 0:
        return f"wins {amount}"
    if amount < 0:
        return f"loses {-amount}"
    return "pushes or was not bet"


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def _order(step: KeyStep, given: Mapping[str, Any]) -> str:
    place = SETTLE_PLACE[step.step]
    return (f"wrong: {place} {step.answer[place]} is settled next, not {place} {given.get(place)} "
            "(settlement goes in a fixed order)")


def _amounts(step: KeyStep, given: Mapping[str, Any], wrong: tuple[str, ...]) -> str:
    place = SETTLE_PLACE[step.step]
    if step.answer.get("dead") is True:
        return f"wrong: you settled the bets of {place} {step.answer[place]}, but its hand is dead"
    if given.get("dead") is True:
        return f"wrong: the hand of {place} {step.answer[place]} is not dead: the DP's bank covers it"
    parts = []
    for bet in [b for b in step.answer if b in wrong] + [b for b in wrong if b not in step.answer]:
        right, said = step.answer.get(bet), given.get(bet)
        try:
            parts.append(f"{_result(bet, right)} (you said it {_outcome(said)})" if isinstance(said, int)
                         else f"{_result(bet, right)} (you left it out)")
        except TypeError:
            parts.append(f"{BETS.get(bet, 'a bet')} is not part of this answer")
    rest = f"; the rest of {place} {step.answer[place]} was right" if len(wrong) < len(step.answer) - 1 else ""
    return "wrong: " + "; ".join(parts) + rest


def _difference(step: KeyStep, given: Mapping[str, Any]) -> str:
    if step.step == "fees" and isinstance(given.get("fees"), Mapping):
        said = {str(k): v for k, v in given["fees"].items()}
        right = step.answer["fees"]
        parts = [f"seat {s} pays no fee" for s in sorted(said, key=_seat) if s not in right]
        parts += [f"seat {s} pays {_chips(int(right[s]))} too" for s in sorted(right, key=_seat) if s not in said]
        parts += [f"seat {s} pays {_chips(int(right[s]))}, not {said[s]}" for s in sorted(right, key=_seat)
                  if s in said and said[s] != right[s]]
        if parts:
            return "wrong: " + "; ".join(parts)
    return f"wrong: you said {answer_words(step.step, given)}"


def _seat(text: str) -> int:
    return int(text) if text.isdigit() else 0
