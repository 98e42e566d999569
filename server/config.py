"""Server settings: read once at the edge (flags, then environment, then a config file), passed down.

Every setting has an environment variable ``HCF_<NAME>`` and a key of the same name in the
config file (``server/config_file.py``); the database is ``HCF_DB`` (or ``HCF_DATABASE_URL``,
``DATABASE_URL``) and ``db``. ``docs/configuration.md`` lists them all.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal


def default_data_dir() -> Path:
    """Where the SQLite file lives unless told otherwise (XDG data home)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "hcf-table"


@dataclass(frozen=True, slots=True)
class ServerConfig:
    """Every server setting with its default."""

    host: str = "127.0.0.1"
    port: int = 8765
    web_port: int = 8080  # the browser client's port (docs/web-server.md); 0: only the main port serves the pages
    allowed_origins: str = ""  # comma-separated origins besides the server's own that may open the socket
    public_url: str = ""  # the address friends reach (behind a proxy: https://cards.example); invite links start so
    database_url: str = ""
    data_dir: str = ""
    log_format: str = "console"
    log_level: str = "info"
    sqlite_synchronous: Literal["NORMAL", "FULL"] = "NORMAL"  # FULL survives power loss too (reliability.md)
    table_defaults: Mapping[str, Any] = field(default_factory=dict)
    starting_chips: int = 10_000
    token_days: float = 30.0
    ping_interval: float = 5.0
    ping_timeout: float = 5.0
    clock_grace: float = 0.5
    shutdown_grace: float = 20.0
    rate_per_second: float = 20.0
    rate_burst: int = 40
    # Abuse limits (docs/reliability.md, "Against abuse").
    login_rate_per_second: float = 2.0  # per client address, on the routes that check passwords
    login_burst: int = 10
    account_login_rate_per_second: float = 0.2  # failed password checks per account name
    account_login_burst: int = 10
    limit_keys: int = 10_000  # buckets kept per limit; the least recently used is forgotten first
    trusted_proxies: str = ""  # comma-separated addresses/networks whose X-Forwarded-For is believed
    reconnect_rate_per_second: float = 0.5  # Socket.IO connections per account
    reconnect_burst: int = 10
    presence_grace: float = 3.0  # a drop and a return within this many seconds publish nothing
    header_timeout: float = 10.0  # a new connection's first request headers, and any request body
    idle_timeout: float = 30.0  # a kept-alive HTTP connection with no request
    max_connections_per_address: int = 64  # not counting sockets that logged in to an account
    max_pending_connections: int = 0  # the same, from all addresses; 0: three quarters of RLIMIT_NOFILE
    log_repeat_seconds: float = 60.0  # the same event-loop error is logged once per this, with a count
    max_sessions_per_account: int = 20  # live session tokens; a new login revokes the oldest beyond this
    register_address_burst: int = 10  # new accounts (registered, or guests from invite links) per address
    register_address_per_hour: float = 10.0
    register_burst: int = 100  # new accounts from every address together
    register_per_hour: float = 200.0
    history_burst: int = 60  # hand history requests per address
    history_rate_per_second: float = 10.0
    max_bad_frames: int = 5  # Socket.IO frames a connection may send that cannot be decoded; then it is closed
    # Garbage collection (server/gcpolicy.py): freeze long-lived objects; look at everything every so often.
    gc_freeze: bool = True
    gc_sweep_seconds: float = 600.0
    # Several processes (docs/scaling.md): empty means one process, as before.
    redis_url: str = ""
    node_id: str = ""  # this process's name in table leases; empty: host name and process id
    lease_seconds: float = 3.0
    lease_renew_seconds: float = 1.0

    def __post_init__(self) -> None:
        for part in (p.strip() for p in self.trusted_proxies.split(",")):
            if part:
                try:
                    ipaddress.ip_network(part, strict=False)
                except ValueError:
                    raise ValueError(f"{ENV_PREFIX}TRUSTED_PROXIES: {part!r} is not an IP address or network") \
                        from None

        for origin in origins_of(self.allowed_origins):
            if not re.fullmatch(r"https?://[^/\s]+", origin):
                raise ValueError(f"{ENV_PREFIX}ALLOWED_ORIGINS: {origin!r} is not an origin: write it as "
                                 "scheme://host[:port], e.g. https://cards.example")
        if self.public_url and not re.fullmatch(r"https?://[^/\s]+/?", self.public_url):
            raise ValueError(f"{ENV_PREFIX}PUBLIC_URL: {self.public_url!r} is not scheme://host[:port]")

    def resolved_database_url(self) -> str:
        """The database URL, defaulting to ``hcf.db`` in the data directory."""
        if self.database_url:
            return self.database_url
        directory = Path(self.data_dir) if self.data_dir else default_data_dir()
        return f"sqlite:///{directory / 'hcf.db'}"


