"""``drill_report``: each trainee's drill reports, kept for their history (issue 27, item 4).

A row per session: live drill tables, ``hcf drill`` rehearsals sent by the client, and practice
sessions; stopped ones too (``partial``). The report itself is the engine's JSON, kept whole, so
the history (server/rules/drill/progress.py) can be worked out again from it. Written by hand
after the model, like 0007.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05 01:50:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _text(length: int) -> sqlmodel.sql.sqltypes.AutoString:
    return sqlmodel.sql.sqltypes.AutoString(length=length)


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("drill_report"):
        return  # adopted from ``metadata.create_all`` of these models (``migrate._adopt_unversioned``)
    op.create_table(
        "drill_report",
        sa.Column("id", ID, nullable=False),
        sa.Column("trainee", _text(24), nullable=False),
        sa.Column("name", _text(24), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("source", _text(16), nullable=False),
        sa.Column("scenario", _text(120), nullable=False),
        sa.Column("mode", _text(16), nullable=False),
        sa.Column("partial", sa.Boolean(), nullable=False),
        sa.Column("report", sa.Text(), nullable=False),
        sa.CheckConstraint("source IN ('live', 'offline', 'practice')", name=op.f("ck_drill_report_known_source")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_drill_report")),
    )
    op.create_index(op.f("ix_drill_report_trainee"), "drill_report", ["trainee"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_drill_report_trainee"), table_name="drill_report")
    op.drop_table("drill_report")
