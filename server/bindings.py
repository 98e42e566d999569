"""The table's and the transport's ports on the database, as the one object the composition root hands out.

Each port lives in its own module of :mod:`server.storage`; this only composes them
over one :class:`~server.persistence.database.Database`.
"""

from __future__ import annotations

from server.storage.accounts import AccountStore
from server.storage.chat import ChatStore
from server.storage.hands import HandStore, public_hand
from server.storage.invites import InviteStore
from server.storage.nights import NightStore
from server.storage.settle import SettleStore
from server.storage.tables import TableStore
from server.storage.trainees import TraineeStore

__all__ = ["DatabaseBindings", "public_hand"]


class DatabaseBindings(TableStore, AccountStore, HandStore, InviteStore, SettleStore, ChatStore, TraineeStore,
                       NightStore):
    """Storage for tables (:class:`TableStore`), accounts for the transport (:class:`AccountStore`)
    the record of finished hands (:class:`HandStore`), invite links (:class:`InviteStore`), settle-up
    (:class:`SettleStore`), the tables' chat (:class:`ChatStore`), the trainees' drill reports
    (:class:`TraineeStore`) and the host's sessions and replays setting (:class:`NightStore`), over one database."""
