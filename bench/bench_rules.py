"""Hands per second through the rules core: the hand state machine and ``simulate``.

Run by hand (not a test), from the repository root:

    .venv/bin/python bench/bench_rules.py [--repeats 5] [--json bench-rules.json]

It measures, each as the median of ``--repeats`` runs:

- ``reference``: hands played one at a time through the hand state machine
  (``server.simulation.reference.play_hands``: new_hand, AcceptBank, PlaceBets,
  Raise/Fold, settlement), decks drawn beforehand;
- ``simulate``: ``hcf-server simulate --hands N --json`` end to end, by calling
  ``server.simulation.command.run`` with its output captured;
- ``python_loop``: for scale, a plain ``random.shuffle`` plus seven
  ``evaluate`` calls per hand, the floor of any per-hand Python loop.

The figures go to ``docs/benchmarks.md`` under "Rules core".
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import random
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from time import perf_counter
from typing import Any

import numpy as np

from server.rules.hcf.evaluate import evaluate
from server.simulation.command import add_arguments, run
from server.simulation.decks import DeckStream
from server.simulation.reference import play_hands
from server.simulation.scenario import Scenario

PROFILES = ("california", "standard")


def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    model = "unknown"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return {
        "nproc": len(os.sched_getaffinity(0)),
        "cpu": model,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "platform": platform.platform(),
        "load_average_1min": os.getloadavg()[0],  # other work on the machine slows every figure
    }


def median_rate(hands: int, repeats: int, once: Callable[[], None]) -> dict[str, Any]:
    """Hands per second of ``once`` (which plays ``hands`` hands): median and every run."""
    rates = []
    for _ in range(repeats):
        started = perf_counter()
        once()
        rates.append(hands / (perf_counter() - started))
    return {"hands": hands, "hands_per_second": statistics.median(rates), "runs": sorted(rates)}


def reference(profile: str, hands: int, repeats: int) -> dict[str, Any]:
    scenario = Scenario.build(profile)
    decks = DeckStream("be9c4").take(hands).tolist()

    def once() -> None:
        play_hands(scenario, decks)

    return median_rate(hands, repeats, once)


def simulate(profile: str, hands: int, repeats: int) -> dict[str, Any]:
    parser = argparse.ArgumentParser()  # the command's own parser, so that a new option never breaks the bench
    add_arguments(parser)
    args = parser.parse_args(["--hands", str(hands), "--profile", profile, "--seed", "be9c4", "--json"])

    def once() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            status = run(args)
        if status:
            raise SystemExit(f"simulate failed with status {status}")

    return median_rate(hands, repeats, once)


def python_loop(hands: int, repeats: int) -> dict[str, Any]:
    rng = random.Random(1)
    deck = list(range(52))

    def once() -> None:
        for _ in range(hands):
            rng.shuffle(deck)
            for seat in range(7):
                evaluate(deck[seat::7][:7])

    return median_rate(hands, repeats, once)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=5, help="runs of each measure (the median is kept)")
    parser.add_argument("--reference-hands", type=int, default=2_000, help="hands per state-machine run")
    parser.add_argument("--simulate-hands", type=int, default=200_000, help="hands per simulate run")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the results here")
    given = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(given)
    results: dict[str, Any] = {"machine": machine(), "command": " ".join(["bench/bench_rules.py", *given])}
    for profile in PROFILES:
        results[f"reference_{profile}"] = reference(profile, args.reference_hands, args.repeats)
        results[f"simulate_{profile}"] = simulate(profile, args.simulate_hands, args.repeats)
    results["python_loop"] = python_loop(args.reference_hands * 10, args.repeats)
    info = results["machine"]
    print(f"{info['cpu']}, {info['nproc']} CPUs available, Python {info['python']}, numpy {info['numpy']}, "
          f"load average {info['load_average_1min']:.2f} at the start")
    for name, figures in results.items():
        if isinstance(figures, dict) and "hands_per_second" in figures:
            print(f"{name:22} {figures['hands_per_second']:>12,.0f} hands/s  "
                  f"(median of {len(figures['runs'])} x {figures['hands']:,} hands)")
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
