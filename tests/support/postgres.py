"""A throwaway PostgreSQL server for tests, started from Debian's binaries.

    with running_postgres() as pg:                  # initdb + postgres in a temp dir, ~1.5 s
        url = pg.create_database()                  # a new empty database: postgresql://hcf@127.0.0.1:PORT/t_...
        copy = pg.create_database(template="base")  # or a copy of another database (nobody may be connected to it)
        pg.sql("SELECT 1", database="base")         # psql, as the superuser "hcf"
        pg.empty_database("base")                   # delete every row, keep the schema (quick, for reuse)
        pg.drop_database("base")
    # stopped (fast shutdown) and its directory removed

The server listens on 127.0.0.1 only, on a free port, with its unix socket and
data inside one temporary directory, and trusts every local connection (user
``hcf``, no password). PostgreSQL refuses to run as root, so under root it runs
as the ``postgres`` user the Debian package creates (or ``nobody``). Durability
settings are off by default (``fsync``, ``synchronous_commit``,
``full_page_writes``): a test server survives the death of a client, not of the
machine. When the binaries are missing, :class:`PostgresMissing` names the
Debian package to install; pytest fixtures turn it into a failure, never a skip.

The session fixtures ``postgres_server`` and ``postgres_url`` in tests/conftest.py
wrap this module.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Final

DEBIAN_PACKAGE: Final = "postgresql"
PG_ROOT: Final = Path("/usr/lib/postgresql")
SUPERUSER: Final = "hcf"
HOST: Final = "127.0.0.1"
START_TIMEOUT: Final = 60.0

# What a test server does not need: crash safety of the machine, and a big log.
TEST_SETTINGS: Final[Mapping[str, str]] = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
    "shared_buffers": "64MB",
    "log_min_messages": "warning",
    "log_min_error_statement": "panic",
    "deadlock_timeout": "200ms",
}

_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


class PostgresMissing(RuntimeError):  # noqa: N818 - reads better at the raise site
    """The PostgreSQL server binaries are not installed."""


def find_bindir() -> Path:
    """The ``bin`` folder of the newest PostgreSQL from Debian's packages (or ``$HCF_PG_BINDIR``)."""
    override = os.environ.get("HCF_PG_BINDIR")
    candidates = [Path(override)] if override else sorted(PG_ROOT.glob("*/bin"), key=_version, reverse=True)
    for bindir in candidates:
        if all((bindir / tool).is_file() for tool in ("initdb", "postgres", "psql")):
            return bindir
    where = override or f"{PG_ROOT}/<version>/bin"
    raise PostgresMissing(
        f"the PostgreSQL server binaries (initdb, postgres, psql) are not in {where}: install the Debian "
        f"package `{DEBIAN_PACKAGE}` (apt-get install -y {DEBIAN_PACKAGE}); .ci/run installs it from "
        "deploy/apt-packages.txt"
    )


