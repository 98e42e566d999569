"""An odds child whose server was killed ends quietly (issue 23 item 21, part).

After a SIGKILL of the server, its odds child (server/analysis/service.py) finished its count and wrote to a pipe
nobody read any more: the BrokenPipeError, then a second one while reporting it, printed a traceback into the
restarted server's log. The child runs here in a process of its own with its parent's end of the pipe closed, as
the kill leaves it; only the count itself is a quick stand-in.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import multiprocessing
import server.analysis.service as service
from server.rules.games import game_named

service.analyze_settings = lambda settings, cache=None: {"edge": 1}  # the count (seconds, 62 MB) stands in
receiver, sender = multiprocessing.Pipe(duplex=False)
receiver.close()  # the server that asked is gone
service._analyze_and_send(game_named("hcf").settings_from_mapping({}), None, sender)
"""


def test_an_orphaned_odds_child_ends_without_a_traceback() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "", "not a word of traceback into the restarted server's log"
