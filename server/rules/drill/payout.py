"""The payout steps (DRILLS section 3): at settlement the dealer pays each winning bet, in the fewest chips.

One ``payout`` step for each bet the settlement pays, right after its place's
settlement step (in settlement order): ``{"seat": 3, "bet": "flush_bonus",
"amount": 150}``, and with chips in play the fewest chips that make it,
``"chips": {"100": 1, "25": 2}``. The amount is the settlement's own (so the
table's pay tables and ceilings), never a second reckoning: the win on the bet,
the stake aside; Caribbean Stud's jackpot award is paid whole (its wager is
settled apart). A wrong amount is the mistake ``amount``; the right amount in
more chips than the fewest is ``chips``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from server.rules.drill.chips import fewest_chips, make_up_json
from server.rules.drill.steps import SETTLE_PLACE, KeyStep, key_step

PLACE_KEY: Final[Mapping[str, str]] = {"hcf": "seat", "caribbean": "spot", "sixcard": "box"}
"""The key of a payout answer that names the place, as the game's settlement step names it."""

BETS: Final[Mapping[str, tuple[tuple[str, str], ...]]] = {
    "hcf": (("ante", "ante"), ("raise", "raise_amount"), ("straight_flush_bonus", "straight_flush_bonus"),
            ("flush_bonus", "flush_bonus")),
    "caribbean": (("ante", "ante"), ("bet", "bet"), ("jackpot", "jackpot_award")),
    "sixcard": (("ante", "ante"), ("bet", "bet"), ("bonus", "bonus")),
}
"""Each game's bets in the order they are paid: the answer's name and the settlement result's field."""


def results(game: str, settlement: Any) -> list[Any]:
    """The places of a settlement in the order the dealer settles them."""
    if game == "hcf":
        return list(settlement.seats)
    if game == "caribbean":
        return list(settlement.spots)
    return sorted(settlement.boxes, key=lambda r: r.box)


def place_of(game: str, result: Any) -> int:
    """The seat, spot or box a settlement result is of."""
    return int(getattr(result, PLACE_KEY[game]))


def paid(game: str, result: Any) -> list[tuple[str, int]]:
    """The bets the settlement pays at one place, with the amounts paid (a dead place is paid nothing)."""
    if result.dead:
        return []
    return [(name, amount) for name, field in BETS[game] if (amount := getattr(result, field)) > 0]


def payout_answer(game: str, place: int, bet: str, amount: int, chips: Sequence[int]) -> dict[str, Any]:
    """A payout's right answer: the place, the bet, the amount, and the fewest chips when chips are in play."""
    answer: dict[str, Any] = {PLACE_KEY[game]: place, "bet": bet, "amount": amount}
    make_up = fewest_chips(amount, chips) if chips else None
    if make_up is not None:
        answer["chips"] = make_up_json(make_up)
    return answer


def with_payouts(game: str, steps: Iterable[KeyStep], settlement: Any, chips: Sequence[int],
                 why: Callable[[Any, str, int], str] | None = None) -> list[KeyStep]:
    """The settlement's steps with a ``payout`` after each place's settlement step, for each bet it pays.

    A place paid without a settlement step of its own (a bonus on a folded hand, a folded spot's jackpot
    award) is paid in its settlement order all the same. ``why(result, bet, amount)`` gives each
    payout's reason (None: the rule's own).
    """
    steps, in_play = list(steps), tuple(sorted(set(chips)))
    settled = {s.answer[SETTLE_PLACE[s.step]]: s for s in steps if s.step in SETTLE_PLACE}
    out: list[KeyStep] = []
    for result in results(game, settlement):
        place = place_of(game, result)
        if place in settled:
            out.append(settled.pop(place))
        out += [key_step(game, "payout", payout_answer(game, place, bet, amount, chips),
                         why(result, bet, amount) if why is not None else "", in_play)
                for bet, amount in paid(game, result)]
    return out + list(settled.values()) + [s for s in steps if s.step not in SETTLE_PLACE]

