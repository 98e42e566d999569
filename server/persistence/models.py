"""The schema, as sqlmodel table models sharing one ``metadata``.

These classes only declare tables (sqlmodel table models do not validate, see
PITFALLS 11): the store validates before writing, the CHECK constraints below
are the last line of defence, and callers get frozen records from
``records.py`` instead of these rows.

Timestamps are integer microseconds since the Unix epoch; chips are BIGINT.
Every table lives in :data:`metadata`; the schema itself is made by the
alembic migrations in ``migrations/`` (``migrate.py``), and a test checks that
the two agree. Change a model, then add a revision.
"""

from __future__ import annotations

from typing import Final

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

NAMING_CONVENTION: Final = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
SQLModel.metadata.naming_convention = NAMING_CONVENTION
metadata: Final = SQLModel.metadata

# SQLite only autoincrements an "INTEGER PRIMARY KEY"; elsewhere ids are 64-bit.
ID_TYPE: Final = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
HAND_STATUSES: Final = ("in_progress", "settled", "not_dealt", "void")


class AccountRow(SQLModel, table=True):
    __tablename__ = "account"
    __table_args__ = (
        sa.CheckConstraint("length(name) BETWEEN 1 AND 24", name="name_length"),
    )

    id: int | None = Field(default=None, primary_key=True, sa_type=ID_TYPE)
    name: str = Field(max_length=24)
    name_key: str = Field(max_length=96, unique=True)  # naming.name_key: look-alike names share one
    password_hash: str
    created_at: int = Field(sa_type=sa.BigInteger)
    is_host: bool = False


class SessionTokenRow(SQLModel, table=True):
    __tablename__ = "session_token"
    __table_args__ = (sa.CheckConstraint("expires_at > created_at", name="expires_after_creation"),)

    token_hash: str = Field(primary_key=True, max_length=64)
    account_id: int = Field(foreign_key="account.id", index=True, sa_type=ID_TYPE)
    created_at: int = Field(sa_type=sa.BigInteger)
    expires_at: int = Field(sa_type=sa.BigInteger)
    revoked: bool = False


class HostTokenRow(SQLModel, table=True):
    __tablename__ = "host_token"
    __table_args__ = (sa.CheckConstraint("id = 1", name="single_row"),)

    id: int = Field(default=1, primary_key=True)
    token_hash: str = Field(max_length=64)
    created_at: int = Field(sa_type=sa.BigInteger)


class PlaceRow(SQLModel, table=True):
    __tablename__ = "place"
    __table_args__ = (sa.CheckConstraint("overdraft OR balance >= 0", name="no_overdraw"),)

    key: str = Field(primary_key=True, max_length=80)
    balance: int = Field(default=0, sa_type=sa.BigInteger)
    overdraft: bool = False


class TransferRow(SQLModel, table=True):
    """Append-only (a trigger refuses UPDATE and DELETE)."""

    __tablename__ = "transfer"
    __table_args__ = (
        sa.CheckConstraint("amount > 0", name="amount_positive"),
        sa.CheckConstraint("src <> dst", name="distinct_places"),
    )

    id: int | None = Field(default=None, primary_key=True, sa_type=ID_TYPE)
    created_at: int = Field(sa_type=sa.BigInteger)
    src: str = Field(foreign_key="place.key", index=True, max_length=80)
    dst: str = Field(foreign_key="place.key", index=True, max_length=80)
    amount: int = Field(sa_type=sa.BigInteger)
    kind: str = Field(max_length=32)
    table_name: str | None = Field(default=None, foreign_key="casino_table.name", max_length=32)
    hand_id: int | None = Field(default=None, foreign_key="hand.id", index=True, sa_type=ID_TYPE)
    idempotency_key: str | None = Field(default=None, unique=True, max_length=200)
    memo: str = ""


class CasinoTableRow(SQLModel, table=True):
    __tablename__ = "casino_table"

    name: str = Field(primary_key=True, max_length=32)
    game: str = Field(default="hcf", max_length=32)
    settings: str = Field(sa_type=sa.Text)
    created_at: int = Field(sa_type=sa.BigInteger)
    closed: bool = False


class SettingsChangeRow(SQLModel, table=True):
    """Append-only log of every settings change."""

    __tablename__ = "settings_change"

    id: int | None = Field(default=None, primary_key=True, sa_type=ID_TYPE)
    table_name: str = Field(foreign_key="casino_table.name", index=True, max_length=32)
    at: int = Field(sa_type=sa.BigInteger)
    by_account_id: int | None = Field(default=None, foreign_key="account.id", sa_type=ID_TYPE)
    old_settings: str = Field(sa_type=sa.Text)
    new_settings: str = Field(sa_type=sa.Text)


