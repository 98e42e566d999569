"""``Tx``: every store operation available inside one database transaction."""

from __future__ import annotations

from server.persistence.accounts import AccountOps
from server.persistence.chat import ChatOps
from server.persistence.drill_reports import DrillReportOps
from server.persistence.hands import HandOps
from server.persistence.invites import InviteOps
from server.persistence.leases import LeaseOps
from server.persistence.ledger import LedgerOps


class Tx(LedgerOps, AccountOps, HandOps, LeaseOps, InviteOps, ChatOps, DrillReportOps):
    """Ledger, accounts, tables, seats, hands, events and invites, all in one transaction.

    Obtain one from ``Database.transaction()``; it is valid only inside that block.
    """
