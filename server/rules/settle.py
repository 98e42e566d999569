"""Settling up a session: each person's net, and who pays whom (docs/web.md, "Settle-up").

A person's net for a session is what they took away and still have on the table, less what
they brought: cash-outs plus their chips at the table at the session's end, less buy-ins and
top-ups, less the chips they had at the table when the session began. The nets of the
players sum to minus what the house kept (fees, a house game's bank, a jackpot's meter), so
the house takes part in the settling as one more party when that is not zero.

Who pays whom is the fewest payments that bring every net to zero: never more than one fewer
than the people with a net that is not zero, and fewer when a group of them settles among
itself (two people at +40 and -40 settle with one payment, whatever the others do).

>>> nets = {"alice": 40, "bob": -30, "carol": -10}
>>> [said(p) for p in who_pays_whom(nets)]
['bob pays alice 30.', 'carol pays alice 10.']
>>> [said(p) for p in who_pays_whom({"ann": 5, "ben": -5, "cy": 20, "dee": -20})]
['dee pays cy 20.', 'ben pays ann 5.']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from server.i18n import phrase

HOUSE: Final = "the house"
EXACT_UP_TO: Final = 12
"""Up to this many people with a net, the fewest payments are found exactly (2**n subsets); beyond it, the
largest debt is paid to the largest credit in turn, which still needs at most one fewer than the people."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Payment:
    """One payment that settles the session: ``payer`` gives ``payee`` ``amount`` chips."""

    payer: str
    payee: str
    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Figures:
    """One person's chips over a session, as the ledger has them."""

    name: str
    bought: int  # buy-ins and top-ups during the session
    cashed: int  # cash-outs during the session
    on_table: int  # at the table when the session ends (stack, and bets of a hand in play)
    brought: int = 0  # already at the table when the session began

    @property
    def net(self) -> int:
        """Up (above zero) or down (below) over the session."""
        return self.cashed + self.on_table - self.bought - self.brought


def said(payment: Payment) -> str:
    """A payment as a sentence.

    >>> said(Payment(payer="bob", payee="alice", amount=40))
    'bob pays alice 40.'
    """
    return phrase("{payer} pays {payee} {amount}.", payer=_who(payment.payer), payee=_who(payment.payee),
                  amount=payment.amount)


def _who(name: str) -> str:
    """A person's name, or the house said in the reader's language."""
    return phrase("the house") if name == HOUSE else name


def net_sentence(figures: Figures) -> str:
    """One person's session in a sentence.

    >>> net_sentence(Figures(name="alice", bought=200, cashed=0, on_table=240))
    'alice bought in for 200, cashed out 0 and has 240 on the table: up 40.'
    >>> net_sentence(Figures(name="bob", bought=100, cashed=70, on_table=0, brought=20))
    'bob had 20 on the table already, bought in for 100, cashed out 70 and has nothing on the table: down 50.'
    """
    before = phrase("had {chips} on the table already, ", chips=figures.brought) if figures.brought else ""
    still = (phrase("has {chips} on the table", chips=figures.on_table) if figures.on_table
             else phrase("has nothing on the table"))
    net = figures.net
    result = phrase("up {chips}", chips=net) if net > 0 else phrase("down {chips}", chips=-net) if net < 0 else (
        phrase("even"))
    return phrase("{name} {before}bought in for {bought}, cashed out {cashed} and {still}: {result}.",
                  name=figures.name, before=before, bought=figures.bought, cashed=figures.cashed, still=still,
                  result=result)


def with_house(nets: Mapping[str, int]) -> dict[str, int]:
    """The players' nets, and the house's when they do not sum to zero (it kept or paid the difference).

    >>> with_house({"alice": 10, "bob": -14})
    {'alice': 10, 'bob': -14, 'the house': 4}
    """
    rest = -sum(nets.values())
    return {**nets, HOUSE: rest} if rest else dict(nets)


def who_pays_whom(nets: Mapping[str, int]) -> list[Payment]:
    """The fewest payments that bring every net to zero; the nets must sum to zero (else ``ValueError``).

    >>> who_pays_whom({"alice": 0})
    []
    """
    if sum(nets.values()) != 0:
        raise ValueError(f"the nets sum to {sum(nets.values())}, not 0: add the house's (with_house)")
    people = sorted((name, net) for name, net in nets.items() if net)
    groups = _zero_sum_groups(people) if len(people) <= EXACT_UP_TO else [people]
    return [payment for group in groups for payment in _greedy(group)]


def _greedy(group: Sequence[tuple[str, int]]) -> list[Payment]:
    """Payments within a group whose nets sum to zero: each one clears a debtor or a creditor (the last, both)."""
    owed = dict(group)
    payments = []
    while any(owed.values()):
        payer = min(owed, key=lambda n: (owed[n], n))
        payee = max(owed, key=lambda n: (owed[n], n))
        amount = min(-owed[payer], owed[payee])
        payments.append(Payment(payer=payer, payee=payee, amount=amount))
        owed[payer] += amount
        owed[payee] -= amount
    return payments


def _zero_sum_groups(people: Sequence[tuple[str, int]]) -> list[list[tuple[str, int]]]:
    """The people split into the most groups that each sum to zero (each group then needs its size less one
    payments, so the most groups is the fewest payments).

    best[mask]: the most zero-sum groups the people of ``mask`` can be ordered into, counting a group each
    time the running sum of an ordering returns to zero.
    """
    n = len(people)
    total = [0] * (1 << n)
    best = [0] * (1 << n)
    last = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + people[low][1]
        choice = max((i for i in range(n) if mask >> i & 1), key=lambda i: best[mask ^ (1 << i)])
        best[mask], last[mask] = best[mask ^ (1 << choice)] + (total[mask] == 0), choice
    order = []
    mask = (1 << n) - 1
    while mask:
        order.append(last[mask])
        mask ^= 1 << last[mask]
    groups: list[list[tuple[str, int]]] = [[]]
    running = 0
    for i in reversed(order):
        groups[-1].append(people[i])
        running += people[i][1]
        if running == 0:
            groups.append([])
    return [g for g in groups if g]
