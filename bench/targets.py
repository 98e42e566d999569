"""Every issue-25 target, measured 3 times against this tree and the tree before, in one run.

    bench/targets.sh --server-path DIR [--rounds 3] [--out bench/targets.json]

DIR is the tree before (a checkout of the commit to compare with; with its own
``.venv`` it runs on that, else on this tree's). Each round runs, in turn and
alternating which tree goes first (so a drift of the machine falls on both):

- ``bench/run.sh --quick --only latency,burst,spectators --spectators 0,200`` on each tree;
- the same ``latency,burst`` on PostgreSQL (``--database postgres``) on each tree;
- capacity at human pace on this tree, in steps of 700, 1,400 and 2,002 players (the
  target is a count, not a ratio; a step of 2,002 players at once fails to connect).

It then prints one row per target: the median of the rounds, the spread (lowest and
highest), the tree before's median, and pass or fail. Every figure is a ratio measured
in the same round (the floor, the transport, the tree before, no spectators), never an
absolute time. Each benchmark is a child process with a time limit; one that fails
leaves its figures out ("no figure") and the rest go on. About 15-20 minutes in all.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RUN = [str(ROOT / "bench" / "run.sh")]
STEP_LIMIT = 600.0  # seconds one benchmark may take before it is stopped and counted as failed
CAPACITY_STEPS = "100,200,286"  # tables: 700, 1,400, then 2,002 players (the target is 2,000), added in steps
CAPACITY_TABLES = 286

Result = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Target:
    """One row of the table: how to read its figure from a result, and its goal."""

    name: str
    figure: Callable[[Result], float | None]
    goal: str
    passes: Callable[[float], bool]
    vs_before: bool = False  # the figure is this tree's against the tree before's, from the same round
    every_run: bool = False  # each run must pass (a run without a figure fails), not the median


def cpu_vs_transport(r: Result) -> float | None:
    """Server CPU per burst hand over what the floor server spends on the same frames."""
    cpu_ms, frames, per_cpu_s = (r.get("burst_server_cpu_ms_per_hand"), r.get("burst_frames_per_hand"),
                                 r.get("floor_frames_per_cpu_s"))
    if not (cpu_ms and frames and per_cpu_s):
        return None
    return float(cpu_ms) / (1000.0 * frames / per_cpu_s)


def hands_per_cpu_s(r: Result) -> float | None:
    cpu_ms = r.get("burst_server_cpu_ms_per_hand")
    return 1000.0 / cpu_ms if cpu_ms else None


def hands_per_cpu_s_with_db(r: Result) -> float | None:
    """Per CPU-second of the server and the database server together (PostgreSQL's own processes)."""
    burst = r.get("burst") or {}
    cpu_ms = burst.get("server_cpu_ms_per_hand")
    if not cpu_ms:
        return None
    return 1000.0 / (cpu_ms + (burst.get("database_cpu_ms_per_hand") or 0.0))


def capacity_passed(r: Result) -> float | None:
    if "capacity" not in r:
        return None
    return float(r.get("capacity_players", 0))


def key(name: str) -> Callable[[Result], float | None]:
    return lambda r: r.get(name)


SQLITE = (
    Target("CPU per 7-seat burst hand / transport's", cpu_vs_transport, "<= 3x", lambda x: x <= 3.0),
    Target("burst hands per server CPU-second", hands_per_cpu_s, ">= 2x before", lambda x: x >= 2.0, vs_before=True),
    Target("action ack p50 / floor p50", key("action_p50_ratio"), "<= 2.5x", lambda x: x <= 2.5),
    Target("action ack p99 / floor p99", key("action_p99_ratio"), "<= 4x", lambda x: x <= 4.0),
    Target("hand's server CPU, 200 spectators / none", key("spectators_cpu_vs_none"), "<= 1.25x",
           lambda x: x <= 1.25),
)
POSTGRES = (
    Target("PostgreSQL: burst hands per server CPU-second", hands_per_cpu_s, "reported", lambda _x: True),
    Target("PostgreSQL: the same, server + database CPU", hands_per_cpu_s_with_db, "reported", lambda _x: True),
    Target("PostgreSQL: action ack p50 / floor p50", key("action_p50_ratio"), "reported", lambda _x: True),
    Target("PostgreSQL: action ack p99 / floor p99", key("action_p99_ratio"), "reported", lambda _x: True),
)
CAPACITY = Target(f"capacity at human pace ({CAPACITY_TABLES * 7:,} players)", capacity_passed,
                  ">= 2,000 in every run", lambda x: x >= 2000, every_run=True)


def bench(out: Path, args: list[str], server_path: Path | None) -> Result | None:
    """One ``bench/run.sh`` in a child process; its results, or None (and why, on stderr) if it failed."""
    command = [*RUN, *args, "--out", str(out), *(["--server-path", str(server_path)] if server_path else [])]
    print(f"-- {' '.join(command[1:])}", flush=True)
    started = time.monotonic()
    try:
        done = subprocess.run(command, cwd=ROOT, timeout=STEP_LIMIT, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, check=False)
    except subprocess.TimeoutExpired:
        print(f"   stopped after {STEP_LIMIT:.0f} s: no figures from it", flush=True)
        return None
    print(f"   ({time.monotonic() - started:.0f} s)", flush=True)
    if done.returncode or not out.exists():
        tail = "\n".join(done.stdout.splitlines()[-15:])
        print(f"   failed (exit {done.returncode}); its last lines:\n{tail}", file=sys.stderr, flush=True)
        return None
    result: Result = json.loads(out.read_text())
    return result


def one_round(number: int, workdir: Path, before: Path, with_postgres: bool, with_capacity: bool) -> Result:
    """Every benchmark once, the trees taking turns going first."""
    trees: list[tuple[str, Path | None]] = [("after", None), ("before", before)]
    if number % 2 == 0:
        trees.reverse()
    out: Result = {}
    for label, path in trees:
        out[f"sqlite_{label}"] = bench(workdir / f"r{number}-sqlite-{label}.json",
                                       ["--quick", "--only", "latency,burst,spectators", "--no-phases",
                                        "--spectators", "0,200"], path)
    if with_postgres:
        for label, path in trees:
            out[f"postgres_{label}"] = bench(workdir / f"r{number}-postgres-{label}.json",
                                             ["--quick", "--only", "latency,burst", "--no-phases",
                                              "--database", "postgres"], path)
    if with_capacity:
        out["capacity_after"] = bench(workdir / f"r{number}-capacity.json",
                                      ["--quick", "--only", "capacity", "--steps", CAPACITY_STEPS,
                                       "--capacity-workers", "4"], None)
    return out


def figures(rounds: list[Result], run: str, target: Target) -> list[float]:
    got = [target.figure(r[run]) for r in rounds if r.get(run)]
    return [x for x in got if x is not None]


def row(target: Target, after: list[float], before: list[float], pairs: list[float], runs: int) -> str:
    """One line: the target, this tree's median (spread), the tree before's, the goal, pass or fail."""
    judged = pairs if target.vs_before else after
    if not judged:
        verdict = "-" if target.goal == "reported" else "FAIL"
        return f"{target.name:46} {'no figure':>24} {'':>10}  {target.goal:22} {verdict}"
    median = statistics.median(judged)
    spread = f"{min(judged):.2f}-{max(judged):.2f}"
    old = f"{statistics.median(before):.2f}" if before and not target.vs_before else ""
    if target.goal == "reported":
        verdict = "-"
    elif target.every_run:
        verdict = "PASS" if len(judged) == runs and all(target.passes(x) for x in judged) else "FAIL"
    else:
        verdict = "PASS" if target.passes(median) else "FAIL"
    return f"{target.name:46} {median:>10.2f} ({spread:>11}) {old:>10}  {target.goal:22} {verdict}"


def table(rounds: list[Result]) -> list[str]:
    """The printed table: one row per target."""
    lines = [f"{'target':46} {'median (lowest-highest)':>24} {'before':>10}  {'goal':22} verdict"]
    for backend, targets in (("sqlite", SQLITE), ("postgres", POSTGRES)):
        for target in targets:
            after = figures(rounds, f"{backend}_after", target)
            before = figures(rounds, f"{backend}_before", target)
            pairs = []
            for r in rounds:
                a, b = (r.get(f"{backend}_{x}") for x in ("after", "before"))
                fa, fb = (target.figure(a) if a else None), (target.figure(b) if b else None)
                if fa is not None and fb:
                    pairs.append(fa / fb)
            lines.append(row(target, after, before, pairs, len(rounds)))
    lines.append(row(CAPACITY, figures(rounds, "capacity_after", CAPACITY), [], [], len(rounds)))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--server-path", type=Path, required=True, metavar="DIR", help="the tree before")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "targets.json")
    parser.add_argument("--skip", default="", help="comma-separated: postgres, capacity")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    workdir = args.out.parent / (args.out.stem + "-runs")
    workdir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    rounds = []
    for number in range(1, args.rounds + 1):
        print(f"== round {number} of {args.rounds}", flush=True)
        rounds.append(one_round(number, workdir, args.server_path.resolve(), "postgres" not in skip,
                                "capacity" not in skip))
    seconds = round(time.monotonic() - started)
    lines = table(rounds)
    args.out.write_text(json.dumps({"rounds": rounds, "table": lines, "seconds": seconds}, indent=2) + "\n")
    print()
    print("\n".join(lines))
    print(f"\n{args.rounds} rounds in {seconds} s; every run's results in {workdir}, the table in {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
