"""``hcf-server``: the server's command line (rules, simulate, serve and the operator tools)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from server.commands import rules as rules_command


def build_parser() -> argparse.ArgumentParser:
    """Every ``hcf-server`` subcommand."""
    parser = argparse.ArgumentParser(
        prog="hcf-server",
        description="hcf-table: a live High Card Flush table server, its rules core and tools.",
        epilog="Run 'hcf-server COMMAND --help' for each command's options and examples.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules_command.add_parser(sub)
    for register in _optional_commands():
        register(sub)
    return parser


def _optional_commands() -> list[Callable[[Any], None]]:
    from server.commands import analyze, books, drill, serve, simulate

    return [simulate.add_parser, analyze.add_parser, *serve.PARSERS, books.add_parsers, drill.add_parser]


def main(argv: Sequence[str] | None = None) -> int:
    """Parse and dispatch; returns the process exit status."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "rules":
            return rules_command.run(args)
        runner: Callable[[argparse.Namespace], int] = args.runner
        return runner(args)
    except BrokenPipeError:  # the reader (say, `head`) stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:  # Ctrl-C before a command could take it over
        return 130
    except Exception as exc:
        from server.commands.failures import EXIT_REFUSED, user_failure

        message = user_failure(exc)
        if message is None:
            raise
        print(f"error: {message}", file=sys.stderr)
        return EXIT_REFUSED


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
