"""Every reason code the server sends, said as a person would say it (docs/protocol.md, section 6).

Pure. The codes are the protocol's; a person at the table reads these words
instead. A code this client does not know yet is still said, in words made of
it, never dropped.

>>> void_reason("shuffler_fault")
'the host reported a fault of the shuffler'
>>> dead_reason("card_count")
'it was dealt the wrong number of cards'
>>> dead_result({"dead": True, "dead_reason": "funds", "bank": 60, "owed": 120})
"dead (the DP's 60 chips could not cover the 120 owed): bets and fee returned"
>>> stood_text("removed", 998, "main")
'the host removed you from main: your 998 chips went back to your account'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from server.i18n import _, phrase, spoken

VOID: Final = {
    "misdeal": phrase("the host declared a misdeal"),
    "shuffler_fault": phrase("the host reported a fault of the shuffler"),
    "dealer_dead": phrase("the host declared the designated player's hand dead"),
    "card_count": phrase("the deck could not give every hand its cards"),
    "shutdown": phrase("the server was stopped during the hand"),
    "interrupted": phrase("the server stopped unexpectedly during the hand"),
}
"""Why a whole hand was voided (every bet and fee goes back)."""

DEAD: Final = {
    "floor": phrase("the host declared it dead"),
    "card_count": phrase("it was dealt the wrong number of cards"),
}
"""Why one seat's (spot's, box's) hand is dead."""

DEAD_RESULT: Final = {
    "floor": phrase("declared by the floor"),
    "card_count": phrase("dealt the wrong number of cards"),
    "void": phrase("the whole hand is void"),
}
"""Why a dead hand is dead, as its result line says it (``funds`` names the amounts, see :func:`dead_result`)."""

NOT_DEALT: Final = {
    "no_bank": phrase("nobody took the bank"),
    "no_ante": phrase("nobody placed an Ante"),
    "no_bets": phrase("nobody placed a bet"),
    "no_players": phrase("nobody was there to play"),
}
"""Why a hand was never dealt."""

SAT_OUT: Final = {
    "asked": phrase("asked to"),
    "clock": phrase("the clock ran out two hands in a row"),
}
"""Why a player sits out."""

ACTED: Final = {
    "clock": phrase("the clock ran out"),
    "away": phrase("away"),
    "left": phrase("leaving"),
    "floor": phrase("the host"),
}
"""Why something was done for a player: a fold, a pass, a decline, bets going back."""


def _words(code: object) -> str:
    return str(code).replace("_", " ")


def void_reason(code: object) -> str:
    """Why a hand was voided."""
    return spoken(VOID.get(str(code), _words(code)))


def dead_reason(code: object) -> str:
    """Why one hand is dead."""
    return spoken(DEAD.get(str(code), _words(code)))


def dead_result(result: Mapping[str, Any], returned: str = phrase("bets and fee returned")) -> str:
    """A dead seat's (spot's, box's) result: why it is dead, then what went back.

    A result recorded before results said why has no ``dead_reason``: it reads as it always did.

    >>> dead_result({"dead": True, "dead_reason": "floor"})
    'dead (declared by the floor): bets and fee returned'
    >>> dead_result({"dead": True}, "every bet returned")
    'dead hand: every bet returned'
    """
    code = result.get("dead_reason")
    if not code:
        return _("dead hand: {returned}", returned=returned)
    if code == "funds":
        why = _("the DP's {bank} chips could not cover the {owed} owed", bank=result.get("bank", "?"),
                owed=result.get("owed", "?"))
    else:
        why = dead_phrase(code)
    return _("dead ({why}): {returned}", why=why, returned=returned)


def dead_phrase(code: object) -> str:
    """Why a hand is dead, short enough for a seat's line (``declared by the floor``)."""
    return spoken(DEAD_RESULT.get(str(code), _words(code)))


def not_dealt_reason(code: object, ordinary: str = phrase("nobody placed a bet")) -> str:
    """Why no hand was dealt (``ordinary``: what to say without a code)."""
    return spoken(NOT_DEALT.get(str(code), _words(code)) if code else ordinary)


def sat_out_reason(code: object) -> str:
    """Why a player sits out."""
    return spoken(SAT_OUT.get(str(code), _words(code)))


