#!/usr/bin/env bash
# The README's run command: installs hcf-table into the project's own virtual
# environment (.venv, shared with scripts/test.sh) and runs the server.
# Debian's python3 refuses `pip install` outside a virtual environment (PEP 668),
# and `python3 -m venv` there needs the python3-venv package.
# Arguments go to `hcf-server serve` (e.g. --port 9000 --db sqlite:///./hcf.db).
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
# Installed again only when pyproject.toml changed (an editable install: the code itself is read in place).
stamp=.venv/.hcf-installed
if [ ! -x .venv/bin/hcf-server ] || [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "Installing hcf-table into .venv (a minute or two the first time)..." >&2
    .venv/bin/python -m pip install --quiet -e .
    touch "$stamp"
fi
exec .venv/bin/hcf-server serve "$@"
