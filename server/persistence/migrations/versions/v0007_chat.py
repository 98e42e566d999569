"""``chat_line``: each table's chat lines, quick reactions and host chat settings (issue 28, item 2).

Kept with the table's log and exported with it (``hcf-server export --chat``). The host's
settings (a mute, an unmute, whether the seated read the spectators' chat) are rows too,
so a table's chat state is the fold of its rows (server/chat.py ``replayed``). Generated
by autogenerate, then reviewed.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-05 01:11:42
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0007"
down_revision: str | Sequence[str] | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _text(length: int) -> sqlmodel.sql.sqltypes.AutoString:
    return sqlmodel.sql.sqltypes.AutoString(length=length)


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("chat_line"):
        return  # adopted from ``metadata.create_all`` of these models (``migrate._adopt_unversioned``)
    op.create_table(
        "chat_line",
        sa.Column("id", ID, nullable=False),
        sa.Column("table_name", _text(32), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.Column("account_id", ID, nullable=True),
        sa.Column("name", _text(24), nullable=False),
        sa.Column("room", _text(16), nullable=False),
        sa.Column("kind", _text(24), nullable=False),
        sa.Column("text", _text(200), nullable=False),
        sa.CheckConstraint("room IN ('table', 'spectators')", name=op.f("ck_chat_line_known_room")),
        sa.ForeignKeyConstraint(["account_id"], ["account.id"], name=op.f("fk_chat_line_account_id_account")),
        sa.ForeignKeyConstraint(["table_name"], ["casino_table.name"],
                                name=op.f("fk_chat_line_table_name_casino_table")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_line")),
    )
    op.create_index(op.f("ix_chat_line_table_name"), "chat_line", ["table_name"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_chat_line_table_name"), table_name="chat_line")
    op.drop_table("chat_line")
