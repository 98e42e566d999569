"""``account.name_key``: the look-alike key of server/persistence/naming.py, no longer ``lower(name)``.

Names may now be of any alphabet (issue 23, item 11). Their key is computed in
Python (NFKC, case folding, digits as 0-9, Cyrillic and Greek look-alikes as
Latin), which SQL's ``lower()`` cannot check (SQLite's folds ASCII only), so the
CHECK that tied the two goes; the key's column is widened, as case folding can
lengthen a name (``ß`` is ``ss``). Existing keys stay as they are: every name made
before was ASCII, whose key is its lowercase spelling, as before.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04 21:40:00
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel.sql.sqltypes
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHECK = "ck_account_name_key_is_lower_name"


def _has_check(bind: sa.engine.Connection) -> bool:
    return any(c.get("name") == CHECK for c in sa.inspect(bind).get_check_constraints("account"))


def upgrade() -> None:
    if not _has_check(op.get_bind()):
        return  # adopted from ``metadata.create_all`` of these models (``migrate._adopt_unversioned``)
    with op.batch_alter_table("account") as batch:
        batch.drop_constraint(op.f(CHECK), type_="check")
        batch.alter_column("name_key", type_=sqlmodel.sql.sqltypes.AutoString(length=96),
                           existing_type=sqlmodel.sql.sqltypes.AutoString(length=24), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("account") as batch:
        batch.alter_column("name_key", type_=sqlmodel.sql.sqltypes.AutoString(length=24),
                           existing_type=sqlmodel.sql.sqltypes.AutoString(length=96), existing_nullable=False)
        batch.create_check_constraint("name_key_is_lower_name", "name_key = lower(name)")
