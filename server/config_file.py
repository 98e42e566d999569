"""The server's config file (TOML): where it is, and its settings checked one by one.

``hcf-server serve`` and every operator command read it by :func:`server_settings`, so that
they find the same database by the same rule. The file is the one named by ``--config``,
else by ``HCF_CONFIG``, else ``$XDG_CONFIG_HOME/hcf-table/server.toml`` (``~/.config/...``)
when it exists. Its keys are the settings' names (``HCF_<NAME>`` without ``HCF_``, in small
letters: ``port``, ``web_port``, ``shutdown_grace``), the database being ``db`` as its flag
and ``HCF_DB`` are named. A mistake in it is one sentence naming the file, the key and what
is allowed (:class:`ConfigError`).
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from server.config import (
    DEFAULT_PLACE,
    ENV_PREFIX,
    ConfigFile,
    ServerConfig,
    config_from,
    database_source,
)

CONFIG_VARIABLE = ENV_PREFIX + "CONFIG"
DATABASE_KEY = "db"  # the file's name for ServerConfig.database_url, as the flag --db and HCF_DB
EXAMPLE = 'db = "sqlite:///srv/hcf/hcf.db"'
_CHOICES: Mapping[str, tuple[str, ...]] = {"sqlite_synchronous": ("NORMAL", "FULL"), "log_format": ("console", "json")}


class ConfigError(ValueError):
    """The config file cannot be used: its sentence names the file and what to change."""


def key_of(name: str) -> str:
    """The config file's key for a ``ServerConfig`` field.

    >>> key_of("database_url"), key_of("web_port")
    ('db', 'web_port')
    """
    return DATABASE_KEY if name == "database_url" else name


KEYS: tuple[str, ...] = tuple(sorted(key_of(f.name) for f in fields(ServerConfig)))
"""Every key a config file may hold."""


def default_config_path(env: Mapping[str, str]) -> Path:
    """``$XDG_CONFIG_HOME/hcf-table/server.toml``, else ``~/.config/hcf-table/server.toml``."""
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "hcf-table" / "server.toml"


def config_location(flag: str | None, env: Mapping[str, str]) -> tuple[Path, str] | None:
    """(the config file to read, what named it), or None for none.

    ``--config ''`` or ``HCF_CONFIG=`` (empty) read no file at all, not even the default one.
    """
    if flag is not None:
        return (Path(flag), "--config") if flag else None
    if CONFIG_VARIABLE in env:
        named = env[CONFIG_VARIABLE]
        return (Path(named), CONFIG_VARIABLE) if named else None
    default = default_config_path(env)
    return (default, DEFAULT_PLACE) if default.is_file() else None


def read_config_file(flag: str | None, env: Mapping[str, str]) -> ConfigFile | None:
    """The config file named by ``--config``, ``HCF_CONFIG`` or found at the default place, checked."""
    location = config_location(flag, env)
    if location is None:
        return None
    path, named_by = location
    try:
        text = path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"there is no config file {path} (named by {named_by}): write one (see "
                          "docs/configuration.md) or name another") from None
    except IsADirectoryError:
        raise ConfigError(f"the config file {path} (named by {named_by}) is a folder, not a file") from None
    except OSError as exc:
        raise ConfigError(f"cannot read the config file {path} (named by {named_by}): "
                          f"{(exc.strerror or 'unreadable').lower()}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"the config file {path} is not UTF-8 text") from None
    return ConfigFile(path=path, named_by=named_by, values=settings_of(text, path))


def settings_of(text: str, path: Path) -> dict[str, Any]:
    """The settings of a config file's text by ``ServerConfig`` name, each checked (pure).

    >>> settings_of('db = "sqlite:///hcf.db"\\nshutdown_grace = 5', Path("s.toml"))
    {'database_url': 'sqlite:///hcf.db', 'shutdown_grace': 5.0}
    """
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        place = re.search(r"\(at (line \d+, column \d+|end of document)\)", str(exc))
        at = f" at {place.group(1)}" if place else ""
        raise ConfigError(f"the config file {path} is not TOML{at}: write each setting as name = value, "
                          f"text in double quotes, e.g. {EXAMPLE}") from None
    return {_name_of(key, path): _checked(key, value, path) for key, value in document.items()}


def _name_of(key: str, path: Path) -> str:
    if key not in KEYS:
        close = difflib.get_close_matches(key, KEYS, n=1)
        hint = " (the database is db)" if key in ("database_url", "database", "db_url") else \
            f" (did you mean {close[0]}?)" if close else ""
        raise ConfigError(f"the config file {path} has an unknown setting {key!r}{hint}: the settings are "
                          f"{', '.join(KEYS)} (docs/configuration.md)")
    return "database_url" if key == DATABASE_KEY else key


def _checked(key: str, value: Any, path: Path) -> Any:
    """The value as ``ServerConfig`` takes it, or ConfigError saying what ``key`` allows."""
    name = "database_url" if key == DATABASE_KEY else key
    default = getattr(ServerConfig(), name)
    choices = _CHOICES.get(name)
    if name == "table_defaults":
        ok, allowed = isinstance(value, dict), "a table of table settings ([table_defaults], then min_ante = 10)"
    elif isinstance(default, bool):
        ok, allowed = isinstance(value, bool), "true or false"
    elif isinstance(default, int):
        ok, allowed = isinstance(value, int) and not isinstance(value, bool), "a whole number"
    elif isinstance(default, float):
        ok, allowed = isinstance(value, int | float) and not isinstance(value, bool), "a number"
        value = float(value) if ok else value
    elif choices is not None:
        ok = isinstance(value, str) and value.upper() in (c.upper() for c in choices)
        allowed = " or ".join(f'"{c}"' for c in choices)
        value = next((c for c in choices if isinstance(value, str) and c.upper() == value.upper()), value)
    else:
        ok, allowed = isinstance(value, str), 'text in double quotes (key = "...")'
    if not ok:
        raise ConfigError(f"the config file {path}: {key} must be {allowed}, got {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    """A TOML value as its writer would recognise it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}" (text)'
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)


def server_settings(overrides: Mapping[str, Any], config_flag: str | None,
                    env: Mapping[str, str] | None = None) -> tuple[ServerConfig, ConfigFile | None, str]:
    """(the settings, the config file read if any, where the database came from in words).

    The one rule of ``serve`` and of every operator command: flags, then the environment,
    then the config file, then the defaults.
    """
    env = os.environ if env is None else env
    file = read_config_file(config_flag, env)
    return config_from(env, overrides, file), file, database_source(env, overrides, file)
