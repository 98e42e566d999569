"""``table_session`` and ``table_replays``: the host's sessions (nights) for settle-up, and who may open a table's
replay links (issue 28, items 3 and 4).

A session row per night the host opened at a table (``closed_at`` NULL while it is open); no
``table_replays`` row means anyone may open the replays, as before the setting. Written by hand
after the models, like 0008 and 0009.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05 03:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0010"
down_revision: str | Sequence[str] | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _text(length: int) -> sqlmodel.sql.sqltypes.AutoString:
    return sqlmodel.sql.sqltypes.AutoString(length=length)


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("table_session"):  # (else adopted from ``metadata.create_all`` of these models)
        op.create_table(
            "table_session",
            sa.Column("id", ID, nullable=False),
            sa.Column("table_name", _text(32), nullable=False),
            sa.Column("opened_at", sa.BigInteger(), nullable=False),
            sa.Column("closed_at", sa.BigInteger(), nullable=True),
            sa.CheckConstraint("closed_at IS NULL OR closed_at >= opened_at",
                               name=op.f("ck_table_session_closes_after_opening")),
            sa.ForeignKeyConstraint(["table_name"], ["casino_table.name"],
                                    name=op.f("fk_table_session_table_name_casino_table")),
            sa.PrimaryKeyConstraint("id", name=op.f("pk_table_session")),
        )
        op.create_index(op.f("ix_table_session_table_name"), "table_session", ["table_name"], unique=False)
        op.create_index("ix_table_session_one_open", "table_session", ["table_name"], unique=True,
                        sqlite_where=sa.text("closed_at IS NULL"), postgresql_where=sa.text("closed_at IS NULL"))
    if not inspector.has_table("table_replays"):
        op.create_table(
            "table_replays",
            sa.Column("table_name", _text(32), nullable=False),
            sa.Column("replays", _text(8), nullable=False),
            sa.CheckConstraint("replays IN ('anyone', 'players', 'host')", name=op.f("ck_table_replays_known_replays")),
            sa.ForeignKeyConstraint(["table_name"], ["casino_table.name"],
                                    name=op.f("fk_table_replays_table_name_casino_table")),
            sa.PrimaryKeyConstraint("table_name", name=op.f("pk_table_replays")),
        )


def downgrade() -> None:
    op.drop_table("table_replays")
    op.drop_index("ix_table_session_one_open", table_name="table_session")
    op.drop_index(op.f("ix_table_session_table_name"), table_name="table_session")
    op.drop_table("table_session")
