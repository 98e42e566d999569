"""Session tokens kept in the user's config directory, readable by the user alone.

``$XDG_CONFIG_HOME/hcf-table/sessions.json`` (``~/.config`` by default), mode
0600 in a 0700 directory: per server URL, the last name used and a token per
name (bots' accounts under ``bots``). Passwords are never stored.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

FILE_NAME = "sessions.json"


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/hcf-table`` or ``~/.config/hcf-table``."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "hcf-table"


def server_key(url: str) -> str:
    """Tokens are kept per server, keyed by its URL without a trailing slash."""
    return url.rstrip("/")


class TokenStore:
    """Reads and writes the sessions file (created 0600 on first save)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.path = (directory or config_dir()) / FILE_NAME

    def _load(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def _save(self, data: dict[str, Any]) -> None:
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=2, sort_keys=True)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)

    def _server(self, data: dict[str, Any], url: str) -> dict[str, Any]:
        servers = data.setdefault("servers", {})
        entry: dict[str, Any] = servers.setdefault(server_key(url), {})
        return entry

    def token(self, url: str, name: str, *, kind: str = "tokens") -> str | None:
        """The saved token of ``name`` on ``url``, if any."""
        entry = self._server(self._load(), url)
        token = (entry.get(kind) or {}).get(name.lower())
        return token if isinstance(token, str) else None

    def last_name(self, url: str) -> str | None:
        """The name last logged in on ``url``."""
        name = self._server(self._load(), url).get("last_name")
        return name if isinstance(name, str) else None

    def names(self, url: str) -> list[str]:
        """The people with a saved session on ``url`` (as they wrote their names), sorted."""
        entry = self._server(self._load(), url)
        tokens = entry.get("tokens") or {}
        spelled = entry.get("names") or {}
        return sorted((str(spelled.get(key, key)) for key, token in tokens.items() if isinstance(token, str)),
                      key=str.lower)

    def save(self, url: str, name: str, token: str, *, kind: str = "tokens") -> None:
        """Keep a token (and, for people, remember the name as written and as the last used)."""
        data = self._load()
        entry = self._server(data, url)
        entry.setdefault(kind, {})[name.lower()] = token
        if kind == "tokens":
            entry["last_name"] = name
            entry.setdefault("names", {})[name.lower()] = name
        self._save(data)

    def forget(self, url: str, name: str, *, kind: str = "tokens") -> None:
        """Drop a token (after logging out, or when the server no longer knows it)."""
        data = self._load()
        entry = self._server(data, url)
        with contextlib.suppress(KeyError):
            del entry.setdefault(kind, {})[name.lower()]
        self._save(data)
