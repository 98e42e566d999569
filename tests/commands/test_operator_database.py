"""The operator commands use the server's database, say which, and never make one (issue 23, items 6 and 21).

Each runs ``hcf-server`` in this process on a real SQLite file, with the environment
the server would see: ``--db``, ``HCF_DATABASE_URL`` and the user's data folder.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy.ext.asyncio import create_async_engine

from server.analysis.cache import cache_dir
from server.cli import main
from server.config import config_from, database_source, default_data_dir
from server.persistence import open_database
from server.persistence.database import database_url
from server.replay import replay_hand

SEED = "ab" * 32
COMMITMENT = "cd" * 32

READERS = [
    ("export", "--table", "main"),
    ("analyze", "--table", "main", "--json"),
    ("replay", "--all", "--table", "main"),
    ("replay", "1"),
    ("ledger", "check"),
    ("host-token",),
]


@pytest.fixture(autouse=True)
def environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No database settings from outside; the user's data folder is this test's own. Returns that folder."""
    for name in ("HCF_DB", "HCF_DATABASE_URL", "DATABASE_URL", "HCF_DATA_DIR", "HCF_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home-config"))  # no config file of the user's
    data_home = tmp_path / "home-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data_home))
    monkeypatch.setenv("HCF_CACHE_DIR", str(cache_dir()))  # the run's odds cache: its counts are made once
    return data_home


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def made(path: Path, *, in_progress: bool = False) -> str:
    """A server's database at ``path`` with the table ``main`` (and a hand in progress there); its URL."""
    url = f"sqlite:///{path}"

    async def make() -> None:
        database = await open_database(url)
        try:
            async with database.transaction() as tx:
                await tx.create_table("main", {})
                if in_progress:
                    await tx.start_hand("main", SEED, COMMITMENT, False)
        finally:
            await database.close()

    asyncio.run(make())
    return url


@pytest.mark.parametrize("argv", READERS, ids=" ".join)
def test_a_command_given_a_database_that_is_not_there_creates_none(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]) -> None:
    missing = tmp_path / "games" / "hcf.db"
    code, out, err = run(capsys, *argv, "--db", f"sqlite:///{missing}")
    assert code != 0
    assert out == ""
    assert f"there is no database at {missing} (from --db), and none was created" in err
    assert "--db URL" in err
    assert "Traceback" not in err
    assert not missing.parent.exists(), "the command made the database's folder"


@pytest.mark.parametrize("argv", READERS, ids=" ".join)
def test_the_default_database_is_not_made_either(
        capsys: pytest.CaptureFixture[str], environment: Path, argv: tuple[str, ...]) -> None:
    code, _, err = run(capsys, *argv)
    assert code != 0
    default = environment / "hcf-table" / "hcf.db"
    assert f"there is no database at {default} (the default, in the user's data folder)" in err
    assert not environment.exists()


def test_a_file_that_is_not_the_servers_database_is_refused_untouched(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    connection.close()
    before = other.read_bytes()
    code, _, err = run(capsys, "export", "--table", "main", "--db", f"sqlite:///{other}")
    assert code != 0
    assert f"the database at {other} holds no hcf-table data" in err
    assert other.read_bytes() == before


@pytest.mark.parametrize("argv", [a for a in READERS if a[0] != "host-token"], ids=" ".join)
def test_each_command_says_which_database_it_read(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]) -> None:
    path = tmp_path / "games" / "hcf.db"
    url = made(path, in_progress=argv == ("replay", "1"))
    main([*list(argv), "--db", url])
    err = capsys.readouterr().err
    assert err.splitlines()[0] == f"Using the database at {path} (from --db)."