def acted_reason(code: object, ordinary: str) -> str:
    """`` (the clock ran out)`` and the like; nothing for the ``ordinary`` reason (the player's own choice)."""
    if code in (None, ordinary):
        return ""
    return f" ({spoken(ACTED.get(str(code), _words(code)))})"


def stood_text(code: object, chips: int | None, table: str, *, asked: bool = False) -> str:
    """What a player is told when the table stands them up (``code``: the ``player_stood`` reason)."""
    back = _(": your {chips} chips went back to your account", chips=chips) if chips is not None \
        else _(": your chips went back to your account")
    if asked:
        return _("you stood up from {table}{back}; bye", table=table, back=back)
    if code == "removed":
        return _("the host removed you from {table}{back}", table=table, back=back)
    if code == "sat_out_too_long":
        return _("you sat out at {table} for 10 minutes, so the table stood you up{back}", table=table, back=back)
    if code == "closed":
        return _("the host closed table {table}{back}", table=table, back=back)
    return _("the table stood you up at {table}{back}", table=table, back=back)


def event_text(event: Mapping[str, Any], who: str) -> str | None:
    """The log line of an event whose point is its reason (None for any other event)."""
    kind, code = event.get("type"), event.get("reason")
    if kind == "player_stood":
        why = {"removed": _(" (the host removed them)"), "sat_out_too_long": _(" (sat out for 10 minutes)"),
               "closed": _(" (the table closed)")}.get(str(code), "")
        return _("{name} stands up{why}, cashing out {chips}", name=event.get("name", who), why=why,
                 chips=event.get("cashed_out", 0))
    if kind == "player_sat_out":
        return _("{name} sits out ({why})", name=event.get("name", who), why=sat_out_reason(code))
    if kind == "seat_dead":
        return _("{who}'s hand is dead: {why}; its bets and fee go back", who=who, why=dead_reason(code))
    if kind == "hand_voided":
        return _("the hand is void: {why}; every bet and fee goes back", why=void_reason(code))
    if kind == "player_staying":
        return _("{who} stays at the table", who=who)
    return None


def stay_effect(snapshot: Mapping[str, Any], hand: str | None = None) -> str:
    """What staying means for the hand in progress, from the server's ``hand`` answer (docs/protocol.md, stay).

    ``playing``: the leave had not acted yet, so it is taken back in the hand too; ``folded``: it already folded,
    passed or sent back the seat's bets, and that stands; ``none``: the seat is not in this hand.

    >>> you = {"you": {"seat": 2}, "hand": {"phase": "decisions", "seats": {"2": {"decision": None}}}}
    >>> stay_effect(you, "playing")
    'you stay at seat 2 and play this hand: the leave is taken back'
    >>> stay_effect(you, "folded")
    'you stay at seat 2 for the next hands; this hand the leave already folded or passed you, and that stands'
    """
    seat = (snapshot.get("you") or {}).get("seat")
    state = snapshot.get("hand") or {}
    if hand == "folded":
        return _("you stay at seat {seat} for the next hands; this hand the leave already folded or passed you, "
                 "and that stands", seat=seat)
    if hand == "none" or state.get("phase") in (None, "settled", "void", "not_dealt") or seat is None:
        return _("you stay at seat {seat}", seat=seat)
    if state.get("dealer") == seat:
        return _("you stay at seat {seat} and still bank this hand", seat=seat)
    mine = (state.get("seats") or {}).get(str(seat)) if isinstance(state.get("seats"), dict) else None
    if isinstance(mine, dict) and mine.get("decision") == "raise":
        return _("you stay at seat {seat}; your raise stands", seat=seat)
    return _("you stay at seat {seat} and play this hand: the leave is taken back", seat=seat)


def settings_text(changed: Mapping[str, Any]) -> str:
    """Changed settings in words, no codes or braces.

    >>> settings_text({"bet_seconds": 6.0, "flush_pays": {"7": 200, "6": 50}, "fee_mode": "all"})
    'bet seconds 6.0, flush pays 7: 200, 6: 50, fee mode all'
    """
    def value(v: Any) -> str:
        if isinstance(v, Mapping):
            return ", ".join(f"{k}: {value(x)}" for k, x in v.items())
        if isinstance(v, list | tuple):
            return ", ".join(value(x) for x in v)
        return _words(v)

    return ", ".join(f"{_words(k)} {value(v)}" for k, v in changed.items()) or "nothing"
