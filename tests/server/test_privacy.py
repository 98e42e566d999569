"""Spying clients (docs/rules/hcf.md sections 3.8 and 6): nobody is sent a card they may not see,
and every deal checks out.

A spectator and every player record everything they receive (each update's table
and private events and view, the answers with their updates, snapshots taken at
every step) over several hands played with random
folds, raises and bonus bets. Afterwards: no one received another seat's cards
before that hand's settlement (the DP's cards before ``dealer_revealed``), a
folded hand's cards reached nobody but its owner, and the revealed server seed
matches the commitment and, with the player seeds, rebuilds exactly the cards
each player was dealt.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

from client_cli.connection import http_json
from tests.support.patches import patch_pieces

from .conftest import Server
from .helpers import (
    Bot,
    Client,
    Decision,
    Policy,
    cancel_and_wait,
    card_strings,
    rebuild_hands,
    run_hands,
)

HANDS = 5
PEEK_AT = ("betting_opened", "bets_closed", "cards_dealt", "turn_started", "player_folded", "dealer_revealed")


def random_policy(rng: random.Random) -> Policy:
    def decide(cards: dict[str, Any], ante: int) -> Decision:
        if rng.random() < 0.35:
            return ("fold", 0)
        return ("raise", rng.randint(1, cards["raise_limit"]) * ante)

    def bank(_bot: Bot, _event: dict[str, Any]) -> bool:
        return rng.random() < 0.75

    return Policy(ante=rng.choice([5, 10, 25]), straight_flush_bonus=rng.choice([0, 1, 5]),
                  flush_bonus=rng.choice([0, 2]), decide=decide, choose_bank=bank)


async def peek(client: Client) -> None:
    """Take a snapshot at every step of every hand, as a curious client would."""
    i = client.mark()
    while True:
        i, entry = await client.wait_for(lambda e: e.get("kind") == "table", since=i, timeout=None)
        i += 1
        if entry["event"].get("type") in PEEK_AT:
            await client.snapshot()


def parts(entry: dict[str, Any], seq_hand: dict[int, int]) -> Iterator[tuple[int | None, int | None, Any]]:
    """(hand id, table seq when sent, payload) for each piece of one log entry."""
    kind = entry.get("kind")
    reply = entry.get("reply") or {}
    if kind == "table":
        yield entry["event"].get("hand_id"), entry["seq"], entry["event"]
    elif kind == "private":
        yield seq_hand[entry["seq"]], entry["seq"], entry["event"]
    elif kind == "update":  # what the update's view changed: pieces of a snapshot
        yield from view_parts(entry["seq"], entry["view"])
        yield from patch_pieces(entry["seq"], entry.get("patch") or [], seq_hand)
        yield None, entry["seq"], entry["choices"]
    elif kind == "reply" and isinstance(reply.get("update"), dict):  # an answer carries its account's update
        update = reply["update"]
        for item in update["events"]:
            ev = item["event"]
            yield (seq_hand[item["seq"]] if item.get("private") else ev.get("hand_id")), item["seq"], ev
        yield from view_parts(update["seq"], update["view"])
        yield from patch_pieces(update["seq"], update.get("patch") or [], seq_hand)
        yield None, update["seq"], {k: v for k, v in reply.items() if k != "update"}
    elif kind in ("snapshot", "reply"):
        snapshot = entry.get("snapshot") or reply.get("snapshot")
        if snapshot is None:
            yield None, None, entry
            return
        yield from view_parts(snapshot["seq"], snapshot)
    else:
        yield None, None, entry


def view_parts(seq: int, view: dict[str, Any]) -> Iterator[tuple[int | None, int | None, Any]]:
    """A snapshot's (or an update view's) pieces: the hands apart, each with its id."""
    yield None, seq, {k: v for k, v in view.items() if k not in ("hand", "last_hand")}
    for key in ("hand", "last_hand"):
        if view.get(key) is not None:
            yield view[key]["hand_id"], seq, view[key]


async def test_nobody_sees_a_card_they_may_not_and_every_deal_is_rebuilt_from_the_seeds(server: Server) -> None:
    rngs = [random.Random(seed) for seed in (11, 22, 33, 44)]
    host, players = await server.table(*[random_policy(rng) for rng in rngs])
    spectator = await server.client(name="spectator")
    await spectator.join()
    watchers = [spectator, *players]
    peeks = [asyncio.create_task(peek(client)) for client in watchers]
    try:
        hands = await run_hands(host, HANDS, timeout=40)
    finally:
        for task in peeks:
            await cancel_and_wait(task)
    dealt_hands = [h for h in hands if h["status"] == "settled"]
    assert len(dealt_hands) >= 3, [h["status"] for h in hands]

    # the public timeline, from the host's log: when each hand dealt, showed the DP, settled
    seq_hand: dict[int, int] = {}
    dealer_seq: dict[int, int] = {}
    settled_seq: dict[int, int] = {}
    commitments: dict[int, str] = {}
    for entry in host.log:
        if entry.get("kind") != "table":
            continue
        ev, seq = entry["event"], entry["seq"]
        if ev["type"] == "cards_dealt":
            seq_hand[seq] = ev["hand_id"]
        elif ev["type"] == "dealer_revealed":
            dealer_seq[ev["hand_id"]] = seq
        elif ev["type"] == "hand_settled":
            settled_seq[ev["hand_id"]] = seq
        elif ev["type"] == "betting_opened":
            commitments[ev["hand_id"]] = ev["commitment"]

    by_name = {p.name: p for p in players}
    rebuilt: dict[int, dict[int, list[str]]] = {}
    for revealed in dealt_hands:
        h = revealed["hand_id"]
        assert revealed["commitment"] == commitments[h], "the revealed seed is not the one committed to"
        cards = rebuild_hands(revealed)  # checks sha256(server_seed) == commitment too
        rebuilt[h] = cards
        assert revealed["dealer_cards"] == cards[revealed["dealer"]]
        folded = {r["seat"] for r in revealed["settlement"]["seats"] if r["folded"]}
        assert {int(s) for s in revealed["shown"]} == set(revealed["deal_order"][:-1]) - folded
        for seat, shown in revealed["shown"].items():
            assert shown == cards[int(seat)]
        # what each player was dealt is what the seeds rebuild
        for seat_key, name in revealed["names"].items():
            seat = int(seat_key)
            if seat not in cards:
                continue
            mine = [e["event"]["cards"] for e in by_name[name].private_events() if seq_hand.get(e["seq"]) == h]
            assert mine == [cards[seat]], f"{name} was dealt {mine}, the seeds rebuild {cards[seat]}"
        public = await http_json("GET", f"{server.url}/api/hands/{h}")
        for seat in folded:
            assert not set(card_strings(public)) & set(cards[seat]), "a folded hand is in the hand's history"

    assert not spectator.private_events(), "a spectator was sent private events"
    checked = 0
    for client in [*watchers, host]:
        for entry in client.log:
            for hand_id, seq, payload in parts(entry, seq_hand):
                seen = set(card_strings(payload))
                if hand_id is None or hand_id not in rebuilt:
                    assert not seen, f"{client.name} got cards outside a dealt hand: {entry}"
                    continue
                cards, revealed = rebuilt[hand_id], next(h for h in dealt_hands if h["hand_id"] == hand_id)
                seat = next((int(s) for s, n in revealed["names"].items() if n == client.name), None)
                allowed = set(cards.get(seat, [])) if seat is not None else set()
                if seq is not None and seq >= dealer_seq[hand_id]:
                    allowed |= set(cards[revealed["dealer"]])
                if seq is not None and seq >= settled_seq[hand_id]:
                    allowed |= {c for shown in revealed["shown"].values() for c in shown}
                assert seen <= allowed, (
                    f"{client.name} was sent {sorted(seen - allowed)} of hand {hand_id} "
                    f"(seq {seq}, settled at {settled_seq[hand_id]}): {entry}")
                checked += bool(seen)
    assert checked > 20, "the spies saw too few cards for this test to mean much"
