"""``hcf-server drill list | key | run | verify``: procedure drills off the table (docs/drills.md, contracts exact).

``list`` names the shipped scenarios; ``key`` prints a scenario's answer key; ``run``
plays it at an in-process table on its own SQLite file with the answers of a file and
prints the report. Each exits 0 whatever the score, and 2 with one line on a scenario
or answers file it cannot use. ``verify`` checks a certificate against the server's
database: 0 when the digest of the kept answer log is the one kept with it, 1 when not,
2 when that session has no certificate.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, Final, TextIO

EXIT_BAD_INPUT: Final = 2
EXIT_CHANGED: Final = 1


def add_parser(subparsers: Any) -> None:
    """Register ``drill`` and its three commands."""
    drill = subparsers.add_parser(
        "drill", help="rehearse dealer and floor procedures: scenarios, answer keys, offline runs",
        description="Procedure drills without a server: list the shipped scenarios, print a scenario's "
                    "answer key, or play one with a file of answers and print the report (JSON).",
        epilog="examples: hcf-server drill list\n"
               "          hcf-server drill key bank-runs-out > key.json\n"
               "          hcf-server drill run bank-runs-out --answers answers.json",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = drill.add_subparsers(dest="drill_command", required=True, metavar="COMMAND")
    listing = sub.add_parser("list", help="the shipped scenarios: name, game, title")
    listing.add_argument("--json", action="store_true", help='print [{"name", "game", "title"}]')
    listing.set_defaults(runner=_list)
    key = sub.add_parser("key", help="a scenario's answer key, as JSON")
    key.add_argument("scenario", help="a shipped scenario's name, or a path to a scenario JSON file")
    key.set_defaults(runner=_key)
    run = sub.add_parser("run", help="play a scenario with a file of answers; print the report as JSON")
    run.add_argument("scenario", help="a shipped scenario's name, or a path to a scenario JSON file")
    run.add_argument("--answers", required=True, metavar="FILE",
                     help="a JSON array: one answer object per step in key order, null for no answer")
    run.add_argument("--db", metavar="URL", default=None,
                     help="keep the drill's database here (default: a temporary SQLite file)")
    run.set_defaults(runner=_run)
    verify = sub.add_parser("verify", help="check a certificate: the digest of a kept exam's answer log, worked "
                                           "out again from the server's database")
    verify.add_argument("trainee", help="the trainee's account name")
    verify.add_argument("session", type=_session_number, help="the session's number in the trainee's history "
                                                              "(from 1)")
    from server.commands.operator_db import add_database_arguments

    add_database_arguments(verify)
    verify.set_defaults(runner=_verify)


def _list(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    from server.drill.scenario import load, shipped

    scenarios = [load(name) for name in shipped()]
    if args.json:
        print(json.dumps([{"name": s.name, "game": s.game, "title": s.title} for s in scenarios]), file=out)
        return 0
    width = max((len(s.name) for s in scenarios), default=0)
    for s in scenarios:
        print(f"{s.name:<{width}}  {s.game:<9}  {s.title}", file=out)
    return 0


def _key(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    from server.drill.play import dry_run, key_of
    from server.drill.scenario import ScenarioError, load
    from server.rules.drill.report import key_json

    try:
        scenario = load(args.scenario)
        key = key_of(dry_run(scenario))
    except ScenarioError as exc:
        return _refuse(str(exc))
    print(json.dumps(key_json(scenario.name, key), indent=2), file=out)
    return 0


def _run(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    from server.drill.scenario import ScenarioError, load
    from server.drill_runner import run
    from server.logs import configure_logging

    configure_logging(level="warning")  # the table's own log lines would drown the report
    try:
        scenario = load(args.scenario)
        answers = read_answers(args.answers)
        report = run(scenario, answers, args.db)
    except ScenarioError as exc:
        return _refuse(str(exc))
    print(json.dumps(report, indent=2), file=out)
    return 0


def _verify(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    import asyncio

    from server.commands.operator_db import existing_database
    from server.config import ServerConfig
    from server.rules.errors import Refusal
    from server.storage.trainees import TraineeStore

    async def main() -> int:
        async with existing_database(args) as database:
            store = TraineeStore(database, ServerConfig())
            try:
                cert = await store.drill_certificate(args.trainee, args.session)
            except Refusal as exc:
                return _refuse(exc.message)
        answers = "1 answer" if cert["answers"] == 1 else f"{cert['answers']} answers"
        said = (f"{cert['trainee']}, session {cert['session']}: the exam {cert['scenario']} passed, "
                f"{cert['right']} of {cert['total']} right; the answer log of {answers}")
        if cert["checked"]:
            print(f"{said} has the SHA-256 digest {cert['digest']}, the one kept with it: the certificate "
                  f"checks.", file=out)
            return 0
        print(f"{said} has the SHA-256 digest {cert['recomputed']}, but {cert['digest'] or 'none'} was kept "
              f"with it: the report changed after it was kept, and the certificate does not check.", file=out)
        return EXIT_CHANGED

    return asyncio.run(main())


def _session_number(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 10**9:
        raise argparse.ArgumentTypeError(f"{text!r} is no session: sessions are numbered from 1, as in the "
                                         f"trainee's history (hcf host trainee NAME)")
    return int(text)


def read_answers(path: str) -> list[Any]:
    """The answers file: a JSON array of answer objects (or null); ScenarioError says what is wrong."""
    from server.drill.scenario import ScenarioError

    try:
        data = json.loads(Path(path).read_text("utf-8"))
    except OSError as exc:
        raise ScenarioError(f"answers file {path}: cannot be read: {exc.strerror or exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"answers file {path}: not JSON: {exc}") from None
    if not isinstance(data, list):
        raise ScenarioError(f"answers file {path}: a JSON array of answers, one per step in key order")
    for n, answer in enumerate(data, 1):
        if answer is not None and not isinstance(answer, dict):
            raise ScenarioError(f"answers file {path}: answer {n} is an object or null, got {json.dumps(answer)}")
    return data


def _refuse(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT
