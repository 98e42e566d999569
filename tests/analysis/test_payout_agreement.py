"""The payout steps and analyze read the same pay tables (issue 27 item 8): for random pay tables, caps and
hands, what the rules' settlement pays, what the drill's payout steps ask for, and what the odds count for that
outcome are the same chips."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from server.analysis import caribbean_best, sixcard_exact
from server.rules.caribbean.settings import CaribbeanSettings
from server.rules.caribbean.settlement import SpotWager
from server.rules.caribbean.settlement import settle as settle_stud
from server.rules.drill.payout import paid
from server.rules.poker import CLASSES, class_name, kind_of, qualifies_ak, qualifies_pair, rank5
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.settlement import BoxWager
from server.rules.sixcard.settlement import settle as settle_six

NAMES = ("royal", "straight_flush", "quads", "full_house", "flush", "straight", "trips", "two_pair", "pair")
PAYS = st.fixed_dictionaries({name: st.integers(1, 300) for name in NAMES})
DECKS = st.permutations(list(range(52)))


def _main(result: object) -> int:
    return int(result.ante) + int(result.bet)  # type: ignore[attr-defined]


def _paid_main(game: str, result: object) -> int:
    return sum(amount for bet, amount in paid(game, result) if bet in ("ante", "bet"))


@settings(max_examples=150, deadline=None)
@given(pays=PAYS, cap=st.none() | st.integers(1, 3000), ante=st.integers(1, 100), deck=DECKS)
def test_caribbean_payouts_and_odds_agree(pays: dict[str, int], cap: int | None, ante: int, deck: list[int]) -> None:
    table = CaribbeanSettings.from_mapping({"bet_pays": pays, "max_payout": cap, "min_ante": ante,
                                            "max_ante": max(ante, 500)})
    mine, dealer = deck[:5], deck[5:10]
    result = settle_stud(table, table.jackpot_seed * 100, dealer,
                         [SpotWager(spot=1, cards=tuple(mine), ante=ante, play=True)]).spots[0]
    chips = caribbean_best.outcome_chips(table)
    me, them = rank5(mine), rank5(dealer)
    if not qualifies_ak(them):
        counted = chips["unqualified"]
    elif me > them:
        counted = chips["win"][CLASSES.index(class_name(me))]
    else:
        counted = chips["tie"] if me == them else chips["lose"]
    assert _main(result) == counted
    assert _paid_main("caribbean", result) == max(counted, 0)


def _with_trips(deck: list[int]) -> list[int]:
    """The deck with the two other cards of its first card's rank moved up beside it: the box holds trips."""
    same = [c for c in deck[1:] if c >> 2 == deck[0] >> 2][:2]
    return [deck[0], *same, *[c for c in deck[1:] if c not in same]]


@settings(max_examples=300, deadline=None)
@given(pays=PAYS, cap=st.integers(1, 20_000), ante=st.integers(1, 100), deck=DECKS, trips=st.booleans())
def test_sixcard_payouts_and_odds_agree(pays: dict[str, int], cap: int, ante: int, deck: list[int],
                                        trips: bool) -> None:
    table = SixcardSettings.from_mapping({"bet_pays": pays, "max_payout": cap, "min_ante": ante})
    deck = _with_trips(deck) if trips else deck  # half the boxes ask for the dealer exchange
    mine, dealer, new = deck[:5], deck[5:10], deck[10]
    me, them = rank5(mine), rank5(dealer)
    raised, asks = kind_of(me) >= 1, kind_of(me) >= 3  # the basic strategy the odds count
    result = settle_six(table, dealer, new, [BoxWager(box=1, player="ann", cards=tuple(mine), ante=ante,
                                                      raised=raised, exchange_request=asks)]).boxes[0]
    chips = sixcard_exact.outcome_chips(table)
    win = chips["win"][CLASSES.index(class_name(me))]
    if not raised:
        counted = chips["fold"]
    elif qualifies_pair(them):
        counted = win if me > them else chips["tie"] if me == them else chips["lose"]
    elif not asks:
        counted = chips["continue"]
    else:
        top = max(dealer, key=lambda card: card >> 2)
        after = rank5([card for card in dealer if card != top] + [new])
        if not qualifies_pair(after) or after == me:
            counted = chips["exchange_no_win"]
        else:
            counted = chips["exchange_win"][CLASSES.index(class_name(me))] if me > after else chips["lose"]
    assert _main(result) == counted
    assert _paid_main("sixcard", result) == max(counted, 0)
