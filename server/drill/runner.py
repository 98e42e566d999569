"""The offline runner (``hcf-server drill run``): a scenario played at an in-process table on its own SQLite file.

The scenario is first played through the rules alone (:func:`~server.drill.play.dry_run`),
which checks it and makes the key. Then a real :class:`~server.table.runner.TableRunner`
over a fresh database deals it: bots sit with the scenario's stacks, the host arranges
each deck, the scripted players move, and the floor carries out the right ruling of each
injected irregularity, whatever the answer. The key is read again off the table's own
recorded log (and must agree with the dry run's), the answers are judged against it, and
the ledger check runs on the drill's database at the end.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from server.bindings import DatabaseBindings
from server.clock import ManualClock
from server.config import ServerConfig
from server.drill.moves import SCRIPTS, floor_for
from server.drill.play import TABLE, PlayedHand, dry_run, key_of
from server.drill.scenario import PLACE, HandSpec, Scenario
from server.persistence.database import Database, open_database
from server.replay import initial_state
from server.rules.cards import Card, format_cards
from server.rules.drill.irregularity import injected as injected_event
from server.rules.drill.key import hand_key
from server.rules.drill.report import Asked, report
from server.rules.drill.steps import KeyStep
from server.rules.games import game_named
from server.table.commands import Host, Play, SetWilling, Sit, Snapshot
from server.table.ports import TableUpdates
from server.table.runner import TableRunner, TableSetup

_TABLE_ROWS = frozenset({"hand_started", "hand_revealed"})  # the table's own rows in a hand's log
MAX_COMMANDS = 500
MAX_TIMERS = 50


class DrillError(RuntimeError):
    """The table and the rules disagreed about a scenario: a bug, never the trainee's answers."""


class _Nobody:
    """A publisher with no clients: nobody watches an offline drill."""

    async def table_update(self, table: str, updates: TableUpdates) -> None:
        del table, updates


def run(scenario: Scenario, answers: Sequence[Any], database_url: str | None = None) -> dict[str, Any]:
    """Play ``scenario`` with ``answers`` (one per step in key order) and return the report (DRILLS section 9)."""
    import asyncio

    played = dry_run(scenario)
    if database_url is not None:
        return asyncio.run(_run(scenario, played, answers, database_url))
    with tempfile.TemporaryDirectory(prefix="hcf-drill-") as folder:
        url = f"sqlite:///{Path(folder) / 'drill.db'}"
        return asyncio.run(_run(scenario, played, answers, url))


async def _run(scenario: Scenario, played: list[PlayedHand], answers: Sequence[Any], url: str) -> dict[str, Any]:
    database = await open_database(url)
    try:
        table_keys = await _play(scenario, played, database, url)
        for hand, dry, table in zip(played, [p.key for p in played], table_keys, strict=True):
            if dry != table:
                raise DrillError(f"scenario {scenario.name}, hand {hand.number}: the table's steps differ from "
                                   f"the rules' ({len(table)} against {len(dry)})")
        ledger = await database.ledger_check()
        verdict = "ok" if ledger.ok and not ledger.open_felt_places else "; ".join(
            ledger.discrepancies or [f"chips left on the felt: {ledger.open_felt_places}"])
    finally:
        await database.close()
    key = [Asked(number, step) for number, steps in enumerate(table_keys, 1) for step in steps]
    assert key == key_of(played)
    return report(scenario.name, key, answers, ledger=verdict)


