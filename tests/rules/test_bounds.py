"""Issue 14 B.26: every setting of the three games is bounded, so no settlement can overflow a 64-bit integer.

A pay table of 10**30 used to be accepted; the raise then failed in the database
(``Python int too large to convert to SQLite INTEGER``). Now each whole-number
setting stops at ``MAX_CHIPS`` and each pay at ``MAX_PAY``, with a sentence that
says the limit; and for any settings the validator accepts and any legal bets,
every amount a settlement produces fits in a signed 64-bit integer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.rules.cards import Card, parse_cards
from server.rules.caribbean import settlement as cs
from server.rules.caribbean.settings import BET_CLASSES as CARIBBEAN_BET_CLASSES
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.errors import SettingsError
from server.rules.hcf import settlement as hs
from server.rules.hcf.evaluate import evaluate
from server.rules.hcf.settings import HcfSettings
from server.rules.sixcard import settlement as ss
from server.rules.sixcard.settings import BET_CLASSES as SIX_BET_CLASSES
from server.rules.sixcard.settings import BONUS_CLASSES as SIX_BONUS_CLASSES
from server.rules.sixcard.settings import SixcardSettings
from server.rules.validate import MAX_CHIPS, MAX_PAY

INT64 = 2**63 - 1
HUGE = 10**30
GAMES: dict[str, Any] = {"hcf": HcfSettings, "caribbean": CaribbeanSettings, "sixcard": SixcardSettings}


def _whole_settings(game: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """``(name, values)`` setting one whole number or one pay of ``game``'s defaults to 10**30."""
    defaults = GAMES[game]().as_dict()
    for name, value in defaults.items():
        if isinstance(value, dict):
            for key in value:
                yield f"{name}[{key}]", {name: {**value, key: HUGE}}
        elif (isinstance(value, int) and not isinstance(value, bool)) or (value is None and name.startswith("max_")):
            yield name, {name: HUGE}


CASES = [(game, name, values) for game in GAMES for name, values in _whole_settings(game)]


@pytest.mark.parametrize(("game", "name", "values"), CASES, ids=[f"{g}-{n}" for g, n, _ in CASES])
def test_a_huge_number_is_refused_with_the_real_limit(game: str, name: str, values: dict[str, Any]) -> None:
    with pytest.raises(SettingsError) as refused:
        GAMES[game].from_mapping(values)
    message = str(refused.value)
    assert message.startswith(f"{name}: ")
    # The sentence says the limit that applies: a maximum, a range, or the setting it may not exceed.
    assert re.search(r"at most [\d,]+|\d+ to \d+|must not exceed \w+ \(", message), message


def test_the_issue_s_pay_table_is_refused_in_our_words() -> None:
    with pytest.raises(SettingsError) as refused:
        CaribbeanSettings.from_mapping({"bet_pays": {**dict(CaribbeanSettings().bet_pays), "royal": HUGE}})
    assert str(refused.value) == (
        f"bet_pays[royal]: must be at most 100,000 to 1 (the largest pay a table may post, so that no settlement "
        f"can overflow), got {HUGE}")


def test_the_limits_themselves_are_accepted() -> None:
    s = SixcardSettings.from_mapping({"max_payout": MAX_CHIPS, "bonus_pays": {"royal": MAX_PAY},
                                      "max_ante": MAX_CHIPS, "max_buy_in": MAX_CHIPS})
    assert (s.max_payout, s.bonus_pay("royal")) == (MAX_CHIPS, MAX_PAY)
    with pytest.raises(SettingsError, match=r"max_payout: must be at most 1,000,000,000 \("):
        SixcardSettings.from_mapping({"max_payout": MAX_CHIPS + 1})


@pytest.mark.parametrize("game", ["caribbean", "sixcard"])
def test_the_hold_limit_is_checked_in_our_words(game: str) -> None:
    cls = GAMES[game]
    assert cls().max_hands_while_waiting == 1
    with pytest.raises(SettingsError, match=r"^max_hands_while_waiting: must be a whole number of at least 1, got 0$"):
        cls.from_mapping({"max_hands_while_waiting": 0})
    most, name = ("max_hands", "max_hands") if game == "caribbean" else ("boxes", "boxes")
    top = getattr(cls(), most)
    with pytest.raises(SettingsError) as refused:
        cls.from_mapping({"max_hands_while_waiting": top + 1})
    assert str(refused.value) == f"max_hands_while_waiting: must not exceed {name} ({top + 1} > {top})"
    assert cls.from_mapping({"max_hands_while_waiting": top}).max_hands_while_waiting == top


