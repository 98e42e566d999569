"""What each ``hcf`` command runs once its arguments are parsed (:mod:`client_cli.cli` parses them).

Like the parser, this module imports the standard library alone at the top: each runner imports
what its command needs when it runs (``tests/client_cli/test_start.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from server.i18n import _

if TYPE_CHECKING:
    from client_cli.bot_team import RunReport


def run_tables(args: argparse.Namespace) -> int:
    from client_cli.lobby import show_tables

    return run_async(lambda: show_tables(args.server, args.json))


def run_drill(args: argparse.Namespace) -> int:
    from client_cli.drill.command import live_drill, offline_drill, practice_drill
    from client_cli.drill.keeping import Keeper

    keeper = None if args.table is not None or args.keep_here else Keeper(args.server, args.name)
    if args.practice and (args.scenario is not None or args.table is not None):
        print(_("error: --practice draws its own steps: give no scenario and no --table"), file=sys.stderr)
        return 2
    if args.practice:
        return practice_drill(keeper, args.seed, args.steps, as_json=args.json, over=args.over)
    if args.table is None:
        return offline_drill(args.scenario, args.mode, as_json=args.json, keeper=keeper)
    if args.scenario is not None:
        print(_("error: give a scenario, or --table for a live drill, not both"), file=sys.stderr)
        return 2
    return run_async(lambda: live_drill(args.server, args.table, args.name, person_asker()))


def run_async(make: Callable[[], Coroutine[Any, Any, int]]) -> int:
    import asyncio  # here, not at the top: ``hcf --help`` needs no event loop

    from client_cli.api import ServerRefused, unreachable_words
    from client_cli.session import IdentityError, LoginError
    from client_cli.start import StartRefused

    try:
        return asyncio.run(make())
    except BrokenPipeError:
        return reader_went_away()
    except (ServerRefused, LoginError, IdentityError, StartRefused) as exc:
        print(_("error: {message}", message=exc), file=sys.stderr)
        return 1
    except (OSError, TimeoutError) as exc:
        print(_("error: cannot reach the server: {why}", why=unreachable_words(exc)), file=sys.stderr)
        return 1
    except (KeyboardInterrupt, EOFError):  # Ctrl-C, or Ctrl-D at a question: nothing was changed
        print(file=sys.stderr)
        return 130


def reader_went_away() -> int:
    """The output's reader closed it (``hcf history | head -2``): stop quietly, as ``cat`` would."""
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's last flush must not fail again
    return 0


def run_play(args: argparse.Namespace) -> int:
    return run_async(lambda: play_or_watch(args, watch=False))


def run_watch(args: argparse.Namespace) -> int:
    return run_async(lambda: play_or_watch(args, watch=True))


def person_asker() -> Callable[[str], str] | None:
    """``input`` when a person can answer on a terminal, else None (scripts are never asked)."""
    return input if sys.stdin.isatty() else None


async def play_or_watch(args: argparse.Namespace, *, watch: bool) -> int:
    from client_cli.api import http_json
    from client_cli.session import ask_name, log_in
    from client_cli.start import check_table, choose_buy_in, find_table
    from client_cli.store import TokenStore

    url = args.server.rstrip("/")
    token, buy_in = None, None
    ask = person_asker()
    if watch:
        find_table(list((await http_json("GET", f"{url}/api/tables")).get("tables") or []), args.table, url)
    else:
        store = TokenStore()
        name = ask_name(store, url, args.name, ask)
        found = await check_table(url, args.table, name, seat=args.seat, take_over=args.take_over, ask=ask)
        session = await log_in(url, name, store)
        token = session.token
        start = await choose_buy_in(url, found, token, seat=args.seat, buy_in=args.buy_in, ask=ask, say=say)
        buy_in = start.buy_in
    # Only now the table connection's libraries: every question above is asked without waiting for them.
    from client_cli.play import PlayOptions, play
    from client_cli.terminal import LiveFace, PlainFace

    interactive = sys.stdin.isatty() or watch
    live = sys.stdout.isatty() and interactive and not args.plain and os.environ.get("TERM") != "dumb"
    face = LiveFace() if live else PlainFace()
    options = PlayOptions(url, args.table, getattr(args, "seat", None), buy_in, watch)
    return await play(options, token, face)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def run_bot(args: argparse.Namespace) -> int:
    from client_cli.bots import BotOptions, run_bots

    if args.count < 1 or args.hands < 1:
        print(_("error: --count and --hands are at least 1"), file=sys.stderr)
        return 2
    options = BotOptions(args.server, table=args.table, count=args.count, hands=args.hands, strategy=args.strategy,
                         fast=args.fast, prefix=args.prefix, ante=args.ante, timeout=args.timeout, seed=args.seed)

    async def go() -> int:
        import asyncio
        import signal

        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGINT, stop.set)
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        report = await run_bots(options, stop=stop)
        if args.json:
            print(json.dumps(report.as_json()))
        else:
            print("\n".join(bot_summary(report, options.table)))
        if args.json:
            for bot in report.bots:
                for error in bot.errors:
                    print(f"{bot.name}: {error}", file=sys.stderr)
        return 0 if report.ok else 1

    return run_async(go)


