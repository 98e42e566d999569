from .conftest import Server
from .helpers import Policy, run_hands


async def test_explore(server: Server) -> None:
    host = await server.host()
    await host.host("pause")
    a = await server.player("alice", policy=Policy())
    b = await server.player("bob", policy=Policy(bank=False))
    c = await server.player("carol", policy=Policy(bank=False, flush_bonus=2))
    hands = await run_hands(host, 2)
    for e in host.table_events():
        print(e)
    for e in a.log:
        print("A", e)
    print(hands)
    assert False
