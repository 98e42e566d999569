#!/usr/bin/env bash
# Installs hcf-table with its test tools into .venv and runs every check:
# ruff, mypy --strict, the import contracts, then the whole pytest suite.
# This is the README's test command and what .ci/run calls.
# The suite runs in HCF_TEST_WORKERS processes (pytest-xdist; 3 unless set): most tests wait on
# sockets, subprocesses and table clocks rather than on a core. tests/conftest.py keeps each test
# module on one process. Arguments go on to pytest (`bash scripts/test.sh -n 0` runs in one process).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    if ! "$PY" -m venv .venv; then
        rm -rf .venv
        echo "Cannot make the virtual environment: on Debian or Ubuntu, install python3-venv first" \
             "(sudo apt-get install python3-venv)." >&2
        exit 1
    fi
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff"
ruff check server client_cli tests bench
echo "== mypy --strict"
mypy
echo "== import contracts"
lint-imports
echo "== pytest"
set +e
pytest -n "${HCF_TEST_WORKERS:-3}" --dist loadscope --no-loadscope-reorder "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
    echo "pytest collected no tests: failing" >&2
    exit 1
fi
exit "$status"
