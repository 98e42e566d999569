"""``hcf-server simulate --game sixcard``: many 6 Card Poker hands at once with numpy.

Each of 1 to 4 players takes one box (boxes 1..K, so every box is open) and bets an
Ante of one unit (the table's ``min_ante``) and a bonus of one unit, every hand.
Cards go out as the live hand deals them: one at a time to each box in box order,
the dealer last, five rounds; the dealer exchange's card is the first card of the
stub (strategies here never draw). The results are exactly
:func:`server.rules.sixcard.settlement.settle`'s (tests compare them hand by hand).

How a 5-card hand is valued without a loop: per hand, each rank present becomes the
key ``count * 16 + rank``; sorted high to low, those keys list the rank groups in the
order the tie rules compare them, which is how :func:`server.rules.poker.rank5`
packs a value. Straights and flushes are checked on the side.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from rich.console import Console
from rich.table import Table

from server.rules.poker import (
    ACE,
    CLASSES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
)
from server.rules.sixcard.settings import SixcardSettings
from server.rules.sixcard.strategy import STRATEGIES, Strategy
from server.simulation.decks import Decks, DeckStream, random_seed
from server.simulation.progress import dealt, progress_bar

Ints = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]

HAND: Final = 5
MAX_PLAYERS: Final = 4
CHUNK: Final = 50_000
ROYAL: Final = len(CLASSES) - 1
"""The index of ``royal`` in :data:`~server.rules.poker.CLASSES`, apart from other straight flushes."""
_SHIFT: Final = 20
_WHEEL_TOP: Final = 3  # A-2-3-4-5 counts its five as the top card


def values5(cards: npt.NDArray[np.integer[Any]]) -> Ints:
    """:func:`~server.rules.poker.rank5` of each row of an ``(n, 5)`` array of cards."""
    ranks = (cards >> 2).astype(np.int64)
    suits = cards & 3
    # Each card's key is its rank's count and its rank; sorted, a group's cards are neighbours, and each group is
    # kept once: the rank groups, largest group then highest rank first, padded with -1. Five against five
    # cards, not against all 13 ranks.
    keys = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2) * 16 + ranks
    keys = -np.sort(-keys, axis=1)
    repeat = np.zeros(keys.shape, dtype=bool)
    repeat[:, 1:] = keys[:, 1:] == keys[:, :-1]
    keys = -np.sort(-np.where(repeat, -1, keys), axis=1)
    present = keys >= 0
    groups = present.sum(axis=1)
    top_count = keys[:, 0] >> 4
    packed = (np.where(present, keys & 15, 0) << np.array([16, 12, 8, 4, 0])).sum(axis=1)
    flush = (suits == suits[:, :1]).all(axis=1)
    distinct = groups == HAND
    high, low = keys[:, 0] & 15, keys[:, 4] & 15
    wheel = distinct & (high == ACE) & ((keys[:, 1] & 15) == _WHEEL_TOP)
    straight = distinct & ((high - low == 4) | wheel)
    kind = np.select(
        [straight & flush, top_count == 4, (top_count == 3) & (groups == 2), flush, straight,
         top_count == 3, (top_count == 2) & (groups == 3), top_count == 2],
        [STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, TRIPS, TWO_PAIR, PAIR], HIGH_CARD)
    straight_top = np.where(wheel, _WHEEL_TOP, high)
    return np.where(straight, kind << _SHIFT | straight_top << 16, kind << _SHIFT | packed)


def class_index(values: Ints) -> Ints:
    """Each value's index in :data:`~server.rules.poker.CLASSES` (``royal`` last)."""
    kind = values >> _SHIFT
    royal = (kind == STRAIGHT_FLUSH) & ((values >> 16 & 15) == ACE)
    return np.where(royal, ROYAL, kind)


@dataclass(frozen=True, slots=True)
class Outcome:
    """A chunk of hands, settled: per hand and box, the player's change in chips."""

    ante_bet: Ints        # (hands, boxes): Ante and Bet together (no draw fees: nobody draws)
    bonus: Ints           # (hands, boxes)
    raised: Flags         # (hands, boxes)
    exchanged: Flags      # (hands,): the dealer exchange happened
    dealer_qualified: Flags
    box_classes: Ints     # (hands, boxes): class index of the original five
    dealer_classes: Ints  # (hands,)


