"""Everything ``hcf play`` checks before it opens a table connection.

The server keeps one live connection per account: opening one closes any other
window playing as that account. So every mistake a person can make on the
command line (a table that does not exist, a seat or buy-in the table refuses,
an account already playing elsewhere) is caught here, over plain HTTP, before
any socket is opened; a refusal changes nothing anywhere.

Pure but for :func:`check_table` (before logging in) and :func:`choose_buy_in`
(after), which fetch the lobby and the account and ask (``ask`` is None when
there is no terminal to ask on).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from client_cli.api import http_json
from server.i18n import _

Ask = Callable[[str], str]
Say = Callable[[str], None]


class StartRefused(Exception):  # noqa: N818 - reads as what happened
    """``hcf play`` stops before connecting; the message says why and what to type instead."""


@dataclass(frozen=True, slots=True)
class Start:
    """What to ask of the server once connected."""

    buy_in: int | None
    """The buy-in to sit with (None: the account already sits at the table)."""


def find_table(tables: Sequence[Mapping[str, Any]], table: str, url: str) -> Mapping[str, Any]:
    """The lobby entry of ``table``, or a refusal that lists the tables there are.

    >>> find_table([{"name": "main"}], "nosuch", "http://h:1")
    Traceback (most recent call last):
    ...
    client_cli.start.StartRefused: no table named 'nosuch' at http://h:1 (its tables: main)
    """
    for entry in tables:
        if entry.get("name") == table:
            return entry
    names = ", ".join(str(t.get("name")) for t in tables)
    where = _("its tables: {names}", names=names) if names else _("it has no open table")
    raise StartRefused(_("no table named {table} at {url} ({where})", table=repr(table), url=url, where=where))


def seat_of(entry: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    """The seat ``name`` holds at a lobby table, if any."""
    for seat in entry.get("seats") or []:
        if str(seat.get("name", "")).lower() == name.lower():
            return dict(seat)
    return None


def playing_elsewhere(tables: Sequence[Mapping[str, Any]], name: str) -> str | None:
    """A table where ``name`` is connected right now (another window would be closed by connecting)."""
    for entry in tables:
        seat = seat_of(entry, name)
        if seat is not None and seat.get("present"):
            return str(entry.get("name"))
    return None


def check_seat(settings: Mapping[str, Any], taken: Sequence[int], seat: int | None, table: str) -> None:
    """Refuse a seat the table does not have or that is taken, naming the free ones.

    >>> check_seat({"seats": 7}, [1, 2], 99, "main")
    Traceback (most recent call last):
    ...
    client_cli.start.StartRefused: table main has seats 1 to 7; free now: 3 4 5 6 7
    """
    count = settings.get("seats")
    if not isinstance(count, int):
        return  # the game gives no seat count: the server checks
    free = [n for n in range(1, count + 1) if n not in taken]
    if not free:
        raise StartRefused(_("table {table} is full (all {count} seats are taken)", table=table, count=count))
    free_text = " ".join(map(str, free))
    if seat is not None and not 1 <= seat <= count:
        raise StartRefused(_("table {table} has seats 1 to {count}; free now: {free}", table=table, count=count,
                              free=free_text))
    if seat is not None and seat in taken:
        raise StartRefused(_("seat {seat} at {table} is taken; free now: {free}", seat=seat, table=table,
                              free=free_text))


def buy_in_limits(settings: Mapping[str, Any], balance: int, table: str) -> tuple[int, int, int]:
    """``(lowest, highest, suggested)`` buy-in for this account at this table.

    >>> buy_in_limits({"min_buy_in": 100, "max_buy_in": 10000, "default_buy_in": 1000}, 600, "main")
    (100, 600, 600)
    """
    low, high = int(settings.get("min_buy_in", 1)), int(settings.get("max_buy_in", 0))
    if balance < low:
        raise StartRefused(_("your account has {balance} chips: the buy-in at {table} is {low} to {high} chips",
                              balance=balance, table=table, low=low, high=high))
    top = min(high, balance)
    return low, top, max(low, min(int(settings.get("default_buy_in", low)), top))


def read_buy_in(text: str, low: int, high: int, suggested: int) -> int | str:
    """A typed buy-in (empty: the suggested one), or why it cannot be.

    >>> read_buy_in("", 100, 900, 500), read_buy_in("50", 100, 900, 500)
    (500, 'the buy-in is 100 to 900 chips here')
    """
    text = text.strip().replace(",", "").replace("_", "")
    if not text:
        return suggested
    if not text.isdigit():
        return _("say a number of chips, {low} to {high}", low=low, high=high)
    amount = int(text)
    return amount if low <= amount <= high else _("the buy-in is {low} to {high} chips here", low=low, high=high)


def last_stack(account: Mapping[str, Any], table: str) -> int | None:
    """The stack that went back to the account when it last stood up from ``table`` (None: no such movement).

    >>> last_stack({"movements": [{"kind": "cash_out", "table": "main", "amount": 998}]}, "main")
    998
    """
    for movement in account.get("movements") or []:  # newest first
        if movement.get("table") == table:
            return int(movement.get("amount", 0)) if movement.get("kind") == "cash_out" else None
    return None


@dataclass(frozen=True, slots=True)
class Table:
    """The table as the lobby showed it before connecting, and whether this account sits there."""

    entry: Mapping[str, Any]
    mine: Mapping[str, Any] | None


async def check_table(url: str, table: str, name: str, *, seat: int | None, take_over: bool,
                      ask: Ask | None) -> Table:
    """Before logging in: the table exists, the seat is one it has free, and no other window plays as ``name``
    (or the user said to take over). Raises StartRefused."""
    tables = list((await http_json("GET", f"{url}/api/tables")).get("tables") or [])
    entry = find_table(tables, table, url)
    elsewhere = playing_elsewhere(tables, name)
    if elsewhere is not None and not take_over:
        _confirm_take_over(name, elsewhere, ask)
    mine = seat_of(entry, name)
    if mine is None:
        check_seat(entry.get("settings") or {}, [int(s.get("seat", 0)) for s in entry.get("seats") or []],
                   seat, table)
    return Table(entry, mine)


async def choose_buy_in(url: str, found: Table, token: str, *, seat: int | None, buy_in: int | None,
                        ask: Ask | None, say: Say) -> Start:
    """Once logged in: what became of the last stack here, and the buy-in (asked with the real limits, or
    ``buy_in``, or the table's default without a terminal). Raises StartRefused."""
    table = str(found.entry.get("name"))
    if found.mine is not None:
        if seat is not None or buy_in is not None:
            say(_("you already sit at seat {seat} at {table} with {stack} chips: --seat and --buy-in do not apply",
                  seat=found.mine.get("seat"), table=table, stack=found.mine.get("stack")))
        return Start(None)
    settings = found.entry.get("settings") or {}
    account = await http_json("GET", f"{url}/api/account?limit=50", token=token)
    balance = int(account.get("balance", 0))
    old = last_stack(account, table)
    if old is not None:
        say(_("when you last left {table}, your stack of {old} chips went back to your account (balance now "
              "{balance})", table=table, old=old, balance=balance))
    low, high, suggested = buy_in_limits(settings, balance, table)
    if buy_in is not None:
        if not low <= buy_in <= high:
            raise StartRefused(_("--buy-in {amount}: the buy-in at {table} is {low} to {high} chips for you (table "
                                 "limits {least} to {most}, your balance {balance})", amount=buy_in, table=table,
                                 low=low, high=high, least=settings.get("min_buy_in"),
                                 most=settings.get("max_buy_in"), balance=balance))
        return Start(buy_in)
    if ask is None:
        say(_("buying in for {amount} chips ({low} to {high} possible; --buy-in N brings another amount)",
              amount=suggested, low=low, high=high))
        return Start(suggested)
    while True:
        answer = read_buy_in(ask(_("Buy-in at {table}: {low} to {high} chips (Enter: {amount}): ", table=table,
                                   low=low, high=high, amount=suggested)), low, high, suggested)
        if isinstance(answer, int):
            return Start(answer)
        say(answer)


def _confirm_take_over(name: str, table: str, ask: Ask | None) -> None:
    if ask is None:
        raise StartRefused(_("{name} is playing at {table} in another window right now; nothing changed. "
                             "--take-over moves the game here (that window stops)", name=name, table=table))
    question = _("{name} is playing at {table} in another window right now. Play here instead (that window "
                 "stops)? [y/N] ", name=name, table=table)
    answer = ask(question).strip().lower()
    while answer not in ("", "y", "yes", "n", "no"):  # a typo ('yse') is asked again, never taken for a no
        answer = ask(_("say y or n. {question}", question=question)).strip().lower()
    if answer not in ("y", "yes"):
        raise StartRefused(_("nothing changed: {name} plays on in the other window", name=name))
