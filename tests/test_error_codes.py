"""Every refusal code the rules and the table raise is one the protocol lists (else clients see request/internal)."""

from __future__ import annotations

import re
from pathlib import Path

from server.protocol import ERROR_CODES

ROOT = Path(__file__).resolve().parents[1]
# A code is a quoted "area/what" given to a Violation, a RuleError or a TableError.
RAISED = re.compile(r'(?:Violation|TableError|Error)\([^()]*?(?:\([^()]*\)[^()]*?)*"([a-z_]+/[a-z_]+)"\s*\)', re.S)


def raised_codes() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted((ROOT / "server").rglob("*.py")):
        for code in RAISED.findall(path.read_text(encoding="utf-8")):
            found.setdefault(code, str(path.relative_to(ROOT)))
    return found


def test_the_scan_finds_the_codes_of_each_game() -> None:
    codes = raised_codes()
    for code in ("raise/above_limit", "spot/taken", "box/taken", "draw/count", "exchange/continued"):
        assert code in codes, f"the scan misses {code}: fix the pattern"


def test_every_raised_code_is_listed_in_the_protocol() -> None:
    # settle/invalid is the command line's; db/conflict is retried inside the database layer, and one that
    # outlives its retries is a server failure (request/internal) for the client.
    internal = {"settle/invalid", "db/conflict"}
    missing = {code: where for code, where in raised_codes().items()
               if code not in ERROR_CODES and code not in internal}
    assert not missing, f"codes raised but not in server.protocol.ERROR_CODES: {missing}"
