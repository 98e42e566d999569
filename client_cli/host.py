"""``hcf host``: the host (floor) commands, sent to ``/api/host`` with the host token."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import quote

import aiohttp

from client_cli.connection import ServerRefused, http_json

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
    odds = await fetch_odds(url, str(args.get("table"))) if command in ODDS_AFTER else None
    if as_json:
        print(json.dumps({**reply, "odds": odds} if odds else reply, indent=2))
    else:
        print(describe_reply(command, reply))
        if command in ODDS_AFTER:
            print(describe_odds(odds) if odds else "odds: still being worked out; "
                  f"see hcf-server analyze --table {args.get('table')}")
    return 0


ODDS_AFTER = ("create-table", "change-settings")
ODDS_TIMEOUT = 120.0
"""An exact High Card Flush analysis takes up to a minute the first time (docs/odds.md)."""
_BETS = {"ante_raise": "Ante+Raise", "flush_bonus": "Flush bonus", "straight_flush_bonus": "Straight Flush bonus",
         "ante_bet": "Ante+Bet", "jackpot": "jackpot", "bonus": "bonus"}


async def fetch_odds(url: str, table: str) -> dict[str, Any] | None:
    """The table's odds summary (``GET /api/tables/{name}/odds``), or None if it does not come in time."""
    try:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=ODDS_TIMEOUT)) as session, \
                session.get(f"{url.rstrip('/')}/api/tables/{quote(table, safe='')}/odds") as response:
            data: Any = await response.json(content_type=None)
    except (aiohttp.ClientError, TimeoutError, ValueError):
        return None
    odds = data.get("odds") if isinstance(data, dict) and data.get("ok") else None
    return odds if isinstance(odds, dict) else None


def describe_odds(odds: Mapping[str, Any]) -> str:
    """One line: each bet's house edge, the simulated ones marked.

    >>> describe_odds({"game": "hcf", "house_edge": {"ante_raise": 0.027114, "flush_bonus": 0.078072}})
    'odds: house edge Ante+Raise 2.711%, Flush bonus 7.807%'
    >>> describe_odds({"game": "hcf", "house_edge": {}, "dp_expected_per_hand": {"1": 1.9, "6": 11.45}})
    'odds: house edge ; banking: the DP expects +1.90 chips a hand against 1 player, +11.45 against 6 (simulated)'
    """
    simulated = set(odds.get("simulated", []))
    parts = [f"{_BETS.get(bet, bet)} {edge:.3%}" + (" (simulated)" if bet in simulated else "")
             for bet, edge in odds.get("house_edge", {}).items() if bet in _BETS]
    line = "odds: house edge " + ", ".join(parts)
    bank = odds.get("dp_expected_per_hand")
    if isinstance(bank, Mapping) and "1" in bank and "6" in bank:
        line += (f"; banking: the DP expects {bank['1']:+.2f} chips a hand against 1 player, "
                 f"{bank['6']:+.2f} against 6 (simulated)")
    return line
