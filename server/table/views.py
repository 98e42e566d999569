"""What each viewer sees of the table (snapshots, the parts updates are built from) and may do (choices).

A :class:`TableView` is a frozen picture of the table at one moment, taken by the runner
(``TableContext.view``); everything here is a function of it, with no I/O and no clock. The
update builder reads the same picture (it is a :class:`~server.table.updates.TableViews`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from server.i18n import spec
from server.rules.game import AccountId, Game, TableSettings
from server.rules.state_views import PerState
from server.rules.vocabulary import JSON, Seat
from server.table import facts
from server.table.course import GAME_ENDED, Course, in_play
from server.table.drill_state import LiveDrill
from server.table.floor_state import Floor
from server.table.hand_clock import HandClock
from server.table.ports import Choices
from server.table.roster import NEXT_HAND, Roster, Seated

if TYPE_CHECKING:
    from server.analysis.analyze import Settings

# A table's settings as every view shows them, made once per settings object (they change only when the host
# changes them): made anew, they were built and compared key by key every batch (issue 25, eleventh round).
_posted: PerState[TableSettings, JSON] = PerState(lambda settings: settings.as_dict(), kept=1024)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableView:
    """The table as viewers see it at one moment: what every view and choice is computed from."""

    name: str
    game: Game
    seq: int
    now: float  # the table's wall time when the picture was taken
    floor: Floor
    course: Course
    roster: Roster
    stacks: Mapping[AccountId, int]
    clock: HandClock | None
    drill: LiveDrill | None
    # The table-level choices of each kind of seat, built once for this picture (every seat's update asks)
    _table_moves: dict[tuple[object, ...], list[JSON]] = field(default_factory=dict, init=False, compare=False,
                                                                repr=False)

    @property
    def settings(self) -> TableSettings:
        """The game's settings posted now (server.rules.game.TableSettings)."""
        return self.floor.posted

    def hand_in_progress(self) -> bool:
        """Whether a hand has started and not ended."""
        return in_play(self.course, self.game.terminal)

    def _in_current_hand(self, seated: Seated) -> bool:
        return self.hand_in_progress() and seated.seat in self.course.hand_accounts

    def snapshot(self, account: AccountId | None) -> JSON:
        """Everything ``account`` may see of the table now (spectator when None), and what it may do."""
        return {
            "table": self.name,
            "game": self.game.name,
            "game_name": self.game.moves.game,  # a client that does not know the game names it with these
            "game_moves": self.game.moves.as_json(),
            "seq": self.seq,
            "server_time": self.now,
            **self.shared_view(),
            "hand": self.hand_view(self.hand_seat(account)),
            "you": self.you(account),
            "choices": self.choices(account),
        }

    def shared_view(self) -> JSON:
        """The snapshot's keys that every viewer sees alike."""
        button = self.button()
        return {
            "settings": _posted(self.settings),
            "status": self.status(),
            "waiting_reason": self.course.waiting_reason,
            "seats": [s.public(self.stacks.get(s.account, 0), button)
                      for _, s in sorted(self.roster.by_seat.items())],
            "button": button,
            # Also while the next hand is played: a client back after a restart learns its hand's fate.
            "last_hand": self.course.last_summary,
            "arranged_next": self.course.arranged_next is not None,
            "drill": None if self.drill is None else self.drill.public(),
            **self.table_view(),
        }

    def table_view(self) -> JSON:
        """The game's table-wide figures, given the table's clock and its players' names (server/table/facts.py)."""
        names = {seat: seated.name for seat, seated in self.roster.by_seat.items()}
        return self.game.table_view(self.settings, facts.given(self.course.carry, now=self.now, names=names))

    def hand_seat(self, account: AccountId | None) -> Seat | None:
        """The seat ``account`` plays in this hand (None: it sees the hand as a spectator)."""
        seated = self.roster.of_account(account) if account is not None else None
        return seated.seat if seated is not None and self.course.hand_accounts.get(seated.seat) == account else None

    def hand_view(self, seat: Seat | None) -> JSON | None:
        """The hand as ``seat`` (None: a spectator) sees it; None before the first dealt hand."""
        state = self.course.state
        if state is None or state.phase == "not_dealt":
            return None
        if self.drill is not None and self.drill.held is not None and self.course.hand_id is None:
            return None  # a new hand's first events wait for the trainee: nobody sees it (its offer) before them
        hand: JSON = self.game.hand_view(state, seat) | {"hand_id": self.course.hand_id or self.course.last_hand_id,
                                                          "number": self.course.hand_number}
        if self.clock is not None:
            hand["clock"] = {"kind": self.clock.kind, "seat": self.clock.seat, "deadline": self.clock.deadline}
        return hand

    def hand_key(self) -> tuple[object, ...]:
        """Changes whenever a hand view may change (the state, the hand's ids, the clock)."""
        clock = self.clock.deadline if self.clock is not None else None
        return (self.course.state, self.course.hand_id, self.course.last_hand_id, self.course.hand_number, clock)

    def you(self, account: AccountId | None) -> JSON:
        """The snapshot's ``you``."""
        seated = self.roster.of_account(account) if account is not None else None
        return {"account": account, "seat": seated.seat if seated else None,
                "sitting_out": seated.sitting_out if seated else None}

    def seated_accounts(self) -> frozenset[AccountId]:
        """The accounts seated here now."""
        return frozenset(s.account for s in self.roster.by_seat.values())

    def choices(self, account: AccountId | None) -> Choices:
        """What ``account`` may do now (docs/protocol.md section 3); an account without a seat, as a spectator."""
        seated = self.roster.of_account(account) if account is not None else None
        if self.floor.closed:
            return {"seat": None if seated is None else seated.seat, "deadline": None, "moves": []}
        if seated is None:
            free = [n for n in range(1, self.settings.seats + 1) if n not in self.roster.by_seat]
            moves: list[JSON] = []
            if free and not self.floor.closing:
                moves.append({"request": "sit", "seats": free,
                              "buy_in": {"min": self.settings.min_buy_in, "max": self.settings.max_buy_in}})
            return {"seat": None, "deadline": None, "moves": moves}
        hand = self._hand_choices(seated)
        choices: Choices = {"seat": seated.seat, "deadline": self._deadline(seated.seat) if hand else None,
                            "moves": hand + self._table_choices(seated)}
        if self.hand_in_progress() and not seated.sitting_out and not self._in_current_hand(seated):
            choices["next_hand"] = NEXT_HAND
            choices["say"] = {"next_hand": spec(NEXT_HAND)}  # each viewer's client says it in its language
        return choices

    def _hand_choices(self, seated: Seated) -> list[JSON]:
        if not self.hand_in_progress() or self.course.hand_accounts.get(seated.seat) != seated.account:
            return []
        if self.drill is not None and self.drill.held is not None:
            return []  # the table waits for the trainee
        return self.game.choices(self.course.state, seated.seat)

    def _table_choices(self, seated: Seated) -> list[JSON]:
        """The table-level items, the same for every game; one list for every seat they are the same for."""
        in_hand = self._in_current_hand(seated)
        room = self.settings.max_buy_in - self.stacks.get(seated.account, 0)
        kind = (in_hand, seated.leaving, seated.leave_reason is None, seated.sitting_out, seated.willing_to_bank,
                None if in_hand or room < 1 else room)
        moves = self._table_moves.get(kind)
        if moves is None:
            moves = self._table_moves[kind] = self._table_moves_of(seated, in_hand, room)
        return moves

    def _table_moves_of(self, seated: Seated, in_hand: bool, room: int) -> list[JSON]:
        moves: list[JSON] = []
        if in_hand and seated.leaving:
            if seated.leave_reason is None and not self.floor.closing:
                moves.append({"request": "stay"})
        else:
            moves.append({"request": "leave" if in_hand else "stand"})
        if not in_hand and room >= 1:
            moves.append({"request": "top_up", "amount": {"min": 1, "max": room}})
        moves.append({"request": "sit_out", "sitting_out": not seated.sitting_out})
        if not self.settings.house_banked:
            moves.append({"request": "willing_to_bank", "willing": not seated.willing_to_bank})
        return moves

    def _deadline(self, seat: Seat) -> float | None:
        """The running clock's deadline when it times this seat's decision or a round it takes part in."""
        clock = self.clock
        if clock is None or (clock.seat is not None and clock.seat != seat):
            return None
        return clock.deadline

    def status(self) -> str:
        """The table's status: closed, playing, paused or waiting."""
        if self.floor.closed:
            return "closed"
        if self.hand_in_progress():
            return "playing"
        return "paused" if self.floor.paused else "waiting"

    def button(self) -> int | None:
        """The seat that banked the last hand (the game says which), while that player still sits there."""
        dealer = self.game.dealer_seat(self.course.state) if self.course.state is not None else None
        if dealer is None:
            return None
        seated = self.roster.by_seat.get(dealer)
        if seated is None or self.course.hand_accounts.get(dealer) != seated.account:
            return None
        return dealer

    def lobby_entry(self) -> JSON:
        """The table as the lobby lists it."""
        button = self.button()
        return {
            "name": self.name,
            "game": self.game.name,
            "settings": self.settings.as_dict(),
            **self.table_view(),
            "seats": [s.public(self.stacks.get(s.account, 0), button)
                      for _, s in sorted(self.roster.by_seat.items())],
            "phase": self.course.state.phase if self.hand_in_progress() and self.course.state else self._lobby_status(),
            **self._odds(),
        }

    def _lobby_status(self) -> str:
        """What the lobby says a table does between hands: its status, or that its game ended."""
        status = self.status()
        return GAME_ENDED if status == "paused" and self.course.waiting_reason == GAME_ENDED else status

    def _odds(self) -> JSON:
        """Each bet's house edge when the analysis is known (docs/odds.md); never computed here."""
        from server.analysis.service import lobby_odds

        # The analysis names the three games it analyses; any other game's settings have no report (None).
        odds = lobby_odds(cast("Settings", self.settings), self.course.carry.get("meter"), self.name)
        return {} if odds is None else {"odds": odds}
