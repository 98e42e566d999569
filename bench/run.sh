#!/usr/bin/env bash
# The server benchmark (issue 6): floor, action latency, burst, capacity.
#   bench/run.sh [--quick]     writes bench/results.json and prints a table.
# Everything runs on 127.0.0.1 in child processes that are stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true   # thousands of sockets in one process
exec .venv/bin/python -m bench.server_bench "$@"
