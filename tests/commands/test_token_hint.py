"""The start lines' command for a new host token names the server's database, never its password (issue 23)."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.commands.operator_db import host_token_command
from server.config import ConfigFile

FILE = ConfigFile(path=Path("/etc/hcf-table/server.toml"), named_by="--config", values={})


@pytest.mark.parametrize(("url", "source", "data_dir", "expected"), [
    ("", "the default, in the user's data folder", "", "hcf-server host-token"),
    ("sqlite:////srv/hcf/hcf.db", "from --db", "", "hcf-server host-token --db sqlite:////srv/hcf/hcf.db"),
    ("sqlite:////srv/hcf/hcf.db", "from HCF_DB", "", "hcf-server host-token --db sqlite:////srv/hcf/hcf.db"),
    ("postgresql://hcf@db.example/hcf", "from DATABASE_URL", "",
     "hcf-server host-token --db postgresql://hcf@db.example/hcf"),
    ("", "the default file in --data-dir", "/srv/hcf", "hcf-server host-token --data-dir /srv/hcf"),
    ("sqlite:////srv/x.db", "from db in the config file /etc/hcf-table/server.toml", "",
     "hcf-server host-token --config /etc/hcf-table/server.toml"),
])
def test_the_command_names_the_database_as_the_server_found_it(
        url: str, source: str, data_dir: str, expected: str) -> None:
    assert host_token_command(url, source, FILE if "config file" in source else None, data_dir) == expected


def test_a_relative_sqlite_url_becomes_the_files_full_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    command = host_token_command("sqlite:///games/hcf.db", "from --db", None, "")
    assert command == f"hcf-server host-token --db sqlite:///{tmp_path / 'games' / 'hcf.db'}"


def test_a_password_is_never_shown() -> None:
    command = host_token_command("postgresql://hcf:s3cret@db.example:5432/hcf", "from HCF_DB", None, "")
    assert "s3cret" not in command
    assert command == ("hcf-server host-token --db postgresql://hcf:PASSWORD@db.example:5432/hcf "
                       "(the database's password in place of PASSWORD)")
