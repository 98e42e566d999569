"""The offline runner (``hcf-server drill run``): a scenario played at an in-process table on its own SQLite file.

The scenario is first played through the rules alone (:func:`~server.drill.play.dry_run`),
which checks it and makes the key. Then a real :class:`~server.table.runner.TableRunner`
over a fresh database deals it as a **live drill table** (server/table/drill.py): bots sit
with the scenario's stacks, the host arranges each deck, the scripted players move, the
trainer injects each irregularity, and the answers are given as the trainee gives them,
one at each step the table asks (``null``: the step's time runs out on the drill's clock).
Each step the table asks must be the key's next one, and the key is read again off the
table's own recorded log (and must agree with the dry run's); the answers are judged
against it, and the ledger check runs on the drill's database at the end.
"""

from __future__ import annotations

import tempfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.bindings import DatabaseBindings
from server.clock import ManualClock
from server.config import ServerConfig
from server.drill.moves import SCRIPTS
from server.drill.play import TABLE, PlayedHand, dry_run, key_of
from server.drill.scenario import HandSpec, Scenario
from server.persistence.database import Database, open_database
from server.replay import initial_state
from server.rules.cards import Card, format_cards
from server.rules.drill.irregularity import Irregularity
from server.rules.drill.key import hand_key
from server.rules.drill.report import Asked, report
from server.rules.drill.settings import DrillSettings
from server.rules.drill.steps import KeyStep
from server.rules.games import game_named
from server.rules.vocabulary import AccountId, Seat
from server.table.commands import DrillRequest, Host, Play, SetWilling, Sit, Snapshot
from server.table.drill_state import Hold
from server.table.ports import TableUpdates
from server.table.runner import TableRunner, TableSetup

_TABLE_ROWS = frozenset({"hand_started", "hand_revealed"})  # the table's own rows in a hand's log
MAX_COMMANDS = 500
TRAINEE = "!trainee"  # no account has this name: the runner answers in the trainee's place
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
        table_keys = await _play(scenario, played, database, url, _Trainee(key_of(played), answers))
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


@dataclass(slots=True)
class _Trainee:
    """The scenario's answers, given at the live table in key order; each step the table asks must be the key's."""

    key: list[Asked]
    answers: Sequence[Any]
    n: int = 0  # how many steps of the key have been asked

    async def answer(self, runner: TableRunner, clock: ManualClock, where: str) -> None:
        """Answer every step the table asks now (a ``null`` answer lets the step's time run out)."""
        while (held := _held(runner)) is not None:  # the drill is a value, replaced as it evolves: read it anew
            asked = held.questions[0].step
            if self.n >= len(self.key) or asked != self.key[self.n].step:
                wanted = self.key[self.n].step.step if self.n < len(self.key) else "no step"
                raise DrillError(f"{where}: the table asked {asked.step} {asked.answer} where the key has {wanted}")
            given = self.answers[self.n] if self.n < len(self.answers) else None
            self.n += 1
            if given is not None:
                await runner.submit(DrillRequest(AccountId(0), TRAINEE, "answer", given))
                continue
            answered = _answered(runner)
            for _ in range(MAX_TIMERS):
                if _answered(runner) > answered or not clock.fire_next():
                    break
                await runner.submit(Snapshot(None))  # the timer's tick is queued: this waits for it

    def skip(self, steps: int) -> None:
        """Steps of an attempt nobody could bank: the table asks none (it retries), they are judged off the key."""
        self.n += steps


def _held(runner: TableRunner) -> Hold | None:
    """The steps the live drill waits for now, if any."""
    return None if runner.drill is None else runner.drill.held


def _answered(runner: TableRunner) -> int:
    """How many steps the live drill has had answered (or timed out)."""
    return 0 if runner.drill is None else len(runner.drill.answers)


