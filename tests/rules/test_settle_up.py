"""Settle-up (server/rules/settle.py): the payments settle every net and are the fewest (issue 28, item 3)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.rules.settle import HOUSE, Figures, Payment, net_sentence, said, who_pays_whom, with_house

NAMES = st.text(alphabet="abcdefghij", min_size=1, max_size=6)


@st.composite
def balanced_nets(draw: st.DrawFn, most: int = 9) -> dict[str, int]:
    """Nets that sum to zero, as a session's (players and the house) always do."""
    nets = draw(st.dictionaries(NAMES, st.integers(-5000, 5000), min_size=1, max_size=most))
    return with_house(nets)


def settled(nets: dict[str, int], payments: list[Payment]) -> dict[str, int]:
    after = dict(nets)
    for payment in payments:
        after[payment.payer] += payment.amount
        after[payment.payee] -= payment.amount
    return after


@given(balanced_nets())
def test_the_payments_settle_every_net_to_zero(nets: dict[str, int]) -> None:
    payments = who_pays_whom(nets)
    assert all(net == 0 for net in settled(nets, payments).values())
    assert all(p.amount > 0 and p.payer != p.payee for p in payments)


@given(balanced_nets(most=14))
def test_never_more_payments_than_the_people_with_a_net_less_one(nets: dict[str, int]) -> None:
    people = sum(1 for net in nets.values() if net)
    assert len(who_pays_whom(nets)) <= max(0, people - 1)


def fewest_by_brute_force(nets: dict[str, int]) -> int:
    """The fewest payments: the people less the most groups they split into that each sum to zero."""
    people = [net for net in nets.values() if net]
    best = 1 if people else 0
    for labels in itertools.product(range(len(people)), repeat=len(people)):
        sums: dict[int, int] = {}
        for label, net in zip(labels, people, strict=True):
            sums[label] = sums.get(label, 0) + net
        if all(total == 0 for total in sums.values()):
            best = max(best, len(sums))
    return len(people) - best


@given(balanced_nets(most=5).filter(lambda nets: sum(1 for n in nets.values() if n) <= 6))
def test_the_payments_are_the_fewest_there_can_be(nets: dict[str, int]) -> None:
    assert len(who_pays_whom(nets)) == fewest_by_brute_force(nets)


def test_two_people_who_owe_each_other_settle_in_one_payment_whatever_the_others_do() -> None:
    payments = who_pays_whom({"ann": 40, "ben": -40, "cy": 25, "dee": -10, "eve": -15})
    assert Payment(payer="ben", payee="ann", amount=40) in payments
    assert len(payments) == 3


def test_nets_that_do_not_sum_to_zero_are_refused_until_the_house_is_added() -> None:
    with pytest.raises(ValueError, match="sum to -6"):
        who_pays_whom({"alice": 10, "bob": -16})
    assert [said(p) for p in who_pays_whom(with_house({"alice": 10, "bob": -16}))] == [
        "bob pays alice 10.", f"bob pays {HOUSE} 6."]


@given(st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 10_000), st.integers(0, 10_000))
def test_a_persons_net_is_what_they_took_and_still_have_less_what_they_brought(
        bought: int, cashed: int, on_table: int, brought: int) -> None:
    figures = Figures(name="alice", bought=bought, cashed=cashed, on_table=on_table, brought=brought)
    assert figures.net == cashed + on_table - bought - brought
    line = net_sentence(figures)
    assert line.startswith("alice ")
    assert line.endswith(".")
    assert "_" not in line
