"""``hcf-server ledger check``, ``replay`` and ``export``: the books, checkable by anyone who runs the server."""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TextIO

from server.config import config_from

EXIT_MISMATCH = 1


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
        epilog="examples: hcf-server replay 42\n          hcf-server replay --all --table main",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    replay.add_argument("hand_id", nargs="?", type=int, metavar="HAND_ID")
    replay.add_argument("--all", action="store_true", help="every finished hand of --table")
    replay.add_argument("--table", help="the table, with --all")
    _db_args(replay)
    replay.set_defaults(runner=lambda a: _run(a, _replay))

    export = subparsers.add_parser(
        "export", help="hand histories as everyone may see them",
        epilog="examples: hcf-server export --table main > main.jsonl\n"
               "          hcf-server export --table main --format csv > main.csv",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    export.add_argument("--table", required=True)
    export.add_argument("--format", choices=["jsonl", "csv"], default="jsonl")
    _db_args(export)
    export.set_defaults(runner=lambda a: _run(a, _export))


def _db_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", dest="database_url", help="database URL (default: the server's)")
    parser.add_argument("--data-dir", help="where the default SQLite file lives")


def _run(args: argparse.Namespace, body: Callable[[Any, argparse.Namespace, TextIO], Awaitable[int]]) -> int:
    from server.persistence.database import open_database

    config = config_from(os.environ, {"database_url": args.database_url, "data_dir": args.data_dir})

    async def main() -> int:
        database = await open_database(config.resolved_database_url())
        try:
            return await body(database, args, sys.stdout)
        finally:
            await database.close()

    return asyncio.run(main())


async def _ledger_check(database: Any, _args: argparse.Namespace, out: TextIO) -> int:
    in_play = {hand.table for hand in await database.hands_in_progress()}
    report = await database.ledger_check(tables_in_play=in_play)
    problems = list(report.discrepancies)
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
    from server.persistence.records import Transfer as LedgerTransfer
    from server.replay import replay_hand
    from server.rules.game import Transfer

    if args.all:
        if not args.table:
            print("error: --all needs --table", file=sys.stderr)
            return 2
        hands = [h for h in await database.recent_hands(args.table, 10**9) if h.status != "in_progress"]
        hands.reverse()
    elif args.hand_id is not None:
        hands = [await database.get_hand(args.hand_id)]
    else:
        print("error: give a HAND_ID or --all --table T", file=sys.stderr)
        return 2
    failures = 0
    for hand in hands:
        rows = [dict(e.payload) for e in await database.hand_events(hand.id)]
        async with database.transaction(write=False) as tx:
            recorded: list[LedgerTransfer] = await tx.hand_transfers(hand.id)
        transfers = [Transfer(t.src, t.dst, t.amount, t.kind) for t in recorded]
        report = replay_hand(hand.id, hand.table, hand.status, hand.server_seed, rows, transfers)
        print(report.line(), file=out)
        for problem in report.problems:
            print(f"  {problem}", file=out)
        failures += not report.ok
    print(f"{len(hands)} hands replayed, {failures} disagree", file=out)
    return EXIT_MISMATCH if failures else 0


CSV_FIELDS = ["hand_id", "hand_no", "table", "game", "status", "started_at", "dealer", "dealer_qualifies", "seat",
              "name", "spot", "box", "blind", "folded", "dead", "ante", "raise", "bet", "straight_flush_bonus",
              "flush_bonus", "bonus", "draw_fee", "jackpot", "jackpot_award", "fee", "net"]
"""A row per seat (High Card Flush), spot (Caribbean Stud) or box (6 Card Poker); blank where a game lacks a bet."""
_ROW_KEYS = CSV_FIELDS[CSV_FIELDS.index("spot"):]


async def _export(database: Any, args: argparse.Namespace, out: TextIO) -> int:
    from server.bindings import public_hand

    if args.table not in {t.name for t in await database.list_tables(include_closed=True)}:
        print(f"error: there is no table named {args.table!r}", file=sys.stderr)
        return 2
    hands = [h for h in await database.recent_hands(args.table, 10**9) if h.status != "in_progress" and h.summary]
    hands.reverse()
    if args.format == "jsonl":
        for hand in hands:
            print(json.dumps(public_hand(hand), sort_keys=True), file=out)
        return 0
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, restval="")
    writer.writeheader()
    for hand in hands:
        summary = public_hand(hand)
        settlement = summary.get("settlement") or {}
        dealer = settlement.get("dealer")
        qualifies = summary.get("dealer_qualifies", dealer.get("qualifies") if isinstance(dealer, dict) else None)
        bets = summary.get("bets")
        # Spots and boxes name their seat in the hand's bets, not in the settlement.
        owners = {(b.get("spot"), b.get("box")): b.get("seat") for b in bets} if isinstance(bets, list) else {}
        for entry in settlement.get("seats") or settlement.get("spots") or settlement.get("boxes") or []:
            seat = entry.get("seat", owners.get((entry.get("spot"), entry.get("box"))))
            writer.writerow({
                "hand_id": hand.id, "hand_no": hand.hand_no, "table": hand.table,
                "game": summary.get("game", "hcf"), "status": hand.status,
                "started_at": summary["started_at"], "dealer": summary.get("dealer"), "dealer_qualifies": qualifies,
                "seat": seat, "name": (summary.get("names") or {}).get(str(seat), ""),
                **{k: entry[k] for k in _ROW_KEYS if k in entry},
            })
    return 0
