"""The ``table_lease`` table: which server process owns a table (several processes, docs/scaling.md).

One row per table that some process runs: the owner's id and until when its lease
holds (integer microseconds). Owners renew with a conditional UPDATE; a process
takes a table over only when the row is missing or expired. Rows are not kept
forever: a process that stops deletes its own. No foreign key: a lease is only a
claim, removed or taken over freely.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29 13:10:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("table_lease"):
        return  # adopted from ``metadata.create_all`` of these models (``migrate._adopt_unversioned``)
    op.create_table(
        "table_lease",
        sa.Column("table_name", sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
        sa.Column("owner", sqlmodel.sql.sqltypes.AutoString(length=128), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.Column("acquired_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("table_name", name=op.f("pk_table_lease")),
    )


def downgrade() -> None:
    op.drop_table("table_lease")
