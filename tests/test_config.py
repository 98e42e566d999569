"""server/config.py: settings from defaults, then HCF_* variables and DATABASE_URL, then flags."""

from __future__ import annotations

import pytest

from server.config import ServerConfig, config_from


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
