"""Trainees' drill reports inside one transaction: keep one, read a trainee's back, list the trainees."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from server.persistence.models import DRILL_REPORT
from server.persistence.txbase import TxBase
from server.rules.drill.certificate import log_digest
from server.rules.drill.progress import Kept


def _kept(row: Any) -> Kept:
    return Kept(at=row.at, source=row.source, scenario=row.scenario, mode=row.mode, partial=bool(row.partial),
                report=json.loads(row.report), digest=row.digest)


class DrillReportOps(TxBase):
    async def keep_drill_report(self, trainee: str, name: str, *, source: str, scenario: str, mode: str,
                                partial: bool, report: dict[str, Any]) -> None:
        """Add one report to the trainee's history (``trainee``: the name key), stamped with the transaction's
        time, with the digest of its answer log (a certificate is checked against it later)."""
        self._check_writable()
        text = json.dumps(report)  # the digest is of the log as it is kept (and read back), JSON's keys all text
        await self._run(sa.insert(DRILL_REPORT).values(
            trainee=trainee, name=name, at=self.now(), source=source, scenario=scenario, mode=mode,
            partial=partial, report=text, digest=log_digest(json.loads(text))))

    async def drill_reports(self, trainee: str) -> list[Kept]:
        """The trainee's kept reports (by name key), oldest first."""
        query = (sa.select(*DRILL_REPORT.c).where(DRILL_REPORT.c.trainee == trainee)
                 .order_by(DRILL_REPORT.c.at, DRILL_REPORT.c.id))
        return [_kept(row) for row in await self._run(query)]

    async def drill_trainees(self) -> list[tuple[str, str]]:
        """Every trainee with a kept report: (name key, the name last written), by name key."""
        latest = (sa.select(DRILL_REPORT.c.trainee, sa.func.max(DRILL_REPORT.c.id).label("last"))
                  .group_by(DRILL_REPORT.c.trainee).subquery())
        query = (sa.select(DRILL_REPORT.c.trainee, DRILL_REPORT.c.name)
                 .join(latest, DRILL_REPORT.c.id == latest.c.last).order_by(DRILL_REPORT.c.trainee))
        return [(row.trainee, row.name) for row in await self._run(query)]
