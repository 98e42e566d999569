"""PostgreSQL: ``transfer``, ``settings_change`` and ``hand_event`` are append-only.

A trigger function refuses UPDATE, DELETE and TRUNCATE on the three tables, as
the SQLite triggers of revision 0001 do (SQLite has no TRUNCATE). It raises
SQLSTATE 23000 (integrity_constraint_violation), so drivers report an
integrity error on both databases. Nothing changes on SQLite.

This guards against mistakes, not against the database's owner: a superuser can
still disable triggers.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 12:30:00
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = ("transfer", "settings_change", "hand_event")
FUNCTION = "hcf_refuse_change"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(
        f"""
        CREATE FUNCTION {FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '% is append-only (% refused)', TG_TABLE_NAME, TG_OP
                USING ERRCODE = 'integrity_constraint_violation';
        END
        $$
        """
    )
    for table in APPEND_ONLY:
        op.execute(
            f"CREATE TRIGGER {table}_no_change BEFORE UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {FUNCTION}()"
        )
        op.execute(
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            f"FOR EACH STATEMENT EXECUTE FUNCTION {FUNCTION}()"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for table in APPEND_ONLY:
        op.execute(f"DROP TRIGGER {table}_no_truncate ON {table}")
        op.execute(f"DROP TRIGGER {table}_no_change ON {table}")
    op.execute(f"DROP FUNCTION {FUNCTION}()")
