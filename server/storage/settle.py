"""Settle-up from the ledger (docs/web.md, "Settle-up"): each person's chips at one table over a session.

A session is the table's night, from when the host opened it (created it) to when the host
closes it, or one day (UTC). Every figure is a sum of the table's rows in the ledger's
``transfer`` table: buy-ins and top-ups into a person's stack, cash-outs out of it, and the
chips at their table places (stack, bets on the felt, a held fee) at the session's start and
end. The arithmetic of who pays whom is pure: :mod:`server.rules.settle`.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from server.persistence.models import TRANSFER
from server.persistence.tx import Tx
from server.rules.errors import Refusal
from server.rules.settle import HOUSE, Figures, net_sentence, said, who_pays_whom, with_house
from server.storage.invites import iso
from server.storage.store import Store

DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
DAY_MICROS = 86_400_000_000
_PERSON_PLACE = re.compile(r"(?:stack|felt|fee_held):(?P<table>[^:]+):(?P<account>[1-9][0-9]*)")
_IN = frozenset({"buy_in", "top_up"})


def day_window(day: str) -> tuple[int, int]:
    """A UTC day as microseconds [from, until); a sentence for anything but a real YYYY-MM-DD.

    >>> day_window("2026-12-05")
    (1796428800000000, 1796515200000000)
    """
    try:
        start = dt.datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=dt.UTC) if DAY.fullmatch(day) else None
    except ValueError:
        start = None
    if start is None:
        raise Refusal("request/malformed", f"a day is written YYYY-MM-DD, like 2026-12-05, not {day[:24]!r}")
    micros = int(start.timestamp()) * 1_000_000
    return micros, micros + DAY_MICROS


@dataclass(slots=True)
class _Tally:
    """One account's sums over the table's rows, as they are read."""

    bought: int = 0
    cashed: int = 0
    brought: int = 0
    on_table: int = 0
    seen: set[str] = field(default_factory=set)


def tally(rows: list[Any], table: str, start: int, until: int) -> dict[int, _Tally]:
    """Each account's figures from the table's transfers (oldest first) within [start, until)."""
    tallies: dict[int, _Tally] = {}
    for row in rows:
        if row.created_at >= until:
            break
        for place, sign in ((row.src, -1), (row.dst, 1)):
            match = _PERSON_PLACE.fullmatch(place)
            if match is None or match["table"] != table:
                continue
            person = tallies.setdefault(int(match["account"]), _Tally())
            person.on_table += sign * row.amount
            if row.created_at < start:
                person.brought += sign * row.amount
            elif row.kind in _IN and sign == 1 and place.startswith("stack:"):
                person.bought += row.amount
            elif row.kind == "cash_out" and sign == -1 and place.startswith("stack:"):
                person.cashed += row.amount
    return tallies


class SettleStore(Store):
    """Settle-up over one :class:`Database`."""

    async def settle_up(self, table: str, day: str | None = None) -> dict[str, Any]:
        """Each person's net at ``table`` for the session (the table's night, or ``day``) and who pays whom."""
        async with self.db.transaction(write=False) as tx:
            info = await tx.get_table(table)
            if info is None:
                raise Refusal("table/unknown", f"there is no table named {table!r}")
            query = sa.select(TRANSFER).where(TRANSFER.c.table_name == info.name).order_by(TRANSFER.c.id)
            rows = list((await tx._run(query)).all())
            start, until = day_window(day) if day is not None else (info.created_at, 2**62)
            figures = [Figures(name=await _name(tx, account), bought=t.bought, cashed=t.cashed,
                               on_table=t.on_table, brought=t.brought)
                       for account, t in tally(rows, info.name, start, until).items()]
        figures.sort(key=lambda f: (f.name.casefold(), f.name))
        return _answer(info.name, figures, start, until, closed=info.closed, day=day)


async def _name(tx: Tx, account: int) -> str:
    found = await tx.account(account)
    return found.name if found is not None else f"account {account}"


def _answer(table: str, figures: list[Figures], start: int, until: int, *, closed: bool,
            day: str | None) -> dict[str, Any]:
    nets = with_house({f.name: f.net for f in figures if f.bought or f.cashed or f.on_table or f.brought})
    payments = who_pays_whom(nets)
    people = [{"name": f.name, "bought": f.bought, "cashed": f.cashed, "on_table": f.on_table,
               "brought": f.brought, "net": f.net, "line": net_sentence(f)} for f in figures]
    house = nets.get(HOUSE, 0)
    session = f"on {day} (UTC)" if day is not None else ("for the night the table was open" if closed
                                                          else "since the table opened")
    heading = f"Settle-up at {table} {session}."
    lines = [heading, *(p["line"] for p in people)]
    if house:
        lines.append(f"The house is {'up' if house > 0 else 'down'} {abs(house)} (fees and the house's bets).")
    lines += [said(p) for p in payments] or ["Nobody owes anybody anything."]
    return {"table": table, "day": day, "closed": closed, "from": iso(start),
            "until": iso(until) if day is not None else None,
            "people": people, "house": house,
            "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "line": said(p)}
                         for p in payments],
            "lines": lines}
