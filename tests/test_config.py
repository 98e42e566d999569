"""server/config.py and config_file.py: settings from defaults, the config file, HCF_* variables, then flags."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.config import ConfigFile, ServerConfig, config_from, database_source, default_data_dir
from server.config_file import ConfigError, config_location, default_config_path, key_of, read_config_file


def test_environment_then_flags_override_the_defaults() -> None:
    config = config_from({"HCF_PORT": "9000", "DATABASE_URL": "sqlite:///x.db", "HCF_RATE_BURST": "7"},
                         {"port": 9100})
    assert (config.port, config.database_url, config.rate_burst) == (9100, "sqlite:///x.db", 7)
    assert config.host == ServerConfig().host


@pytest.mark.parametrize(("raw", "level"), [("full", "FULL"), ("NORMAL", "NORMAL")])
def test_sqlite_synchronous_level_comes_from_the_environment(raw: str, level: str) -> None:
    assert config_from({"HCF_SQLITE_SYNCHRONOUS": raw}, {}).sqlite_synchronous == level


def test_a_bad_setting_is_refused_with_its_variable_named() -> None:
    with pytest.raises(ValueError, match="HCF_SQLITE_SYNCHRONOUS"):
        config_from({"HCF_SQLITE_SYNCHRONOUS": "OFF"}, {})
    with pytest.raises(ValueError, match="HCF_PORT"):
        config_from({"HCF_PORT": "eighty"}, {})


# ------------------------------------------------------------------ the config file and the database's rule


DATABASE_SOURCES = ("--db", "HCF_DB", "HCF_DATABASE_URL", "DATABASE_URL", "db in the file")
FOLDER_SOURCES = ("--data-dir", "HCF_DATA_DIR", "data_dir in the file")


def _sources(chosen: set[str]) -> tuple[dict[str, str], dict[str, Any], ConfigFile]:
    """(environment, flags, config file) with each chosen source naming itself."""
    names: tuple[str, ...] = ("HCF_DB", "HCF_DATABASE_URL", "DATABASE_URL")
    env = {name: f"sqlite:///{name}.db" for name in names if name in chosen}
    flags: dict[str, Any] = {"database_url": "sqlite:///flag.db" if "--db" in chosen else None,
                             "data_dir": "/flag-dir" if "--data-dir" in chosen else None}
    values: dict[str, Any] = {}
    if "db in the file" in chosen:
        values["database_url"] = "sqlite:///file.db"
    if "HCF_DATA_DIR" in chosen:
        env["HCF_DATA_DIR"] = "/env-dir"
    if "data_dir in the file" in chosen:
        values["data_dir"] = "/file-dir"
    return env, flags, ConfigFile(path=Path("/etc/hcf/server.toml"), named_by="--config", values=values)


EXPECTED_URL = {"--db": "sqlite:///flag.db", "HCF_DB": "sqlite:///HCF_DB.db",
                "HCF_DATABASE_URL": "sqlite:///HCF_DATABASE_URL.db", "DATABASE_URL": "sqlite:///DATABASE_URL.db",
                "db in the file": "sqlite:///file.db", "--data-dir": "sqlite:////flag-dir/hcf.db",
                "HCF_DATA_DIR": "sqlite:////env-dir/hcf.db", "data_dir in the file": "sqlite:////file-dir/hcf.db"}
EXPECTED_WORDS = {"--db": "from --db", "HCF_DB": "from HCF_DB", "HCF_DATABASE_URL": "from HCF_DATABASE_URL",
                  "DATABASE_URL": "from DATABASE_URL",
                  "db in the file": "from db in the config file /etc/hcf/server.toml",
                  "--data-dir": "the default file in --data-dir", "HCF_DATA_DIR": "the default file in HCF_DATA_DIR",
                  "data_dir in the file": "the default file in the data_dir of the config file /etc/hcf/server.toml"}


@given(st.sets(st.sampled_from(DATABASE_SOURCES + FOLDER_SOURCES)))
def test_the_database_is_the_first_source_set_and_is_named_so(chosen: set[str]) -> None:
    env, flags, file = _sources(chosen)
    winner = next((s for s in DATABASE_SOURCES + FOLDER_SOURCES if s in chosen), None)
    url = config_from(env, flags, file).resolved_database_url()
    words = database_source(env, flags, file)
    if winner is None:
        assert url == f"sqlite:///{default_data_dir() / 'hcf.db'}"
        assert words == "the default, in the user's data folder"
    else:
        assert (url, words) == (EXPECTED_URL[winner], EXPECTED_WORDS[winner])


@given(flag=st.none() | st.integers(1, 9), env=st.none() | st.integers(10, 19), file=st.none() | st.integers(20, 29))
def test_flags_beat_the_environment_which_beats_the_file_which_beats_the_default(
        flag: int | None, env: int | None, file: int | None) -> None:
    environment = {"HCF_RATE_BURST": str(env)} if env is not None else {}
    values = {"rate_burst": file} if file is not None else {}
    config = config_from(environment, {"rate_burst": flag}, ConfigFile(path=Path("s.toml"), named_by="--config",
                                                                         values=values))
    expected = next((v for v in (flag, env, file) if v is not None), ServerConfig().rate_burst)
    assert config.rate_burst == expected


def test_an_empty_database_variable_counts_as_unset() -> None:
    env = {"HCF_DB": "", "DATABASE_URL": "sqlite:///plain.db"}
    assert config_from(env, {}).database_url == "sqlite:///plain.db"
    assert database_source(env, {}) == "from DATABASE_URL"


def test_every_setting_may_be_written_in_the_file_under_its_name(tmp_path: Path) -> None:
    defaults = ServerConfig()
    lines = []
    for f in fields(ServerConfig):
        value = getattr(defaults, f.name)
        if f.name == "table_defaults":
            continue
        lines.append(f"{key_of(f.name)} = {json.dumps(value)}")
    lines += ["[table_defaults]", "min_ante = 10"]
    path = tmp_path / "server.toml"
    path.write_text("\n".join(lines) + "\n")
    file = read_config_file(str(path), {})
    assert file is not None
    assert config_from({}, {}, file) == ServerConfig(table_defaults={"min_ante": 10})


@pytest.mark.parametrize(("text", "sentence"), [
    ("prot = 9000\n", "has an unknown setting 'prot' (did you mean port?): the settings are account_login_burst,"),
    ("database_url = 'sqlite:///x.db'\n", "has an unknown setting 'database_url' (the database is db)"),
    ('port = "9000"\n', ': port must be a whole number, got "9000" (text)'),
    ("gc_freeze = 1\n", ": gc_freeze must be true or false, got 1"),
    ("shutdown_grace = true\n", ": shutdown_grace must be a number, got true"),
    ("db = 5\n", ': db must be text in double quotes (key = "..."), got 5'),
    ("table_defaults = 'fee_mode=all'\n", ": table_defaults must be a table of table settings"),
    ("sqlite_synchronous = 'OFF'\n", ': sqlite_synchronous must be "NORMAL" or "FULL", got "OFF" (text)'),
    ("port = \n", " is not TOML at line 1, column 8: write each setting as name = value"),
])
def test_a_bad_config_file_is_refused_in_one_sentence_naming_the_file_and_the_key(
        tmp_path: Path, text: str, sentence: str) -> None:
    path = tmp_path / "server.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as refused:
        read_config_file(str(path), {})
    message = str(refused.value)
    assert message.startswith(f"the config file {path}")
    assert sentence in message
    assert "\n" not in message
    assert "Traceback" not in message


def test_a_config_file_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"there is no config file .*nothere.toml \(named by HCF_CONFIG\)"):
        read_config_file(None, {"HCF_CONFIG": str(tmp_path / "nothere.toml")})
    (tmp_path / "binary.toml").write_bytes(b"\xff\xfe")
    with pytest.raises(ConfigError, match="is not UTF-8 text"):
        read_config_file(str(tmp_path / "binary.toml"), {})


def test_the_file_is_found_by_flag_then_variable_then_the_default_place(tmp_path: Path) -> None:
    default = default_config_path({"XDG_CONFIG_HOME": str(tmp_path)})
    assert default == tmp_path / "hcf-table" / "server.toml"
    env = {"XDG_CONFIG_HOME": str(tmp_path)}
    assert config_location(None, env) is None, "no file at the default place: none is read"
    default.parent.mkdir()
    default.write_text("port = 9001\n")
    assert config_location(None, env) == (default, "the default place")
    assert config_location(None, {**env, "HCF_CONFIG": "/other.toml"}) == (Path("/other.toml"), "HCF_CONFIG")
    assert config_location("/flag.toml", {**env, "HCF_CONFIG": "/other.toml"}) == (Path("/flag.toml"), "--config")
    assert config_location("", env) is None
    assert config_location(None, {**env, "HCF_CONFIG": ""}) is None
