"""Hypothesis throws random requests, valid and not, at a live server from seven clients at once.

The clients: three seated players (each also played by a bot in the background, so
hands are offered, bet, dealt and settled while the fuzz runs), an account with no
seat, a spectator who joined, a connection with no token that never joined, and the
host. Each example is a sequence of steps: a request (one of the protocol's events,
an unknown or reserved name, or garbage) from one client with a random payload (the
right fields with right or wrong values, wrong types, extra keys, huge and negative
numbers, unicode, lone surrogates, nested junk, None, lists, no argument, several
arguments), a message sent without waiting for an answer, or a pause while the
clocks run.

Checked: every request is acknowledged with ``{"ok": true}`` or ``{"ok": false}``
and a code of ``server.protocol.ERROR_CODES``; ``/healthz`` answers after every
example; after the run, nobody was ever sent a card of another seat before it was
shown (every card anywhere in a client's events, private events and snapshots is
traced to the seat it was dealt to, the deals rebuilt from the revealed seeds), and
the ledger balances (and again, with the stacks, after the server stops: the fixture).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import typing
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from client_cli.connection import ServerRefused, http_json
from server import protocol as p
from server.app import DATABASE
from server.rules.cards import cards_list, make_card
from server.rules.fairness import derive_deck_seed, player_seed_bytes, shuffled_deck
from server.rules.hcf.settings import SETTING_NAMES
from tests.server.conftest import Server
from tests.server.helpers import Client, Policy, raise_max
from tests.support.patches import patch_pieces

from .conftest import Coverage

MAX_EXAMPLES = 40
NO_RATE_LIMIT = {"rate_burst": 1_000_000, "rate_per_second": 1_000_000.0}  # the abuse test covers the limit
PLAYERS = ("ann", "ben", "cat")
HOST_ACTIONS = typing.get_args(p.HostAction.model_fields["action"].annotation)
DECK = cards_list(make_card(rank, suit) for rank in range(13) for suit in range(4))
CARD = re.compile(r"^[2-9TJQKA][cdhs]$")
CARD_KEYS = frozenset({"cards", "dealer_cards", "shown", "your_cards", "flush", "straight_flush"})
NOT_HAND_CARDS = frozenset({"arranged_deck", "player_seeds", "seed"})  # a whole deck shown after the hand; seeds

# ------------------------------------------------------------------ strategies

ODD_EVENTS = ["connect", "disconnect", "message", "*", "", "frobnicate", "table_event", "private_event",
              "table_update",
              "session_replaced", "JOIN", "join ", "sit\x00", "\u2603", "__proto__"]
ODD_TEXT = ["main", "Main", "MAIN", "", " ", "nope", "\ud800", "\udfff", "\x00", "Ah", "Ah Kh", "😀" * 40,
            "x" * 5000, "${jndi:ldap://x}", "'; DROP TABLE place; --", "\u202e", "NaN"]
LEAF = st.one_of(
    st.none(), st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from([0, 1, -1, 5, 10, 100, 10**9, 10**9 + 1, 2**31, 2**63, -(2**63), 2**64]),
    st.floats(), st.text(max_size=30), st.sampled_from(ODD_TEXT),
)
JUNK = st.recursive(LEAF, lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=8), kids,
                                                                                      max_size=3), max_leaves=8)


def _deck_text(cards: list[str]) -> str:
    return " ".join(cards)


DECKS = st.permutations(DECK).flatmap(
    lambda deck: st.integers(min_value=1, max_value=52).map(lambda n: _deck_text(list(deck[:n]))))
SETTING_VALUES = st.one_of(st.integers(min_value=-5, max_value=20_000), st.floats(min_value=-1, max_value=4000),
                           st.sampled_from(["all", "players", "designated", "none", "california", "standard", "",
                                            "7: 200, 6: 50, 5: 10, 4: 2"]), JUNK)
FIELDS: dict[str, st.SearchStrategy[Any]] = {  # plausible values, in range and just outside it
    "table": st.sampled_from(["main"] * 8 + ["fz", "MAIN", "nope", ""]),
    "seat": st.one_of(st.integers(min_value=-1, max_value=10), st.none()),
    "buy_in": st.one_of(st.integers(min_value=0, max_value=12_000), st.none()),
    "amount": st.integers(min_value=0, max_value=3_000),
    "ante": st.integers(min_value=0, max_value=600),
    "straight_flush_bonus": st.integers(min_value=0, max_value=120),
    "flush_bonus": st.integers(min_value=0, max_value=120),
    "seed": st.one_of(st.text(max_size=140), st.none(), st.sampled_from(ODD_TEXT)),
    "sitting_out": st.booleans(),
    "willing": st.booleans(),
    "accept": st.booleans(),
    "action": st.one_of(st.sampled_from(HOST_ACTIONS), st.text(max_size=15)),
    "settings": st.dictionaries(st.one_of(st.sampled_from(SETTING_NAMES), st.text(max_size=10)), SETTING_VALUES,
                                max_size=4),
    "account": st.one_of(st.sampled_from([*PLAYERS, "lurker", "nobody", "ANN"]), st.text(max_size=30)),
    "cards": st.one_of(DECKS, st.text(max_size=60), st.sampled_from(ODD_TEXT)),
}


@st.composite
def shaped(draw: st.DrawFn, event: str) -> dict[str, Any]:
    """The fields ``event`` takes, each present or not, right or wrong, maybe with an extra key."""
    model = p.REQUESTS.get(event, p.TableRequest)
    payload: dict[str, Any] = {}
    for name, info in model.model_fields.items():
        if draw(st.integers(0, 9)) < (9 if info.is_required() else 5):
            right = draw(st.integers(0, 9)) < 9
            payload[name] = draw(FIELDS[name] if right and name in FIELDS else JUNK)
    if draw(st.integers(0, 9)) == 0:
        payload[draw(st.text(min_size=1, max_size=10))] = draw(JUNK)
    return payload


@dataclass(frozen=True)
class Step:
    """One thing a client does: ``call`` (wait for the answer), ``emit`` (do not), or ``pause``."""

    kind: str
    client: int = 0
    event: str = ""
    args: Any = None  # None: no argument; a tuple: several arguments; else the one argument
    seconds: float = 0.0


@st.composite
def steps(draw: st.DrawFn) -> Step:
    kind = draw(st.sampled_from(["call"] * 12 + ["emit", "pause", "pause"]))
    if kind == "pause":
        return Step("pause", seconds=draw(st.floats(min_value=0, max_value=0.3)))
    which = draw(st.integers(0, 9))
    event = draw(st.sampled_from(list(p.REQUESTS)) if which < 8 else
                 st.sampled_from(ODD_EVENTS) if which == 8 else st.text(max_size=12))
    shape = draw(st.sampled_from(["fields"] * 6 + ["junk", "none", "several"]))
    args: Any
    if shape == "fields":
        args = draw(shaped(event))
    elif shape == "junk":
        args = draw(JUNK)
    elif shape == "none":
        args = None
    else:
        args = tuple(draw(st.lists(st.one_of(shaped(event), JUNK), min_size=2, max_size=3)))
    return Step(kind, draw(st.integers(min_value=0, max_value=6)), event, args)


# ------------------------------------------------------------------ the live table


@dataclass
class Fuzz:
    """The clients, what they were answered, and what the run covered."""

    server: Server
    host: Client
    players: list[Client]
    clients: list[Client]
    settings: dict[str, Any]
    answers: Counter[str] = field(default_factory=Counter)
    requests: int = 0
    emits: int = 0
    examples: int = 0

    async def send(self, step: Step) -> None:
        client = self.clients[step.client]
        args = step.args
        if step.client == 0 and step.event == "host" and isinstance(args, dict) and args.get("action") == "close_table":
            args = {**args, "table": "fz"}  # closing the main table would end the run's hands
        if step.kind == "emit":
            self.emits += 1
            await client.conn.sio.emit(step.event, args)
            return
        self.requests += 1
        reply = await client.conn.sio.call(step.event, args, timeout=10)
        client.log.append({"kind": "reply", "request": step.event, "reply": reply})
        assert isinstance(reply, dict), f"{client.name} {step.event!r} {args!r}: answered {reply!r}"
        assert isinstance(reply.get("ok"), bool), f"{client.name} {step.event!r} {args!r}: answered {reply!r}"
        if reply["ok"]:
            self.answers["ok"] += 1
            if step.event == "sit" and isinstance(reply.get("seat"), int):
                client.seat = reply["seat"]
            elif step.event in ("stand", "leave") and reply.get("standing") == "now":
                client.seat = None
        else:
            code = reply.get("error", {}).get("code")
            assert code in p.ERROR_CODES, f"{client.name} {step.event!r} {args!r}: unknown code in {reply!r}"
            self.answers[code] += 1

    async def reset(self) -> None:
        """Undo what the last example did to the table's running: resumed, its settings, its players seated."""
        await self.host.call("host", {"action": "resume", "table": "main"})
        await self.host.call("host", {"action": "change_settings", "table": "main", "settings": self.settings})
        for player in self.players:
            snapshot = await player.snapshot()
            player.seat = snapshot["you"]["seat"]
            if player.seat is None:
                with contextlib.suppress(ServerRefused):
                    await player.sit(buy_in=1000)