async def _play(scenario: Scenario, played: list[PlayedHand], database: Database,
                url: str, trainee: _Trainee) -> list[tuple[KeyStep, ...]]:
    bindings = DatabaseBindings(database, ServerConfig(database_url=url))
    await bindings.create_table(TABLE, scenario.settings.as_dict() | {"game": scenario.game}, None)
    accounts: dict[int, AccountId] = {}
    async with database.transaction() as tx:
        for seat in scenario.seats:
            account = await tx.create_account(seat.name, "!drill: a bot, no password")
            await tx.issue(account.id, seat.stack, "drill buy-in")
            accounts[seat.seat] = AccountId(account.id)
    clock = ManualClock()
    drill = DrillSettings(TRAINEE, scenario.steps)  # the table's settings carry its chips: it asks the payouts
    runner = TableRunner(TableSetup(TABLE, scenario.settings, offer_from=scenario.offer_from, game=scenario.game,
                                    drill=drill), bindings, _Nobody(), grace=0.0, clock=clock)
    runner.start()
    try:
        for seat in scenario.seats:
            await runner.submit(Sit(accounts[seat.seat], seat.name, Seat(seat.seat), buy_in=seat.stack))
            if not seat.bank:
                await runner.submit(SetWilling(accounts[seat.seat], False))
        keys = []
        for number, hand in enumerate(scenario.hands, 1):
            keys.append(await _hand(scenario, runner, clock, database, hand, played[number - 1].deck, accounts,
                                    number, trainee))
            if trainee.n != len(key_of(played[:number])):
                raise DrillError(f"scenario {scenario.name}, hand {number}: the table asked {trainee.n} steps "
                                 f"by its end, the key {len(key_of(played[:number]))}")
    finally:
        await runner.stop(1.0)
    return keys


async def _hand(scenario: Scenario, runner: TableRunner, clock: ManualClock, database: Database, hand: HandSpec,
                deck: tuple[Card, ...], accounts: dict[int, AccountId], number: int,
                trainee: _Trainee) -> tuple[KeyStep, ...]:
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
        steps = hand_key(scenario.game, attempt, game.opening_events(attempt), game.evolve,
                         irregularity=hand.irregularity, asked=scenario.steps)
        trainee.skip(len(steps))
        return steps
    injected = hand.irregularity is None
    for _ in range(MAX_COMMANDS):
        await trainee.answer(runner, clock, where)
        if not runner.hand_in_progress():
            break
        state = runner.state
        if not injected and script.dealt(state):
            injected = True
            assert hand.irregularity is not None
            irregularity = hand.irregularity
            args = (("kind", irregularity.kind),) + ((("seat", irregularity.seat),)
                                                     if irregularity.seat is not None else ())
            await runner.submit(Host("inject", None, args))  # the trainer's: the table rules as it should
            continue
        move = script.next_move(scenario, hand, state, where)
        await runner.submit(Play(accounts[move.seat], move.action, move.args))
    if runner.hand_in_progress() or runner.last_hand_id is None:
        raise DrillError(f"{where}: the hand did not end at the table")
    return await _recorded_key(scenario, database, runner.last_hand_id, hand)


async def _recorded_key(scenario: Scenario, database: Database, hand_id: int, hand: HandSpec) -> tuple[KeyStep, ...]:
    return await recorded_key(scenario.game, database, hand_id, hand.irregularity, scenario.steps, scenario.chips)


async def recorded_key(game_name: str, database: Database, hand_id: int, irregularity: Irregularity | None,
                       steps: Collection[str] | None = None, chips: Sequence[int] = ()) -> tuple[KeyStep, ...]:
    """A hand's key from the table's own log: its recorded inputs and events, through the engine (``chips``:
    the chips in play, for the payouts' make-ups)."""
    recorded = await database.get_hand(hand_id)
    rows = [dict(e.payload) for e in await database.hand_events(hand_id)]
    inputs = next(r["_input"] for r in rows if (r.get("_input") or {}).get("command") == "new_hand")
    game, initial = initial_state(inputs, recorded.server_seed)
    events = [game.codec.event_from_json({k: v for k, v in r.items() if not k.startswith("_")})
              for r in rows if r.get("type") not in _TABLE_ROWS]
    return hand_key(game_name, initial, events, game.evolve, irregularity=irregularity, asked=steps, chips=chips)
