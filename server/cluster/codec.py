"""Table commands and their replies as JSON, for the trip between processes over Redis."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Final

from server.rules.vocabulary import AccountId
from server.table.commands import (
    Host,
    Play,
    Presence,
    SetSitOut,
    SetWilling,
    Sit,
    Snapshot,
    Stand,
    TableCommand,
    TableError,
    TopUp,
)
from server.table.ports import TableUpdates, UpdatePayload

COMMANDS: Final[dict[str, type[Any]]] = {
    cls.__name__: cls for cls in (Sit, Stand, TopUp, SetSitOut, SetWilling, Presence, Play, Snapshot, Host)
}


def encode_command(command: TableCommand) -> dict[str, Any]:
    """A command as a JSON object: its type and its fields (``args`` pairs as lists, or a move's mapping)."""
    name = type(command).__name__
    if name not in COMMANDS:
        raise TableError("request/internal", f"{name} cannot be sent to another process")
    return {"type": name, **{f.name: getattr(command, f.name) for f in dataclasses.fields(command)}}


def decode_command(data: dict[str, Any]) -> TableCommand:
    """The command :func:`encode_command` encoded (raises TableError on anything else)."""
    values = dict(data)
    cls = COMMANDS.get(str(values.pop("type", "")))
    if cls is None:
        raise TableError("request/internal", "an unknown command came from another process")
    if isinstance(values.get("args"), dict):  # a move's arguments, as the request's model validated them
        values["args"] = {str(k): v for k, v in values["args"].items()}
    elif "args" in values:
        values["args"] = tuple((str(k), v) for k, v in values["args"])
    command: TableCommand = cls(**values)
    return command


def dumps(data: dict[str, Any]) -> str:
    """JSON text (anything JSON lacks, as text)."""
    return json.dumps(data, default=str, separators=(",", ":"))


def encode_updates(origin: str, table: str, updates: TableUpdates) -> str:
    """A batch's updates as the text published on the updates channel (account ids as JSON keys: text)."""
    return dumps({"origin": origin, "table": table, "spectator": dict(updates.spectator),
                  "accounts": {str(a): dict(u) for a, u in updates.accounts.items()}, "skip": sorted(updates.skip),
                  "snapshot": updates.snapshot})


def decode_updates(data: dict[str, Any]) -> tuple[str, TableUpdates]:
    """The table and updates :func:`encode_updates` encoded (raises KeyError, TypeError or ValueError if not)."""
    accounts: dict[AccountId, UpdatePayload] = {AccountId(int(a)): u for a, u in data["accounts"].items()}
    spectator: UpdatePayload = data["spectator"]
    skip = frozenset(AccountId(int(a)) for a in data["skip"])
    return str(data["table"]), TableUpdates(spectator, accounts, skip, bool(data.get("snapshot", False)))