@pytest.fixture
async def fuzz(server: Server, coverage: Coverage) -> AsyncIterator[Fuzz]:
    host, players = await server.table(*(Policy(ante=10, flush_bonus=2, straight_flush_bonus=1, decide=raise_max)
                                         for _ in PLAYERS), names=PLAYERS)
    lurker = await server.player("lurker", sit=False)
    spectator = await server.client(name="spectator")
    await spectator.join()
    anon = await server.client(name="anon")
    settings_now = (await host.snapshot())["settings"]
    run = Fuzz(server, host, players, [host, *players, lurker, spectator, anon], settings_now)
    await run.reset()
    yield run
    for bot in server.bots:
        await bot.stop()
    await host.call("host", {"action": "pause", "table": "main"})
    with contextlib.suppress(ServerRefused):  # end the hand in progress, so that it has its public record
        await host.call("host", {"action": "misdeal", "table": "main"})
    hands, cards_checked = await check_privacy(run)
    report = await server.app[DATABASE].ledger_check(tables_in_play=["main"])
    assert report.ok, report.discrepancies
    refused = sum(n for code, n in run.answers.items() if code != "ok")
    coverage(f"fuzz: {run.examples} examples, {run.requests} requests from 7 clients ({refused} refused, "
             f"{run.answers['ok']} accepted) and {run.emits} unacknowledged messages; "
             f"codes: {dict(run.answers.most_common())}; {hands} hands dealt meanwhile, {cards_checked} cards "
             f"received traced to their seats: none seen early; {report.summary()}",
             {"examples": run.examples, "requests": run.requests, "refused": refused, "emits": run.emits,
              "codes": dict(run.answers), "hands_dealt": hands, "cards_checked": cards_checked})


@pytest.mark.slow
@pytest.mark.timeout(240)
@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # when hypothesis reports a failing example
@pytest.mark.parametrize("config_overrides", [NO_RATE_LIMIT])
@settings(max_examples=MAX_EXAMPLES, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.data_too_large])
@given(sequence=st.lists(steps(), min_size=10, max_size=40))
async def test_random_requests_are_all_answered_and_leak_no_card(fuzz: Fuzz, sequence: list[Step]) -> None:
    fuzz.examples += 1
    for step in sequence:
        if step.kind == "pause":
            await asyncio.sleep(step.seconds)
        else:
            await fuzz.send(step)
    health = await http_json("GET", f"{fuzz.server.url}/healthz")
    assert health["ok"] is True
    for client in fuzz.clients:
        assert client.connected, f"{client.name} was disconnected"
    await fuzz.reset()


# ------------------------------------------------------------------ who saw which card


def hand_cards(value: Any, under: bool = False) -> Iterator[str]:
    """Every card under a key that holds cards, anywhere in a JSON value."""
    if isinstance(value, str):
        if under and CARD.match(value):
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in NOT_HAND_CARDS:
                yield from hand_cards(item, under or key in CARD_KEYS)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from hand_cards(item, under)


def deal(summary: dict[str, Any]) -> dict[int, list[str]]:
    """Seat -> cards, rebuilt from a finished hand's revealed seeds (or its arranged deck)."""
    order: list[int] = summary.get("deal_order") or []
    if not order:
        return {}
    if summary.get("arranged_deck"):
        deck = list(summary["arranged_deck"])
    else:
        seeds = [player_seed_bytes(seed) for _, seed in sorted(summary["player_seeds"])]
        deck = cards_list(shuffled_deck(derive_deck_seed(bytes.fromhex(summary["server_seed"]), seeds)))
    hands: dict[int, list[str]] = {seat: [] for seat in order}
    for i, card in enumerate(deck[:7 * len(order)]):
        hands[order[i % len(order)]].append(card)
    return hands


