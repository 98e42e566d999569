"""``hcf-server simulate``: its arguments and what it prints.

The CLI adds :func:`add_arguments` to its ``simulate`` subparser and calls
:func:`run` with the parsed arguments; ``run`` returns the exit status.
"""

from __future__ import annotations

import argparse
import json
import sys
from time import perf_counter
from typing import Any

from rich.console import Console
from rich.table import Table

from server.rules.hcf.settings import PROFILES, SEAT_LIMITS
from server.simulation.decks import SeedError, parse_seed, random_seed
from server.simulation.exact import hand_shares
from server.simulation.progress import dealt, progress_bar
from server.simulation.scenario import DEFAULT_PLAYERS, Scenario, ScenarioError
from server.simulation.simulate import simulate
from server.simulation.strategies import STRATEGIES
from server.simulation.tally import FLUSH_SIZES, RUN_LENGTHS, report


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _seed(text: str) -> str:
    try:
        parse_seed(text)
    except SeedError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text.strip().lower()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``simulate``."""
    cal, std = SEAT_LIMITS["california"], SEAT_LIMITS["standard"]
    parser.add_argument("--hands", type=_positive, required=True, metavar="N", help="hands to play")
    parser.add_argument(
        "--players", type=int, metavar="K",
        help=f"california: seated players, the DP included ({cal[0]}-{cal[1]}, default "
             f"{DEFAULT_PLAYERS['california']}); standard: players against the house "
             f"({std[0]}-{std[1]}, default {DEFAULT_PLAYERS['standard']}); caribbean: 1-7 players with a "
             "spot each (default 1); sixcard: 1-4 players with a box each (default 1)",
    )
    parser.add_argument("--profile", choices=PROFILES, default="california",
                        help="the table's profile, with its default settings (default: california)")
    parser.add_argument("--game", choices=("hcf", "caribbean", "sixcard"), default="hcf",
                        help="the game (default: hcf); caribbean and sixcard ignore --profile")
    parser.add_argument("--strategy", default="basic",
                        help=f"how players decide (default: basic); hcf: {', '.join(sorted(STRATEGIES))}; "
                             "caribbean: ak, pair, basic (= ak); sixcard: basic")
    parser.add_argument("--seed", type=_seed, metavar="HEX",
                        help="hex seed: the same seed deals the same hands (default: a random one, printed)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="pairs",
                        help="change one of the game's table settings (repeatable); VALUE is read as JSON "
                             "when it parses, as in hcf-server analyze")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")


def run(args: argparse.Namespace) -> int:
    """Run the simulation the arguments describe and print it; the exit status."""
    if args.game == "caribbean":
        from server.simulation import caribbean

        return caribbean.run(args)
    if args.game == "sixcard":
        from server.simulation import sixcard

        return sixcard.run(args)
    if args.strategy not in STRATEGIES:
        print(f"hcf-server simulate: --strategy: one of {', '.join(sorted(STRATEGIES))} for hcf, "
              f"got {args.strategy!r}", file=sys.stderr)
        return 2
    try:
        scenario = Scenario.build(args.profile, args.players, args.strategy, overrides=table_settings(args))
    except ScenarioError as error:
        print(f"hcf-server simulate: {error}", file=sys.stderr)
        return 2
    seed = args.seed or random_seed()
    started = perf_counter()
    with progress_bar() as bar:  # on stderr when it is a terminal, --json or not
        tally = simulate(scenario, args.hands, seed, on_progress=dealt(bar, args.hands))
    summary = report(scenario, tally, seed=seed, seconds=perf_counter() - started)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        render(summary, Console())
    return 0


def table_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The ``--set`` pairs (ScenarioError when one is not KEY=VALUE)."""
    from server.simulation.inputs import InputError, parse_pairs

    try:
        return parse_pairs(getattr(args, "pairs", []))
    except InputError as error:
        raise ScenarioError(str(error)) from None


def house_settings(args: argparse.Namespace, settings_type: Any) -> Any:
    """A house game's settings from ``--set``; None after printing the refusal."""
    from server.rules.errors import SettingsError

    try:
        return settings_type.from_mapping(table_settings(args))
    except (ScenarioError, SettingsError) as error:
        print(f"hcf-server simulate: {error}", file=sys.stderr)
        return None


def render(summary: dict[str, Any], console: Console) -> None:
    """The human tables of a :func:`~server.simulation.tally.report`."""
    dealer = summary["dealer"]
    console.print(
        f"[bold]High Card Flush[/], {summary['profile']} profile, {summary['players']} "
        f"{'seats, the bank rotating' if dealer['who'] != 'house' else 'players against the house'}, "
        f"strategy {summary['strategy']}: {summary['hands']:,} hands in {summary['seconds']:.2f} s "
        f"({summary['hands_per_second']:,.0f}/s), seed {summary['seed']}"
    )
    console.print(f"One unit = {summary['unit_chips']} chips: Ante 1 unit, each bonus 1 unit, every hand.")
    console.print(_bets_table(summary))
    console.print(
        f"Dealer ({dealer['who']}): {dealer['net']:+,.1f} units, {dealer['per_hand']:+.4f} per hand, "
        f"{dealer['per_player_ante']:+.4%} of the players' Antes. Fees: {summary['fees']:,.1f} units. "
        f"Dealer qualified {summary['dealer_qualified']:.2%}. "
        f"Dead seats (DP's funds cap): {summary['dead_seats']['count']:,}."
    )
    console.print(_frequency_table(summary))


def _bets_table(summary: dict[str, Any]) -> Table:
    table = Table(title="Players' results by bet (units)")
    for header in ("bet", "wagered", "net", "return per unit"):
        table.add_column(header, justify="left" if header == "bet" else "right")
    ante = summary["ante_raise"]
    table.add_row("Ante + Raise (per Ante)", f"{ante['antes']:,.0f}", f"{ante['net']:+,.1f}",
                  f"{ante['per_ante']:+.4%}")
    table.add_row("Ante + Raise (per chip bet)", f"{ante['antes'] + ante['raises']:,.0f}",
                  f"{ante['net']:+,.1f}", f"{ante['per_wager']:+.4%}")
    for key, name in (("flush_bonus", "Flush bonus"), ("straight_flush_bonus", "Straight Flush bonus"),
                      ("all_bets", "all bets")):
        bet = summary[key]
        table.add_row(name, f"{bet['wagered']:,.0f}", f"{bet['net']:+,.1f}", f"{bet['per_unit']:+.4%}")
    return table


def _frequency_table(summary: dict[str, Any]) -> Table:
    exact = hand_shares()
    table = Table(title="Every 7-card hand dealt (players' and dealer's)")
    for header in ("flush size", "share", "exact", "straight flush", "share", "exact"):
        table.add_column(header, justify="right")
    flushes = [(str(n), summary["flush_size_freq"][str(n)], float(exact.flush_size[n])) for n in FLUSH_SIZES]
    runs = [(str(n) if n else "none", summary["straight_flush_length_freq"][str(n)],
             float(exact.straight_flush_length[n])) for n in RUN_LENGTHS]
    for (size, share, size_exact), (length, run_share, run_exact) in zip(flushes, runs, strict=True):
        table.add_row(size, f"{share:.4%}", f"{size_exact:.4%}",
                      length, f"{run_share:.5%}", f"{run_exact:.5%}")
    return table
