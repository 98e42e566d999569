"""The real server of the server tests, for the toy game's own test."""

from tests.server.conftest import config_overrides, database_url, server, table_overrides

__all__ = ["config_overrides", "database_url", "server", "table_overrides"]
