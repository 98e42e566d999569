"""A table event in words, one line of the table log (pure: nothing here reads the clock or the network).

>>> describe_event({"type": "player_raised", "seat": 2, "amount": 20}, {2: "bob"})
'bob raises 20'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from client_cli.away import event_text as away_event_text
from client_cli.reasons import acted_reason, not_dealt_reason, settings_text
from client_cli.reasons import event_text as reason_event_text
from client_cli.render import Names, bets_text, hand_no, hand_summary
from server.i18n import _, heard, phrase, spoken


def _who(names: Names, seat: Any) -> str:
    if seat == 0:
        return _("the house")
    return names.get(seat, _("seat {n}", n=seat)) if isinstance(seat, int) else "?"


def describe_event(event: Mapping[str, Any], names: Names) -> str | None:
    """A one-line account of a table event for the log (None for bookkeeping events)."""
    kind = event.get("type")
    seat = event.get("seat")
    who = _who(names, seat)
    simple = _SIMPLE.get(str(kind))
    if simple is not None:
        try:
            return spoken(simple).format(who=who, **{k: v for k, v in event.items() if k != "who"})
        except (KeyError, ValueError, IndexError):
            return str(kind).replace("_", " ")  # a field missing: still say what happened
    said = reason_event_text(event, who) or away_event_text(event, who)
    if said is not None:
        return said
    if kind == "presence":
        return _("{who} is back", who=who) if event.get("present") \
            else _("{who} dropped (the clock keeps running)", who=who)
    if kind == "hand_started":
        text = _("-- hand #{number} --", number=hand_no(event))
        return text + _(" ARRANGED DECK: not a random deal") if event.get("arranged") else text
    if kind == "bank_declined":
        return _("{who} declines the bank", who=who) + _reason(event.get("reason"), "declined")
    if kind == "bets_placed":
        return _("{who} bets {bets}", who=who, bets=bets_text(event))
    if kind == "bets_passed":
        return _("{who} sits this hand out", who=who) + _reason(event.get("reason"), "passed")
    if kind == "player_folded":
        return _("{who} folds", who=who) + _reason(event.get("reason"), "fold")
    if kind == "dealer_revealed":
        cards = list(event.get("cards") or [])
        verdict = _("qualifies") if event.get("qualifies") else _("does NOT qualify")
        label = _("the house") if seat == 0 else _("DP {name}", name=who)
        return _("{who} shows {cards}: {hand}, {verdict}", who=label, cards=" ".join(cards),
                 hand=hand_summary(cards), verdict=verdict)
    if kind == "hand_not_dealt":
        return _("no hand: {reason}", reason=not_dealt_reason(event.get("reason"), phrase("nobody placed an Ante")))
    if kind == "settings_changed":
        changed = event.get("changed") or {}
        return _("settings changed: {settings}", settings=settings_text(changed))
    if kind == "willing_changed":
        return _("{who} will take the bank", who=who) if event.get("willing_to_bank") \
            else _("{who} will not take the bank", who=who)
    if kind == "table_notice":  # a warning the game gives every seat (a rotation window running short)
        return heard(event, "message") or _("the table warns every seat")
    if kind in ("table_waiting", "deck_arranged", "drill_step", "drill_irregularity", "drill_ended"):
        return heard(event, "message") or kind
    if kind == "drill_answered":
        return drill_answered_text(event)
    return None


def drill_answered_text(event: Mapping[str, Any]) -> str:
    """A live drill's answered step as the players see it: the table's correction, never the trainee's answer.

    >>> drill_answered_text({"n": 3, "step": "first_card", "right": True})
    'drill: the dealer answered step 3 (first_card): right'
    >>> drill_answered_text({"n": 4, "step": "fees"})
    'drill: the dealer answered step 4 (fees)'
    """
    if event.get("message"):
        return heard(event, "message")
    right = event.get("right")
    n, step = event.get("n"), event.get("step")
    if not isinstance(right, bool):
        return _("drill: the dealer answered step {n} ({step})", n=n, step=step)
    return _("drill: the dealer answered step {n} ({step}): right", n=n, step=step) if right else \
        _("drill: the dealer answered step {n} ({step}): wrong", n=n, step=step)


def _reason(reason: Any, ordinary: str) -> str:
    return acted_reason(reason, ordinary)


_SIMPLE: Final[dict[str, str]] = {
    "player_sat": phrase("{name} sits at seat {seat} with {stack}"),
    "stack_changed": phrase("{name} tops up to {stack}"),
    "player_back": phrase("{name} is back in the game"),
    "table_paused": phrase("the host paused the table"),
    "table_resumed": phrase("the host resumed the table"),
    "table_closed": phrase("the host closed the table"),
    "bank_offered": phrase("the bank is offered to {who}"),
    "bank_accepted": phrase("{who} takes the bank and is the DP"),
    "betting_opened": phrase("bets are open (server seed commitment {commitment:.12}…)"),
    "player_leaving": phrase("{who} will leave after this hand"),
    "leave_withdrawn": phrase("{who} takes the leave back and plays this hand"),
    "cards_dealt": phrase("cards dealt"),
    "player_raised": phrase("{who} raises {amount}"),
}
