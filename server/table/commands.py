"""What the transport (and the table's own clocks) ask of a table.

The table task takes these one at a time from its queue, so two requests for a
table never interleave. Identity is the account, never the connection.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from server.rules.errors import Refusal
from server.rules.game import JSON, AccountId
from server.rules.vocabulary import Seat

TableError = Refusal
"""A refused table command: the one refusal type (a listed code and a sentence for people)."""


@dataclass(frozen=True, slots=True)
class Sit:
    """Take ``seat`` (or the first free one) with ``buy_in`` chips from the account."""

    account: AccountId
    name: str
    seat: Seat | None = None
    buy_in: int | None = None


@dataclass(frozen=True, slots=True)
class Stand:
    """Stand up and take the chips: now between hands, else after this hand."""

    account: AccountId


@dataclass(frozen=True, slots=True)
class TopUp:
    """Add chips from the account to the stack (between hands)."""

    account: AccountId
    amount: int


@dataclass(frozen=True, slots=True)
class SetSitOut:
    """Sit out of coming hands, or come back."""

    account: AccountId
    sitting_out: bool


@dataclass(frozen=True, slots=True)
class SetWilling:
    """The 'willing to bank' switch."""

    account: AccountId
    willing: bool


@dataclass(frozen=True, slots=True)
class SetAway:
    """The away switch: the table acts for the player at once (``on``), or no more."""

    account: AccountId
    on: bool


@dataclass(frozen=True, slots=True)
class Presence:
    """An account's connections came (``present``) or all went."""

    account: AccountId
    present: bool


@dataclass(frozen=True, slots=True)
class Play:
    """A move in the hand: ``bank`` (accept), ``bet``, ``pass``, ``fold``, ``raise``, ``leave``."""

    account: AccountId
    action: str
    args: Mapping[str, object] | tuple[tuple[str, object], ...] = ()
    """The move's arguments: the mapping the request's model validated at the edge, carried as it is (never
    re-parsed on the way to the game), or pairs (a drill's scripted moves, the tests)."""

    def named(self) -> Mapping[str, object]:
        """The arguments by name: the validated mapping itself when the move came from the wire."""
        return self.args if isinstance(self.args, Mapping) else dict(self.args)

    def arg(self, name: str, default: object = None) -> object:
        """One argument of the move."""
        return self.named().get(name, default)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A full view of the table for ``account`` (None: a spectator)."""

    account: AccountId | None


@dataclass(frozen=True, slots=True)
class Host:
    """A floor command (already checked to come from the host)."""

    action: str
    by: AccountId | None
    args: tuple[tuple[str, object], ...] = ()
    floor_link: bool = False
    """From a floor link's token, which may never arrange a deck or change what a table pays (docs/server.md)."""

    def arg(self, name: str, default: object = None) -> object:
        """One argument of the command (as the protocol's model checked it: server/protocol.py)."""
        return dict(self.args).get(name, default)


@dataclass(frozen=True, slots=True)
class DrillRequest:
    """The trainee's ``drill`` request: the step asked now (``question``), or an ``answer`` to it."""

    account: AccountId
    name: str
    action: str
    answer: JSON | None = None


@dataclass(frozen=True, slots=True)
class Tick:
    """A clock of the table's own fired; ``token`` tells a stale one."""

    kind: str
    token: int


TableCommand = (Sit | Stand | TopUp | SetSitOut | SetWilling | SetAway | Presence | Play | Snapshot | Host | Tick
                | DrillRequest)


_UPDATE_IN_ANSWER = (Sit, Stand, TopUp, SetSitOut, SetWilling, SetAway, Play, DrillRequest)


def requester(command: object) -> AccountId | None:
    """The account whose own request this is, when its answer carries its update (docs/protocol.md section 2).

    Presence comes from the gateway's connect and disconnect handlers, whose answer nobody reads: that
    account gets its update like everyone else. A snapshot answer is the whole table already.
    """
    if isinstance(command, _UPDATE_IN_ANSWER):
        return command.account
    if isinstance(command, Host):
        return command.by
    return None
