"""``hcf host settle-up [--csv]`` against the real server, after bots play (issue 28, item 3)."""

from __future__ import annotations

import csv
import io

import pytest

from tests.server.helpers import Policy, run_hands

from .conftest import Web
from .test_host_cli import hcf


async def test_settle_up_says_each_net_and_who_pays_whom_in_sentences_and_as_csv(
        web: Web, capsys: pytest.CaptureFixture[str]) -> None:
    host, _ = await web.server.table(Policy(), Policy(bank=False), Policy(bank=False))
    await run_hands(host, 2)
    await host.host("pause")
    code, out, _ = await hcf(capsys, web, "settle-up", "--table", "main")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "Settle-up at main since the table opened."
    assert [line.split(" ")[0] for line in lines[1:4]] == ["alice", "bob", "carol"]
    assert all(line.endswith(".") and "_" not in line for line in lines)
    assert any(" pays " in line for line in lines) or lines[-1] == "Nobody owes anybody anything."
    code, out, _ = await hcf(capsys, web, "settle-up", "--table", "main", "--csv")
    people, payments = out.split("\n\n")
    rows = list(csv.DictReader(io.StringIO(people)))
    assert code == 0
    assert [r["name"] for r in rows] == ["alice", "bob", "carol"]
    assert all(int(r["bought in"]) == 1000 for r in rows)
    paid = list(csv.DictReader(io.StringIO(payments)))
    # the house kept the fees: the players, down by them together, pay it what it kept
    assert sum(int(r["net"]) for r in rows) == sum(int(p["amount"]) for p in paid if p["payer"] == "the house") \
        - sum(int(p["amount"]) for p in paid if p["payee"] == "the house")


async def test_settle_up_of_an_unknown_table_or_day_is_a_sentence(web: Web,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = await hcf(capsys, web, "settle-up", "--table", "nowhere")
    assert (code, out.strip()) == (1, "error: there is no table named 'nowhere'")
    code, out, _ = await hcf(capsys, web, "settle-up", "--day", "5/12/2026")
    assert (code, out.strip()) == (1, "error: a day is written YYYY-MM-DD, like 2026-12-05, not '5/12/2026'")
