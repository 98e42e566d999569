"""Replaying a recorded hand through the rules core (``hcf-server replay``).

Each hand's log holds its inputs beside its events: the first event carries the
starting players, stacks, settings and arranged deck (``_input.command ==
"new_hand"``), and every later command rides on the first event it caused. A
replay feeds the same inputs, with the revealed server seed, to the pure rules
and checks that every event, the settlement and every chip transfer come out
the same. A hand voided by a crash replays to its last recorded command, then
to the void, whose refunds must match the ones recorded at restart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from server.rules.arrange import seat_deck_from_json
from server.rules.cards import parse_cards
from server.rules.errors import RuleError
from server.rules.events import HandVoided
from server.rules.game import Game, Player, Transfer
from server.rules.games import game_named
from server.rules.vocabulary import AccountId

_TABLE_ROWS = frozenset({"hand_started", "hand_revealed"})  # the table's own rows in a hand's log


@dataclass(slots=True)
class ReplayReport:
    """What a replay found: ``ok`` when everything agreed."""

    hand_id: int
    status: str
    events_checked: int = 0
    transfers_checked: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the replay agreed with the record in every respect."""
        return not self.problems

    @property
    def in_progress(self) -> bool:
        """A hand still being played: nothing to compare yet, and no disagreement."""
        return self.status == "in_progress"

    def line(self) -> str:
        """One line for people."""
        status = self.status.replace("_", " ")
        if self.in_progress:
            return f"hand {self.hand_id} [{status}]: not checked: it is still being played; replay it when it ends"
        verdict = "ok" if self.ok else f"MISMATCH ({len(self.problems)})"
        return (f"hand {self.hand_id} [{status}]: {verdict}: {self.events_checked} events, "
                f"{self.transfers_checked} transfers checked")


def _public(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if not k.startswith("_")}


def replay_hand(
    hand_id: int,
    table: str,
    status: str,
    server_seed_hex: str,
    rows: Sequence[Mapping[str, Any]],
    transfers: Sequence[Transfer],
) -> ReplayReport:
    """Replay one hand from its log ``rows`` (payloads in seq order) and compare."""
    report = ReplayReport(hand_id, status)
    if report.in_progress:  # its end is not recorded yet: comparing now would find the missing end
        return report
    start = next((i for i, r in enumerate(rows) if (r.get("_input") or {}).get("command") == "new_hand"), None)
    if start is None:
        if status == "not_dealt":
            return report
        report.problems.append("no recorded inputs for this hand (recorded by an older server?)")
        return report
    inputs = rows[start]["_input"]
    if "accounts" not in inputs:
        report.problems.append("the recorded inputs lack the seat accounts (recorded by an older server)")
        return report
    accounts = {int(k): AccountId(int(v)) for k, v in inputs["accounts"].items()}
    game, state = _initial_state(inputs, server_seed_hex)
    expected: list[Transfer] = []
    pending = game.opening_events(state)
    position = start
    for index in range(start, len(rows)):
        row = rows[index]
        command = row.get("_input")
        if command is not None and command.get("command") != "new_hand":
            state = _check_block(report, game, state, pending, rows[position:index], table, accounts, expected)
            try:
                pending = game.decide(state, game.codec.command_from_json(dict(command)))
            except RuleError as exc:
                report.problems.append(f"seq-ordered input {command} is refused on replay: {exc}")
                return report
            position = index
    tail = rows[position:]
    if any(r.get("type") == "hand_voided" and r.get("reason") == "interrupted" for r in tail):
        pending = [*pending, HandVoided("interrupted")]  # voided at restart, after a crash
    state = _check_block(report, game, state, pending, tail, table, accounts, expected)
    _check_transfers(report, expected, transfers)
    _check_outcome(report, game, state, status, rows)
    return report


