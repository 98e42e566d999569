"""The step kinds of each game, in the order they come in a hand, with the rule each one rehearses.

>>> STEP_KINDS["hcf"][:3]
('offer_bank', 'fees', 'first_card')
>>> rule_of("caribbean", "settle_spot")
'RULES-caribbean 3.5, 4'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from server.i18n import told
from server.rules.vocabulary import JSON as JSON  # re-exported for the drill modules

RULES: Final[Mapping[str, Mapping[str, str]]] = {
    "hcf": {
        "offer_bank": "RULES 3.1", "fees": "RULES 3.3", "first_card": "RULES 3.4", "irregularity": "RULES 5",
        "walk_away": "RULES 3.5", "qualify": "RULES 3.6", "settle_seat": "RULES 3.7", "payout": "RULES 3.7",
        "bank_after": "RULES 3.7",
    },
    "caribbean": {
        "irregularity": "RULES 5", "qualify": "RULES-caribbean 1", "settle_spot": "RULES-caribbean 3.5, 4",
        "payout": "RULES-caribbean 3.5, 4",
    },
    "sixcard": {
        "irregularity": "RULES 5", "qualify": "RULES-sixcard 4.5", "dealer_exchange": "RULES-sixcard 5.3",
        "qualify_after": "RULES-sixcard 5.4", "settle_box": "RULES-sixcard 6", "payout": "RULES-sixcard 6",
    },
}
"""Each game's steps (DRILLS sections 3 and 4), in hand order, and the rule clause of each."""

QUESTIONS: Final[Mapping[str, str]] = {
    "offer_bank": told("Who is offered the bank?"),
    "fees": told("Who pays a fee, and how much?"),
    "first_card": told("Which seat gets the first card?"),
    "irregularity": told("Your ruling?"),
    "walk_away": told("This player has left the table and it is their turn: your ruling?"),
    "qualify": told("Does the dealer's hand qualify?"),
    "settle_seat": told("Which seat is settled next, and what does each of its bets win or lose?"),
    "bank_after": told("What is the DP's stack now?"),
    "payout": told("Which bet is paid next, how much, and in which chips?"),
    "settle_spot": told("Which spot is settled next, and what do its Ante, Bet and jackpot wager win or lose?"),
    "dealer_exchange": told("Which dealer card is replaced?"),
    "qualify_after": told("Does the dealer's new hand qualify?"),
    "settle_box": told("Which box is settled next, and what do its Ante, Bet and bonus win or lose?"),
}
"""What the trainee is asked at each step, in a client's words."""

STEP_KINDS: Final[Mapping[str, tuple[str, ...]]] = {game: tuple(steps) for game, steps in RULES.items()}
"""Each game's step kinds in the order a hand asks them."""

CALIFORNIA_ONLY: Final = frozenset({"offer_bank", "bank_after"})
"""High Card Flush steps the house-banked (standard) profile never asks: there is no DP."""

PAID_WITH_CHIPS: Final = frozenset({"payout"})
"""Steps a table asks by default only when it sets the chips in play (``chips``); named in ``steps``, always."""

SETTLE_PLACE: Final[Mapping[str, str]] = {"settle_seat": "seat", "settle_spot": "spot", "settle_box": "box"}
"""The settlement steps, and the key of their answer that names the place (judged apart from the amounts)."""


@dataclass(frozen=True, slots=True)
class KeyStep:
    """One step of a hand's answer key: its kind, the right answer (a JSON object) and its rule; ``why``: this
    hand's reason for the answer in a sentence, where the key reader knows one (else the rule's own sentence);
    ``in_play``: a payout's chips in play, smallest first (a make-up of any other chip is wrong)."""

    step: str
    answer: JSON
    rule: str
    why: str = ""
    in_play: tuple[int, ...] = ()


def rule_of(game: str, step: str) -> str:
    """The rule clause a step of ``game`` rehearses."""
    return RULES[game][step]


def key_step(game: str, step: str, answer: JSON, why: str = "", in_play: tuple[int, ...] = ()) -> KeyStep:
    """A step of ``game`` with its rule filled in (and this hand's reason, and a payout's chips in play, if given)."""
    return KeyStep(step, answer, rule_of(game, step), why, in_play)


def table_steps(game: str, house_banked: bool, chips: bool = True) -> tuple[str, ...]:
    """Every step a table of ``game`` can ask (the house-banked High Card Flush has no DP's steps); without
    ``chips`` in play, not the payouts (a drill names them in its ``steps`` to ask the amounts alone)."""
    return tuple(k for k in STEP_KINDS[game] if not (game == "hcf" and house_banked and k in CALIFORNIA_ONLY)
                 and (chips or k not in PAID_WITH_CHIPS))


def steps_asked(value: object, game: str, house_banked: bool, chips: bool = False) -> tuple[str, ...]:
    """A drill's ``steps`` list checked (None: every step, the payouts only with ``chips`` in play); raises
    ValueError with a sentence naming the steps.

    >>> steps_asked(["fees", "qualify"], "hcf", False)
    ('fees', 'qualify')
    >>> steps_asked(["offer_bank"], "caribbean", True)
    Traceback (most recent call last):
    ...
    ValueError: steps: no step 'offer_bank' at this table (the steps: irregularity, qualify, settle_spot, payout)
    >>> steps_asked(None, "sixcard", True, chips=True)[-2:]
    ('settle_box', 'payout')
    """
    kinds = table_steps(game, house_banked)
    if value is None:
        return table_steps(game, house_banked, chips)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError("steps is a list of step names")
    for step in value:
        if step not in kinds:
            raise ValueError(f"steps: no step {step!r} at this table (the steps: {', '.join(kinds)})")
    return tuple(value)
