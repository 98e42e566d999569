"""Migration 0009: each drill report kept before it gets the digest of its answer log, the one a report kept
after it gets when kept (server/rules/drill/certificate.py), on both databases."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from server.persistence import open_database
from server.rules.drill.certificate import log_digest

from .conftest import NewDatabase
from .test_migrations import _alembic, _on

LOG = [{"n": 1, "hand": 1, "step": "fees", "given": {"fees": {"2": 1}}, "answer": {"fees": {"2": 1}},
        "right": True, "mistake": None, "rule": "RULES 3.3"}]
REPORTS = [{"scenario": "s", "right": 1, "total": 1, "by_step": {"fees": {"right": 1, "total": 1}}, "steps": LOG},
           {"scenario": "s", "right": 0, "total": 0, "by_step": {}}]


def _keep_at_0008(conn: Connection) -> None:
    for n, report in enumerate(REPORTS, 1):
        conn.execute(sa.text(
            "INSERT INTO drill_report (trainee, name, at, source, scenario, mode, partial, report) "
            "VALUES ('tina', 'tina', :at, 'live', 's', 'exam', false, :report)"),
            {"at": n * 1_000_000, "report": json.dumps(report)})


def _digests(conn: Connection) -> list[Any]:
    return [row[0] for row in conn.execute(sa.text("SELECT digest FROM drill_report ORDER BY id"))]


async def test_the_reports_kept_before_the_digest_get_theirs_on_the_upgrade(new_database: NewDatabase) -> None:
    url = new_database()
    await _on(url, _alembic("upgrade", "0008"))
    await _on(url, _keep_at_0008)
    db = await open_database(url)  # migrates to head
    try:
        await db.run(lambda tx: tx.keep_drill_report("tina", "tina", source="offline", scenario="s", mode="exam",
                                                     partial=False, report=REPORTS[0]))
        kept = await db.run(lambda tx: tx.drill_reports("tina"), write=False)
    finally:
        await db.close()
    assert [k.digest for k in kept] == [log_digest(REPORTS[0]), log_digest({}), log_digest(REPORTS[0])]
    assert await _on(url, _digests) == [k.digest for k in kept]