# ---------------------------------------------------------------- the property

def _chips(low: int = 1) -> st.SearchStrategy[int]:
    """Chip amounts, often at the very top of the range."""
    return st.sampled_from([low, MAX_CHIPS]) | st.integers(low, MAX_CHIPS)


def _pays() -> st.SearchStrategy[int]:
    return st.sampled_from([1, MAX_PAY]) | st.integers(1, MAX_PAY)


def _ints(value: Any) -> Iterator[int]:
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _ints(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _ints(item)


def _fits(settlement_json: Any, moved: int) -> None:
    """Every number of the settlement, and the chips the hand moves in all, fit in a signed 64-bit integer."""
    numbers = list(_ints(settlement_json))
    assert all(-INT64 <= n <= INT64 for n in numbers), max(numbers, key=abs)
    assert moved <= INT64
    assert sum(abs(n) for n in numbers) <= INT64


ROYALS = ["As Ks Qs Js Ts", "Ah Kh Qh Jh Th", "Ad Kd Qd Jd Td", "Ac Kc Qc Jc Tc"]


def _deal(data: st.DataObject, planted: list[str], hands: int, size: int) -> list[tuple[Card, ...]]:
    """``hands`` hands of ``size`` cards: some of ``planted`` (the best the pay tables pay), the rest random."""
    chosen = [parse_cards(p) for p in planted[:data.draw(st.integers(0, min(len(planted), hands)))]]
    used = {c for hand in chosen for c in hand}
    rest = list(data.draw(st.permutations([c for c in range(52) if c not in used])))
    out = [tuple(hand) + tuple(rest.pop() for _ in range(size - len(hand))) for hand in chosen]
    out += [tuple(rest.pop() for _ in range(size)) for _ in range(hands - len(chosen))]
    return list(data.draw(st.permutations(out)))


@st.composite
def caribbean_settings(draw: st.DrawFn) -> CaribbeanSettings:
    spots = draw(st.integers(1, 9))
    max_ante = draw(_chips())
    return CaribbeanSettings.from_mapping({
        "spots": spots, "max_hands": spots, "min_ante": draw(st.integers(1, max_ante)), "max_ante": max_ante,
        "bet_pays": {cls: draw(_pays()) for cls in CARIBBEAN_BET_CLASSES},
        "max_payout": draw(st.none() | _chips()), "jackpot_wager": draw(_chips()),
        "jackpot_pays": {"royal": draw(st.integers(0, 100)), "straight_flush": draw(st.integers(0, 100)),
                         "quads": draw(_chips(0)), "full_house": draw(_chips(0)), "flush": draw(_chips(0))},
        "jackpot_seed": draw(_chips(0)), "jackpot_rate": draw(st.integers(0, 100)),
    })


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(caribbean_settings(), st.data())
def test_no_caribbean_settlement_overflows(s: CaribbeanSettings, data: st.DataObject) -> None:
    hands = _deal(data, ["As Ks Qs Js Ts", "Ah Kh Qh Jh Th", "Ad Kd Qd Jd Td"], s.spots + 1, 5)
    dealer = hands.pop()
    antes = [data.draw(st.sampled_from([s.max_ante, s.min_ante])) for _ in hands]
    wagers = [cs.SpotWager(spot, cards, ante, play=True, jackpot=s.jackpot)
              for spot, (cards, ante) in enumerate(zip(hands, antes, strict=True), start=1)]
    # The meter can only grow from the seed by the table's own wagers; a long run of them is allowed for.
    meter = data.draw(st.integers(0, (s.jackpot_seed + 10**6 * s.jackpot_wager) * 100))
    result = cs.settle(s, meter, dealer, wagers)
    staked = sum(3 * w.ante + s.jackpot_wager for w in wagers)
    _fits(result.as_json(), staked + sum(abs(r.net) for r in result.spots))


@st.composite
def sixcard_settings(draw: st.DrawFn) -> SixcardSettings:
    max_ante = draw(st.none() | _chips())
    return SixcardSettings.from_mapping({
        "boxes": draw(st.integers(1, 4)), "min_ante": 1, "max_ante": "" if max_ante is None else max_ante,
        "ante_ratio": draw(_chips()), "min_bonus": 1, "max_bonus": draw(st.none() | _chips()) or "",
        "max_payout": draw(_chips()),
        "bet_pays": {cls: draw(_pays()) for cls in SIX_BET_CLASSES},
        "bonus_pays": {cls: draw(_pays()) for cls in SIX_BONUS_CLASSES},
    })


STACK = 2**53
"""A stack far beyond any buy-in (10**9 at most): one that kept winning for a long time."""


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sixcard_settings(), st.data())
def test_no_sixcard_settlement_overflows(s: SixcardSettings, data: st.DataObject) -> None:
    hands = _deal(data, ROYALS, s.boxes + 1, 5)
    dealer = hands.pop()
    top = s.max_ante if s.max_ante is not None else STACK // (4 * s.boxes)
    bonus = s.max_bonus if s.max_bonus is not None else top
    asks = data.draw(st.booleans())
    wagers = [ss.BoxWager(box, "p", cards, ante=top, bonus=bonus, raised=True, exchange_request=asks)
              for box, cards in enumerate(hands, start=1)]
    stub = next(c for c in range(52) if all(c not in h for h in (*hands, dealer)))
    result = ss.settle(s, dealer, stub, wagers)
    staked = sum(4 * w.ante + w.bonus for w in wagers)
    _fits([r.net for r in result.boxes], staked + sum(abs(r.net) for r in result.boxes))


