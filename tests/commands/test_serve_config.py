"""A real server and the operator commands find one database by one rule (issue 23, items 6 and the token hint).

Each test starts ``hcf-server serve`` as a process with the database named in one place
only, ``HCF_DB`` or the config file, then runs the operator commands in the same
environment: they must name and read that database. The command the start lines give
for a new host token must work as printed, from another folder and without that
environment.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.analysis.cache import cache_dir
from tests.durability.helpers import ROOT, free_port


def _clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    # The run's odds cache: its counts are made once for the run.
    env = {k: v for k, v in os.environ.items() if not k.startswith("HCF_") and k != "DATABASE_URL"}
    env.update({"PYTHONPATH": str(ROOT), "XDG_DATA_HOME": str(tmp_path / "data"),
                "XDG_CONFIG_HOME": str(tmp_path / "config"), "HCF_CACHE_DIR": str(cache_dir())})
    env.update(extra)
    return env


def _healthy(url: str) -> bool:
    with contextlib.suppress(OSError, ValueError), urllib.request.urlopen(f"{url}/healthz", timeout=2) as answer:
        return bool(json.loads(answer.read()).get("ok"))
    return False


@contextlib.contextmanager
def _server(tmp_path: Path, env: dict[str, str], port: int, *flags: str) -> Iterator[Path]:
    """``hcf-server serve FLAGS`` in ``tmp_path`` until it answers; yields the file of its standard output."""
    out = tmp_path / "server.out"
    with out.open("wb") as sink:
        process = subprocess.Popen([sys.executable, "-m", "server.cli", "serve", *flags], cwd=tmp_path, env=env,
                                   stdout=sink, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not _healthy(f"http://127.0.0.1:{port}"):
            assert process.poll() is None, f"the server exited: {out.read_text()}"
            assert time.monotonic() < deadline, "the server did not start within 60 s"
            time.sleep(0.05)
        yield out
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _hcf_server(argv: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120, check=False)


def _token_command(printed: str) -> list[str]:
    found = re.search(r"get a new one with: (.+)", printed)
    assert found, printed
    return shlex.split(found.group(1))


@pytest.mark.timeout(180)
def test_a_server_started_with_only_hcf_db_is_found_by_the_operator_commands(tmp_path: Path) -> None:
    port = free_port()
    database = tmp_path / "games" / "hcf.db"
    env = _clean_env(tmp_path, HCF_DB=f"sqlite:///{database}", HCF_PORT=str(port), HCF_WEB_PORT="0")
    with _server(tmp_path, env, port) as out:
        printed = out.read_text()
        assert f"database: {database}\n" in printed
        exported = _hcf_server(["export", "--table", "main"], env, tmp_path)
        assert exported.returncode == 0, exported.stderr
        assert exported.stderr == f"Using the database at {database} (from HCF_DB).\n"
        checked = _hcf_server(["ledger", "check"], env, tmp_path)
        assert checked.returncode == 0, checked.stderr
        assert checked.stdout.startswith("ledger ok")
    command = _token_command(printed)
    assert command[:2] == ["hcf-server", "host-token"]
    assert command[2:] == ["--db", f"sqlite:///{database}"], "the hint names the server's database"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    rotated = _hcf_server(command[1:], _clean_env(tmp_path), elsewhere)
    assert rotated.returncode == 0, rotated.stderr
    assert rotated.stderr == f"Using the database at {database} (from --db).\n"


@pytest.mark.timeout(180)
def test_a_server_started_with_only_a_config_file_is_found_by_the_operator_commands(tmp_path: Path) -> None:
    port = free_port()
    database = tmp_path / "games" / "hcf.db"
    config = tmp_path / "config" / "hcf-table" / "server.toml"
    config.parent.mkdir(parents=True)
    config.write_text(f'db = "sqlite:///{database}"\nport = {port}\nweb_port = 0\n\n'
                      "[table_defaults]\npause_seconds = 1\n")
    env = _clean_env(tmp_path)
    with _server(tmp_path, env, port) as out:
        printed = out.read_text()
        assert printed.startswith(f"config: {config} (found at the default place)\ndatabase: {database}\n")
        exported = _hcf_server(["export", "--table", "main"], env, tmp_path)
        assert exported.returncode == 0, exported.stderr
        assert exported.stderr == f"Using the database at {database} (from db in the config file {config}).\n"
        analyzed = _hcf_server(["analyze", "--table", "main", "--json"], env, tmp_path)
        assert analyzed.returncode == 0, analyzed.stderr
        assert analyzed.stderr.startswith(f"Using the database at {database} (from db in the config file")
    assert _token_command(printed) == ["hcf-server", "host-token", "--config", str(config)]
    rotated = _hcf_server(["host-token", "--config", str(config)], _clean_env(tmp_path / "other"), tmp_path)
    assert rotated.returncode == 0, rotated.stderr


@pytest.mark.timeout(180)
def test_the_start_lines_give_a_host_token_command_that_finds_a_db_given_by_flag(tmp_path: Path) -> None:
    port = free_port()
    env = _clean_env(tmp_path)
    with _server(tmp_path, env, port, "--db", "sqlite:///games/hcf.db", "--port", str(port), "--web-port", "0") \
            as out:
        printed = out.read_text()
    database = tmp_path / "games" / "hcf.db"
    command = _token_command(printed)
    assert command == ["hcf-server", "host-token", "--db", f"sqlite:///{database}"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    rotated = _hcf_server(command[1:], env, elsewhere)  # the relative URL would miss it from here
    assert rotated.returncode == 0, rotated.stderr
    assert rotated.stderr == f"Using the database at {database} (from --db).\n"
    assert not (elsewhere / "games").exists()


@pytest.mark.timeout(60)
def test_serve_refuses_a_bad_config_file_in_one_sentence_and_takes_no_port(tmp_path: Path) -> None:
    config = tmp_path / "server.toml"
    config.write_text("port = 9000\nshutdown_grace = \"soon\"\n")
    refused = _hcf_server(["serve", "--config", str(config)], _clean_env(tmp_path), tmp_path)
    assert refused.returncode == 1
    assert refused.stdout == ""
    assert refused.stderr == (f"error: the config file {config}: shutdown_grace must be a number, "
                              'got "soon" (text)\n')
    missing = _hcf_server(["ledger", "check"], _clean_env(tmp_path, HCF_CONFIG=str(tmp_path / "nothere.toml")),
                          tmp_path)
    assert missing.returncode == 1
    assert missing.stderr.startswith(f"error: there is no config file {tmp_path / 'nothere.toml'} (named by "
                                     "HCF_CONFIG)")
    assert "Traceback" not in missing.stderr
