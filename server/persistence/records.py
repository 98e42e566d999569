"""What the store hands back: frozen records, never table rows or hashes.

Timestamps are integer microseconds since the Unix epoch (``Micros``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

import orjson

from server.persistence.errors import StoreError

Micros: TypeAlias = int
# Seconds since the Unix epoch, like ``time.time``; injected so tests can move time.
Clock: TypeAlias = Callable[[], float]
JsonObject: TypeAlias = dict[str, Any]


def to_micros(seconds: float) -> Micros:
    """Seconds (as a clock gives them) to whole microseconds."""
    return round(seconds * 1_000_000)


# Anything orjson would write by its own rules (a dataclass, a datetime; a key that is not text, which the
# standard library writes as its repr) goes to the standard library instead, which writes or refuses it as before.
_ORJSON_OPTIONS: Final = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME


def dump_json(value: Mapping[str, Any]) -> str:
    """Compact, strict JSON (no NaN); ``db/not_json`` for what JSON cannot hold.

    Written by orjson (a table writes one a recorded event: the standard library's encoder was
    3% of a burst hand's CPU, docs/benchmarks.md, eleventh round). Where orjson would differ in
    what the text means, the standard library writes it: a key that is not text (a seat
    number), a number past 64 bits, text that is not valid Unicode, and a NaN or an infinity
    (orjson writes those as ``null``, so a text with a ``null`` in it is checked for one).
    Small floats read ``1e-7``, not ``1e-07``, and text other than ASCII is written as itself:
    the same values once read back.

    >>> dump_json({"seat": 3, "name": "José", "deadline": 1.5, "to": None})
    '{"seat":3,"name":"José","deadline":1.5,"to":null}'
    >>> dump_json({"paid": {2: 15}})
    '{"paid":{"2":15}}'
    >>> try:
    ...     dump_json({"x": float("nan")})
    ... except StoreError as refused:
    ...     print(refused.code)
    db/not_json
    """
    try:
        text = orjson.dumps(value, option=_ORJSON_OPTIONS)
    except TypeError:
        return _strict_json(value)
    if b"null" in text and _non_finite(value):
        return _strict_json(value)
    return text.decode()


def _strict_json(value: Mapping[str, Any]) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise StoreError("db/not_json", f"cannot store as JSON: {exc}") from exc


def _non_finite(value: object) -> bool:
    """Whether a NaN or an infinity is somewhere in ``value``."""
    if isinstance(value, float):
        return not math.isfinite(value)
    if isinstance(value, dict):
        return any(_non_finite(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_non_finite(v) for v in value)
    return False


def load_json(text: str) -> JsonObject:
    """The object stored by :func:`dump_json`."""
    value = json.loads(text)
    if not isinstance(value, dict):
        raise StoreError("db/not_json", "stored JSON is not an object")
    return value


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    created_at: Micros
    is_host: bool


@dataclass(frozen=True, slots=True)
class TableInfo:
    name: str
    game: str
    settings: JsonObject
    created_at: Micros
    closed: bool


@dataclass(frozen=True, slots=True)
class SettingsChange:
    table: str
    at: Micros
    by_account_id: int | None
    old: JsonObject
    new: JsonObject


@dataclass(frozen=True, slots=True)
class Seat:
    table: str
    seat_no: int
    account_id: int
    willing_to_bank: bool
    sitting_out: bool
    sat_out_at: Micros | None


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand as stored. ``server_seed`` is secret until the hand ends: never send it earlier."""

    id: int
    table: str
    hand_no: int
    started_at: Micros
    ended_at: Micros | None
    status: str
    server_seed: str
    commitment: str
    shuffle_version: int
    arranged: bool
    summary: JsonObject | None
    number: int | None = None  # the table's own hand number, once the cards were dealt


@dataclass(frozen=True, slots=True)
class Event:
    table: str
    hand_id: int | None
    seq: int
    type: str
    payload: JsonObject
    created_at: Micros


@dataclass(frozen=True, slots=True)
class Transfer:
    """One movement of chips; also the input of ``Tx.transfers``."""

    src: str
    dst: str
    amount: int
    kind: str
    table: str | None = None
    hand_id: int | None = None
    key: str | None = None
    memo: str = ""


@dataclass(slots=True)
class LedgerReport:
    """The result of ``Database.ledger_check``.

    ``ok`` covers the accounting invariants; chips left on the felt outside a hand
    are listed in ``open_felt_places`` and do not make it false (see docs/persistence.md).
    """

    ok: bool
    discrepancies: list[str]
    totals: dict[str, int]
    places: int = 0
    transfers: int = 0
    open_felt_places: dict[str, int] = field(default_factory=dict)
    rigged: list[str] = field(default_factory=list)  # arranged hands that paid who could rig them (rigging.py)

    def summary(self) -> str:
        """One line for the log."""
        issued = -self.totals.get("issuance", 0)
        head = (
            f"ledger ok: {self.places} places, {self.transfers} transfers, {issued} chips issued"
            if self.ok
            else f"ledger BROKEN: {len(self.discrepancies)} discrepancies, first: {self.discrepancies[0]}"
        )
        if self.rigged:
            head += f"; FLAGGED: {len(self.rigged)} arranged hands paid who could rig them, first: {self.rigged[0]}"
        if self.open_felt_places:
            head += f"; {len(self.open_felt_places)} felt places hold chips outside a hand"
        return head


@dataclass(frozen=True, slots=True)
class Invite:
    """An invite link as stored: never its token (only the token's digest is kept, and not handed out)."""

    id: int
    table: str
    role: str
    created_at: Micros
    expires_at: Micros
    max_uses: int | None
    used: int
    revoked: bool


@dataclass(frozen=True, slots=True)
class Redemption:
    """What redeeming an invite gave: a guest account and its session (players, floor), a host token (floor)."""

    invite_id: int
    table: str
    role: str
    name: str | None
    account_id: int | None
    session_token: str | None
    host_token: str | None
