"""Settle-up from the ledger (docs/web.md, "Settle-up"): each person's chips at one table over a session.

A session is one the host opened and closed (``hcf host session open|close``: server/storage/nights.py),
or, at a table where no session was ever opened, the table's night (from its creation to its closing) or
one day (UTC). Every figure is a sum of the table's rows in the ledger's
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

from server.i18n import phrase
from server.persistence.models import TRANSFER
from server.persistence.tx import Tx
from server.rules.errors import Refusal
from server.rules.settle import HOUSE, Figures, net_sentence, said, who_pays_whom, with_house
from server.storage.invites import iso
from server.storage.nights import Session, known_table, table_sessions
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

    async def settle_up(self, table: str, day: str | None = None, session: int | None = None) -> dict[str, Any]:
        """Each person's net at ``table`` for a session and who pays whom.

        The session is ``session`` (its number at the table), else ``day``, else the host's latest
        session (the open one, or the last closed), else the table's whole night.
        """
        if day is not None and session is not None:
            raise Refusal("request/malformed", "settle up either one day or one session, not both")
        async with self.db.transaction(write=False) as tx:
            info = await known_table(tx, table)
            query = sa.select(TRANSFER).where(TRANSFER.c.table_name == info.name).order_by(TRANSFER.c.id)
            rows = list((await tx._run(query)).all())
            chosen = None if day is not None else _chosen(await table_sessions(tx, info.name), session, info.name)
            if chosen is not None:
                start, until = chosen.opened_at, chosen.closed_at if chosen.closed_at is not None else 2**62
            else:
                start, until = day_window(day) if day is not None else (info.created_at, 2**62)
            figures = [Figures(name=await _name(tx, account), bought=t.bought, cashed=t.cashed,
                               on_table=t.on_table, brought=t.brought)
                       for account, t in tally(rows, info.name, start, until).items()]
        figures.sort(key=lambda f: (f.name.casefold(), f.name))
        answer = _answer(info.name, figures, start, until, closed=info.closed, day=day, session=chosen)
        return {**answer, "session": chosen.as_json() if chosen is not None else None}


def _chosen(sessions: list[Session], number: int | None, table: str) -> Session | None:
    """The session asked for by number, else the latest; None at a table where none was ever opened."""
    if number is None:
        return sessions[-1] if sessions else None
    if not 1 <= number <= len(sessions):
        held = (phrase("sessions 1 to {count}", count=len(sessions)) if len(sessions) > 1
                else phrase("only session 1") if sessions else phrase("no session yet"))
        raise Refusal("request/malformed", phrase("there is no session {number} at {table}: it has {held}",
                                                   number=number, table=table, held=held))
    return sessions[number - 1]


async def _name(tx: Tx, account: int) -> str:
    found = await tx.account(account)
    return found.name if found is not None else f"account {account}"


def _session_words(session: Session) -> str:
    if session.closed_at is None:
        return phrase("in session {number}, open since {since}", number=session.number, since=iso(session.opened_at))
    return phrase("in session {number}, from {start} to {end}", number=session.number, start=iso(session.opened_at),
                  end=iso(session.closed_at))


def _answer(table: str, figures: list[Figures], start: int, until: int, *, closed: bool,
            day: str | None, session: Session | None = None) -> dict[str, Any]:
    nets = with_house({f.name: f.net for f in figures if f.bought or f.cashed or f.on_table or f.brought})
    payments = who_pays_whom(nets)
    people = [{"name": f.name, "bought": f.bought, "cashed": f.cashed, "on_table": f.on_table,
               "brought": f.brought, "net": f.net, "line": net_sentence(f)} for f in figures]
    house = nets.get(HOUSE, 0)
    words = (phrase("on {day} (UTC)", day=day) if day is not None
             else _session_words(session) if session is not None
             else phrase("for the night the table was open") if closed else phrase("since the table opened"))
    heading = phrase("Settle-up at {table} {words}.", table=table, words=words)
    lines = [heading, *(p["line"] for p in people)]
    if house:
        lines.append(phrase("The house is up {chips} (fees and the house's bets).", chips=house) if house > 0 else
                     phrase("The house is down {chips} (fees and the house's bets).", chips=-house))
    lines += [said(p) for p in payments] or [phrase("Nobody owes anybody anything.")]
    return {"table": table, "day": day, "closed": closed, "from": iso(start),
            "until": iso(until) if until < 2**62 and (day is not None or session is not None) else None,
            "people": people, "house": house,
            "payments": [{"payer": p.payer, "payee": p.payee, "amount": p.amount, "line": said(p)}
                         for p in payments],
            "lines": lines}