class SeatRow(SQLModel, table=True):
    """One row per taken seat; the keys make a taken seat impossible to take twice."""

    __tablename__ = "seat"
    __table_args__ = (
        sa.UniqueConstraint("table_name", "account_id"),
        sa.CheckConstraint("seat_no >= 1", name="seat_no_positive"),
    )

    table_name: str = Field(primary_key=True, foreign_key="casino_table.name", max_length=32)
    seat_no: int = Field(primary_key=True)
    account_id: int = Field(foreign_key="account.id", index=True, sa_type=ID_TYPE)
    willing_to_bank: bool = False
    sitting_out: bool = False
    sat_out_at: int | None = Field(default=None, sa_type=sa.BigInteger)


class HandRow(SQLModel, table=True):
    __tablename__ = "hand"
    __table_args__ = (
        sa.UniqueConstraint("table_name", "hand_no"),
        sa.CheckConstraint("status IN (" + ", ".join(f"'{s}'" for s in HAND_STATUSES) + ")", name="known_status"),
        sa.CheckConstraint("hand_no >= 1", name="hand_no_positive"),
        # At most one hand in progress per table.
        sa.Index(
            "ux_hand_one_in_progress",
            "table_name",
            unique=True,
            sqlite_where=sa.text("status = 'in_progress'"),
            postgresql_where=sa.text("status = 'in_progress'"),
        ),
        # The table's own count of dealt hands (NULL for an attempt never dealt): one hand per number.
        sa.Index("ux_hand_table_number", "table_name", "number", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True, sa_type=ID_TYPE)
    table_name: str = Field(foreign_key="casino_table.name", max_length=32)
    hand_no: int
    started_at: int = Field(sa_type=sa.BigInteger)
    ended_at: int | None = Field(default=None, sa_type=sa.BigInteger)
    status: str = Field(default="in_progress", max_length=16)
    server_seed: str = Field(max_length=128)
    commitment: str = Field(max_length=128)
    shuffle_version: int
    arranged: bool = False
    summary: str | None = Field(default=None, sa_type=sa.Text)
    number: int | None = None  # last: where the migration that added it (0004) put it


class HandEventRow(SQLModel, table=True):
    """Append-only event log; ``seq`` strictly increases per table."""

    __tablename__ = "hand_event"
    __table_args__ = (
        sa.UniqueConstraint("table_name", "seq"),
        sa.CheckConstraint("seq >= 1", name="seq_positive"),
    )

    id: int | None = Field(default=None, primary_key=True, sa_type=ID_TYPE)
    table_name: str = Field(foreign_key="casino_table.name", max_length=32)
    hand_id: int | None = Field(default=None, foreign_key="hand.id", index=True, sa_type=ID_TYPE)
    seq: int = Field(sa_type=sa.BigInteger)
    type: str = Field(max_length=64)
    payload: str = Field(sa_type=sa.Text)
    created_at: int = Field(sa_type=sa.BigInteger)


class TableLeaseRow(SQLModel, table=True):
    """Which server process owns (runs) a table, until when (several processes: ``server/cluster``)."""

    __tablename__ = "table_lease"

    table_name: str = Field(primary_key=True, max_length=32)
    owner: str = Field(max_length=128)
    expires_at: int = Field(sa_type=sa.BigInteger)
    acquired_at: int = Field(sa_type=sa.BigInteger)


INVITE_ROLES: Final = ("player", "spectator", "floor")


class InviteRow(SQLModel, table=True):
    """An invite link (docs/web-server.md): only the digest of its token is kept."""

    __tablename__ = "invite"
    __table_args__ = (
        sa.CheckConstraint("role IN (" + ", ".join(f"'{r}'" for r in INVITE_ROLES) + ")", name="known_role"),
        sa.CheckConstraint("used >= 0 AND (max_uses IS NULL OR used <= max_uses)", name="uses_bounded"),
        sa.CheckConstraint("expires_at > created_at", name="expires_after_creation"),
    )

    id: int | None = Field(default=None, primary_key=True, sa_type=ID_TYPE)
    token_hash: str = Field(max_length=64, unique=True)
    table_name: str = Field(max_length=32, index=True)
    role: str = Field(max_length=16)
    created_at: int = Field(sa_type=sa.BigInteger)
    expires_at: int = Field(sa_type=sa.BigInteger)
    max_uses: int | None = None
    used: int = 0
    revoked: bool = False


class FloorTokenRow(SQLModel, table=True):
    """A host token given by a floor invite: the floor's powers, until it expires or its invite is revoked."""

    __tablename__ = "floor_token"
    __table_args__ = (sa.CheckConstraint("expires_at > created_at", name="expires_after_creation"),)

    token_hash: str = Field(primary_key=True, max_length=64)
    invite_id: int = Field(foreign_key="invite.id", index=True, sa_type=ID_TYPE)
    account_id: int | None = Field(default=None, foreign_key="account.id", sa_type=ID_TYPE)
    created_at: int = Field(sa_type=sa.BigInteger)
    expires_at: int = Field(sa_type=sa.BigInteger)


class ServerSecretRow(SQLModel, table=True):
    """The key invite tokens are signed with: made at first use, never shown or logged."""

    __tablename__ = "server_secret"
    __table_args__ = (sa.CheckConstraint("id = 1", name="single_row"),)

    id: int = Field(default=1, primary_key=True)
    secret: str = Field(max_length=128)
    created_at: int = Field(sa_type=sa.BigInteger)


class ChatLineRow(SQLModel, table=True):
    """A table's chat line, quick reaction or host chat setting (server/storage/chat.py; ``kind`` says which)."""

    __tablename__ = "chat_line"
    __table_args__ = (sa.CheckConstraint("room IN ('table', 'spectators')", name="known_room"),)

    id: int | None = Field(default=None, primary_key=True, sa_type=ID_TYPE)
    table_name: str = Field(foreign_key="casino_table.name", index=True, max_length=32)
    at: int = Field(sa_type=sa.BigInteger)
    account_id: int | None = Field(default=None, foreign_key="account.id", sa_type=ID_TYPE)
    name: str = Field(max_length=24)  # who spoke; for a mute, whom it names
    room: str = Field(max_length=16)
    kind: str = Field(max_length=24)
    text: str = Field(max_length=200)


class DrillReportRow(SQLModel, table=True):
    """A trainee's drill report, kept for their history (server/storage/trainees.py; issue 27, item 4)."""

    __tablename__ = "drill_report"
    __table_args__ = (sa.CheckConstraint("source IN ('live', 'offline', 'practice')", name="known_source"),)

    id: int | None = Field(default=None, primary_key=True, sa_type=ID_TYPE)
    trainee: str = Field(index=True, max_length=24)  # the account's name key (server/rules/names.py)
    name: str = Field(max_length=24)  # the account's name as it was written
    at: int = Field(sa_type=sa.BigInteger)
    source: str = Field(max_length=16)
    scenario: str = Field(max_length=120)
    mode: str = Field(max_length=16)
    partial: bool
    report: str = Field(sa_type=sa.Text)  # the report's JSON, as the engine made it
    # the SHA-256 of its answer log, worked out when kept (server/rules/drill/certificate.py; migration 0009)
    digest: str = Field(default="", max_length=64, sa_column_kwargs={"server_default": ""})



class TableSessionRow(SQLModel, table=True):
    """A session (a night) the host opened at a table, for settle-up (server/storage/nights.py; issue 28, item 3).

    At most one is open at a table (``closed_at`` NULL); sessions follow each other and never overlap.
    """

    __tablename__ = "table_session"
    __table_args__ = (
        sa.CheckConstraint("closed_at IS NULL OR closed_at >= opened_at", name="closes_after_opening"),
        # at most one open session a table, even when two processes open one at once
        sa.Index("ix_table_session_one_open", "table_name", unique=True,
                 sqlite_where=sa.text("closed_at IS NULL"), postgresql_where=sa.text("closed_at IS NULL")),
    )

    id: int | None = Field(default=None, primary_key=True, sa_type=ID_TYPE)
    table_name: str = Field(foreign_key="casino_table.name", index=True, max_length=32)
    opened_at: int = Field(sa_type=sa.BigInteger)
    closed_at: int | None = Field(default=None, sa_type=sa.BigInteger)


class TableReplaysRow(SQLModel, table=True):
    """Who the host lets open a table's replay links (issue 28, item 4); no row: anyone, as before the setting."""

    __tablename__ = "table_replays"
    __table_args__ = (sa.CheckConstraint("replays IN ('anyone', 'players', 'host')", name="known_replays"),)

    table_name: str = Field(primary_key=True, foreign_key="casino_table.name", max_length=32)
    replays: str = Field(max_length=8)

def _table(name: str) -> sa.Table:
    return metadata.tables[name]


ACCOUNT: Final = _table("account")
SESSION_TOKEN: Final = _table("session_token")
HOST_TOKEN: Final = _table("host_token")
PLACE: Final = _table("place")
TRANSFER: Final = _table("transfer")
CASINO_TABLE: Final = _table("casino_table")
SETTINGS_CHANGE: Final = _table("settings_change")
SEAT: Final = _table("seat")
HAND: Final = _table("hand")
HAND_EVENT: Final = _table("hand_event")
TABLE_LEASE: Final = _table("table_lease")
INVITE: Final = _table("invite")
FLOOR_TOKEN: Final = _table("floor_token")
SERVER_SECRET: Final = _table("server_secret")
CHAT_LINE: Final = _table("chat_line")
TABLE_SESSION: Final = _table("table_session")
TABLE_REPLAYS: Final = _table("table_replays")
DRILL_REPORT: Final = _table("drill_report")

# Append-only: triggers made by the migrations refuse UPDATE and DELETE (and TRUNCATE on PostgreSQL).
APPEND_ONLY: Final = (TRANSFER, SETTINGS_CHANGE, HAND_EVENT)
