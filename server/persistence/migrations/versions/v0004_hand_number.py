"""``hand.number``: each table's own count of the hands it dealt.

``hand_no`` counts every recorded attempt, including those nobody banked; a
person sees ``number`` instead: 1, 2, 3 at each table, counting only hands whose
cards were dealt. An attempt never dealt keeps NULL (several NULLs do not clash
in a unique index, on SQLite or PostgreSQL). Existing hands are numbered from
their logs: a hand counts once a ``cards_dealt`` event was recorded for it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01 19:20:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_HAND = sa.table("hand", sa.column("id", sa.BigInteger()), sa.column("table_name", sa.String()),
                 sa.column("hand_no", sa.Integer()), sa.column("number", sa.Integer()))
_EVENT = sa.table("hand_event", sa.column("hand_id", sa.BigInteger()), sa.column("type", sa.String()))


def upgrade() -> None:
    bind = op.get_bind()
    if "number" in {c["name"] for c in sa.inspect(bind).get_columns("hand")}:
        return  # adopted from ``metadata.create_all`` of these models (``migrate._adopt_unversioned``)
    op.add_column("hand", sa.Column("number", sa.Integer(), nullable=True))
    dealt = sa.exists().where(_EVENT.c.hand_id == _HAND.c.id, _EVENT.c.type == "cards_dealt")
    rows = bind.execute(sa.select(_HAND.c.id, _HAND.c.table_name).where(dealt)
                        .order_by(_HAND.c.table_name, _HAND.c.hand_no)).all()
    counts: dict[str, int] = {}
    for hand_id, table in rows:
        counts[table] = counts.get(table, 0) + 1
        bind.execute(sa.update(_HAND).where(_HAND.c.id == hand_id).values(number=counts[table]))
    op.create_index("ux_hand_table_number", "hand", ["table_name", "number"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_hand_table_number", table_name="hand")
    with op.batch_alter_table("hand") as batch:
        batch.drop_column("number")