@st.composite
def hcf_settings(draw: st.DrawFn) -> HcfSettings:
    profile = draw(st.sampled_from(["california", "standard"]))
    max_ante, max_bonus = draw(_chips()), draw(_chips())
    return HcfSettings.from_mapping({
        "profile": profile, "seats": 7 if profile == "california" else 6,
        "max_ante": max_ante, "min_ante": draw(st.integers(1, max_ante)),
        "max_bonus": max_bonus, "min_bonus": draw(st.integers(1, max_bonus)), "fee": draw(_chips(0)),
        "flush_pays": {str(n): draw(_pays()) for n in (4, 5, 6, 7)},
        "straight_flush_pays": {str(n): draw(_pays()) for n in (3, 4, 5, 6, 7)},
        "max_bonus_win": draw(st.none() | _chips()),
    })


SEVEN_CARD_RUNS = ["2s 3s 4s 5s 6s 7s 8s", "2h 3h 4h 5h 6h 7h 8h", "9d Td Jd Qd Kd Ad 8d", "9c Tc Jc Qc Kc Ac 8c"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hcf_settings(), st.data())
def test_no_hcf_settlement_overflows(s: HcfSettings, data: st.DataObject) -> None:
    players = s.seats - (0 if s.house_banked else 1)
    hands = _deal(data, SEVEN_CARD_RUNS, players + 1, 7)
    dealer = hands.pop()
    button = None if s.house_banked else s.seats
    wagers = []
    for seat, cards in enumerate(hands, start=1):
        limit = evaluate(cards).raise_limit
        wagers.append(hs.Wager(seat, cards, s.max_ante, s.max_bonus, s.max_bonus,
                               raise_amount=limit * s.max_ante if limit else 0))
    result = hs.settle(s, dealer, wagers, button=button)
    staked = sum(w.staked for w in wagers)
    _fits(result.as_json(), staked + sum(abs(r.net) for r in result.seats) + abs(result.dealer_net))


def test_the_configuration_guide_quotes_the_real_refusals() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text()
    for game, values in (("caribbean", {"bet_pays": {**dict(CaribbeanSettings().bet_pays), "royal": HUGE}}),
                         ("hcf", {"max_ante": 5 * MAX_CHIPS}),
                         ("caribbean", {"max_hands_while_waiting": 0}),
                         ("caribbean", {"max_hands_while_waiting": 4}),
                         ("sixcard", {"max_hands_while_waiting": 5})):
        with pytest.raises(SettingsError) as refused:
            GAMES[game].from_mapping(values)
        assert str(refused.value) in guide, str(refused.value)