def run_host(args: argparse.Namespace) -> int:
    from client_cli.host import parse_settings, run_host

    token = args.host_token or os.environ.get("HCF_HOST_TOKEN")
    if not token:
        print(_("error: the host token is needed: --host-token or HCF_HOST_TOKEN"), file=sys.stderr)
        return 2
    values: dict[str, Any] = {k: getattr(args, k, None) for k in ("table", "seat", "account", "amount")}
    command = args.host_command
    if command in ("invite", "invites", "revoke-invite"):
        return run_invites(args, token)
    if command == "settle-up":
        from client_cli.host import run_settle_up

        return run_async(lambda: run_settle_up(args.server, token, args.table, args.day, args.csv, args.json,
                                               args.session))
    if command in ("session", "replays"):
        from client_cli.nights import run_replays, run_session

        return run_async(lambda: run_session(args.server, token, args.table, args.what, args.json)
                         if command == "session" else run_replays(args.server, token, args.table, args.who, args.json))
    if command in ("trainees", "trainee"):
        from client_cli.trainees import run_trainee, run_trainees

        return run_async(lambda: run_trainees(args.server, token, args.json) if command == "trainees" else
                         run_trainee(args.server, token, args.trainee, args.csv, args.json))
    if command == "create-table":
        values["table"] = args.name
    if command in ("create-table", "change-settings"):
        try:
            values["settings"] = parse_settings(args.pairs, args.settings)
        except ValueError as exc:
            print(_("error: {message}", message=exc), file=sys.stderr)
            return 2
    if command == "create-table":
        drill = drill_flags(args)
        if isinstance(drill, int):
            return drill
        if drill:
            values["settings"]["drill"] = drill
    if command == "inject":
        values["kind"], values["seat"] = args.kind, args.seat
    if command == "drill-watch":
        from client_cli.drill.watch import watch_drill

        return run_async(lambda: watch_drill(args.server, token, args.table, print_line))
    if command == "arrange-deck":
        from client_cli.host import seat_hands

        if args.cards and (args.seats or args.dp):
            print(_("error: give the whole deck, or cards by --seat and --dp, not both"), file=sys.stderr)
            return 2
        if args.seats or args.dp:
            values["hands"] = seat_hands(args.seats, args.dp)
        elif args.cards:
            values["cards"] = " ".join(args.cards)
        else:
            print(_("error: give the cards in dealing order, or --seat N CARDS and --dp CARDS"), file=sys.stderr)
            return 2
    return run_async(lambda: run_host(args.server, token, command, values, args.json))


def bot_summary(report: RunReport, table: str) -> list[str]:
    """``hcf bot``'s summary: the run, then each bot's hands, net and errors."""
    lines = [_("{bots} bots at {table}: {hands} hands, {errors} errors", bots=len(report.bots), table=table,
               hands=report.hands, errors=report.errors)]
    for bot in report.bots:
        lines.append(f"  {bot.name:<16} " + _("hands {hands}   net {net}", hands=f"{bot.hands:>4}",
                                               net=f"{bot.net:>+7}"))
        lines += ["    " + _("error: {message}", message=error) for error in bot.errors]
    return lines


def drill_flags(args: argparse.Namespace) -> dict[str, Any] | int:
    """``create-table``'s drill flags as the table's ``drill`` settings (2: a flag without --drill-trainee)."""
    names = [n.strip() for n in args.drill_trainee.split(",") if n.strip()] if args.drill_trainee else []
    trainees: dict[str, Any] = {"trainees": names, "trainee_turn": args.trainee_turn or 1} if len(names) > 1 \
        else {"trainee": names[0]} if names else {}
    given = {"mode": args.drill_mode, "step_seconds": args.step_seconds,
             "steps": [s.strip() for s in args.drill_steps.split(",") if s.strip()] if args.drill_steps else None}
    drill = trainees | {k: v for k, v in given.items() if v is not None}
    if (drill or args.trainee_turn) and not names:
        print(_("error: a drill table needs its trainee: --drill-trainee NAME"), file=sys.stderr)
        return 2
    return drill


def print_line(text: str) -> None:
    print(text, flush=True)


def run_invites(args: argparse.Namespace, token: str) -> int:
    from client_cli.host import parse_duration, run_invites

    values: dict[str, Any] = {k: getattr(args, k, None) for k in ("table", "role", "uses", "invite_id")}
    if args.host_command == "invite":
        try:
            values["expires"] = parse_duration(args.expires)
        except ValueError as exc:
            print(_("error: {message}", message=exc), file=sys.stderr)
            return 2
    return run_async(lambda: run_invites(args.server, token, args.host_command, values, args.json))


def run_history(args: argparse.Namespace) -> int:
    from client_cli.history import show_history

    return run_async(lambda: show_history(args.server, args.table, args.hand, args.limit, args.json,
                                           args.hand_id))


def run_account(args: argparse.Namespace) -> int:
    from client_cli.account import change_password, log_out, show_account
    from client_cli.session import IdentityError, ask_name
    from client_cli.store import TokenStore

    store = TokenStore()
    url = args.server.rstrip("/")
    try:
        name = ask_name(store, url, args.name, person_asker())
    except IdentityError as exc:
        print(_("error: {message}", message=exc), file=sys.stderr)
        return 2
    if args.action == "password":
        return run_async(lambda: change_password(url, name, store))
    if args.action == "logout":
        return run_async(lambda: log_out(url, name, store))
    return run_async(lambda: show_account(url, name, store, args.limit, args.json))