async def _play(scenario: Scenario, played: list[PlayedHand], database: Database,
                url: str) -> list[tuple[KeyStep, ...]]:
    bindings = DatabaseBindings(database, ServerConfig(database_url=url))
    await bindings.create_table(TABLE, scenario.settings.as_dict() | {"game": scenario.game}, None)
    accounts: dict[int, int] = {}
    async with database.transaction() as tx:
        for seat in scenario.seats:
            account = await tx.create_account(seat.name, "!drill: a bot, no password")
            await tx.issue(account.id, seat.stack, "drill buy-in")
            accounts[seat.seat] = account.id
    clock = ManualClock()
    runner = TableRunner(TableSetup(TABLE, scenario.settings, offer_from=scenario.offer_from, game=scenario.game),
                         bindings, _Nobody(), grace=0.0, clock=clock)
    runner.start()
    try:
        for seat in scenario.seats:
            await runner.submit(Sit(accounts[seat.seat], seat.name, seat.seat, buy_in=seat.stack))
            if not seat.bank:
                await runner.submit(SetWilling(accounts[seat.seat], False))
        keys = []
        for number, hand in enumerate(scenario.hands, 1):
            keys.append(await _hand(scenario, runner, clock, database, hand, played[number - 1].deck, accounts,
                                    number))
    finally:
        await runner.stop(1.0)
    return keys


async def _hand(scenario: Scenario, runner: TableRunner, clock: ManualClock, database: Database, hand: HandSpec,
                deck: tuple[Card, ...], accounts: dict[int, int], number: int) -> tuple[KeyStep, ...]:
    where = f"scenario {scenario.name}, hand {number}"
    game, script = game_named(scenario.game), SCRIPTS[scenario.game]
    await runner.submit(Host("arrange_deck", None, (("cards", format_cards(deck)),)))
    before = runner.state
    for _ in range(MAX_TIMERS):
        if runner.state is not before or not clock.fire_next():
            break
        await runner.submit(Snapshot(None))  # the timer's tick is queued: this waits for it
    if runner.state is before:
        raise DrillError(f"{where}: the table started no hand")
    attempt = runner.state
    if not runner.hand_in_progress():  # nobody could bank: the table started nothing and recorded nothing
        return hand_key(scenario.game, attempt, game.opening_events(attempt), game.evolve,
                        irregularity=hand.irregularity, asked=scenario.steps)
    injected = hand.irregularity is None
    for _ in range(MAX_COMMANDS):
        if not runner.hand_in_progress():
            break
        state = runner.state
        if not injected and script.dealt(state):
            injected = True
            assert hand.irregularity is not None
            await _announce(runner, injected_event(hand.irregularity, deck, script.cards_dealt(state),
                                                   PLACE[scenario.game]))
            floor = floor_for(script, state, hand.irregularity, where)
            if floor is not None:
                args = (("seat", floor.seat),) if floor.seat is not None else ()
                await runner.submit(Host(floor.action, None, args))
            continue
        move = script.next_move(scenario, hand, state, where)
        await runner.submit(Play(accounts[move.seat], move.action, move.args))
    if runner.hand_in_progress() or runner.last_hand_id is None:
        raise DrillError(f"{where}: the hand did not end at the table")
    return await _recorded_key(scenario, database, runner.last_hand_id, hand)


async def _announce(runner: TableRunner, payload: dict[str, Any]) -> None:
    """Record the injected irregularity in the table's log (a table event: the hand's own log and its replay
    stay those of any hand), inside the table task like any command."""
    async def record() -> dict[str, Any]:
        await runner._table_events([payload])
        return {}

    await runner._call(record)


async def _recorded_key(scenario: Scenario, database: Database, hand_id: int, hand: HandSpec) -> tuple[KeyStep, ...]:
    """The hand's key from the table's own log: its recorded inputs and events, through the engine."""
    recorded = await database.get_hand(hand_id)
    rows = [dict(e.payload) for e in await database.hand_events(hand_id)]
    inputs = next(r["_input"] for r in rows if (r.get("_input") or {}).get("command") == "new_hand")
    game, initial = initial_state(inputs, recorded.server_seed)
    events = [game.codec.event_from_json({k: v for k, v in r.items() if not k.startswith("_")})
              for r in rows if r.get("type") not in _TABLE_ROWS]
    return hand_key(scenario.game, initial, events, game.evolve, irregularity=hand.irregularity,
                    asked=scenario.steps)