ENV_PREFIX = "HCF_"


def origins_of(text: str) -> tuple[str, ...]:
    """The origins of a comma-separated list, without blanks or a trailing slash.

    >>> origins_of("https://cards.example/, http://10.0.0.5:8080,")
    ('https://cards.example', 'http://10.0.0.5:8080')
    """
    return tuple(part.strip().rstrip("/") for part in text.split(",") if part.strip())


DATABASE_VARIABLES = (ENV_PREFIX + "DB", ENV_PREFIX + "DATABASE_URL", "DATABASE_URL")
"""The database's environment variables, the first one set (and not empty) taken."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ConfigFile:
    """A server config file as read: where it is, what named it, its settings by ``ServerConfig`` name."""

    path: Path
    named_by: str  # "--config", "HCF_CONFIG" or "the default place"
    values: Mapping[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        """How the file was found, in words: ``/etc/hcf/server.toml (named by --config)``."""
        how = "found at the default place" if self.named_by == DEFAULT_PLACE else f"named by {self.named_by}"
        return f"{self.path} ({how})"


DEFAULT_PLACE = "the default place"


def config_from(env: Mapping[str, str], overrides: Mapping[str, Any],
                file: ConfigFile | None = None) -> ServerConfig:
    """Build the config: defaults, then the config file, then ``HCF_*`` variables, then flags.

    >>> file = ConfigFile(path=Path("server.toml"), named_by="--config", values={"port": 9000})
    >>> config_from({"HCF_PORT": "9100"}, {}, file).port, config_from({}, {}, file).port
    (9100, 9000)
    """
    values: dict[str, Any] = dict(file.values) if file is not None else {}
    for f in fields(ServerConfig):
        raw = env.get(ENV_PREFIX + f.name.upper())
        if raw is not None and f.name != "database_url":
            values[f.name] = _parse(f.name, raw)
    variable = _database_variable(env)
    if variable is not None:
        values["database_url"] = env[variable]
    values.update({k: v for k, v in overrides.items() if v is not None})
    return ServerConfig(**values)


def _database_variable(env: Mapping[str, str]) -> str | None:
    """The first of ``DATABASE_VARIABLES`` that is set and not empty (an empty one counts as unset)."""
    return next((name for name in DATABASE_VARIABLES if env.get(name)), None)


def database_source(env: Mapping[str, str], overrides: Mapping[str, Any], file: ConfigFile | None = None) -> str:
    """Where :func:`config_from` took the database from, in words (the operator commands say it).

    The server and every operator command find the database by the same rule: ``--db``,
    then ``HCF_DB``, ``HCF_DATABASE_URL``, ``DATABASE_URL``, then ``db`` in the config file,
    then ``hcf.db`` in the data folder (``--data-dir``, ``HCF_DATA_DIR``, the config
    file's ``data_dir``, or the user's data folder).

    >>> database_source({"DATABASE_URL": "sqlite:///x.db"}, {"database_url": None})
    'from DATABASE_URL'
    >>> database_source({}, {})
    "the default, in the user's data folder"
    """
    in_file = f"in the config file {file.path}" if file is not None else ""
    flag = overrides.get("database_url")
    if flag is not None:  # a flag given empty wins too, as in config_from: then the default file
        return "from --db" if flag else _default_source(env, overrides, file)
    variable = _database_variable(env)
    if variable is not None:
        return f"from {variable}"
    if file is not None and "database_url" in file.values:
        return f"from db {in_file}" if file.values["database_url"] else _default_source(env, overrides, file)
    return _default_source(env, overrides, file)


def _default_source(env: Mapping[str, str], overrides: Mapping[str, Any], file: ConfigFile | None) -> str:
    folder = overrides.get("data_dir")
    if folder:
        return "the default file in --data-dir"
    if folder is None and env.get(ENV_PREFIX + "DATA_DIR"):
        return f"the default file in {ENV_PREFIX}DATA_DIR"
    if folder is None and ENV_PREFIX + "DATA_DIR" not in env and file is not None and file.values.get("data_dir"):
        return f"the default file in the data_dir of the config file {file.path}"
    return "the default, in the user's data folder"


def _parse(name: str, raw: str) -> Any:
    default = getattr(ServerConfig(), name)
    try:
        if name == "table_defaults":
            parsed = json.loads(raw)
            if not isinstance(parsed, dict):
                raise ValueError("must be a JSON object")
            return parsed
        if isinstance(default, bool):
            return raw.lower() in ("1", "true", "yes", "on")
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
        if name == "sqlite_synchronous" and raw.upper() not in ("NORMAL", "FULL"):
            raise ValueError("must be NORMAL or FULL")
    except ValueError as exc:
        raise ValueError(f"{ENV_PREFIX}{name.upper()}: {exc}") from None
    return raw.upper() if name == "sqlite_synchronous" else raw
