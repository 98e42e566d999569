"""``hcf host invite``, ``invites`` and ``revoke-invite`` against the real server."""

from __future__ import annotations

import asyncio
import json
import re

import pytest

from client_cli.cli import main
from client_cli.host import parse_duration

from .conftest import Web

SERVER_LOG = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[")  # the server's own lines, in this process


async def hcf(capsys: pytest.CaptureFixture[str], web: Web, *args: str) -> tuple[int, str, str]:
    """Run ``hcf host ARGS`` (in a thread: it runs its own event loop); status, stdout, stderr."""
    capsys.readouterr()
    code = await asyncio.to_thread(main, ["host", "--server", web.main, f"--host-token={web.server.host_token}", *args])
    out, err = capsys.readouterr()
    return code, "".join(line for line in out.splitlines(keepends=True) if not SERVER_LOG.match(line)), err


async def test_invite_prints_the_link_on_one_line_and_invites_lists_it(web: Web,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = await hcf(capsys, web, "invite", "--table", "main", "--role", "player", "--expires", "2h",
                             "--uses", "3")
    assert code == 0
    assert out.count("\n") == 1
    assert out.startswith(f"{web.url}/join#")
    code, out, _ = await hcf(capsys, web, "invite", "--role", "spectator", "--json")
    shown = json.loads(out)
    assert (code, shown["role"], shown["uses"]) == (0, "spectator", None)
    code, out, _ = await hcf(capsys, web, "invites", "--table", "main")
    lines = out.splitlines()
    assert code == 0
    assert len(lines) == 2
    assert lines[1].startswith("1  main  player  used 0 of 3  expires ")
    code, out, _ = await hcf(capsys, web, "revoke-invite", "1")
    assert (code, out.strip()) == (0, "invite 1 is revoked (a floor token it gave stops working too)")
    code, out, _ = await hcf(capsys, web, "invites", "--table", "main", "--json")
    assert [i["revoked"] for i in json.loads(out)["invites"]] == [False, True]


async def test_refusals_are_sentences(web: Web, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = await hcf(capsys, web, "invite", "--role", "player", "--expires", "tomorrow")
    assert code == 2
    assert "30m, 12h, 2d or plain seconds" in err
    code, out, _ = await hcf(capsys, web, "invite", "--table", "nowhere", "--role", "floor")
    assert (code, out.strip()) == (1, "error: no table named 'nowhere'")
    code, out, _ = await hcf(capsys, web, "revoke-invite", "42")
    assert (code, out.strip()) == (1, "error: there is no invite 42")


@pytest.mark.parametrize(("text", "seconds"), [("30m", 1800), ("12h", 43200), ("2d", 172800), ("90", 90),
                                               ("45s", 45), (" 1H ", 3600)])
def test_durations(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "h", "0", "-5m", "1.5h", "12w", "twelve"])
def test_a_bad_duration_names_the_accepted_forms(text: str) -> None:
    with pytest.raises(ValueError, match="30m, 12h, 2d or plain seconds"):
        parse_duration(text)
