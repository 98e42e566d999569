"""``hcf-server simulate``: many hands through the rules, for odds and house edge."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    """Register ``simulate``."""
    from server.simulation import command

    parser = subparsers.add_parser(
        "simulate", help="play many hands through the rules core and report the returns",
        description="Play N hands through the rules and report each bet's return, fees and "
                    "hand frequencies.",
        epilog="examples: hcf-server simulate --hands 100000 --json\n"
               "          hcf-server simulate --hands 50000 --profile standard --seed 2a",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    command.add_arguments(parser)
    parser.set_defaults(runner=_run)


def _run(args: argparse.Namespace) -> int:
    from server.simulation import command

    return command.run(args)