def _version(bindir: Path) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", bindir.parent.name)) or (0,)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listened on a moment ago."""
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def _server_user() -> pwd.struct_passwd | None:
    """Who runs the server: None for the current user, else an unprivileged one (under root)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise PostgresMissing(f"running as root and there is no 'postgres' or 'nobody' user; reinstall `{DEBIAN_PACKAGE}`")


class PostgresServer:
    """One running PostgreSQL server; see the module docstring. Use :meth:`start` or :func:`running_postgres`."""

    def __init__(self, bindir: Path, root: Path, port: int, process: subprocess.Popen[bytes]) -> None:
        self.bindir = bindir
        self.root = root
        self.port = port
        self.host = HOST
        self.user = SUPERUSER
        self.process = process
        self.log = root / "postgres.log"
        self._names = (f"t{os.getpid()}_{n}" for n in range(1, 1 << 62))

    # ------------------------------------------------------------ starting and stopping

    @classmethod
    def start(cls, *, settings: Mapping[str, str] | None = None, attempts: int = 3) -> PostgresServer:
        """initdb in a new temporary directory, then start the server on a free loopback port."""
        bindir = find_bindir()
        owner = _server_user()
        # Another user must reach the directory: /tmp is world-traversable, $TMPDIR may not be.
        root = Path(tempfile.mkdtemp(prefix="hcf-pg-", dir="/tmp" if owner is not None else None))
        try:
            if owner is not None:
                os.chown(root, owner.pw_uid, owner.pw_gid)
            _run_as(owner, [str(bindir / "initdb"), "-D", str(root / "data"), f"--username={SUPERUSER}",
                            "--auth=trust", "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions"],
                    root)
            options = {**TEST_SETTINGS, **(settings or {})}
            for attempt in range(attempts):
                server = cls._launch(bindir, root, owner, free_port(), options)
                if server is not None:
                    return server
                if attempt == attempts - 1:
                    raise RuntimeError(f"PostgreSQL did not start; its log:\n{(root / 'postgres.log').read_text()}")
        except BaseException:
            shutil.rmtree(root, ignore_errors=True)
            raise
        raise AssertionError("unreachable")

    @classmethod
    def _launch(
        cls, bindir: Path, root: Path, owner: pwd.struct_passwd | None, port: int, options: Mapping[str, str]
    ) -> PostgresServer | None:
        command = [str(bindir / "postgres"), "-D", str(root / "data"), "-h", HOST, "-p", str(port), "-k", str(root)]
        for name, value in options.items():
            command += ["-c", f"{name}={value}"]
        with (root / "postgres.log").open("ab") as log:
            process = subprocess.Popen(
                command, cwd=root, env=_env(root), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True, **_identity(owner),
            )
        server = cls(bindir, root, port, process)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if process.poll() is not None:
                return None  # the port was taken meanwhile, or a real failure: the caller retries then reports
            if server._ready():
                atexit.register(server.stop)  # in case nobody stops it (stop() may run twice)
                return server
            time.sleep(0.02)
        server._shutdown()
        raise RuntimeError(f"PostgreSQL was not ready after {START_TIMEOUT:.0f} s; its log:\n{server.log.read_text()}")

    def _ready(self) -> bool:
        # postmaster.pid ends with the server's state once it listens: "ready" (PostgreSQL 10+).
        with contextlib.suppress(OSError):
            lines = (self.root / "data" / "postmaster.pid").read_text().splitlines()
            return len(lines) >= 8 and lines[7].strip() == "ready"
        return False

    def stop(self) -> None:
        """Fast shutdown (clients are disconnected), then remove every file. Safe to call twice."""
        self._shutdown()
        shutil.rmtree(self.root, ignore_errors=True)
        atexit.unregister(self.stop)

    def _shutdown(self) -> None:
        for sig, wait in ((signal.SIGINT, 20.0), (signal.SIGQUIT, 5.0), (signal.SIGKILL, 5.0)):
            if self.process.poll() is not None:
                return
            self.process.send_signal(sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(wait)

    def __enter__(self) -> PostgresServer:
        return self

    def __exit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        self.stop()

    # ------------------------------------------------------------ using it

    def url(self, database: str = "postgres") -> str:
        """The URL of a database on this server, as the application takes it (``postgresql://``)."""
        return f"postgresql://{self.user}@{self.host}:{self.port}/{database}"

    def sql(self, statement: str, *, database: str = "postgres") -> str:
        """Run SQL with psql as the superuser; returns its unaligned output (fails loudly on an error)."""
        result = subprocess.run(
            [str(self.bindir / "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
             "-h", self.host, "-p", str(self.port), "-U", self.user, "-d", database, "-c", statement],
            capture_output=True, text=True, env={**_env(self.root), "PGCONNECT_TIMEOUT": "10"}, check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"psql failed ({result.returncode}) on {statement!r}: {result.stderr.strip()}")
        return result.stdout

    def create_database(self, name: str | None = None, *, template: str | None = None) -> str:
        """A new database (empty, or a copy of ``template``); returns its URL."""
        name = name or next(self._names)
        source = f" TEMPLATE {_quoted(template)} STRATEGY FILE_COPY" if template else " TEMPLATE template0"
        self.sql(f"CREATE DATABASE {_quoted(name)}{source}")
        return self.url(name)

    def drop_database(self, name: str) -> None:
        """Drop a database, disconnecting whoever is still connected to it."""
        self.sql(f"DROP DATABASE IF EXISTS {_quoted(name)} WITH (FORCE)")

    def empty_database(self, name: str, *, keep: Collection[str] = ("alembic_version",)) -> None:
        """Delete every row of every table (but ``keep``) and restart every sequence, keeping the schema.

        Much quicker than a new copy (a few ms against 0.1-0.4 s here). Whoever is still
        connected to the database is disconnected first; triggers and foreign keys are
        bypassed (``session_replication_role = replica``), so append-only tables empty too.
        """
        kept = ", ".join(f"'{_quoted(table)[1:-1]}'" for table in keep) or "''"
        self.sql(
            f"""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid();
            SET session_replication_role = replica;
            DO $$
            DECLARE item record;
            BEGIN
                FOR item IN SELECT schemaname, tablename FROM pg_tables
                        WHERE schemaname = 'public' AND tablename NOT IN ({kept}) LOOP
                    EXECUTE format('DELETE FROM %I.%I', item.schemaname, item.tablename);
                END LOOP;
                FOR item IN SELECT sequence_schema, sequence_name FROM information_schema.sequences
                        WHERE sequence_schema = 'public' LOOP
                    EXECUTE format('ALTER SEQUENCE %I.%I RESTART', item.sequence_schema, item.sequence_name);
                END LOOP;
            END
            $$;
            """,
            database=name,
        )


@contextlib.contextmanager
def running_postgres(*, settings: Mapping[str, str] | None = None) -> Iterator[PostgresServer]:
    """A PostgreSQL server for the ``with`` block (see the module docstring)."""
    server = PostgresServer.start(settings=settings)
    try:
        yield server
    finally:
        server.stop()


def database_name(url: str) -> str:
    """The database part of a URL made by :meth:`PostgresServer.url`."""
    return url.rsplit("/", 1)[1]


def _quoted(name: str) -> str:
    if not _NAME.fullmatch(name):
        raise ValueError(f"database names here are lowercase identifiers, not {name!r}")
    return f'"{name}"'


def _env(root: Path) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(root), "LC_ALL": "C", "LANG": "C",
            "TZ": "UTC"}


def _identity(owner: pwd.struct_passwd | None) -> dict[str, object]:
    if owner is None:
        return {}
    return {"user": owner.pw_uid, "group": owner.pw_gid, "extra_groups": []}


def _run_as(owner: pwd.struct_passwd | None, command: list[str], cwd: Path) -> None:
    result = subprocess.run(command, cwd=cwd, env=_env(cwd), capture_output=True, text=True, check=False,
                            **_identity(owner))
    if result.returncode != 0:
        raise RuntimeError(f"{command[0]} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
