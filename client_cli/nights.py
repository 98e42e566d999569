"""``hcf host session open|close`` and ``hcf host replays`` (issue 28, items 3 and 4; docs/cli.md): a table's
sessions for settle-up, and who may open its replay links. Closing a session prints its final settle-up."""

from __future__ import annotations

import json
from urllib.parse import quote

from client_cli.api import ServerRefused, http_json
from client_cli.host import print_refusal


def _table_url(url: str, table: str, tail: str) -> str:
    return f"{url.rstrip('/')}/api/tables/{quote(table, safe='')}/{tail}"


async def run_session(url: str, token: str, table: str, action: str, as_json: bool) -> int:
    """Open or close the table's session; a close prints the session's settle-up under the server's sentence."""
    try:
        reply = await http_json("POST", _table_url(url, table, "session"), {"action": action}, token=token)
    except ServerRefused as exc:
        return print_refusal(exc, as_json)
    if as_json:
        print(json.dumps(reply, indent=2))
        return 0
    settle = reply.get("settle_up") if reply.get("closed") else None
    print("\n".join([str(reply.get("message", "")), *((settle or {}).get("lines") or [])]))
    return 0


async def run_replays(url: str, token: str, table: str, replays: str | None, as_json: bool) -> int:
    """Say who may open the table's replay links, or set it (anyone, players or host)."""
    try:
        if replays is None:
            reply = await http_json("GET", _table_url(url, table, "replays"), token=token)
        else:
            reply = await http_json("POST", _table_url(url, table, "replays"), {"replays": replays}, token=token)
    except ServerRefused as exc:
        return print_refusal(exc, as_json)
    if as_json:
        print(json.dumps(reply, indent=2))
    else:
        print(reply.get("message", ""))
    return 0