def deal(decks: Decks, players: int) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """(box cards ``(n, players, 5)``, dealer cards ``(n, 5)``, dealer exchange card ``(n,)``)."""
    seats = players + 1
    rounds = decks[:, : HAND * seats].reshape(-1, HAND, seats)
    return rounds[:, :, :players].transpose(0, 2, 1), rounds[:, :, players], decks[:, HAND * seats]


def _by_value(decide: Callable[[int], bool], values: Ints) -> Flags:
    """A strategy's choice per value, asked once per distinct value."""
    distinct, where = np.unique(values, return_inverse=True)
    chosen = np.array([decide(int(v)) for v in distinct.tolist()], dtype=np.bool_)
    return chosen[where.reshape(values.shape)]


def play(settings: SixcardSettings, strategy: Strategy, decks: Decks, players: int) -> Outcome:
    """Settle one hand per deck, every box betting ``min_ante`` and a bonus of ``min_ante``."""
    boxes, dealer, stub = deal(decks, players)
    count = decks.shape[0]
    box_values = values5(boxes.reshape(-1, HAND)).reshape(count, players)
    dealer_value = values5(dealer)
    qualifies = dealer_value >> _SHIFT >= PAIR
    raised = _by_value(strategy.raises, box_values)
    asks = raised & _by_value(strategy.exchanges, box_values) & ~qualifies[:, None]
    exchanged: Flags = np.asarray(asks.any(axis=1))
    # The dealer's highest card is unique in a non-qualifying hand; argmax takes the first, as settle() does.
    out = np.argmax(dealer >> 2, axis=1)
    after_cards = dealer.copy()
    after_cards[np.arange(count), out] = stub
    after_value = values5(after_cards)
    after_qualifies = after_value >> _SHIFT >= PAIR

    ante = settings.min_ante
    cap = settings.max_payout
    box_classes = class_index(box_values)
    bet_pays = np.array([settings.bet_pay(name) for name in CLASSES], dtype=np.int64)
    bonus_pays = np.array([settings.bonus_pay(name) for name in CLASSES], dtype=np.int64)
    ante_win = min(ante, cap)
    bet_win = np.minimum(2 * ante * bet_pays[box_classes], cap - ante_win)

    against = np.where(asks, after_value[:, None], dealer_value[:, None])
    win, tie = box_values > against, box_values == against
    showdown = np.select([win, tie], [ante_win + bet_win, 0], -3 * ante)
    exchange_result = np.where(after_qualifies[:, None], np.select([win, tie], [ante_win - ante + bet_win, -ante],
                                                                   -3 * ante), -ante)
    in_play = np.select([asks, ~qualifies[:, None]], [exchange_result, ante_win], showdown)
    ante_bet = np.where(raised, in_play, -ante)
    bonus_pay = bonus_pays[box_classes]
    bonus = np.where(bonus_pay > 0, np.minimum(ante * bonus_pay, cap), -ante)
    return Outcome(ante_bet, bonus, raised, exchanged, qualifies, box_classes, class_index(dealer_value))


@dataclass
class Tally:
    """Running totals over the chunks of a run, in chips and counts."""

    players: int
    hands: int = 0
    ante_bet: int = 0
    bonus: int = 0
    raised: int = 0
    exchanges: int = 0
    dealer_qualified: int = 0
    classes: Ints = field(default_factory=lambda: np.zeros(len(CLASSES), dtype=np.int64))

    def add(self, outcome: Outcome) -> None:
        """Fold one chunk in."""
        self.hands += outcome.exchanged.shape[0]
        self.ante_bet += int(outcome.ante_bet.sum())
        self.bonus += int(outcome.bonus.sum())
        self.raised += int(outcome.raised.sum())
        self.exchanges += int(outcome.exchanged.sum())
        self.dealer_qualified += int(outcome.dealer_qualified.sum())
        self.classes += np.bincount(outcome.box_classes.ravel(), minlength=len(CLASSES))
        self.classes += np.bincount(outcome.dealer_classes, minlength=len(CLASSES))


def simulate(settings: SixcardSettings, strategy: Strategy, hands: int, seed: str, players: int,
             on_progress: Callable[[int], None] | None = None) -> Tally:
    """Play ``hands`` hands from ``seed``'s decks."""
    stream = DeckStream(seed)
    tally = Tally(players)
    left = hands
    while left:
        size = min(left, CHUNK)
        tally.add(play(settings, strategy, stream.take(size), players))
        left -= size
        if on_progress is not None:
            on_progress(hands - left)
    return tally


