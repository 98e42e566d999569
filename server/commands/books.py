"""``hcf-server ledger check``, ``replay`` and ``export``: the books, checkable by anyone who runs the server."""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TextIO

EXIT_MISMATCH = 1
EXIT_USAGE = 2  # a mistake in the arguments: no such table, a missing HAND_ID


def add_parsers(subparsers: Any) -> None:
    """Register ``ledger``, ``replay`` and ``export``."""
    ledger = subparsers.add_parser("ledger", help="check the chip ledger")
    sub = ledger.add_subparsers(dest="ledger_command", required=True, metavar="COMMAND")
    check = sub.add_parser(
        "check", help="prove the books: exit 0 with a summary, or 1 listing each discrepancy",
        epilog="example: hcf-server ledger check --db sqlite:///./hcf.db")
    _db_args(check)
    check.set_defaults(runner=lambda a: _run(a, _ledger_check))

    replay = subparsers.add_parser(
        "replay", help="re-run recorded hands through the rules and compare",
        description="Feed each recorded hand's inputs and revealed server seed through the rules again and "
                    "check that every event, the settlement and every chip transfer come out the same. "
                    "Exit 0 when all agree, 1 if any hand disagrees, 2 for a mistake in the arguments.",
        epilog="HAND_ID is the server-wide id (the 'server id' of 'hcf history N', the hand_id of the API and "
               "of export), not the table's own hand number.\n\n"
               "examples: hcf-server replay 42\n          hcf-server replay --all --table main",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    replay.add_argument("hand_id", nargs="?", type=int, metavar="HAND_ID",
                        help="the server-wide id of one hand to replay")
    replay.add_argument("--all", action="store_true", help="replay every finished hand of --table, oldest first")
    replay.add_argument("--table", metavar="TABLE", help="the table whose hands --all replays")
    _db_args(replay)
    replay.set_defaults(runner=lambda a: _run(a, _replay))

    export = subparsers.add_parser(
        "export", help="hand histories as everyone may see them",
        description="Print a table's finished hands, oldest first, as everyone may see them (the server seed "
                    "revealed). Attempts that were never dealt (nobody banked) are not hands and are left out.",
        epilog="examples: hcf-server export --table main > main.jsonl\n"
               "          hcf-server export --table main --format csv > main.csv",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    export.add_argument("--table", required=True, metavar="TABLE", help="the table whose hands to export")
    export.add_argument("--format", choices=["jsonl", "csv"], default="jsonl",
                        help="jsonl (default): one hand per line, as GET /api/hands/ID answers; csv: one row "
                             "per seat, spot or box and one for the DP, times in ISO 8601 (UTC)")
    export.add_argument("--chat", action="store_true",
                        help="the table's chat instead of its hands: every line, reaction and host chat setting, "
                             "oldest first (jsonl: one per line; csv: one row each)")
    _db_args(export)
    export.set_defaults(runner=lambda a: _run(a, _export))


def _db_args(parser: argparse.ArgumentParser) -> None:
    from server.commands.operator_db import add_database_arguments

    add_database_arguments(parser)


def _run(args: argparse.Namespace, body: Callable[[Any, argparse.Namespace, TextIO], Awaitable[int]]) -> int:
    from server.commands.operator_db import existing_database

    async def main() -> int:
        async with existing_database(args) as database:
            return await body(database, args, sys.stdout)

    return asyncio.run(main())


async def _known_table(database: Any, name: str) -> bool:
    """Whether the table exists (open or closed); if not, says so on stderr."""
    if await database.get_table(name) is not None:
        return True
    print(f"error: there is no table named {name!r}", file=sys.stderr)
    return False


async def _ledger_check(database: Any, _args: argparse.Namespace, out: TextIO) -> int:
    in_play = {hand.table for hand in await database.hands_in_progress()}
    report = await database.ledger_check(tables_in_play=in_play)
    problems = list(report.discrepancies) + list(report.rigged)
    problems += [f"{place}: {chips} chips left outside a hand in progress"
                 for place, chips in sorted(report.open_felt_places.items())]
    if problems:
        print(f"ledger check FAILED: {len(problems)} discrepancies", file=out)
        for problem in problems:
            print(f"  {problem}", file=out)
        return EXIT_MISMATCH
    note = f"; hands in progress at {', '.join(sorted(in_play))}" if in_play else ""
    print(report.summary() + note, file=out)
    return 0


async def _replay(database: Any, args: argparse.Namespace, out: TextIO) -> int:
    if args.all:
        if not args.table:
            print("error: --all needs --table", file=sys.stderr)
            return EXIT_USAGE
        if not await _known_table(database, args.table):
            return EXIT_USAGE
        hands = [h for h in await database.recent_hands(args.table, 10**9) if h.status != "in_progress"]
        hands.reverse()
    elif args.hand_id is not None:
        hands = [await database.get_hand(args.hand_id)]
    else:
        print("error: give a HAND_ID or --all --table T", file=sys.stderr)
        return EXIT_USAGE
    reports = [await _replay_one(database, hand, out) for hand in hands]
    failures = sum(not r.ok for r in reports)
    unfinished = sum(r.in_progress for r in reports)
    checked = len(reports) - unfinished
    line = f"{checked} {'hand' if checked == 1 else 'hands'} replayed, {failures} disagree"
    if unfinished:
        line += f"; {unfinished} in progress, not checked until {'it ends' if unfinished == 1 else 'they end'}"
    elif not reports:
        line += f": table {args.table!r} has no finished hand yet, so nothing was checked"
    print(line, file=out)
    return EXIT_MISMATCH if failures else 0


async def _replay_one(database: Any, hand: Any, out: TextIO) -> Any:
    """Replay one hand and print its lines; the report."""
    from server.persistence.records import Transfer as LedgerTransfer
    from server.replay import replay_hand
    from server.rules.game import Transfer

    rows = [dict(e.payload) for e in await database.hand_events(hand.id)]
    async with database.transaction(write=False) as tx:
        recorded: list[LedgerTransfer] = await tx.hand_transfers(hand.id)
    transfers = [Transfer(t.src, t.dst, t.amount, t.kind) for t in recorded]
    report = replay_hand(hand.id, hand.table, hand.status, hand.server_seed, rows, transfers)
    line = report.line()
    if hand.number is not None:  # the id is what replay takes; the number is what people saw
        line = line.replace(f"hand {hand.id} ", f"hand {hand.id} (#{hand.number} at {hand.table}) ", 1)
    print(line, file=out)
    for problem in report.problems:
        print(f"  {problem}", file=out)
    return report


CSV_FIELDS = ["hand_id", "number", "table", "game", "status", "started_at", "ended_at", "dealer", "dealer_qualifies",
              "role", "seat", "name", "spot", "box", "blind", "folded", "dead", "ante", "raise", "bet",
              "straight_flush_bonus", "flush_bonus", "bonus", "draw_fee", "jackpot", "jackpot_award", "fee", "net",
              "dead_reason", "bank", "owed"]
"""A row per seat (High Card Flush, the DP's included), spot (Caribbean Stud) or box (6 Card Poker).

Blank where a game lacks a bet. ``role`` is ``dp`` for the designated player's row
(its ``net`` covers every player's bets; ``fee`` is its own) and ``player`` for the
others; a voided hand has one row, ``role`` ``void``, its ``dead_reason`` the void's
reason. Times are ISO 8601 in UTC. A dead hand's row says why (``dead_reason``) and,
for a seat the DP's funds could not cover, the DP's ``bank`` then and what was ``owed``;
the reasons come last so that readers of the older columns are not disturbed.
"""
_ROW_KEYS = CSV_FIELDS[CSV_FIELDS.index("spot"):]


def iso_time(seconds: float | None) -> str:
    """A Unix time as ISO 8601 in UTC, to the millisecond; blank for none.

    >>> iso_time(1795954437.993038), iso_time(None)
    ('2026-11-29T12:13:57.993Z', '')
    """
    if seconds is None:
        return ""
    moment = datetime.fromtimestamp(seconds, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


async def _export(database: Any, args: argparse.Namespace, out: TextIO) -> int:
    from server.storage.hands import public_hand

    if not await _known_table(database, args.table):
        return EXIT_USAGE
    if getattr(args, "chat", False):
        return await _export_chat(database, args.table, args.format, out)
    hands = [h for h in await database.recent_hands(args.table, 10**9, dealt_only=True)
             if h.status != "in_progress" and h.summary]
    hands.reverse()
    if args.format == "jsonl":
        for hand in hands:
            print(json.dumps(public_hand(hand), sort_keys=True), file=out)
        return 0
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, restval="")
    writer.writeheader()
    for hand in hands:
        writer.writerows(csv_rows(public_hand(hand)))
    return 0


async def _export_chat(database: Any, table: str, form: str, out: TextIO) -> int:
    from server.storage.chat import exported_chat

    rows = await exported_chat(database, table)
    writer = csv.DictWriter(out, fieldnames=["id", "at", "table", "room", "kind", "name", "text"])
    if form == "csv":
        writer.writeheader()
    for row in rows:
        if form == "csv":
            writer.writerow({**row, "at": iso_time(row["at"])})
        else:
            print(json.dumps(row, sort_keys=True, ensure_ascii=False), file=out)
    return 0


def csv_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    """The CSV rows of one finished hand (as ``public_hand`` gives it): each seat, spot or box, then the DP."""
    settlement = summary.get("settlement") or {}
    dealer = settlement.get("dealer")
    qualifies = summary.get("dealer_qualifies", dealer.get("qualifies") if isinstance(dealer, dict) else None)
    names = summary.get("names") or {}
    head = {"hand_id": summary.get("hand_id"), "number": summary.get("number"), "table": summary.get("table"),
            "game": summary.get("game", "hcf"), "status": summary.get("status"),
            "started_at": iso_time(summary.get("started_at")), "ended_at": iso_time(summary.get("ended_at")),
            "dealer": summary.get("dealer"), "dealer_qualifies": qualifies}
    bets = summary.get("bets")
    # Spots and boxes name their seat in the hand's bets, not in the settlement.
    owners = {(b.get("spot"), b.get("box")): b.get("seat") for b in bets} if isinstance(bets, list) else {}
    rows = []
    for entry in settlement.get("seats") or settlement.get("spots") or settlement.get("boxes") or []:
        seat = entry.get("seat", owners.get((entry.get("spot"), entry.get("box"))))
        rows.append({**head, "role": "player", "seat": seat, "name": names.get(str(seat), ""),
                     **{k: entry[k] for k in _ROW_KEYS if k in entry}})
    if summary.get("status") == "void" and not rows:  # nothing was settled: one row says why the hand is void
        rows.append({**head, "role": "void", "dead_reason": summary.get("reason")})
    seat = summary.get("dealer")
    if isinstance(dealer, dict) and isinstance(seat, int):  # a player-banked hand: the DP's own line
        rows.append({**head, "role": "dp", "seat": seat, "name": names.get(str(seat), ""),
                     "fee": dealer.get("fee", 0), "net": dealer.get("net", 0)})
    return rows
