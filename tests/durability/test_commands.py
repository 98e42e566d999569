"""``hcf-server`` answers a user's mistake, a busy port or an unreachable database in one sentence.

No traceback, a nonzero exit, and nothing changed: a busy port is found before
the database is even opened (no file is created).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog

from server.cli import main
from server.persistence import open_database

from .helpers import free_port


@pytest.fixture(autouse=True)
def logging_as_it_was() -> Iterator[None]:
    """``serve`` points the log at this test's captured stderr: give the next tests theirs back."""
    config = structlog.get_config()
    handlers = list(logging.getLogger().handlers)
    yield
    structlog.configure(**config)
    root = logging.getLogger()
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def one_sentence(out: str) -> str:
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    assert lines[0].startswith("error: "), out
    assert "Traceback" not in out
    return lines[0]


def test_replaying_a_hand_that_does_not_exist(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/hcf.db"
    asyncio.run(_made(url))
    code, out = run(capsys, "replay", "9999", "--db", url)
    assert code == 1
    using, error = out.strip().splitlines()
    assert using == f"Using the database at {tmp_path}/hcf.db (from --db)."
    assert one_sentence(error) == "error: there is no hand 9999"


async def _made(url: str) -> None:
    """An empty server database at ``url``."""
    await (await open_database(url)).close()


def test_serving_on_a_busy_port_stops_before_the_database_is_opened(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        code, out = run(capsys, "serve", "--port", str(port), "--web-port", "0", "--db", f"sqlite:///{tmp_path}/hcf.db")
    assert code == 1
    assert f"port {port} on 127.0.0.1 is already in use" in one_sentence(out)
    assert not list(tmp_path.iterdir()), "the database was opened before the port was checked"


@pytest.mark.parametrize(("argv", "expected"), [
    (("serve", "--port", "99999"), "error: 99999 is not a port number: choose one from 1 to 65535"),
    (("serve", "--port", "-1"), "error: -1 is not a port number"),
    (("serve", "--host", "nosuch.invalid"), "error: cannot listen on 'nosuch.invalid'"),
    (("serve", "--db", "nonsense"), "error: 'nonsense' is not a database URL; write e.g. sqlite:///hcf.db"),
    (("serve", "--db", "mysql://u@h/x"), "error: unsupported database 'mysql'"),
    (("ledger", "check", "--db", "postgresql://hcf:secret@127.0.0.1:{port}/x"), "error: cannot reach the database"),
    (("export", "--table", "main", "--db", "sqlite:////proc/no/such/hcf.db"),
     "error: there is no database at /proc/no/such/hcf.db (from --db), and none was created"),
])
def test_a_mistake_in_the_arguments_is_one_sentence(capsys: pytest.CaptureFixture[str],
                                                    argv: tuple[str, ...], expected: str) -> None:
    code, out = run(capsys, *(a.format(port=free_port()) for a in argv))
    assert code != 0
    line = one_sentence(out)
    assert line.startswith(expected), line
    assert "secret" not in line
