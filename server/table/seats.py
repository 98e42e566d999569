"""Seating and presence as a pure core, like the rules: a frozen :class:`Seating`, decisions, ``evolve``.

Each decision takes the table's seating as a value and a command, refuses it with a
:class:`~server.table.commands.TableError`, or answers what it causes: the table events
(typed, each with the payload the log and the clients get), the chip transfers and the
seat rows to write, and the requester's answer. :func:`evolve` folds one event into the
roster. Nothing here does I/O, reads a clock (``now`` is given) or awaits: the runner
records a decision, and only once it is committed evolves its roster (server/table/seating.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import reduce

from server.i18n import phrase
from server.rules.game import AccountId, SeatLimits, Transfer
from server.rules.places import account_place, stack_place
from server.rules.vocabulary import JSON, Seat
from server.table.commands import Presence, SetSitOut, SetWilling, Sit, TableError, TopUp
from server.table.ports import Answer, Batch, SeatChange
from server.table.roster import MISSED_CLOCKS_TO_SIT_OUT, NEXT_HAND, SIT_OUT_LIMIT_SECONDS, Roster, Seated


@dataclass(frozen=True, slots=True, kw_only=True)
class Seating:
    """What the seats' decisions read: the roster, the stacks, the hand in progress, the table's limits."""

    table: str
    limits: SeatLimits
    roster: Roster
    stacks: Mapping[AccountId, int]
    in_hand: Mapping[int, AccountId] = field(default_factory=dict)  # the seats of the hand in progress
    closing: bool = False

    def stack(self, account: AccountId) -> int:
        """The chips ``account`` has in front of it here."""
        return self.stacks.get(account, 0)

    def plays_hand(self, seated: Seated) -> bool:
        """Whether ``seated`` takes part in the hand in progress."""
        return seated.seat in self.in_hand


# ------------------------------------------------------------ the events seating records

@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerSat:
    """A player took a seat with ``stack`` chips."""

    seat: Seat
    account: AccountId
    name: str
    stack: int

    def payload(self) -> JSON:
        """The event as logged and published."""
        return {"type": "player_sat", "seat": self.seat, "name": self.name, "stack": self.stack}


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStood:
    """A player stood up, their ``cashed_out`` chips back to their account; ``reason`` when not their own."""

    seat: Seat
    name: str
    cashed_out: int
    reason: str | None = None

    def payload(self) -> JSON:
        """The event as logged and published."""
        why = {} if self.reason is None else {"reason": self.reason}
        return {"type": "player_stood", "seat": self.seat, "name": self.name, "cashed_out": self.cashed_out} | why


@dataclass(frozen=True, slots=True, kw_only=True)
class StackChanged:
    """A seat's stack is now ``stack`` (a top-up: the transfer moved the chips)."""

    seat: Seat
    name: str
    stack: int
    reason: str

    def payload(self) -> JSON:
        """The event as logged and published."""
        return {"type": "stack_changed", "seat": self.seat, "name": self.name, "stack": self.stack,
                "reason": self.reason}


@dataclass(frozen=True, slots=True, kw_only=True)
class SitOutChanged:
    """A player sat out (at ``at``, the table's time) or came back."""

    seat: Seat
    name: str
    sitting_out: bool
    at: float | None
    reason: str = "asked"

    def payload(self) -> JSON:
        """The event as logged and published."""
        kind = "player_sat_out" if self.sitting_out else "player_back"
        return {"type": kind, "seat": self.seat, "name": self.name, "reason": self.reason}


@dataclass(frozen=True, slots=True, kw_only=True)
class WillingChanged:
    """The seat's 'willing to bank' switch."""

    seat: Seat
    willing: bool

    def payload(self) -> JSON:
        """The event as logged and published."""
        return {"type": "willing_changed", "seat": self.seat, "willing_to_bank": self.willing}


@dataclass(frozen=True, slots=True, kw_only=True)
class PresenceChanged:
    """The seat's player connected (``present``) or every connection of theirs went."""

    seat: Seat
    present: bool

    def payload(self) -> JSON:
        """The event as logged and published."""
        return {"type": "presence", "seat": self.seat, "present": self.present}


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStaying:
    """A player took back the leave they asked: the seat stays after the hand."""

    seat: Seat
    name: str

    def payload(self) -> JSON:
        """The event as logged and published."""
        return {"type": "player_staying", "seat": self.seat, "name": self.name}


