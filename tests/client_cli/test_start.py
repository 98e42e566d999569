"""Starting ``hcf``: it starts at once, never guesses who plays, checks everything before it connects,
tries a scripted password once, and stops quietly when its reader goes away (issue 14: A.5, B.19, B.20)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from client_cli.api import ServerRefused, request_json
from client_cli.connection import Connection
from client_cli.session import IdentityError, ask_name
from client_cli.start import (
    StartRefused,
    _confirm_take_over,
    buy_in_limits,
    check_seat,
    find_table,
    last_stack,
    read_buy_in,
)
from client_cli.store import TokenStore
from tests.client_cli.conftest import ROOT, Server, client_env, hcf

HEAVY = ("socketio", "engineio", "aiohttp", "rich", "numpy", "pydantic", "sqlalchemy")


# ------------------------------------------------------------------ B.19: imports


def _loaded_after(code: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    probe = f"import sys\n{code}\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & set({heavy!r})))"
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=True)
    loaded: list[str] = json.loads(done.stdout.strip().replace("'", '"'))
    return loaded


def test_the_command_line_imports_no_heavy_library() -> None:
    # hcf --help: not even an event loop.
    assert _loaded_after("import client_cli.cli; client_cli.cli.build_parser()", (*HEAVY, "asyncio")) == []


def test_the_host_commands_import_no_heavy_library() -> None:
    # hcf host ...: the parser, then the module that sends the command.
    assert _loaded_after("import client_cli.cli, client_cli.host; client_cli.cli.build_parser()") == []


def test_a_drill_rehearsal_needs_no_server_library() -> None:
    # hcf drill: the rules, the dry run and the dealer's views only; no connection, no database, no event loop.
    code = ("import client_cli.cli, client_cli.drill.session, server.drill.views; client_cli.cli.build_parser(); "
            "from server.drill.scenario import load; from server.drill.play import dry_run; "
            "server.drill.views.moments(load('bank-runs-out'), dry_run(load('bank-runs-out')))")
    assert _loaded_after(code, (*HEAVY, "asyncio", "sqlmodel", "structlog")) == []


def test_the_help_names_the_bots_strategies() -> None:
    from client_cli.bots import STRATEGIES
    from client_cli.cli import BOT_STRATEGIES

    assert BOT_STRATEGIES == STRATEGIES


# ------------------------------------------------------------------ A.5: who plays


def _store(tmp_path: Path, *names: str) -> TokenStore:
    store = TokenStore(tmp_path)
    for name in names:
        store.save("http://h:1", name, f"token-of-{name}")
    return store


def test_one_saved_session_is_used_and_named(tmp_path: Path) -> None:
    said: list[str] = []
    assert ask_name(_store(tmp_path, "Alice"), "http://h:1", None, None, said.append) == "Alice"
    assert said == ["playing as Alice: the one session saved on this machine for http://h:1 "
                    "(--name NAME plays as someone else)"]


def test_several_saved_sessions_are_never_guessed(tmp_path: Path) -> None:
    store = _store(tmp_path, "alice", "Bob")  # bob played last: still not chosen
    with pytest.raises(IdentityError, match=r"several people have played at http://h:1 from this machine "
                                            r"\(alice, Bob\): say who you are with --name NAME"):
        ask_name(store, "http://h:1", None, None, lambda _t: None)
    asked: list[str] = []

    def answer(question: str) -> str:
        asked.append(question)
        return "" if len(asked) == 1 else "alice"

    assert ask_name(store, "http://h:1", None, answer, lambda _t: None) == "alice"
    assert asked[0] == "Who are you (alice or Bob; a new name registers)? "


def test_no_saved_session_and_no_terminal_asks_for_the_name(tmp_path: Path) -> None:
    with pytest.raises(IdentityError, match="say who you are with --name NAME"):
        ask_name(_store(tmp_path), "http://h:1", None, None)
    assert ask_name(_store(tmp_path, "alice"), "http://h:1", "carol", None) == "carol"


def test_the_checks_before_connecting_say_the_real_limits() -> None:
    with pytest.raises(StartRefused, match=r"no table named 'mian' at http://h:1 \(its tables: main, high\)"):
        find_table([{"name": "main"}, {"name": "high"}], "mian", "http://h:1")
    with pytest.raises(StartRefused, match="seat 2 at main is taken; free now: 1 3"):
        check_seat({"seats": 3}, [2], 2, "main")
    with pytest.raises(StartRefused, match=r"table main is full \(all 2 seats are taken\)"):
        check_seat({"seats": 2}, [1, 2], None, "main")
    with pytest.raises(StartRefused, match="your account has 50 chips: the buy-in at main is 100 to 10000 chips"):
        buy_in_limits({"min_buy_in": 100, "max_buy_in": 10000}, 50, "main")
    assert read_buy_in("2,000", 100, 5000, 1000) == 2000
    assert read_buy_in("lots", 100, 5000, 1000) == "say a number of chips, 100 to 5000"
    moved = {"movements": [{"kind": "buy_in", "table": "high", "amount": -5},
                           {"kind": "cash_out", "table": "main", "amount": 998}]}
    assert last_stack(moved, "main") == 998
    assert last_stack(moved, "high") is None


# ------------------------------------------------------------------ live: nothing is displaced


def _run(config: Path, *args: str, password: str | None = "a-good-password",
         timeout: float = 60) -> subprocess.CompletedProcess[str]:
    extra = {"HCF_PASSWORD": password} if password else {}
    return subprocess.run(hcf(*args), cwd=ROOT, env=client_env(config, **extra), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout, check=False)


def _host(server: Server, action: str, **args: Any) -> dict[str, Any]:
    return request_json("POST", f"{server.url}/api/host", {"action": action, **args}, token=server.host_token)


def _lobby_seat(server: Server, table: str, name: str) -> dict[str, Any] | None:
    with urllib.request.urlopen(f"{server.url}/api/tables", timeout=10) as answer:
        tables = json.loads(answer.read())["tables"]
    entry = next(t for t in tables if t["name"] == table)
    return next((s for s in entry["seats"] if s["name"] == name), None)


@pytest.fixture
def seated_alice(server: Server, tmp_path: Path) -> Iterator[tuple[Path, str, Connection]]:
    """alice, seated and connected at her own table (as her live window would be), her session saved."""
    table = f"start-{tmp_path.name[-20:].replace('_', '-')}"[:32]
    _host(server, "create_table", table=table, settings={"pause_seconds": 0.5})
    config = tmp_path / "config"
    name = f"al{abs(hash(table)) % 10**8}"
    done = _run(config, "account", "--server", server.url, "--name", name)
    assert done.returncode == 0, done.stderr
    token = TokenStore(config / "hcf-table").token(server.url, name)
    assert token is not None
    loop = asyncio.new_event_loop()
    conn = Connection(server.url, token=token, reconnect=False)
    loop.run_until_complete(conn.connect())
    loop.run_until_complete(conn.call("sit", {"table": table, "buy_in": 500}))
    try:
        yield config, table, conn
    finally:
        loop.run_until_complete(conn.close())
        loop.close()


def _still_playing(server: Server, table: str, conn: Connection, name: str) -> None:
    assert not conn.replaced.is_set(), "the live window was replaced"
    seat = _lobby_seat(server, table, name)
    assert seat is not None, f"{name} no longer sits at {table}"
    assert seat["present"], f"{name} is no longer connected at {table}: {seat}"


def _name(config: Path, server: Server) -> str:
    (name,) = TokenStore(config / "hcf-table").names(server.url)
    return name


def test_a_typo_in_the_table_changes_nothing(server: Server, seated_alice: tuple[Path, str, Connection]) -> None:
    config, table, conn = seated_alice
    name = _name(config, server)
    done = _run(config, "play", "--server", server.url, "--name", name, "--table", "nosuch")
    assert done.returncode == 1
    assert f"error: no table named 'nosuch' at {server.url} (its tables: " in done.stderr
    _still_playing(server, table, conn, name)


def test_a_second_window_does_not_take_over_unless_asked(server: Server,
                                                         seated_alice: tuple[Path, str, Connection]) -> None:
    config, table, conn = seated_alice
    name = _name(config, server)
    done = _run(config, "play", "--server", server.url, "--name", name, "--table", table)
    assert done.returncode == 1
    assert f"{name} is playing at {table} in another window right now; nothing changed" in done.stderr
    _still_playing(server, table, conn, name)


def test_several_saved_sessions_and_no_name_refuse_before_connecting(
        server: Server, seated_alice: tuple[Path, str, Connection]) -> None:
    config, table, conn = seated_alice
    name = _name(config, server)
    other = f"bo{name[2:]}"
    assert _run(config, "account", "--server", server.url, "--name", other).returncode == 0
    done = _run(config, "play", "--server", server.url, "--table", table)
    assert done.returncode == 1
    listed = ", ".join(sorted([name, other], key=str.lower))
    assert f"several people have played at {server.url} from this machine ({listed})" in done.stderr
    _still_playing(server, table, conn, name)


def test_a_wrong_scripted_password_is_tried_once(server: Server, tmp_path: Path) -> None:
    first = _run(tmp_path / "a", "account", "--server", server.url, "--name", "once-only")
    assert first.returncode == 0, first.stderr
    done = _run(tmp_path / "b", "account", "--server", server.url, "--name", "once-only", password="wrong-password")
    assert done.returncode == 1
    assert done.stderr.count("wrong password for once-only") == 1, done.stderr
    assert "the password in HCF_PASSWORD was refused" in done.stderr


def test_a_reader_that_goes_away_ends_the_output_quietly(server: Server, tmp_path: Path) -> None:
    with subprocess.Popen(hcf("history", "--server", server.url, "--limit", "5"), cwd=ROOT,
                          env=client_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        assert proc.stdout is not None
        proc.stdout.close()  # as `| head` does once it has read enough: before hcf writes a line
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("hcf history did not end")
    assert proc.returncode == 0, err
    assert err == ""


def test_a_refusal_from_the_api_keeps_its_code(server: Server) -> None:
    with pytest.raises(ServerRefused) as refused:
        request_json("GET", f"{server.url}/api/account", token="no-such-token")
    assert refused.value.code == "auth/token_invalid"


def test_a_watcher_whose_reader_goes_away_stops_quietly(server: Server, tmp_path: Path) -> None:
    with subprocess.Popen(hcf("watch", "--server", server.url, "--plain"), cwd=ROOT, env=client_env(tmp_path),
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        assert proc.stdout is not None
        proc.stdout.close()  # `hcf watch | head -3`, once head has its lines
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("the watcher went on writing to nobody")
    assert proc.returncode == 0, err
    assert err == ""


def test_a_name_the_server_refuses_is_said_once_and_nothing_is_registered(server: Server, tmp_path: Path) -> None:
    long_name = "a" * 40  # issue 23, item 11: the refusal was printed twice
    done = _run(tmp_path, "account", "--server", server.url, "--name", long_name)
    assert done.returncode == 1
    said = done.stdout + done.stderr
    assert said.count("a name has at most 24 characters") == 1, said
    assert _run(tmp_path, "account", "--server", server.url, "--name", long_name[:24]).returncode == 0


@pytest.mark.parametrize(("typed", "takes_over"), [(["yse", "y"], True), (["nope", "n"], False), ([""], False)])
def test_a_typo_at_the_take_over_question_is_asked_again_never_taken_for_a_no(typed: list[str],
                                                                               takes_over: bool) -> None:
    answers = iter(typed)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    if takes_over:
        _confirm_take_over("bob", "main", ask)
    else:
        with pytest.raises(StartRefused, match="nothing changed: bob plays on in the other window"):
            _confirm_take_over("bob", "main", ask)
    assert len(asked) == len(typed)
    assert all(prompt.endswith("Play here instead (that window stops)? [y/N] ") for prompt in asked)
    assert all(prompt.startswith("say y or n. ") for prompt in asked[1:])