def state_at_end_of_log(
    rows: Sequence[Mapping[str, Any]], server_seed_hex: str,
) -> tuple[Game, Any, dict[int, AccountId], dict[str, Any]]:
    """The hand as its recorded inputs leave it (after a crash: where it stopped).

    Returns the game, the state, seat -> account, and what the hand started with (``carry``).
    """
    start = next(i for i, r in enumerate(rows) if (r.get("_input") or {}).get("command") == "new_hand")
    inputs = rows[start]["_input"]
    game, state = _initial_state(inputs, server_seed_hex)
    for row in rows[start + 1:]:
        command = row.get("_input")
        if command is not None:
            for event in game.decide(state, game.codec.command_from_json(dict(command))):
                state = game.evolve(state, event)
    accounts = {int(k): AccountId(int(v)) for k, v in inputs.get("accounts", {}).items()}
    return game, state, accounts, dict(inputs.get("carry") or {})


def initial_state(inputs: Mapping[str, Any], server_seed_hex: str) -> tuple[Game, Any]:
    """The game and the hand's first state, from the inputs recorded with its first event (before any event)."""
    return _initial_state(inputs, server_seed_hex)


def _initial_state(inputs: Mapping[str, Any], server_seed_hex: str) -> tuple[Game, Any]:
    game = game_named(str(inputs.get("game", "hcf")))
    settings = game.settings_from_mapping(inputs["settings"])
    players = [Player(int(s), int(stack), bool(w), bool(p)) for s, stack, w, p in inputs["players"]]
    arranged = inputs.get("arranged_deck")
    deck: Any = None
    if isinstance(arranged, dict):  # a drill deck given by seat (server/rules/arrange.py)
        deck = seat_deck_from_json(arranged["by_seat"])
    elif arranged:
        deck = parse_cards(arranged)
    state = game.new_hand(settings, players, bytes.fromhex(server_seed_hex), offer_from=int(inputs["offer_from"]),
                          arranged_deck=deck, carry=dict(inputs.get("carry") or {}))
    return game, state


def _check_block(
    report: ReplayReport, game: Game, state: Any, replayed: list[Any], rows: Sequence[Mapping[str, Any]],
    table: str, accounts: Mapping[int, AccountId], expected: list[Transfer],
) -> Any:
    """Compare the events one input caused with the recorded ones; return the state after them."""
    recorded = [_public(r) for r in rows if r.get("type") not in _TABLE_ROWS]
    mine = [game.codec.event_as_json(e) for e in replayed]
    report.events_checked += len(mine)
    if mine != recorded:
        first = next((i for i, (a, b) in enumerate(zip(mine, recorded, strict=False)) if a != b),
                     min(len(mine), len(recorded)))
        report.problems.append(
            f"event {first} after input differs: replayed {mine[first] if first < len(mine) else None} "
            f"recorded {recorded[first] if first < len(recorded) else None}")
    for event in replayed:
        expected += game.postings(state, event, table, accounts)
        state = game.evolve(state, event)
    return state


def _check_transfers(report: ReplayReport, expected: list[Transfer], recorded: Sequence[Transfer]) -> None:
    """The same chips between the same places, whatever the grouping of refunds."""
    def totals(items: Sequence[Transfer]) -> Counter[tuple[str, str]]:
        out: Counter[tuple[str, str]] = Counter()
        for t in items:
            out[(t.src, t.dst)] += t.amount
        return out

    mine, theirs = totals(expected), totals(recorded)
    report.transfers_checked = len(recorded)
    for key in sorted(set(mine) | set(theirs)):
        if mine[key] != theirs[key]:
            report.problems.append(f"chips {key[0]} -> {key[1]}: replayed {mine[key]}, recorded {theirs[key]}")


def _check_outcome(report: ReplayReport, game: Game, state: Any, status: str,
                   rows: Sequence[Mapping[str, Any]]) -> None:
    if state.phase != status:
        report.problems.append(f"the replay ends {state.phase}, the record says {status}")
    summary = next((r for r in reversed(rows) if r.get("type") == "hand_revealed"), None)
    replayed = game.summary(state).get("settlement")
    if replayed is not None and summary is not None and "settlement" in summary \
            and summary["settlement"] != replayed:
        report.problems.append("the recorded settlement differs from the replayed one")