@dataclass(frozen=True, slots=True, kw_only=True)
class AwayChanged:
    """A player went away (the table acts for them at once) or came back."""

    seat: Seat
    name: str
    away: bool

    def payload(self) -> JSON:
        """The event as logged and published."""
        return {"type": "player_away", "seat": self.seat, "name": self.name, "away": self.away}


SeatEvent = (PlayerSat | PlayerStood | StackChanged | SitOutChanged | WillingChanged | PresenceChanged
             | PlayerStaying | AwayChanged)


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """What a seating command causes: events, chip transfers and seat rows (one commit), and the answer."""

    events: tuple[SeatEvent, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    seat_changes: tuple[SeatChange, ...] = ()
    reply: Answer = field(default_factory=lambda: Answer())

    def batch(self) -> Batch:
        """The transfers and seat rows to commit with the events."""
        return Batch(transfers=list(self.transfers), seat_changes=list(self.seat_changes))

    def payloads(self) -> list[JSON]:
        """The events as logged and published."""
        return [event.payload() for event in self.events]

    def __add__(self, other: Decision) -> Decision:
        return Decision(events=self.events + other.events, transfers=self.transfers + other.transfers,
                        seat_changes=self.seat_changes + other.seat_changes, reply=self.reply | other.reply)


# ------------------------------------------------------------ evolve

def stacks_after(stacks: Mapping[AccountId, int], table: str, transfers: Iterable[Transfer]) -> dict[AccountId, int]:
    """The table's stacks once ``transfers`` are committed: each may move chips into or out of a stack here.

    >>> stacks_after({7: 100}, "t", [Transfer("stack:t:7", "felt:t:7", 10, "bet"),
    ...                              Transfer("account:8", "stack:t:8", 50, "buy_in")])
    {7: 90, 8: 50}
    """
    out, prefix = dict(stacks), f"stack:{table}:"
    for t in transfers:
        for place, sign in ((t.src, -1), (t.dst, 1)):
            if place.startswith(prefix):
                account = AccountId(int(place[len(prefix):]))
                out[account] = out.get(account, 0) + sign * t.amount
    return out


def evolve(roster: Roster, event: SeatEvent) -> Roster:
    """The roster once ``event`` happened. Events are facts: this never refuses."""
    match event:
        case PlayerSat(seat=seat, account=account, name=name):
            return roster.with_seated(Seated(seat, account, name, present=True))
        case PlayerStood(seat=seat):
            return roster.without(seat)
        case SitOutChanged(seat=seat, sitting_out=out, at=at, reason="clock"):
            return roster.changed(seat, sitting_out=out, sat_out_at=at)
        case SitOutChanged(seat=seat, sitting_out=out, at=at):
            return roster.changed(seat, sitting_out=out, sat_out_at=at if out else None, missed_hands=0)
        case WillingChanged(seat=seat, willing=willing):
            return roster.changed(seat, willing_to_bank=willing)
        case PresenceChanged(seat=seat, present=present):
            return roster.changed(seat, present=present)
        case PlayerStaying(seat=seat):
            return roster.changed(seat, leaving=False)
        case AwayChanged(seat=seat, away=away):
            return roster.changed(seat, away=away)
        case StackChanged():
            return roster  # the stack moved with the transfer
    raise AssertionError(event)  # unreachable: every seat event is matched above


def evolve_all(roster: Roster, events: Iterable[SeatEvent]) -> Roster:
    """The roster once every one of ``events`` happened, in order."""
    return reduce(evolve, events, roster)


# ------------------------------------------------------------ decisions

def seated(t: Seating, account: AccountId) -> Seated:
    """The seat ``account`` holds here; refused when it holds none."""
    found = t.roster.of_account(account)
    if found is None:
        raise TableError("seat/not_seated", phrase("you have no seat at table {table}", table=t.table))
    return found


def next_hand_note(t: Seating, player: Seated | None = None) -> Answer:
    """``message``: a hand in progress goes on without a player who sits down or comes back now."""
    if not t.in_hand or (player is not None and t.plays_hand(player)):
        return {}
    return {"message": NEXT_HAND}


def sit(t: Seating, cmd: Sit) -> Decision:
    """Take the seat asked (or the first free one) with the buy-in asked (or the table's default)."""
    if t.closing:
        raise TableError("table/closed", phrase("table {table} is closing", table=t.table))
    if t.roster.of_account(cmd.account) is not None:
        raise TableError("seat/already_seated", phrase("you already have a seat at this table"))
    seat = _free_seat(t, cmd.seat)
    buy_in = _buy_in(t.limits, cmd.buy_in)
    return Decision(events=(PlayerSat(seat=seat, account=cmd.account, name=cmd.name, stack=buy_in),),
                    transfers=(Transfer(account_place(cmd.account), stack_place(t.table, cmd.account),
                                        buy_in, "buy_in"),),
                    seat_changes=(SeatChange("take", seat, cmd.account),),
                    reply={"seat": seat, "stack": buy_in} | next_hand_note(t))


def _free_seat(t: Seating, asked: Seat | None) -> Seat:
    seat = asked if asked is not None else t.roster.first_free()
    if seat is None:
        raise TableError("seat/no_free_seat", phrase("table {table} is full (all {count} seats are taken)",
                                                     table=t.table, count=t.limits.seats))
    if not 1 <= seat <= t.limits.seats:
        raise TableError("seat/invalid", phrase("table {table} has seats 1 to {seats}", table=t.table,
                                                 seats=t.limits.seats))
    if seat in t.roster.by_seat:
        raise TableError("seat/taken", phrase("seat {seat} is taken", seat=seat))
    return seat


def _buy_in(limits: SeatLimits, asked: int | None) -> int:
    buy_in = asked if asked is not None else limits.default_buy_in
    if not limits.min_buy_in <= buy_in <= limits.max_buy_in:
        raise TableError("buy_in/out_of_range",
                         phrase("the buy-in is {low} to {high} chips, got {asked}", low=limits.min_buy_in,
                                high=limits.max_buy_in, asked=buy_in))
    return buy_in


def stand_now(t: Seating, player: Seated, reason: str | None = None) -> Decision:
    """Stand ``player`` up now: their stack goes back to their account, the seat is free."""
    stack = t.stack(player.account)
    cash_out = (Transfer(stack_place(t.table, player.account), account_place(player.account), stack, "cash_out"),)
    return Decision(events=(PlayerStood(seat=player.seat, name=player.name, cashed_out=stack, reason=reason),),
                    transfers=cash_out if stack else (),
                    seat_changes=(SeatChange("free", player.seat, player.account),),
                    reply={"standing": "now", "cashed_out": stack})


def top_up(t: Seating, cmd: TopUp) -> Decision:
    """Add chips from the account to the stack, between hands, up to the table's maximum buy-in."""
    player = seated(t, cmd.account)
    if t.plays_hand(player):
        raise TableError("table/hand_in_progress", phrase("top up between hands"))
    stack = t.stack(cmd.account)
    if stack + cmd.amount > t.limits.max_buy_in:
        raise TableError("buy_in/out_of_range",
                         phrase("a stack may hold at most {high} chips (you have {stack})", high=t.limits.max_buy_in,
                                stack=stack))
    return Decision(events=(StackChanged(seat=player.seat, name=player.name, stack=stack + cmd.amount,
                                         reason="top_up"),),
                    transfers=(Transfer(account_place(cmd.account), stack_place(t.table, cmd.account),
                                        cmd.amount, "top_up"),),
                    reply={"stack": stack + cmd.amount})


def sit_out(t: Seating, cmd: SetSitOut, now: float) -> Decision:
    """Sit out of coming hands (from ``now``), or come back; nothing when the switch is already so."""
    player = seated(t, cmd.account)
    if player.sitting_out == cmd.sitting_out:
        return Decision(reply=_sit_out_reply(t, player))
    after = SitOutChanged(seat=player.seat, name=player.name, sitting_out=cmd.sitting_out,
                          at=now if cmd.sitting_out else None)
    return Decision(events=(after,),
                    seat_changes=(SeatChange("flags", player.seat, player.account, player.willing_to_bank,
                                             cmd.sitting_out),),
                    reply=_sit_out_reply(t, evolve(t.roster, after).by_seat[player.seat]))


def _sit_out_reply(t: Seating, player: Seated) -> Answer:
    return {"sitting_out": player.sitting_out} | ({} if player.sitting_out else next_hand_note(t, player))


def willing(t: Seating, cmd: SetWilling) -> Decision:
    """The 'willing to bank' switch; nothing when it is already so."""
    player = seated(t, cmd.account)
    if player.willing_to_bank == cmd.willing:
        return Decision(reply={"willing_to_bank": player.willing_to_bank})
    return Decision(events=(WillingChanged(seat=player.seat, willing=cmd.willing),),
                    seat_changes=(SeatChange("flags", player.seat, player.account, cmd.willing,
                                             player.sitting_out),),
                    reply={"willing_to_bank": cmd.willing})


def away(t: Seating, account: AccountId, on: bool) -> Decision:
    """The away switch (``on``: the table acts for the player at once until they come back); nothing when it is
    already so."""
    player = seated(t, account)
    if player.away == on:
        return Decision(reply={"away": on})
    return Decision(events=(AwayChanged(seat=player.seat, name=player.name, away=on),), reply={"away": on})


def presence(t: Seating, cmd: Presence) -> Decision:
    """A seated account came or went; nothing for an account without a seat, or no change."""
    player = t.roster.of_account(cmd.account)
    if player is None or player.present == cmd.present:
        return Decision()
    return Decision(events=(PresenceChanged(seat=player.seat, present=cmd.present),))


def staying(t: Seating, player: Seated) -> Decision:
    """Take back a leave asked during this hand (the hand's part, if any, is the rules'): nothing when none was
    asked; refused when it is not the player's own (the host removes them, or the table closes)."""
    if not player.leaving:
        return Decision(reply={"leaving": False})
    if t.closing:
        raise TableError("seat/removed", phrase("table {table} closes after this hand: everyone stands up",
                                                 table=t.table))
    if player.leave_reason is not None:
        raise TableError("seat/removed", phrase("the host stands you up after this hand"))
    return Decision(events=(PlayerStaying(seat=player.seat, name=player.name),), reply={"leaving": False})


def expired(t: Seating, now: float) -> Decision:
    """Players sat out for 10 minutes by ``now`` stand up, their chips back (docs/rules/hcf.md section 4)."""
    out = Decision()
    for player in t.roster.by_seat.values():
        if player.sitting_out and player.sat_out_at is not None and now - player.sat_out_at >= SIT_OUT_LIMIT_SECONDS:
            out += stand_now(t, player, "sat_out_too_long")
    return Decision(events=out.events, transfers=out.transfers, seat_changes=out.seat_changes)


def leavers(t: Seating) -> Decision:
    """After a hand: every leaving seat stands up (with why, when not its own leave)."""
    out = Decision()
    for player in t.roster.by_seat.values():
        if player.leaving:
            out += stand_now(t, player, player.leave_reason)
    return Decision(events=out.events, transfers=out.transfers, seat_changes=out.seat_changes)


def hand_begins(roster: Roster) -> Roster:
    """A new hand (not the retry of one nobody banked): nobody has missed its clocks or moved in it yet."""
    fresh = {n: replace(s, missed_this_hand=False, moved_this_hand=False) for n, s in roster.by_seat.items()}
    return Roster(roster.seats, fresh)


def absences(t: Seating, played: Iterable[int], now: float) -> tuple[Roster, Decision]:
    """After a hand: each seat of ``played`` still held counts the hands in a row it was absent from (a clock
    ran out and it made no move); the second sits it out, from ``now`` (docs/rules/hcf.md section 4)."""
    roster, out = t.roster, Decision()
    for seat in played:
        player = roster.by_seat.get(seat)
        if player is None:
            continue
        missed = player.missed_hands + 1 if player.absent() else 0
        roster = roster.changed(player.seat, missed_hands=missed)
        if missed >= MISSED_CLOCKS_TO_SIT_OUT and not player.sitting_out:
            out += _sat_out_by_clock(player, now)
    return roster, out


def _sat_out_by_clock(player: Seated, now: float) -> Decision:
    flags = () if player.leaving else (SeatChange("flags", player.seat, player.account, player.willing_to_bank,
                                                  True),)
    return Decision(events=(SitOutChanged(seat=player.seat, name=player.name, sitting_out=True, at=now,
                                          reason="clock"),), seat_changes=flags)
