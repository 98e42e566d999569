"""What the house rules for the bank (docs/rules/hcf.md section 9) make of a finished hand, and what they say.

:func:`after_hand` turns the table's plain answer into the house rules' one: the
record kept in the carry, the DP asked to keep the bank, the game that ends, the
warning when a quarter of the rotation window remains. :func:`table_notes` and
:func:`hand_record` are what every screen and each hand's history show of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from server.i18n import told, with_say
from server.rules.game import JSON, SEAT_NAMES, TABLE_CLOCK, AfterHand
from server.rules.hcf import rotation
from server.rules.hcf.rotation import RECORD, WARN_SHARE, BankRecord
from server.rules.hcf.settings import HcfSettings
from server.rules.hcf.state import HandState


def table_carry(carry: Mapping[str, Any]) -> dict[str, Any]:
    """The carry without what the table gives afresh before each hand (its clock, the seats' names)."""
    return {key: value for key, value in carry.items() if key not in (TABLE_CLOCK, SEAT_NAMES)}


def _window(settings: HcfSettings) -> float | None:
    minutes = settings.rotation_window_minutes
    return None if minutes is None else minutes * 60.0


def after_hand(state: HandState, carry: Mapping[str, Any], plain: AfterHand) -> AfterHand:
    """The house rules' answer after a hand, from the table's ``plain`` one (``carry``: the hand's own, with the
    table's clock as the hand ends)."""
    s = state.settings
    names, now, window = rotation.seat_names(carry), rotation.table_clock(carry), _window(s)
    record = BankRecord.from_carry(carry)
    banked = state.phase == "settled" and state.dealer is not None
    if banked and state.dealer is not None:
        dealer = None if state.dealer == state.third_party else rotation.who(names, state.dealer)
        record = rotation.after_settled(record, dealer=dealer, now=now, window=window)
    record = rotation.pruned(record, now, window)
    offer_from = plain.offer_from
    if banked and state.dealer is not None and record.last is not None and record.run < s.bank_keep:
        offer_from = state.dealer  # asked first whether to keep the bank (section 9.1)
    kept = table_carry(carry)
    ended = _why_ended(state, record, now, window)
    if ended:
        return AfterHand(plain.pause, offer_from, {**kept, RECORD: replace(record, ended=True).as_json()},
                         "game_ended", ended, ends_game=True)
    notice, record = _warning(state, record, now, window, names)
    return replace(plain, offer_from=offer_from, carry={**kept, RECORD: record.as_json()}, notice=notice)


def _why_ended(state: HandState, record: BankRecord, now: float | None, window: float | None) -> str:
    s = state.settings
    if state.reason == "game_ended" or (window is not None and now is not None
                                        and rotation.window_short(record, now, window, s.rotation_window_dealers)):
        count = rotation.window_count(record.banked, now, window) if now is not None and window else 0
        return told("the game ends: in the last {minutes} minutes {players} besides the one who banked most "
                    "took the bank, and the house rules ask for {asked}", minutes=s.rotation_window_minutes,
                    players=_players(count), asked=s.rotation_window_dealers)
    if state.reason == "no_bank" and s.nobody_banks == "end" and state.offers:
        return told("the game ends: the bank went round the table and nobody took it")
    return ""


def _players(count: int) -> str:
    return told("no player") if count == 0 else told("1 player") if count == 1 else told("{count} players",
                                                                                          count=count)


def _warning(state: HandState, record: BankRecord, now: float | None, window: float | None,
             names: Mapping[int, str]) -> tuple[str, BankRecord]:
    """The warning once a quarter of the window remains, given once for each moment the count would fall short."""
    if window is None or now is None:
        return "", record
    deadline = rotation.window_deadline(record, now, window, state.settings.rotation_window_dealers)
    if deadline is None or deadline - now > window / WARN_SHARE or record.warned == deadline:
        return "", record
    sentence = window_sentence(state.settings, record, now, window, _could_bank(state, record, names))
    return sentence, replace(record, warned=deadline)


def _could_bank(state: HandState, record: BankRecord, names: Mapping[int, str]) -> list[str]:
    banked = {name for _, name in record.banked}
    return [names.get(p.seat, told("seat {seat}", seat=p.seat)) for p in state.players
            if p.seat != state.third_party and rotation.who(names, p.seat) not in banked]


def window_sentence(settings: HcfSettings, record: BankRecord, now: float, window: float,
                    could: list[str] | None = None) -> str:
    """'the window needs 1 more dealer in 9 min', with who could bank when known."""
    dealers = settings.rotation_window_dealers
    deadline = rotation.window_deadline(record, now, window, dealers)
    if deadline is None:
        return told("the rotation window of {minutes} min starts with the first hand",
                    minutes=settings.rotation_window_minutes)
    needed = dealers - rotation.window_count(record.banked, deadline, window)
    minutes = max(0, round((deadline - now) / 60))
    if needed == 1:
        sentence = told("the window needs 1 more dealer in {minutes} min", minutes=minutes)
    else:
        sentence = told("the window needs {needed} more dealers in {minutes} min", needed=needed, minutes=minutes)
    if could:
        return told("{sentence}: {names} could bank", sentence=sentence, names=_listed(could))
    return sentence


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else told("{names} or {last}", names=", ".join(names[:-1]), last=names[-1])


def keep_sentence(settings: HcfSettings, record: BankRecord) -> str:
    """'alice has banked 2 of 2 hands: the bank moves on' (empty when nobody keeps it)."""
    if settings.bank_keep < 2 or record.last is None or record.run < 1:
        return ""
    said = {"name": record.last, "run": record.run, "keep": settings.bank_keep}
    if record.run >= settings.bank_keep:
        return told("{name} has banked {run} of {keep} hands: the bank moves on", **said)
    return told("{name} has banked {run} of {keep} hands: {name} is asked first whether to keep the bank", **said)


def rule_sentences(settings: HcfSettings) -> list[str]:
    """The house rules for the bank, one sentence each (empty for a table that posts none)."""
    out: list[str] = []
    if settings.bank_keep > 1:
        out.append(told("a player may bank up to {keep} hands in a row, then the bank moves on",
                        keep=settings.bank_keep))
    if settings.nobody_banks == "end":
        out.append(told("when the bank goes round the table and nobody takes it, the game ends"))
    if settings.nobody_banks == "third_party":
        out.append(_third_party_rule(settings))
    if settings.rotation_window_minutes is not None:
        out.append(told("in every {minutes} minutes at least {players} besides the one who banked most must bank "
                        "a hand, or the game ends", minutes=settings.rotation_window_minutes,
                        players=_players(settings.rotation_window_dealers)))
    return out


def _third_party_rule(settings: HcfSettings) -> str:
    banker = settings.third_party_banker
    if settings.third_party_consecutive:
        if settings.third_party_plays:
            return told("when every player refuses the bank, {banker} banks as the third-party banker, and may "
                        "play while another player banks", banker=banker)
        return told("when every player refuses the bank, {banker} banks as the third-party banker, and does not "
                    "play while another player banks", banker=banker)
    if settings.third_party_plays:
        return told("when every player refuses the bank, {banker} banks as the third-party banker, never two "
                    "hands in a row, and may play while another player banks", banker=banker)
    return told("when every player refuses the bank, {banker} banks as the third-party banker, never two hands "
                "in a row, and does not play while another player banks", banker=banker)


def fee_sentences(settings: HcfSettings) -> list[str]:
    """The posted fee schedule, one sentence a tier (empty without one)."""
    schedule = settings.fee_schedule
    if schedule is None:
        return []
    out: list[str] = []
    low = 1
    for tier in schedule:
        out.append(told("Ante {low} to {high}: each player pays {player}, the DP pays {dp}", low=low,
                        high=tier.ante_to, player=tier.player, dp=tier.dp))
        low = tier.ante_to + 1
    return out


def table_notes(settings: HcfSettings, carry: Mapping[str, Any]) -> JSON:
    """What every screen shows of the house rules, the rotation's status and the fee schedule, as titled notes
    of sentences (``until``: when the rotation window falls short, on the table's clock); empty: none."""
    notes: list[JSON] = []
    if rotation.active(settings):
        notes.append(with_say({"title": told("House rules for the bank"), "lines": rule_sentences(settings)}))
        if settings.bank_keep > 1 or settings.rotation_window_minutes is not None:
            notes.append(_rotation_note(settings, carry))
    if settings.fee_schedule is not None:
        notes.append(with_say({"title": told("Posted fees"), "lines": fee_sentences(settings)}))
    return {"notes": notes} if notes else {}


def _rotation_note(settings: HcfSettings, carry: Mapping[str, Any]) -> JSON:
    record, window = BankRecord.from_carry(carry), _window(settings)
    now = rotation.table_clock(carry)
    now = now if now is not None else record.as_of
    lines = [keep_sentence(settings, record)]
    until = None
    if window is not None and now is not None:
        record = rotation.pruned(record, now, window)
        lines.append(window_sentence(settings, record, now, window))
        until = rotation.window_deadline(record, now, window, settings.rotation_window_dealers)
    elif window is not None:
        lines.append(told("the rotation window of {minutes} min starts with the first hand",
                          minutes=settings.rotation_window_minutes))
    lines = [line for line in lines if line] or [told("nobody has banked a hand under these rules yet")]
    return with_say({"title": told("The bank's rotation"), "lines": lines, "until": until})


def hand_record(state: HandState) -> JSON:
    """The bank's part of a finished hand's history: who refused it, whether the DP kept it, the third party."""
    if not rotation.active(state.settings):
        return {}
    taken = state.dealer is not None and state.phase != "offer"
    refused = state.offers[:state.offer_index] if taken else state.offers
    ends = state.reason == "no_bank" and state.settings.nobody_banks == "end" and bool(state.offers)
    return {"bank": {"refused": list(refused), "kept": taken and state.dealer == state.keeper,
                     "third_party": taken and state.dealer == state.third_party,
                     "game_ends": "the bank went round the table and nobody took it: the game ends" if ends else None}}
