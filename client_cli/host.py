"""``hcf host``: the host (floor) commands, sent to ``/api/host`` with the host token."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from client_cli.api import ServerRefused, http_json

ACTIONS = {
    "create-table": "create_table",
    "change-settings": "change_settings",
    "pause": "pause",
    "resume": "resume",
    "remove-player": "remove_player",
    "grant-chips": "grant_chips",
    "declare-dead": "declare_dead",
    "misdeal": "misdeal",
    "shuffler-fault": "shuffler_fault",
    "arrange-deck": "arrange_deck",
    "close": "close_table",
}


def parse_settings(pairs: Sequence[str], raw_json: str | None = None) -> dict[str, Any]:
    """``key=value`` pairs (values read as JSON when they can be) over a JSON object.

    >>> parse_settings(["min_ante=10", "flush_pays=7: 300, 6: 100", "max_bonus_win=null"])
    {'min_ante': 10, 'flush_pays': '7: 300, 6: 100', 'max_bonus_win': None}
    """
    settings: dict[str, Any] = {}
    if raw_json:
        loaded = json.loads(raw_json)
        if not isinstance(loaded, dict):
            raise ValueError("--settings must be a JSON object")
        settings.update(loaded)
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--set takes KEY=VALUE, got {pair!r}")
        try:
            settings[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            settings[key.strip()] = value
    return settings


def host_payload(command: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The ``/api/host`` body for a ``hcf host`` subcommand.

    >>> host_payload("declare-dead", {"table": "main", "seat": 3})
    {'action': 'declare_dead', 'table': 'main', 'seat': 3}
    """
    payload: dict[str, Any] = {"action": ACTIONS[command]}
    for key in ("table", "seat", "account", "amount", "cards", "settings"):
        value = args.get(key)
        if value is not None:
            payload[key] = value
    return payload


def describe_reply(command: str, reply: Mapping[str, Any]) -> str:
    """A sentence for what the server answered."""
    details = {k: v for k, v in reply.items() if k != "ok"}
    if command == "create-table":
        return f"created table {details.get('table', {}).get('name')}"
    if command == "grant-chips":
        return f"granted {details.get('granted')} chips to {details.get('account')}: balance {details.get('balance')}"
    if command == "change-settings":
        when = "now" if details.get("applied") == "now" else "after the current hand"
        return f"settings change applies {when}"
    return f"{command}: done" + (f" {json.dumps(details)}" if details else "")


async def run_host(url: str, token: str, command: str, args: Mapping[str, Any], as_json: bool) -> int:
    """Send one host command and print the answer."""
    try:
        reply = await http_json("POST", f"{url.rstrip('/')}/api/host", host_payload(command, args), token=token)
    except ServerRefused as exc:
        if as_json:
            print(json.dumps({"ok": False, "error": {"code": exc.code, "message": exc.message}}))
        else:
            print(f"error: {exc.code}: {exc.message}")
        return 1
    print(json.dumps(reply, indent=2) if as_json else describe_reply(command, reply))
    return 0
