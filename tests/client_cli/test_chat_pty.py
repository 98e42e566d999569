"""``say TEXT`` in one terminal reaches another (issue 28 item 2; docs/client.md, chat): two people in ``hcf play``
at a paused table, a line with markup, a refusal said in a sentence."""

from __future__ import annotations

from pathlib import Path
from typing import TextIO

import pexpect
import pytest

from client_cli.api import request_json
from tests.client_cli.conftest import ROOT, Server, client_env, hcf

TABLE = "chat-pty"


def _player(server: Server, tmp_path: Path, screen: TextIO, name: str, seat: int) -> pexpect.spawn:
    argv = hcf("play", "--server", server.url, "--table", TABLE, "--name", name, "--seat", str(seat),
               "--buy-in", "1000")
    child = pexpect.spawn(argv[0], argv[1:], cwd=str(ROOT), env=client_env(tmp_path / name, TERM="xterm-256color"),
                          dimensions=(30, 100), encoding="utf-8", timeout=30)
    child.logfile_read = screen  # what the person saw, for a failure
    child.expect(f"Password for {name}")
    child.sendline("a-good-password")
    child.expect("Type it again to register")
    child.sendline("a-good-password")
    child.expect(f"you sit at seat {seat} with 1000 chips")
    return child


@pytest.mark.timeout(120)
def test_say_hello_reaches_another_terminal(server: Server, tmp_path: Path) -> None:
    for action in ("create_table", "pause"):  # paused: no hand, nothing races the lines
        request_json("POST", f"{server.url}/api/host", {"action": action, "table": TABLE}, token=server.host_token)
    screen = (tmp_path / "screen.log").open("w", encoding="utf-8")
    children: list[pexpect.spawn] = []
    try:
        ann = _player(server, tmp_path, screen, "ann", 1)
        children.append(ann)
        bob = _player(server, tmp_path, screen, "bob", 2)
        children.append(bob)
        ann.send("say hello <b>bob</b>\r")
        bob.expect(r"\[chat\] ann: hello <b>bob</b>")
        ann.expect(r"\[chat\] ann: hello <b>bob</b>")  # the speaker sees the line as the table got it
        bob.send("say " + "x" * 201 + "\r")
        bob.expect("not said: a chat line is at most 200 characters; yours has 201")
        bob.send("help\r")
        bob.expect("say TEXT")
        for child in children:
            child.sendintr()
            child.expect("you stood up from chat-pty", timeout=30)
            child.expect(pexpect.EOF, timeout=20)
    finally:
        for child in children:
            if child.isalive():
                child.terminate(force=True)
        screen.close()
