"""``drill_report.digest``: the SHA-256 of each kept report's answer log (issue 27, item 7).

Worked out when a report is kept (server/rules/drill/certificate.py) and kept beside it, so that a
certificate can be checked later against the database: the digest worked out again from the kept report
must be the one kept. The reports kept before this revision get theirs here, from their kept JSON.
Written by hand after the model, like 0008.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05 03:30:00
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0009"
down_revision: str | Sequence[str] | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _digest(report: Any) -> str:
    """server/rules/drill/certificate.py's ``log_digest`` as it was at this revision (a migration stays as written)."""
    steps = report.get("steps") if isinstance(report, dict) else None
    log = steps if isinstance(steps, list) else []
    text = json.dumps(log, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def upgrade() -> None:
    bind = op.get_bind()
    columns = {c["name"] for c in sa.inspect(bind).get_columns("drill_report")}
    if "digest" not in columns:  # (adopted from ``metadata.create_all`` of these models: there already)
        with op.batch_alter_table("drill_report") as batch:
            batch.add_column(sa.Column("digest", sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False,
                                       server_default=""))
    table = sa.table("drill_report", sa.column("id", sa.Integer()), sa.column("report", sa.Text()),
                     sa.column("digest", sa.String()))
    for row in bind.execute(sa.select(table.c.id, table.c.report).where(table.c.digest == "")).all():
        bind.execute(sa.update(table).where(table.c.id == row.id)
                     .values(digest=_digest(json.loads(row.report))))


def downgrade() -> None:
    with op.batch_alter_table("drill_report") as batch:
        batch.drop_column("digest")
