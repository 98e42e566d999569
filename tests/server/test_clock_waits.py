"""What the server waits for, on its injected clock (server/clock.py): the test moves the time.

The presence grace and the reconnect limit run on the server's clock, so these tests
advance a manual clock instead of sleeping, and can say exactly when things happen.
"""

from __future__ import annotations

import asyncio

import pytest

from client_cli.connection import ServerRefused
from server.app import GATEWAY
from server.rules.game import AccountId
from tests.support.clock import ManualClock

from .conftest import Server


def manual(server: Server) -> ManualClock:
    assert isinstance(server.clock, ManualClock)
    return server.clock


async def gone(server: Server, account: AccountId) -> None:
    """Until the server has taken the disconnection in (a poll of its state, not a wait for a clock)."""
    gateway = server.app[GATEWAY]
    async with asyncio.timeout(5):
        while account in gateway.sid_of_account:
            await asyncio.sleep(0.01)


@pytest.mark.parametrize("config_overrides", [{"presence_grace": 3.0}])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_drop_is_published_when_the_grace_runs_out_and_not_a_moment_before(server: Server) -> None:
    host = await server.host()
    await host.host("pause")
    alice = await server.player("alice")
    assert alice.account_id is not None
    mark = host.mark()
    await alice.close()
    await gone(server, alice.account_id)
    absent = server.app[GATEWAY]._absence  # the accounts whose grace is running
    manual(server).advance(2.99)
    assert alice.account_id in absent, "the absence was published before the grace ran out"
    manual(server).advance(0.01)
    assert alice.account_id not in absent
    _, away = await host.event("presence", since=mark)
    assert (away["seat"], away["present"]) == (1, False)
    back = await server.client(name="alice", token=alice.token, account_id=alice.account_id)
    _, returned = await host.event("presence", since=mark, where=lambda e: e["present"])
    assert returned["seat"] == 1
    assert (await back.snapshot())["seats"][0]["present"] is True


@pytest.mark.parametrize("config_overrides", [{"reconnect_burst": 2, "reconnect_rate_per_second": 0.5}])
@pytest.mark.parametrize("server_clock", ["manual"], indirect=True)
async def test_a_refused_reconnect_is_taken_once_its_wait_has_passed_on_the_server_clock(server: Server) -> None:
    account = await server.account("alice")
    for _ in range(2):  # the burst
        client = await server.client(name="alice", token=account["token"], account_id=account["account_id"])
        await client.close()
        await gone(server, account["account_id"])
    with pytest.raises(ServerRefused) as refused:
        await server.client(name="alice", token=account["token"], account_id=account["account_id"])
    assert refused.value.code == "rate/limited"
    manual(server).advance(1.9)  # a token every 2 s: not yet
    with pytest.raises(ServerRefused):
        await server.client(name="alice", token=account["token"], account_id=account["account_id"])
    manual(server).advance(0.1)
    assert (await server.client(name="alice", token=account["token"], account_id=account["account_id"])).connected