def report(settings: SixcardSettings, strategy: Strategy, tally: Tally, *, seed: str,
           seconds: float) -> dict[str, Any]:
    """The JSON object of ``simulate --game sixcard --json`` (money in units, shares of a whole)."""
    unit, hands = settings.min_ante, tally.hands
    boxes = hands * tally.players
    antes, bets = boxes * unit, 2 * tally.raised * unit
    dealt = int(tally.classes.sum())
    return {
        "game": "sixcard",
        "hands": hands,
        "players": tally.players,
        "strategy": strategy.name,
        "seed": seed,
        "unit_chips": unit,
        "settings": settings.as_dict(),
        "ante_bet": {
            "antes": antes / unit,
            "bets": bets / unit,
            "net": tally.ante_bet / unit,
            "per_ante": tally.ante_bet / antes if antes else 0.0,
            "per_wager": tally.ante_bet / (antes + bets) if antes else 0.0,
            "raised_share": tally.raised / boxes if boxes else 0.0,
        },
        "bonus": {
            "wagered": antes / unit,
            "net": tally.bonus / unit,
            "per_unit": tally.bonus / antes if antes else 0.0,
        },
        "hand_class_freq": {name: int(n) / dealt if dealt else 0.0
                            for name, n in zip(CLASSES, tally.classes.tolist(), strict=True)},
        "dealer_qualified": tally.dealer_qualified / hands if hands else 0.0,
        "dealer_exchanges": tally.exchanges / hands if hands else 0.0,
        "seconds": seconds,
        "hands_per_second": hands / seconds if seconds > 0 else 0.0,
    }


def run(args: argparse.Namespace) -> int:
    """Run ``simulate --game sixcard`` from parsed arguments (``--profile`` is ignored); the exit status."""
    strategy = STRATEGIES.get(args.strategy)
    if strategy is None:
        print(f"hcf-server simulate: --strategy: one of {', '.join(sorted(STRATEGIES))} for sixcard, "
              f"got {args.strategy!r}", file=sys.stderr)
        return 2
    players = 1 if args.players is None else args.players
    if not 1 <= players <= MAX_PLAYERS:
        print(f"hcf-server simulate: a sixcard run seats 1 to {MAX_PLAYERS} players, one box each, got {players}",
              file=sys.stderr)
        return 2
    from server.simulation.command import house_settings

    settings = house_settings(args, SixcardSettings)
    if settings is None:
        return 2
    seed = args.seed or random_seed()
    started = perf_counter()
    with progress_bar() as bar:
        tally = simulate(settings, strategy, args.hands, seed, players, on_progress=dealt(bar, args.hands))
    summary = report(settings, strategy, tally, seed=seed, seconds=perf_counter() - started)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        render(summary, Console())
    return 0


def render(summary: dict[str, Any], console: Console) -> None:
    """The human tables of a :func:`report`."""
    console.print(
        f"[bold]6 Card Poker 1-2-5[/], {summary['players']} player(s) with one box each against the house, "
        f"strategy {summary['strategy']}: {summary['hands']:,} hands in {summary['seconds']:.2f} s "
        f"({summary['hands_per_second']:,.0f}/s), seed {summary['seed']}"
    )
    console.print(f"One unit = {summary['unit_chips']} chips: Ante 1 unit and bonus 1 unit on every box, every hand.")
    table = Table(title="Players' results by bet (units)")
    for header in ("bet", "wagered", "net", "return per unit"):
        table.add_column(header, justify="left" if header == "bet" else "right")
    main, bonus = summary["ante_bet"], summary["bonus"]
    table.add_row("Ante + Bet (per Ante)", f"{main['antes']:,.0f}", f"{main['net']:+,.1f}", f"{main['per_ante']:+.4%}")
    table.add_row("Ante + Bet (per chip bet)", f"{main['antes'] + main['bets']:,.0f}", f"{main['net']:+,.1f}",
                  f"{main['per_wager']:+.4%}")
    table.add_row("Bonus", f"{bonus['wagered']:,.0f}", f"{bonus['net']:+,.1f}", f"{bonus['per_unit']:+.4%}")
    console.print(table)
    console.print(f"Raised {main['raised_share']:.2%} of boxes. Dealer qualified {summary['dealer_qualified']:.2%}; "
                  f"dealer exchange in {summary['dealer_exchanges']:.2%} of hands.")
    freq = Table(title="Every 5-card hand dealt (players' original five and the dealer's)")
    freq.add_column("class")
    freq.add_column("share", justify="right")
    for name in reversed(CLASSES):
        freq.add_row(name, f"{summary['hand_class_freq'][name]:.5%}")
    console.print(freq)

