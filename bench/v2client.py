"""What a benchmark player of protocol v2 keeps and decides (docs/protocol.md, issue 15).

Protocol v2 sends each viewer one ``table_update`` per batch of table commands
(``{"table", "from_seq", "seq", "server_time", "events", "view", "choices"}``), and the
acting player's own update inside the acknowledgement of its request (``reply["update"]``).
``choices`` says what the viewer may do now; every hand move goes through ``move``.

This module has no I/O: :class:`Model` applies updates with the gap rule, and
:func:`pick_move` turns a viewer's choices into the request the benchmark's player sends
(the bank when offered, the smallest Ante, then raise or fold by the basic strategy).
Both the load generator (``bench/loadgen.py``) and the latency table
(``bench/server_bench.py``) use it, and ``bench/test_v2client.py`` checks it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from server.viewpatch import apply as apply_patch

# The raise a player makes with its cards (0 folds): client_cli.bots.choose_raise's signature.
RaiseChooser = Callable[[str, list[str], int, int, random.Random], "int | None"]

APPLIED, OLD, GAP = "applied", "old", "gap"


@dataclass(slots=True)
class Model:
    """One viewer's table model: the last seq applied, the choices, and the snapshot-shaped view."""

    seq: int | None = None
    choices: dict[str, Any] = field(default_factory=dict)
    view: dict[str, Any] = field(default_factory=dict)

    def apply(self, update: dict[str, Any]) -> str:
        """Apply one update by the gap rule: ``APPLIED``, ``OLD`` (dropped) or ``GAP`` (ask a snapshot).

        A model that has seen nothing yet (``seq`` None: the benchmark's players sit
        without a ``join``) takes the first update it gets as its starting point.
        """
        seq, first = int(update["seq"]), int(update.get("from_seq", update["seq"]))
        if self.seq is not None:
            if seq <= self.seq:
                return OLD
            if first > self.seq + 1:
                return GAP
        view = {**self.view, **(update.get("view") or {})}
        try:
            self.view = apply_patch(view, update.get("patch") or [])
        except ValueError:  # a patch of a key this model never had: start again from a snapshot
            return GAP
        self.seq = seq
        if isinstance(update.get("choices"), dict):
            self.choices = update["choices"]
        return APPLIED

    def load_snapshot(self, reply: dict[str, Any]) -> None:
        """Start again from a ``join`` / ``snapshot`` answer (its choices inside the snapshot or beside it)."""
        snapshot = reply.get("snapshot") or {}
        self.view = dict(snapshot)
        self.seq = int(snapshot["seq"])
        choices = snapshot.get("choices", reply.get("choices"))
        self.choices = choices if isinstance(choices, dict) else {}

    @property
    def seat(self) -> int | None:
        seat = self.choices.get("seat")
        return int(seat) if isinstance(seat, int) else None


def is_v2_snapshot(reply: dict[str, Any]) -> bool:
    """Whether a ``join`` answer comes from a v2 server (it carries ``choices``)."""
    snapshot = reply.get("snapshot") or {}
    return "choices" in snapshot or "choices" in reply


def events_of(update: dict[str, Any]) -> Iterator[tuple[int, bool, dict[str, Any]]]:
    """``(seq, private, event)`` for each event of an update, in order."""
    for item in update.get("events") or ():
        if isinstance(item, dict):
            yield int(item.get("seq") or 0), bool(item.get("private")), item.get("event") or {}


def _within(value: int, limits: Any) -> int:
    """``value`` kept inside a ``{"min", "max"}`` range (or the range's min when no range is given)."""
    if not isinstance(limits, dict):
        return value
    low, high = int(limits.get("min", value)), int(limits.get("max", value))
    return max(low, min(high, value))


@dataclass(frozen=True, slots=True)
class Pick:
    """The request a player sends: ``request`` (the Socket.IO event), its payload without ``table``, and a label."""

    request: str
    payload: dict[str, Any]
    label: str  # what the statistics call it: bank, bet, raise, fold, pass, sit_out


def pick_move(choices: dict[str, Any], cards: list[str], ante: int, rng: random.Random,
              choose_raise: RaiseChooser) -> Pick | None:
    """The one request this player makes now from its ``choices``, or None (nothing to do).

    Hand moves first: the bank (accepted), a bet (the smallest Ante the table allows at
    or above ``ante``, no bonus), raise or fold by the basic strategy on the player's
    cards (fold when the cards are unknown), pass when betting is all it may do but pass.
    Of the table-level items only coming back from sitting out is taken (a player the
    table sat out for a missed clock); the rest (sit, stand, top up...) are left.
    """
    moves = [m for m in choices.get("moves") or () if isinstance(m, dict)]
    hand = {str(m.get("action")): m for m in moves if m.get("request") == "move"}
    if "bank" in hand:
        return Pick("move", {"action": "bank", "accept": True}, "bank")
    if "bet" in hand:
        return Pick("move", {"action": "bet", "ante": _within(ante, hand["bet"].get("ante"))}, "bet")
    if "raise" in hand or "fold" in hand:
        limits = (hand.get("raise") or {}).get("amount")
        top = int(limits["max"]) if isinstance(limits, dict) and "max" in limits else 10**9
        amount = (choose_raise("basic", cards, ante, top, rng) or 0) if cards and "raise" in hand else 0
        if amount:
            return Pick("move", {"action": "raise", "amount": _within(amount, limits)}, "raise")
        if "fold" in hand:
            return Pick("move", {"action": "fold"}, "fold")
    if "pass" in hand:
        return Pick("move", {"action": "pass"}, "pass")
    for item in moves:
        if item.get("request") == "sit_out" and item.get("sitting_out") is False:
            return Pick("sit_out", {"sitting_out": False}, "sit_out")
    return None
