"""What every game's hand state machine shares: dispatching commands, folding events, the common refusals.

A game's ``decide`` hands each command to its handler by type (:func:`decide`);
its ``apply_events`` folds events in with its ``evolve`` (:func:`apply_events`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from server.i18n import phrase
from server.rules.commands import Misdeal
from server.rules.errors import Violation
from server.rules.events import HandVoided
from server.rules.game import Player


class Phased(Protocol):
    """A hand state: its phase is all :func:`decide` reads."""

    @property
    def phase(self) -> str: ...


S = TypeVar("S", bound=Phased)
E = TypeVar("E")


def decide(handlers: Mapping[type, Callable[[S, Any], list[Any]]], terminal: frozenset[str], state: S,
           command: Any) -> list[Any]:
    """The events ``command`` causes by its handler, or a :class:`Violation`.

    A finished hand refuses everything; a :class:`Misdeal` voids any other hand.
    """
    return handler_for(handlers, terminal, state, type(command))(state, command)


def handler_for(handlers: Mapping[type, Callable[[S, Any], list[Any]]], terminal: frozenset[str], state: S,
                kind: type) -> Callable[[S, Any], list[Any]]:
    """What decides a command of type ``kind`` in ``state``, or a :class:`Violation` (as :func:`decide` refuses)."""
    if state.phase in terminal:
        raise Violation(phrase("this hand is over"), "hand/over")
    if issubclass(kind, Misdeal):
        return _voided
    handler = handlers.get(kind)
    if handler is None:
        raise Violation(f"unknown command {kind.__name__}", "request/unknown")
    return handler


def _voided(_state: object, command: Misdeal) -> list[Any]:
    """A misdeal voids the hand."""
    return [HandVoided(command.reason)]


@dataclass(frozen=True, slots=True)
class Dispatch(Generic[S, E]):
    """A game's ``decide``: :func:`decide` with the game's handlers and terminal phases, called as the function.

    The table calls it directly (``Game.decide``), and it hands each command to its handler: no
    forwarding function of the game's own in between (docs/server.md, one raise's path).
    """

    handlers: Mapping[type, Callable[[S, Any], list[E]]]
    terminal: frozenset[str]

    def __call__(self, state: S, command: object, /) -> list[E]:
        """The events ``command`` causes by its handler, or a :class:`Violation`; the state is not touched."""
        events: list[E] = decide(self.handlers, self.terminal, state, command)
        return events

    def handler(self, state: S, kind: type, /) -> Callable[[S, Any], list[E]]:
        """What decides a command of type ``kind`` in ``state``, or a :class:`Violation`, as calling it refuses.

        The hand desk looks the handler up by the command's type and hands the command to it itself
        (docs/server.md, one raise's path): nothing passes the command on in between.
        """
        return handler_for(self.handlers, self.terminal, state, kind)


def apply_events(evolve: Callable[[S, E], S], state: S, events: Iterable[E]) -> S:
    """Fold events into a state with ``evolve``, one after another."""
    for event in events:
        state = evolve(state, event)
    return state


def need_phase(phase: str, wanted: str, what: str) -> None:
    """Refuse ``what`` unless the hand is in its ``wanted`` phase."""
    if phase != wanted:
        raise Violation(phrase("cannot {what} now: the hand is in its {phase} phase", what=what, phase=phase),
                        "phase/wrong")


def player_at(players: Iterable[Player], seat: int) -> Player:
    """The player at ``seat``; a Violation if none takes part in the hand."""
    for p in players:
        if p.seat == seat:
            return p
    raise Violation(phrase("seat {seat} takes no part in this hand", seat=seat), "seat/not_in_hand")


def need_stay(leaving: frozenset[int], left_out: frozenset[int], seat: int) -> None:
    """Refuse taking back a leave of ``seat`` that was never asked, or that already acted on the hand."""
    if seat not in leaving:
        raise Violation(phrase("seat {seat} has not asked to leave this hand", seat=seat), "seat/not_leaving")
    if seat in left_out:
        raise Violation(phrase("your leave already acted on this hand (it folded or passed you, or your bets went "
                               "back): you stay for the next hands"), "seat/leave_acted")
