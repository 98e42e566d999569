"""Summarise a py-spy ``--format raw`` profile (collapsed stacks): where the server's time goes.

    .venv/bin/python bench/profile_summary.py PROFILE.txt [--top 30] [--match TEXT]

Prints the functions with the most samples on the stack (inclusive) and at the top
of the stack (self), as shares of all samples; ``--match`` keeps only frames whose
text contains TEXT (e.g. ``server/`` for our own code).
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--match", default="")
    parser.add_argument("--idle", action="store_true", help="keep samples of an idle event loop (select/epoll)")
    args = parser.parse_args()
    inclusive: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in args.profile.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        frames = stack.split(";")
        if not args.idle and any("select (selectors.py" in f or "poll (" in f for f in frames[-2:]):
            continue
        count = int(count_text)
        total += count
        for frame in set(frames):
            if args.match in frame:
                inclusive[frame] += count
        if args.match in frames[-1]:
            own[frames[-1]] += count
    print(f"{total} busy samples")
    for title, counter in (("inclusive", inclusive), ("self", own)):
        print(f"\n-- {title}")
        for frame, count in counter.most_common(args.top):
            print(f"{count / total:6.1%}  {frame[:150]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