def pieces(entry: dict[str, Any], hand_of_seq: dict[int, int]) -> Iterator[tuple[int | None, int | None, Any]]:
    """(hand id, table seq when sent, payload) for each part of one received message."""
    kind = entry.get("kind")
    reply = entry.get("reply")
    answer: dict[str, Any] = reply if isinstance(reply, dict) else {}
    update = answer.get("update")
    if kind == "table":
        yield (entry.get("event") or {}).get("hand_id"), entry.get("seq"), entry.get("event")
    elif kind == "private":
        yield hand_of_seq.get(entry.get("seq") or -1), entry.get("seq"), entry.get("event")
    elif kind == "update":  # protocol v2: the keys of the snapshot this update changed
        yield from snapshot_pieces(entry.get("seq"), entry.get("view") or {})
        yield from patch_pieces(entry.get("seq"), entry.get("patch") or [], hand_of_seq)
        yield None, entry.get("seq"), entry.get("choices")
    elif kind == "reply" and isinstance(update, dict):  # an answer carries its account's update
        for item in update.get("events") or []:
            event, seq = item.get("event") or {}, item.get("seq")
            hand = hand_of_seq.get(seq or -1) if item.get("private") else event.get("hand_id")
            yield hand, seq, event
        yield from snapshot_pieces(update.get("seq"), update.get("view") or {})
        yield from patch_pieces(update.get("seq"), update.get("patch") or [], hand_of_seq)
        yield None, update.get("seq"), {k: v for k, v in answer.items() if k != "update"}
    elif kind in ("snapshot", "reply"):
        snapshot = entry.get("snapshot") or answer.get("snapshot")
        if not isinstance(snapshot, dict):
            yield None, None, entry
            return
        yield from snapshot_pieces(snapshot["seq"], snapshot)
    else:
        yield None, None, entry


def snapshot_pieces(seq: int | None, view: dict[str, Any]) -> Iterator[tuple[int | None, int | None, Any]]:
    """A snapshot's (or an update view's) parts: the hands apart, each with its id."""
    yield None, seq, {k: v for k, v in view.items() if k not in ("hand", "last_hand")}
    for part in ("hand", "last_hand"):
        if view.get(part) is not None:
            yield view[part].get("hand_id"), seq, view[part]


async def check_privacy(run: Fuzz) -> tuple[int, int]:
    """No client was sent a card of another seat before it was shown; (hands dealt, cards checked)."""
    database = run.server.app[DATABASE]
    hand_of_seq: dict[int, int] = {}
    shown_at: dict[int, dict[str, int]] = {}
    deals: dict[int, dict[int, list[str]]] = {}
    summaries: dict[int, dict[str, Any]] = {}
    for hand in await database.recent_hands("main", 10**6):
        if hand.summary is None:
            continue
        summaries[hand.id] = dict(hand.summary)
        deals[hand.id] = deal(summaries[hand.id])
        shown_at[hand.id] = {}
        for event in await database.hand_events(hand.id):
            hand_of_seq[event.seq] = hand.id
            shown_at[hand.id].setdefault(event.type, event.seq)
    checked = 0
    for client in run.clients:
        for entry in client.log:
            for hand_id, seq, payload in pieces(entry, hand_of_seq):
                seen = set(hand_cards(payload))
                if not seen:
                    continue
                assert hand_id in deals, f"{client.name} got cards outside a dealt hand: {entry}"
                summary, cards = summaries[hand_id], deals[hand_id]
                seat = next((int(s) for s, n in (summary.get("names") or {}).items() if n == client.name), None)
                allowed = set(cards.get(seat, [])) if seat is not None else set()
                if seq is not None and seq >= shown_at[hand_id].get("dealer_revealed", 1 << 62):
                    allowed |= set(summary.get("dealer_cards") or [])
                if seq is not None and seq >= shown_at[hand_id].get("hand_settled", 1 << 62):
                    allowed |= {c for shown in (summary.get("shown") or {}).values() for c in shown}
                assert seen <= allowed, (f"{client.name} was sent {sorted(seen - allowed)} of hand {hand_id} "
                                         f"at seq {seq} (shown at {shown_at[hand_id]}): {entry}")
                checked += len(seen)
    assert checked > 50, "too few cards went out for the privacy check to mean much"
    return sum(1 for d in deals.values() if d), checked
