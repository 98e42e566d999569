"""Table chat in the terminal (docs/client.md, "Chat"): a chat line as the table's log shows it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def chat_text(line: Mapping[str, Any]) -> str:
    """A chat line as the terminal shows it: who and where, then the text, printable characters only.

    >>> chat_text({"chat_kind": "line", "room": "spectators", "name": "carl", "text": "<b>hi</b>\x1b[2J"})
    '[chat] spectator carl: <b>hi</b>[2J'
    """
    text = "".join(c for c in str(line.get("text", "")) if c.isprintable())
    if line.get("chat_kind") not in ("line", "reaction"):
        return f"[host] {text}"
    where = "spectator " if line.get("room") == "spectators" else ""
    return f"[chat] {where}{line.get('name')}: {text}"
