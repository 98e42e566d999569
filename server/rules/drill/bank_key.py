"""High Card Flush: the bank's offer and the fees under the house rules for the bank (docs/rules/hcf.md section 9).

The answers are the rules core's own (who the hand offered the bank to, what it
collected); this module adds the reason a trainee is told, in this hand's seats and
chips, and cites section 9's subsection beside the step's own clause. A table that
posts no house rule keeps the plain offer and fee steps (their rule alone, as before).

>>> from server.rules.hcf.settings import HcfSettings
>>> from server.rules.hcf import hand as h
>>> s = h.new_hand(HcfSettings.from_mapping({"nobody_banks": "end"}), [h.Player(1, 1000), h.Player(2, 1000)],
...                bytes(32), offer_from=2, carry={})
>>> step = offer_step(s, None)
>>> step.answer, step.rule
({'seat': None}, 'RULES 3.1, 9.2')
>>> step.why.startswith("every player who could bank refused it in this hand")
True
"""

from __future__ import annotations

from collections.abc import Mapping

from server.i18n import joined, told
from server.rules.drill.steps import KeyStep, key_step
from server.rules.hcf import rotation
from server.rules.hcf.fee_schedule import FeeTier, tier_for
from server.rules.hcf.fees import dealer_fee, pays_fee
from server.rules.hcf.hand import HandState, eligible_to_bank


def offer_step(state: HandState, seat: int | None) -> KeyStep:
    """The ``offer_bank`` step of an offer to ``seat`` (None: nobody else may be offered), from the hand before it."""
    answer: dict[str, object] = {"seat": seat}
    if not rotation.active(state.settings):
        return key_step("hcf", "offer_bank", answer)
    section, why = offer_reason(state, seat)
    return KeyStep("offer_bank", answer, f"RULES 3.1, {section}", why)


def offer_reason(state: HandState, seat: int | None) -> tuple[str, str]:
    """Section 9's subsection that decides this offer, and the reason in this hand's seats."""
    s = state.settings
    if seat is None:
        return _nobody(state)
    if seat == state.third_party:
        return "9.3", told("every player who could bank refused it in this hand, so the third-party banker (seat "
                           "{seat}) is offered it last, and saying nothing means it banks", seat=seat)
    if seat == state.keeper and state.offers[:1] == (seat,):
        return "9.1", told("seat {seat} banked the last hand, and a player may bank up to {keep} hands in a row: the "
                           "DP is asked first whether to keep the bank, and saying nothing keeps it", seat=seat,
                           keep=s.bank_keep)
    if state.phase == "offer" and state.offers[:1] != (seat,) and state.offer_index < len(state.offers):
        refused = state.offers[state.offer_index]
        who = told("seat {seat}, the DP of the last hand,", seat=refused) if refused == state.keeper \
            else told("seat {seat}", seat=refused)
        section = "9.1" if refused == state.keeper else "9.3" if s.nobody_banks == "third_party" else "9.2"
        return section, told("{who} refused the bank, so the offer goes on clockwise to the next seat that can bank, "
                             "seat {seat}; a seat that refused is not asked again in this hand", who=who, seat=seat)
    barred = _barred(state)
    if barred:
        barred_seats = _seats(barred)
        return "9.1", told("{who} has banked {keep} hands in a row, the most the house rules allow: the offer goes "
                           "on clockwise without {who} until another player has banked a hand, so seat {seat} is "
                           "offered the bank", who=barred_seats, keep=s.bank_keep, seat=seat)
    section = "9.1" if s.bank_keep > 1 else "9.3" if s.nobody_banks == "third_party" else "9.2"
    return section, told("the offer goes clockwise from the left of the button to the next seat that can bank, "
                         "seat {seat}", seat=seat)


def _seats(seats: list[int]) -> str:
    """``seat 2 and seat 5``."""
    said = told("seat {seat}", seat=seats[0])
    for seat in seats[1:]:
        said = told("{items} and {last}", items=said, last=told("seat {seat}", seat=seat))
    return said


def _nobody(state: HandState) -> tuple[str, str]:
    s = state.settings
    if s.nobody_banks == "end" and state.offers:
        return "9.2", told("every player who could bank refused it in this hand: the offer went round the table "
                           "with no taker, so under the house rules the game ends, and the table deals no more hands "
                           "until the host reopens it")
    if s.nobody_banks == "third_party":
        return "9.3", told("nobody else may be offered the bank, and the third-party banker cannot take it in this "
                           "hand (not seated, unable to bank, or kept from banking two hands in a row): the table "
                           "waits as with wait")
    return "9.2", told("nobody else may be offered the bank, and no offer went round the table: the table waits")


def _barred(state: HandState) -> list[int]:
    """The seats that could bank but are not offered it: kept from it by ``bank_keep`` (section 9.1)."""
    if state.settings.bank_keep < 2:
        return []
    return [p.seat for p in state.players if p.seat not in state.offers and p.seat != state.third_party
            and eligible_to_bank(state.settings, p)]


def fee_step(state: HandState, fees: Mapping[str, int], flat_reason: str) -> KeyStep:
    """The ``fees`` step: with a posted fee schedule its reason is each seat's tier (section 9.5)."""
    answer: dict[str, object] = {"fees": dict(fees)}
    if state.settings.fee_schedule is None:
        return key_step("hcf", "fees", answer, flat_reason)
    return KeyStep("fees", answer, "RULES 3.3, 9.5", schedule_reason(state))


def schedule_reason(state: HandState) -> str:
    """Who pays what under the posted schedule: each player the tier of their own Ante, the DP the tier of the
    largest Ante in the hand (``fee_mode`` still says who pays)."""
    s = state.settings
    antes = {seat: bet.ante for seat, bet in sorted(state.bets.items()) if bet.ante}
    parts: list[str] = []
    if pays_fee(s, dealer=False):
        parts += [told("seat {seat}'s Ante of {ante} is in the tier up to {top}, which charges a player {fee}",
                       seat=seat, ante=ante, top=_tier(state, ante).ante_to, fee=_tier(state, ante).player)
                  for seat, ante in antes.items()]
    else:
        parts.append(told("the players pay none"))
    if state.dealer is not None and pays_fee(s, dealer=True):
        largest = max(antes.values(), default=0)
        parts.append(told("the DP (seat {seat}) pays the tier of the largest Ante, {largest}: {fee}",
                          seat=state.dealer, largest=largest, fee=dealer_fee(s, antes.values())))
    elif state.dealer is not None:
        parts.append(told("the DP (seat {seat}) pays none", seat=state.dealer))
    return told("the fee mode here is {mode} and the posted schedule replaces the flat fee: {parts}",
                mode=s.fee_mode, parts=joined(parts, "; ") if parts else "")


def _tier(state: HandState, ante: int) -> FeeTier:
    schedule = state.settings.fee_schedule
    assert schedule is not None  # only asked with a posted schedule
    return tier_for(schedule, ante)