def test_the_commands_find_the_database_as_the_server_does(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "games" / "hcf.db"
    monkeypatch.setenv("HCF_DATABASE_URL", made(path))
    code, out, err = run(capsys, "ledger", "check")
    assert code == 0, err
    assert f"Using the database at {path} (from HCF_DATABASE_URL)." in err
    assert out.startswith("ledger ok")
    monkeypatch.delenv("HCF_DATABASE_URL")
    monkeypatch.setenv("HCF_DATA_DIR", str(path.parent))
    code, _, err = run(capsys, "export", "--table", "main")
    assert (code, err) == (0, f"Using the database at {path} (the default file in HCF_DATA_DIR).\n")


@pytest.mark.parametrize("argv", [
    ("export", "--table", "nosuch"),
    ("replay", "--all", "--table", "nosuch"),
    ("analyze", "--table", "nosuch"),
], ids=" ".join)
def test_an_unknown_table_is_an_error_everywhere(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...]) -> None:
    url = made(tmp_path / "hcf.db")
    code, out, err = run(capsys, *argv, "--db", url)
    assert code == 2
    assert out == ""
    assert "there is no table named 'nosuch'" in err.splitlines()[-1]
    assert "0 hands replayed" not in out + err


def test_replaying_a_table_without_a_finished_hand_says_nothing_was_checked(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "replay", "--all", "--table", "main", "--db", made(tmp_path / "hcf.db"))
    assert code == 0
    assert out == "0 hands replayed, 0 disagree: table 'main' has no finished hand yet, so nothing was checked\n"


def test_a_hand_in_progress_is_not_a_disagreement(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "replay", "1", "--db", made(tmp_path / "hcf.db", in_progress=True))
    assert code == 0, out
    assert "MISMATCH" not in out
    assert out.splitlines() == [
        "hand 1 [in progress]: not checked: it is still being played; replay it when it ends",
        "0 hands replayed, 0 disagree; 1 in progress, not checked until it ends",
    ]


def test_the_replay_of_a_hand_in_progress_reports_no_problem() -> None:
    report = replay_hand(7, "main", "in_progress", SEED, [{"type": "hand_started"}], [])
    assert report.ok
    assert report.in_progress
    assert "[in progress]" in report.line()


def test_an_empty_postgresql_database_is_refused_untouched_and_no_password_is_shown(
        capsys: pytest.CaptureFixture[str], fresh_postgres_url: str) -> None:
    # The test server trusts local connections: the password is only there to be hidden.
    url = fresh_postgres_url.replace("postgresql://hcf@", "postgresql://hcf:secret@")
    code, _, err = run(capsys, "ledger", "check", "--db", url)
    assert code == 1
    assert "holds no hcf-table data (from --db), and none was created" in err
    assert "secret" not in err

    async def tables() -> list[str]:
        engine = create_async_engine(database_url(url))
        try:
            async with engine.connect() as conn:
                return await conn.run_sync(lambda c: sa.inspect(c).get_table_names())
        finally:
            await engine.dispose()

    assert asyncio.run(tables()) == [], "the command made the schema"
    asyncio.run(_opened_and_closed(url))  # as the server's first start does
    code, out, err = run(capsys, "ledger", "check", "--db", url)
    assert code == 0, err
    assert err.startswith("Using the database at postgresql://hcf:***@127.0.0.1:")
    assert "secret" not in err + out


async def _opened_and_closed(url: str) -> None:
    await (await open_database(url)).close()


@given(
    flags=st.fixed_dictionaries({}, optional={"database_url": st.sampled_from(["", "sqlite:///flag.db"]),
                                              "data_dir": st.sampled_from(["", "/flag-dir"])}),
    env=st.fixed_dictionaries({}, optional={"HCF_DATABASE_URL": st.sampled_from(["", "sqlite:///hcf-env.db"]),
                                            "DATABASE_URL": st.sampled_from(["", "sqlite:///plain-env.db"]),
                                            "HCF_DATA_DIR": st.sampled_from(["", "/env-dir"])}),
)
def test_the_source_named_is_the_one_the_servers_rule_took(flags: dict[str, str], env: dict[str, str]) -> None:
    url = config_from(env, flags).resolved_database_url()
    source = database_source(env, flags)
    expected = {"from --db": "sqlite:///flag.db", "from HCF_DATABASE_URL": "sqlite:///hcf-env.db",
                "from DATABASE_URL": "sqlite:///plain-env.db", "the default file in --data-dir": "sqlite:////flag-dir/hcf.db",
                "the default file in HCF_DATA_DIR": "sqlite:////env-dir/hcf.db"}
    assert url == expected.get(source, f"sqlite:///{default_data_dir() / 'hcf.db'}"), (source, url)
