"""``hcf``: the terminal client's command line (play, watch, bot, host, history, account, drill); each command's
runner is in :mod:`client_cli.runners`.

This module imports the standard library alone: each command imports what it
needs when it runs, so ``hcf --help`` and ``hcf host ...`` start at once
(socketio, aiohttp, rich and pydantic together take over a second to import;
``tests/client_cli/test_start.py`` checks that none of them is loaded here).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from client_cli import runners
from client_cli.argwords import argparse_words
from server.i18n import LANGUAGES, _, environment_language, use_language

DEFAULT_SERVER = "http://127.0.0.1:8765"
EXAMPLE_SERVER = "http://127.0.0.1:8765"
BOT_STRATEGIES = ("basic", "random", "stubborn")
"""``client_cli.bots.STRATEGIES``, named here so that ``--help`` need not import the bots."""


def _server_default() -> str:
    return os.environ.get("HCF_SERVER") or DEFAULT_SERVER


def _common(parser: argparse.ArgumentParser, *, table: bool = True) -> None:
    parser.add_argument("--server", default=_server_default(), metavar="URL",
                        help=_("the table server (default: $HCF_SERVER or {server})", server=DEFAULT_SERVER))
    if table:
        parser.add_argument("--table", default="main", help=_("the table (default: main)"))
    parser.add_argument("--lang", choices=LANGUAGES, default=None,
                        help=_("English, Spanish or German (default: from $LC_ALL or $LANG, else en)"))


def _sub(sub: Any, name: str, help_text: str, description: str, examples: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = sub.add_parser(
        name, help=help_text, description=description, epilog=_("examples:") + "\n" + examples,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """Every ``hcf`` command."""
    parser = argparse.ArgumentParser(
        prog="hcf", description=_("The hcf-table terminal client: play High Card Flush, Caribbean Stud or 6 Card "
                                  "Poker, watch, run bots, host a table, read the history and your account."),
        epilog=_("Run 'hcf COMMAND --help' for each command's options and examples.") + "\n\n" + _("examples:") + "\n"
               f"  hcf play --server {EXAMPLE_SERVER} --name alice\n"
               f"  hcf bot --server {EXAMPLE_SERVER} --count 3 --fast\n"
               "  hcf history 12",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_play(sub)
    _add_watch(sub)
    _add_bot(sub)
    _add_host(sub)
    _add_tables(sub)
    _add_history(sub)
    _add_account(sub)
    _add_drill(sub)
    return parser


def _add_play(sub: Any) -> None:
    play = _sub(sub, "play", _("sit at a table and play"),
                _("Log in (the password is asked without echo; a new name is registered), sit and play. "
                "The session is kept in $XDG_CONFIG_HOME/hcf-table, so the next start needs no password. "
                "Without --name: the one person with a saved session on this server, or you are asked "
                "who you are (a script must say --name). Everything is checked before connecting: "
                "a table, seat or buy-in the table refuses changes nothing. Without --buy-in you are "
                "asked for it, with the table's limits. Type 'help' at the table for the commands; "
                "Ctrl-C leaves cleanly (between hands, or after the current one; 'stay' takes it back); "
                "on your own turn it asks 'fold and leave? [y/N]' first. "
                "HCF_PASSWORD gives the password to scripts (tried once)."),
                f"  hcf play --server {EXAMPLE_SERVER} --name alice\n"
                "  hcf play --name bob --seat 3 --buy-in 2000\n"
                "  hcf play --name carol --table high --plain      # plain lines, no live view")
    _common(play)
    play.add_argument("--name", help=_("your name (default: the one saved session on this server)"))
    play.add_argument("--seat", type=int, help=_("the seat to take (default: the first free one)"))
    play.add_argument("--buy-in", type=int,
                      help=_("chips to bring (default: asked on a terminal, else the table's default_buy_in)"))
    play.add_argument("--take-over", action="store_true",
                      help=_("play here even if this account plays in another window now (that window stops)"))
    play.add_argument("--plain", action="store_true", help=_("plain lines even on a terminal"))
    play.set_defaults(runner=runners.run_play)


def _add_watch(sub: Any) -> None:
    watch = _sub(sub, "watch", _("watch a table as a spectator"),
                 _("The spectator view: seats, bets, the showdown and the check of every deal. Ctrl-C quits."),
                 f"  hcf watch --server {EXAMPLE_SERVER}\n  hcf watch --table high --plain > table.log")
    _common(watch)
    watch.add_argument("--plain", action="store_true", help=_("plain lines even on a terminal"))
    watch.set_defaults(runner=runners.run_watch)


def _add_bot(sub: Any) -> None:
    bot = _sub(sub, "bot", _("fill seats with bots"),
               _("K bots, each its own account and connection, play N hands and print a summary. "
               "basic: the rules core's strategy; random: random legal moves (bonus bets, declining the bank "
               "at most one time in ten); stubborn: never answers (the clocks decide). At a Caribbean Stud or "
               "6 Card Poker table they play that game: basic bets one spot or box (Caribbean: plays A-K or "
               "better, jackpot wager on; 6 Card Poker: raises a pair or better, never draws, asks for the dealer "
               "exchange with trips or better); random also takes several spots or boxes, buys and exchanges. "
               "Exits 0 only if every bot played its hands without an unexpected error."),
               f"  hcf bot --server {EXAMPLE_SERVER} --count 3 --hands 20\n"
               "  hcf bot --count 2 --strategy random --fast --json\n"
               "  hcf bot --count 1 --strategy stubborn --hands 2")
    _common(bot)
    bot.add_argument("--count", type=int, default=1, help=_("how many bots (default 1)"))
    bot.add_argument("--hands", type=int, default=10, help=_("hands each bot plays (default 10)"))
    bot.add_argument("--strategy", choices=BOT_STRATEGIES, default="basic", help=_("how they play (default basic)"))
    bot.add_argument("--fast", action="store_true", help=_("act at once instead of thinking 0.5-2 s"))
    bot.add_argument("--json", action="store_true",
                     help=_("print the summary as JSON: hands, each bot's name, hands and net, errors"))
    bot.add_argument("--prefix", help=_("bot names are PREFIX1..PREFIXK (default: a random prefix)"))
    bot.add_argument("--ante", type=int, help=_("the Ante of basic bots (default: the table's min_ante)"))
    bot.epilog = (bot.epilog or "") + "\n  hcf bot --table stud --count 3 --hands 5   # a Caribbean Stud table"
    bot.add_argument("--timeout", type=float, help=_("give up after this many seconds"))
    bot.add_argument("--seed", type=int, help=_("seed of the random strategy (for repeatable runs)"))
    bot.set_defaults(runner=runners.run_bot)


def _add_host(sub: Any) -> None:
    host = _sub(sub, "host", _("host (floor) commands, with the host token"),
                _("The host's commands. The host token comes from --host-token or HCF_HOST_TOKEN "
                "(the server prints it on its first start; 'hcf-server host-token' makes a new one)."),
                "  export HCF_HOST_TOKEN=...\n"
                "  hcf host create-table high --set min_ante=25 --set max_ante=1000\n"
                "  hcf host change-settings --table main --set pause_seconds=5\n"
                "  hcf host grant-chips alice 5000\n"
                "  hcf host arrange-deck --table main Ah Kh Qh Jh Th 9h 8h ...\n"
                "  hcf host pause --table main\n"
                "  hcf host invite --table main --role player --expires 12h")
    _common(host, table=False)
    host.add_argument("--host-token", default=None, help=_("the host token (default: $HCF_HOST_TOKEN)"))
    hsub = host.add_subparsers(dest="host_command", required=True, metavar="ACTION")

    def action(name: str, help_text: str, example: str, *, table: bool = True) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = hsub.add_parser(
            name, help=help_text, description=help_text, epilog=_("example:") + f"\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter)
        if table:
            parser.add_argument("--table", default="main", help=_("the table (default: main)"))
        parser.add_argument("--json", action="store_true", help=_("print the server's answer as JSON"))
        # Also accepted after the action; the value given before it stands otherwise.
        parser.add_argument("--server", default=argparse.SUPPRESS, metavar="URL", help=argparse.SUPPRESS)
        parser.add_argument("--host-token", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        return parser

    create = action("create-table", _("create a table with settings"),
                    "hcf host create-table high --set min_ante=25 --set seats=6", table=False)
    create.add_argument("name", help=_("the new table's name"))
    for parser in (create, action("change-settings", _("change settings (applied between hands)"),
                                  "hcf host change-settings --set fee_mode=all --set fee=2")):
        parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="pairs",
                            help=_("a setting (repeat); values are read as JSON when they can be"))
        parser.add_argument("--settings", help=_("settings as one JSON object"))
    action("pause", _("pause the table after the current hand"), "hcf host pause --table main")
    action("resume", _("resume a paused table"), "hcf host resume --table main")
    remove = action("remove-player", _("stand a player up (after the current hand)"),
                    "hcf host remove-player --seat 3")
    who = remove.add_mutually_exclusive_group(required=True)
    who.add_argument("--seat", type=int)
    who.add_argument("--name", dest="account")
    grant = action("grant-chips", _("issue chips to an account"), "hcf host grant-chips alice 5000", table=False)
    grant.add_argument("account", help=_("the account name"))
    grant.add_argument("amount", type=int)
    dead = action("declare-dead", _("declare one seat's hand dead (during the decisions)"),
                  "hcf host declare-dead --table main 3")
    dead.add_argument("seat", type=int)
    action("misdeal", _("declare a misdeal: the whole hand is dead"), "hcf host misdeal")
    action("shuffler-fault", _("the shuffler failed: the whole hand is dead"), "hcf host shuffler-fault")
    arrange = action("arrange-deck", _("arrange the next deck (a drill: never a random deal)"),
                     "hcf host arrange-deck Ah Kh Qh Jh Th 9h 8h 2c 3c 4c 5c 6c 7c 8c\n"
                     "  hcf host arrange-deck --seat 2 'Ah Kh Qh Jh Th 9h 8h' --dp '2c 3c 4c 5c 6c 7c 8c'\n"
                     "  hcf host arrange-deck --table stud --spot 3 'Ah Kh Qh Jh Th' --dealer '2c 3c 4c 5c 7d'")
    arrange.add_argument("cards", nargs="*", help=_("the whole deck in dealing order (or use --seat and --dp)"))
    arrange.add_argument("--seat", "--spot", "--box", nargs=2, action="append", default=[], metavar=("N", "CARDS"),
                         dest="seats",
                         help=_("the cards seat N (High Card Flush, up to 7), spot N (Caribbean Stud, up to 5) or "
                              "box N (6 Card Poker, up to 5) is dealt; repeat for more. The server orders the "
                              "deck as the rules deal; every other card is random"))
    arrange.add_argument("--dp", "--dealer", metavar="CARDS",
                         help=_("the cards the DP (whoever banks) or the house's dealer is dealt"))
    action("close", _("close the table (everyone stands up after the current hand)"), "hcf host close --table old")
    action("show-settings", _("show the table's settings (and a change waiting for the hand to end)"),
           "hcf host show-settings --table main")
    for parser in (create,):
        parser.add_argument("--drill-trainee", metavar="NAME[,NAME]",
                            help=_("make a live drill table: this account deals and answers the steps; several names "
                                 "take the dealer's chair in turn (docs/drills.md)"))
        parser.add_argument("--trainee-turn", type=int, metavar="N",
                            help=_("with several trainees: the hands each deals in a turn (default 1)"))
        parser.add_argument("--drill-mode", choices=("training", "exam"), help=_("the drill's mode (default training)"))
        parser.add_argument("--drill-steps", metavar="STEP,STEP", help=_("the steps asked (default: every one)"))
        parser.add_argument("--step-seconds", type=int, metavar="N", help=_("how long each step waits (default 30)"))
    inject = action("inject", _("a live drill: inject an irregularity after the deal, before the first decision"),
                    "hcf host inject --table training miscount 3\n  hcf host inject --table training shuffler_fault")
    inject.add_argument("kind", choices=("miscount", "shuffler_fault", "none"),
                        help=_("miscount (at SEAT, 0 for the dealer), shuffler_fault, or none (a control)"))
    inject.add_argument("seat", nargs="?", type=int, help=_("a miscount's seat (spot, box), 0 for the dealer"))
    action("drill-report", _("a live drill: every answer so far and the score"),
           "hcf host drill-report --table training")
    action("drill-end", _("a live drill: end the session and show its report"), "hcf host drill-end --table training")
    action("drill-watch", _("a live drill: print each answer as the trainee gives it, until the session ends"),
           "hcf host drill-watch --table training")
    invite = action("invite", _("make an invite link for a friend (a player, a spectator or the floor)"),
                    "hcf host invite --table main --role player --expires 12h --uses 4")
    invite.add_argument("--role", required=True, choices=["player", "spectator", "floor"],
                        help=_("player: a guest account that sits; spectator: watches; floor: the host's powers"))
    invite.add_argument("--expires", default="12h",
                        help=_("how long the link works: 30m, 12h, 2d or seconds (default 12h)"))
    invite.add_argument("--uses", type=int, help=_("how many times it may be redeemed (default: any)"))
    action("invites", _("list the invite links of a table"), "hcf host invites --table main")
    settle = action("settle-up", _("each person's net for the session and who pays whom (docs/web.md)"),
                    "hcf host settle-up --table main\n  hcf host settle-up --table main --day 2026-12-05 --csv")
    settle.add_argument("--day", help=_("one UTC day, YYYY-MM-DD (default: the host's latest session, "
                                             "else the table's night, since it opened)"))
    settle.add_argument("--session", type=int, help=_("the host's session N at the table (hcf host session)"))
    session = action("session", _("open or close the table's session (a night): settle-up counts it; closing "
                                  "prints its final settle-up"), "hcf host session open --table main\n"
                                                       "  hcf host session close --table main")
    session.add_argument("what", choices=("open", "close"), help=_("open a session now, or close the open one"))
    replays = action("replays", _("who may open the table's replay links: anyone (the default), players or host"),
                     "hcf host replays --table main players\n  hcf host replays --table main")
    replays.add_argument("who", nargs="?", choices=("anyone", "players", "host"),
                         help=_("set it (without it: say what it is)"))
    settle.add_argument("--csv", action="store_true", help=_("print the figures and payments as CSV"))
    action("trainees", _("the trainees with a drill history: sessions, last seen, accuracy (docs/drills.md)"),
           "hcf host trainees", table=False)
    trainee = action("trainee", _("one trainee's drill history: each step kind's trend, weak items, certificates"),
                     "hcf host trainee tina\n  hcf host trainee tina --csv", table=False)
    trainee.add_argument("trainee", metavar="NAME", help=_("the trainee's account name"))
    trainee.add_argument("--csv", action="store_true", help=_("print each step kind's figure per session as CSV"))
    revoke = action("revoke-invite", _("revoke an invite link (and the floor token it gave)"),
                    "hcf host revoke-invite 3", table=False)
    revoke.add_argument("invite_id", type=int, metavar="ID", help=_("the invite's id (hcf host invites)"))
    host.set_defaults(runner=runners.run_host)


def _add_tables(sub: Any) -> None:
    tables = _sub(sub, "tables", _("list the open tables"),
                  _("Every open table: its game, seats taken, the Ante limits and what it is doing now."),
                  "  hcf tables\n  hcf tables --json")
    _common(tables, table=False)
    tables.add_argument("--json", action="store_true", help=_("print the server's JSON"))
    tables.set_defaults(runner=runners.run_tables)


def _add_history(sub: Any) -> None:
    history = _sub(sub, "history", _("the last hands, or one hand in full"),
                   _("Without HAND, the table's last hands (newest first); with HAND, that hand in full: "
                   "bets, the showdown, the seeds and the check of its deal. HAND is the table's own "
                   "number, as the client shows it (#1, #2 ... at each table); --id takes the "
                   "server-wide id that hcf-server replay and the HTTP API use."),
                   "  hcf history\n  hcf history --table high --limit 5\n  hcf history 3 --json\n"
                   "  hcf history --id 42")
    _common(history)
    history.add_argument("hand", nargs="?", type=int, help=_("the table's hand number (as the client shows it)"))
    history.add_argument("--id", dest="hand_id", type=int, default=None, metavar="ID",
                         help=_("a hand by its server-wide id instead"))
    history.add_argument("--limit", type=int, default=20, help=_("how many hands (default 20)"))
    history.add_argument("--json", action="store_true", help=_("print the server's JSON"))
    history.set_defaults(runner=runners.run_history)


def _add_account(sub: Any) -> None:
    account = _sub(sub, "account", _("balance, chip movements, password, log out"),
                   _("Your balance, chips at tables and recent chip movements ('show', the default); "
                   "'password' changes the password; 'logout' ends the saved session."),
                   "  hcf account --name alice\n  hcf account --json\n  hcf account password\n"
                   "  hcf account logout --name alice")
    _common(account, table=False)
    account.add_argument("action", nargs="?", choices=["show", "password", "logout"], default="show")
    account.add_argument("--name", help=_("the account (default: the one saved session on this server)"))
    account.add_argument("--limit", type=int, default=20, help=_("how many movements (default 20)"))
    account.add_argument("--json", action="store_true", help=_("print the server's JSON"))
    account.set_defaults(runner=runners.run_account)


def _add_drill(sub: Any) -> None:
    drill = _sub(sub, "drill", _("rehearse dealer and floor procedures: a scenario here, or a live drill (--table)"),
                 _("A trainee rehearses a procedure drill on this machine, without a server: a shipped scenario "
                 "(by name: 'hcf-server drill list' names them) or a scenario file; or, with --table, at a live "
                 "drill table on a server, where real players play and the table waits for your answers. "
                 "At each step you see what "
                 "the dealer sees then (the seats, stacks and bets, the fee mode, the button, the DP's hand "
                 "once shown, the hands at settlement) and type the answer in a few words ('?' shows the "
                 "forms). training: right or wrong after each answer, with the right answer and its rule; "
                 "exam: nothing until the report. The report: the score, each step kind's score and median "
                 "time, every mistake with its rule. Exits 0 whatever the score, 2 on a scenario it cannot use."),
                 "  hcf drill bank-runs-out\n  hcf drill walk-away --mode exam\n"
                 "  hcf drill my-scenario.json --json        # the report as JSON at the end\n"
                 "  hcf drill --practice --name tina         # the steps tina misses most\n"
                 "  hcf drill --table training --name tina   # the trainee at a live drill table")
    drill.add_argument("scenario", nargs="?", help=_("a shipped scenario's name, or a path to a scenario JSON file"))
    drill.add_argument("--table", default=None,
                       help=_("join this live drill table as its trainee instead (a server; docs/drills.md)"))
    drill.add_argument("--name", help=_("your account, at a live table or for your drill history (default: "
                                        "the one saved session on this server)"))
    drill.add_argument("--server", default=_server_default(), metavar="URL",
                       help=_("the live table's server, or the one that keeps your drill history (default: "
                              "$HCF_SERVER or {server})", server=DEFAULT_SERVER))
    drill.add_argument("--lang", choices=LANGUAGES, default=None,
                       help=_("English, Spanish or German (default: from $LC_ALL or $LANG, else en)"))
    drill.add_argument("--mode", choices=("training", "exam"), default="training",
                       help=_("training (default): feedback after each answer; exam: only the report"))
    drill.add_argument("--json", action="store_true", help=_("also print the report as one line of JSON at the end"))
    drill.add_argument("--practice", action="store_true",
                       help=_("practise the step kinds you miss most, drawn from every shipped scenario (your "
                              "history on --server decides the weights)"))
    drill.add_argument("--seed", type=int, help=_("with --practice: replay the session of this seed"))
    drill.add_argument("--steps", type=int, default=12, help=_("with --practice: how many steps (default 12)"))
    drill.add_argument("--over", type=int, metavar="N",
                       help=_("with --practice --seed: weigh by your first N kept sessions, "
                              "as the session replayed was"))
    drill.add_argument("--keep-here", action="store_true",
                       help=_("do not send the report to your drill history on --server"))
    drill.set_defaults(runner=runners.run_drill)


def asked_language(argv: Sequence[str]) -> str | None:
    """The language ``--lang X`` or ``--lang=X`` names in ``argv`` (the last one given), else None.

    >>> asked_language(["play", "--lang", "de"]), asked_language(["--lang=es", "--help"]), asked_language(["-h"])
    ('de', 'es', None)
    """
    found: str | None = None
    for index, word in enumerate(argv):
        if word == "--":
            break
        if word == "--lang" and index + 1 < len(argv):
            found = argv[index + 1]
        elif word.startswith("--lang="):
            found = word.partition("=")[2]
    return found if found in LANGUAGES else None


def main(argv: Sequence[str] | None = None) -> int:
    """Parse and dispatch; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    # The help is said in the language asked, so the language is known before the parser is built.
    lang = use_language(asked_language(words) or environment_language())
    with argparse_words(lang):  # argparse's own words too ("usage:", "options", a typo's error)
        args = build_parser().parse_args(words)
    runner: Callable[[argparse.Namespace], int] = args.runner
    try:
        code = runner(args)
        sys.stdout.flush()  # here, so that a reader gone away is seen while it can still be handled
    except BrokenPipeError:
        return runners.reader_went_away()
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
