#!/usr/bin/env bash
# Every issue-25 target, 3 times, this tree against the tree at DIR, in one run (docs/benchmarks.md, round 7):
#   bench/targets.sh --server-path DIR [--rounds 3] [--skip postgres,capacity]
# Prints a table of medians, spreads and ratios with pass or fail; writes bench/targets.json.
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m bench.targets "$@"
