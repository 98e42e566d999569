"""Real Caribbean Stud and 6 Card Poker hands, played through the rules core, as a client meets them.

A :class:`Table` drives one hand with the game's own ``decide``/``evolve`` and
keeps what a client gets: the public table events (``public_event`` plus the
``hand_id`` the table stamps on them), each seat's private payloads, snapshots
built the way ``server/table/runner.py`` builds them (``hand_view`` + ``table_view``)
and the ``hand_revealed`` summary from ``server/table/summary.py`` itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from client_cli.games.house import Move
from client_cli.offers import check, read_offers
from client_cli.parse import InputError, SitOut, TopUp
from client_cli.play import TableSession
from server.rules.cards import Card, parse_cards
from server.rules.caribbean.game import CARIBBEAN
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.errors import Violation
from server.rules.game import Game, Player
from server.rules.sixcard.game import SIXCARD
from server.rules.sixcard.settings import SixcardSettings
from server.table.summary import hand_summary

SERVER_SEED = bytes(range(7, 39))
NAMES = {1: "ann", 2: "bob", 3: "cy"}
HAND_ID = 7


@dataclass
class Table:
    """One hand of a house-banked game, and everything a client saw of it."""

    game: Game
    settings: Any
    state: Any
    stacks: dict[int, int]
    carry: dict[str, Any] = field(default_factory=dict)
    public: list[dict[str, Any]] = field(default_factory=list)
    private: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    clock: dict[str, Any] | None = None

    def run(self, *commands: Any) -> list[Any]:
        """Decide and apply each command (a Violation propagates); returns the events."""
        events: list[Any] = []
        for command in commands:
            events += self.apply(self.game.decide(self.state, command))
        return events

    def move(self, seat: int, action: str, args: Mapping[str, Any] | None = None) -> list[Any]:
        """A wire move, as the table turns it into a command (``Game.move``), then decided."""
        return self.run(self.game.move(seat, action, dict(args or {})))

    def accepts(self, seat: int, action: str, args: Mapping[str, Any]) -> bool:
        """Whether the rules accept this wire move now (nothing is applied)."""
        command = self.game.move(seat, action, dict(args))
        try:
            self.game.decide(self.state, command)
        except Violation:
            return False
        return True

    def apply(self, events: Sequence[Any]) -> list[Any]:
        """Apply recorded events, keeping what each viewer is sent."""
        for event in events:
            for seat, payload in self.game.private_events(self.state, event):
                self.private.setdefault(seat, []).append(payload)
            self.public.append(self.game.public_event(event) | {"hand_id": HAND_ID})
            self.state = self.game.evolve(self.state, event)
        return list(events)

    def snapshot(self, viewer: int | None, *, server_time: float = 1000.0) -> dict[str, Any]:
        """The table snapshot ``viewer`` (a seat, or None for a spectator) gets now."""
        hand = self.game.hand_view(self.state, viewer) | {"hand_id": HAND_ID}
        if self.clock is not None:
            hand["clock"] = self.clock
        return {
            "table": "main", "game": self.game.name, "seq": len(self.public), "server_time": server_time,
            "settings": self.settings.as_dict(), "status": "playing", "waiting_reason": None,
            "seats": [{"seat": s, "name": NAMES[s], "stack": stack, "sitting_out": False, "present": True,
                       "willing_to_bank": True, "leaving": False, "button": False}
                      for s, stack in sorted(self.stacks.items())],
            "button": None, "hand": hand, "last_hand": None,
            "you": {"account": viewer, "seat": viewer, "sitting_out": False if viewer else None},
            "arranged_next": False, **self.game.table_view(self.settings, self.carry),
            "choices": self.choices(viewer),
        }

    def choices(self, viewer: int | None) -> dict[str, Any]:
        """The ``choices`` the server puts on ``viewer``'s snapshot: the rules' hand moves (protocol v2)."""
        moves = self.game.choices(self.state, viewer) if viewer is not None else []
        return {"seat": viewer, "deadline": None, "moves": moves}

    def reveal(self) -> dict[str, Any]:
        """The ``hand_revealed`` table event, as the table server writes it."""
        names = {seat: NAMES[seat] for seat in self.stacks}
        return {"type": "hand_revealed", **hand_summary(self.game, self.state, "main", HAND_ID, names, self.carry)}


def open_table(game: Game, settings: Any, stacks: Mapping[int, int], *, deck: Sequence[Card] | None = None,
               carry: Mapping[str, Any] | None = None) -> Table:
    """A table whose hand has just opened its betting."""
    players = [Player(seat, stack) for seat, stack in sorted(stacks.items())]
    state = game.new_hand(settings, players, SERVER_SEED, offer_from=1, arranged_deck=deck, carry=dict(carry or {}))
    table = Table(game, settings, state, dict(stacks), dict(carry or {}))
    table.apply(game.opening_events(state))
    return table


def caribbean(stacks: Mapping[int, int] | None = None, *, deck: Sequence[Card] | None = None,
              **settings: Any) -> Table:
    """A Caribbean Stud table (default: ann and bob with 1000 each).

    A player may hold ``max_hands`` spots while the other still chooses, unless the test sets
    ``max_hands_while_waiting`` itself: the samples bet several spots in any order.
    """
    settings = {"max_hands_while_waiting": settings.get("max_hands", 3), **settings}
    return open_table(CARIBBEAN, CaribbeanSettings.from_mapping(settings), stacks or {1: 1000, 2: 1000}, deck=deck)


def sixcard(stacks: Mapping[int, int] | None = None, *, deck: Sequence[Card] | None = None, **settings: Any) -> Table:
    """A 6 Card Poker table (default: ann and bob with 1000 each).

    A player may hold every box while the other still chooses, unless the test sets
    ``max_hands_while_waiting`` itself: the samples bet several boxes in any order.
    """
    settings = {"max_hands_while_waiting": settings.get("boxes", 4), **settings}
    return open_table(SIXCARD, SixcardSettings.from_mapping(settings), stacks or {1: 1000, 2: 1000}, deck=deck)


def arranged(hands: Mapping[int, str], *, stub: str = "") -> tuple[Card, ...]:
    """A deck that deals ``hands`` (place -> five cards; 0 is the dealer, dealt last in each round) one card at a
    time in place order, followed by ``stub`` and then every other card."""
    order = [*sorted(p for p in hands if p), 0]
    cards = {p: parse_cards(hands[p]) for p in order}
    deck = [cards[p][r] for r in range(5) for p in order]
    deck += parse_cards(stub) if stub else []
    return (*deck, *(c for c in range(52) if c not in deck))


def judged(result: Any, snapshot: Mapping[str, Any]) -> Any:
    """A parsed line as the play loop treats it: a move or table command the server's choices in ``snapshot`` do
    not hold is said in a sentence (what is possible now), never sent."""
    if isinstance(result, Move | SitOut | TopUp):
        event, args = TableSession._request(result)
        problem = check(read_offers(snapshot), event, args)
        if problem is not None:
            return InputError(problem)
    return result
